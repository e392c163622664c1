package cmd

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpColumns is the width help wraps flag descriptions at: pflag writes
// each on one line, up to 145 columns long.
const helpColumns = 80

func init() {
	cobra.AddTemplateFunc("wrappedFlagUsages", func(fs *pflag.FlagSet) string { return fs.FlagUsagesWrapped(helpColumns) })
}

// wrapFlagUsages is cobra's usage template with its flag lists wrapped
// at helpColumns.
func wrapFlagUsages(template string) string {
	return strings.NewReplacer(".LocalFlags.FlagUsages", "wrappedFlagUsages .LocalFlags",
		".InheritedFlags.FlagUsages", "wrappedFlagUsages .InheritedFlags").Replace(template)
}

// newHelpCmd is `cctx help [command]`: cobra's own prints the usage on
// stdout and exits 0 for a topic it does not know.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, sub := range root.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name()+"\t"+sub.Short)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil || len(rest) > 0 || len(args) > 0 && target == root {
				if sugg := root.SuggestionsFor(args[0]); len(sugg) > 0 {
					return usageErrorf("no help topic %q (did you mean %s?)", strings.Join(args, " "), strings.Join(sugg, " or "))
				}
				return usageErrorf("no help topic %q: the commands are in 'cctx --help'", strings.Join(args, " "))
			}
			return target.Help()
		},
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
