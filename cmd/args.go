package cmd

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// boolValueHint tells how a boolean flag takes a value, when an argument
// too many is one (pflag reads 1, t, TRUE, 0, f, FALSE…): "--agents 0"
// is --agents, then an argument.
func boolValueHint(c *cobra.Command, args []string) string {
	value, flag := "", changedBool(c)
	for _, a := range args {
		if _, err := strconv.ParseBool(a); err == nil {
			value = a
		}
	}
	if value == "" || flag == "" {
		return ""
	}
	return "; a boolean flag takes its value after =: --" + flag + "=" + value
}

// boolValueArg is the usage error of a true or false given as an argument
// (not a PATTERN) after a boolean flag: "--agents false" is --agents, and
// "false" a session, whatever the count of arguments.
func boolValueArg(c *cobra.Command, args []string) error {
	flag := changedBool(c)
	for _, a := range args {
		if flag != "" && (strings.EqualFold(a, "true") || strings.EqualFold(a, "false")) {
			return usageErrorf("%s: %q is an argument, not the value of --%s: a boolean flag takes its value after =, as --%s=%s (see '%s --help')",
				c.CommandPath(), a, flag, flag, strings.ToLower(a), c.CommandPath())
		}
	}
	return nil
}

// changedBool is the name of a boolean flag given, "" when none was.
func changedBool(c *cobra.Command) string {
	flag := ""
	c.Flags().Visit(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			flag = f.Name
		}
	})
	return flag
}
