// Package complete finds what a shell completes cctx's arguments and
// flag values to: `cctx completion bash|zsh|fish|powershell` writes the
// script (cobra's), and the script asks `cctx __complete …` for the
// candidates of the word being typed. Candidates print on stdout, one a
// line, so nothing may be said on stderr either: every lookup uses a
// finder that reports nowhere (Source.Finder).
package complete

import (
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Func completes an argument or a flag value (cobra's completion
// function).
type Func = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// sessionsOffered is the number of sessions offered for a <session>
// argument: the most recent ones whose id starts with what was typed.
const sessionsOffered = 30

// Source is where candidates are found: the sessions of the roots, the
// home a path is shown under (~), and the clock of "3h ago".
type Source struct {
	Finder func() *session.Finder // over the roots, reporting nowhere
	Home   string
	Now    func() time.Time
}

// Fixed completes a flag to a list of values ("value\tdescription").
func Fixed(values ...string) Func {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		for _, v := range values {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// Nothing completes a value no list holds (a count, a date): not a file
// name either, which the shell would offer by default.
func Nothing(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// Dirs lets the shell complete directories.
func Dirs(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// Sessions completes <session> arguments (at most max; < 0: any
// number) after the skip arguments before them (grep's PATTERN): the
// recent sessions whose id starts with what was typed, newest first,
// described by title, project and last activity. What looks like a path
// is left to the shell's file completion.
func (s Source) Sessions(max, skip int) Func {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) < skip || max >= 0 && len(args)-skip >= max {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		args = args[skip:]
		if strings.ContainsAny(toComplete, `/\.~`) {
			return nil, cobra.ShellCompDirectiveDefault
		}
		given := map[string]bool{}
		for _, a := range args {
			given[a] = true
		}
		var out []string
		if strings.HasPrefix("latest", toComplete) && !given["latest"] {
			out = append(out, render.Completion("latest", "the session with the newest activity"))
		}
		for _, in := range s.Finder().Recent(toComplete, sessionsOffered) {
			if !given[in.ID] {
				out = append(out, render.SessionCompletion(in, s.Home, s.Now()))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// Projects completes --project: the folders sessions ran in, the one
// whose session file was written last first (files' times: no file is
// read to order them).
func (s Source) Projects(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out := render.ProjectCompletions(s.Finder().Projects(), toComplete, s.Home, s.Now())
	if len(out) == 0 {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// Leaves completes --leaf: the leaves of the session given as the first
// argument, the active one first.
func (s Source) Leaves(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 || args[0] == session.StdinPath {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	finder := s.Finder()
	arg := args[0]
	if arg == "latest" {
		// Resolve reads every session for it; the newest files are enough.
		if recent := finder.Recent("", sessionsOffered); len(recent) > 0 {
			arg = recent[0].ID
		}
	}
	sess, err := finder.Resolve(arg)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	t, err := tree.OpenQuiet(finder, sess, nil, diag.Discard())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer t.Close()
	var out []string
	for _, l := range render.LeafCompletions(t, time.Local) {
		if strings.HasPrefix(l, strings.ToLower(toComplete)) {
			out = append(out, l)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// PlainFlagUsages takes out of each flag's usage the backquotes that name
// its value in the help (`ZONE`), in a completion run (args: the
// command line, which cobra's __complete starts): cobra describes a flag
// by its usage as it is, and zsh and fish showed them.
func PlainFlagUsages(c *cobra.Command, args []string) {
	if len(args) == 0 || args[0] != cobra.ShellCompRequestCmd && args[0] != cobra.ShellCompNoDescRequestCmd {
		return
	}
	plain := func(fl *pflag.Flag) { _, fl.Usage = pflag.UnquoteUsage(fl) }
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(plain)
		c.PersistentFlags().VisitAll(plain)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(c)
}
