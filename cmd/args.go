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
		takes := strings.TrimSpace(strings.TrimPrefix(c.Use, c.Name())) // as its usage says: "PATTERN [<session>...]"
		needs, _, _ := strings.Cut(takes, " [")                         // "PATTERN"
		if err := boolValueArg(c, args[min(n, strings.Count(needs, "PATTERN")):]); err != nil {
			return err
		}
		switch {
		case n < lo:
			return usageErrorf("%s needs %s (see '%s --help')", c.CommandPath(), needs, c.CommandPath())
		case hi == 0 && n > 0:
			return usageErrorf("%s takes no arguments, got %q (see '%s --help')", c.CommandPath(), strings.Join(args, " "), c.CommandPath())
		case hi >= 0 && n > hi:
			return usageErrorf("%s takes %s only, got %q%s (see '%s --help')", c.CommandPath(), takes, strings.Join(args, " "), boolValueHint(c, args), c.CommandPath())
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
