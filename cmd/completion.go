package cmd

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Shell completion: `cctx completion bash|zsh|fish|powershell` writes the
// script (cobra's), and the script asks `cctx __complete …` for the
// candidates of the word being typed. Candidates print on stdout, one a
// line, so nothing may be said on stderr either: every lookup here uses a
// finder that reports nowhere.

// completeSessions is the number of sessions offered for a <session>
// argument: the most recent ones whose id starts with what was typed.
const completeSessions = 30

// addCompletions registers what completes each command's arguments and
// flag values.
func addCompletions(f *Factory, root *cobra.Command) {
	root.CompletionOptions.HiddenDefaultCmd = false
	// The scripts are written where the root writes when the command is
	// made: stdout's Guard (taken when they are written, once the theme
	// is known), not the process's own stdout.
	if f.IO != nil {
		root.SetOut(laterOut{f})
		root.SetErr(f.IO.ErrOut)
	}
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c.Name() == "completion" {
		c.Long = `Write the completion script of a shell: <session> arguments then complete
to recent session ids (described by title and project), --leaf to a
session's leaves, --project to the folders sessions ran in, and --by,
--format, --color and --tz to their values.

  bash  (with bash-completion), in ~/.bashrc:  source <(cctx completion bash)
  zsh, in ~/.zshrc:                            source <(cctx completion zsh)
  fish:  cctx completion fish > ~/.config/fish/completions/cctx.fish
  PowerShell, in $PROFILE:  cctx completion powershell | Out-String | Invoke-Expression

'cctx completion SHELL --help' has the system-wide variants (docs/shell.md).`
		// Without a shell, or with one cctx has no script for, a usage
		// error that names the ones it has: nothing on stdout, where
		// `source <(cctx completion)` would run the help as a script.
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("%s needs SHELL: bash, zsh, fish or powershell (see '%s --help')", c.CommandPath(), c.CommandPath())
			}
			return usageErrorf("no completion script for the shell %q: give bash, zsh, fish or powershell", args[0])
		}
	}
	_ = root.RegisterFlagCompletionFunc("color", fixed("auto\tcolour on a terminal, unless NO_COLOR is set", "always", "never"))
	_ = root.RegisterFlagCompletionFunc("dir", dirs)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "show", "tree", "agents", "resume", "export":
			c.ValidArgsFunction = f.sessionArgs(1, 0)
		case "tokens":
			c.ValidArgsFunction = f.sessionArgs(-1, 0)
		case "grep": // PATTERN, then sessions
			c.ValidArgsFunction = f.sessionArgs(-1, 1)
		}
		if c.Flags().Lookup("project") != nil {
			_ = c.RegisterFlagCompletionFunc("project", f.projects)
		}
		if c.Flags().Lookup("leaf") != nil {
			_ = c.RegisterFlagCompletionFunc("leaf", f.leaves)
		}
		switch c.Name() {
		case "grep":
			_ = c.RegisterFlagCompletionFunc("role", fixed("user", "assistant", "tool", "thinking"))
		case "archive":
			_ = c.RegisterFlagCompletionFunc("to", dirs)
		case "export":
			_ = c.RegisterFlagCompletionFunc("format", fixed("html\tone self-contained page", "md\tGitHub-flavoured Markdown"))
		case "tokens":
			var by []string
			for _, g := range append(tokens.Groupings, tokens.ByTool) {
				by = append(by, string(g)+"\t"+groupingHelp[g])
			}
			_ = c.RegisterFlagCompletionFunc("by", fixed(by...))
			_ = c.RegisterFlagCompletionFunc("format", fixed(
				"table\taligned on a terminal, tab-separated in a pipe", "json\tthe --json document",
				"markdown\ta table for $GITHUB_STEP_SUMMARY or a pull request", "ndjson\tone response a line (--by response)"))
			_ = c.RegisterFlagCompletionFunc("tz", fixed("local\tthis computer's time zone", "UTC"))
		}
	}
}

var groupingHelp = map[tokens.Grouping]string{
	tokens.ByResponse: "every API response", tokens.BySession: "each session", tokens.ByAgent: "the main conversation and each subagent",
	tokens.ByModel: "each model", tokens.ByHour: "each hour (--tz)", tokens.ByDay: "each day (--tz)", tokens.ByWeek: "each week, from Monday (--tz)",
	tokens.ByMonth: "each month (--tz)", tokens.ByBlock: "5-hour plan windows", tokens.ByProject: "each project (cwd)",
	tokens.ByAgentType: "each subagent type", tokens.ByTool: "calls and result sizes of each tool",
}

type completeFunc = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// fixed completes a flag to a list of values ("value\tdescription").
func fixed(values ...string) completeFunc {
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

// dirs lets the shell complete directories.
func dirs(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveFilterDirs
}

// quietFinder is a finder over the roots that says nothing.
func (f *Factory) quietFinder() *session.Finder {
	roots, _ := session.Roots(f.Globals.Dirs, f.Env)
	return session.NewFinder(roots, diag.Discard())
}

// sessionArgs completes <session> arguments (at most max; < 0: any
// number) after the skip arguments before them (grep's PATTERN): the
// recent sessions whose id starts with what was typed, newest first,
// described by title, project and last activity. What looks like a path
// is left to the shell's file completion.
func (f *Factory) sessionArgs(max, skip int) completeFunc {
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
		for _, in := range f.quietFinder().Recent(toComplete, completeSessions) {
			if !given[in.ID] {
				out = append(out, render.SessionCompletion(in, f.Env.Home, f.Now()))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// projects completes --project: the folders sessions ran in, most
// recently active first.
func (f *Factory) projects(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out := render.ProjectCompletions(f.quietFinder().Projects(), toComplete, f.Env.Home, f.Now())
	if len(out) == 0 {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// leaves completes --leaf: the leaves of the session given as the first
// argument, the active one first.
func (f *Factory) leaves(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 || args[0] == session.StdinPath {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	finder := f.quietFinder()
	arg := args[0]
	if arg == "latest" {
		// Resolve reads every session for it; the newest files are enough.
		if recent := finder.Recent("", completeSessions); len(recent) > 0 {
			arg = recent[0].ID
		}
	}
	s, err := finder.Resolve(arg)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	t, err := tree.OpenQuiet(finder, s, nil, diag.Discard())
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

// laterOut is f.Out() when something is written: the completion scripts'
// writer is chosen when the command tree is made, before the flags say
// how stdout is guarded.
type laterOut struct{ f *Factory }

func (l laterOut) Write(p []byte) (int, error) { return l.f.Out().Write(p) }
