package cmd

import (
	"strings"

	"github.com/spf13/cobra"
)

// argsBetween accepts between lo and hi arguments (hi < 0: no maximum) and
// reports a usage error otherwise.
func argsBetween(lo, hi int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		n := len(args)
		switch {
		case n < lo && lo == hi:
			return usageErrorf("%s needs %d argument(s), got %d (see '%s --help')", c.CommandPath(), lo, n, c.CommandPath())
		case n < lo:
			return usageErrorf("%s needs at least %d argument(s) (see '%s --help')", c.CommandPath(), lo, c.CommandPath())
		case hi == 0 && n > 0:
			return usageErrorf("%s takes no arguments, got %q (see '%s --help')", c.CommandPath(), strings.Join(args, " "), c.CommandPath())
		case hi >= 0 && n > hi:
			return usageErrorf("%s takes at most %d argument(s), got %d: %q (see '%s --help')", c.CommandPath(), hi, n, strings.Join(args, " "), c.CommandPath())
		}
		stdin := 0
		for _, a := range args {
			if a == "-" {
				stdin++
			}
		}
		if stdin > 1 {
			return usageErrorf("only one argument can read standard input (-)")
		}
		return nil
	}
}
