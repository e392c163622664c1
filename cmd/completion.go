package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/complete"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Shell completion: the candidates are internal/complete's; the scripts
// are cobra's (bash's escaped on a first TAB: render.BashCompletion).

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
		c.Use = "completion SHELL"
		c.Long = `Write the completion script of a shell: <session> arguments then complete
to recent session ids (described by title and project), --leaf to a
session's leaves, --project to the folders sessions ran in, and --by,
--format, --color and --tz to their values.

  bash  (with bash-completion), in ~/.bashrc:  source <(cctx completion bash)
  zsh, in ~/.zshrc:                            source <(cctx completion zsh)
  fish:  cctx completion fish > ~/.config/fish/completions/cctx.fish
  PowerShell, in $PROFILE:
    cctx completion powershell | Out-String | Invoke-Expression

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
	if c, _, err := root.Find([]string{"completion", "bash"}); err == nil && c.Name() == "bash" {
		c.Long = strings.Replace(c.Long, "already, you can install", "already, you can\ninstall", 1) // 80 columns
		c.RunE = func(c *cobra.Command, args []string) error {
			noDesc, _ := c.Flags().GetBool("no-descriptions")
			var script strings.Builder
			if err := c.Root().GenBashCompletionV2(&script, !noDesc); err != nil {
				return err
			}
			return render.BashCompletion(f.Out(), script.String())
		}
	}
	src := complete.Source{Finder: f.quietFinder, Home: f.Env.Home, Now: f.Now}
	_ = root.RegisterFlagCompletionFunc("color", complete.Fixed("auto\tcolour on a terminal, unless NO_COLOR is set", "always", "never"))
	_ = root.RegisterFlagCompletionFunc("dir", complete.Dirs)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "show", "tree", "agents", "resume", "export":
			c.ValidArgsFunction = src.Sessions(1, 0)
		case "tokens":
			c.ValidArgsFunction = src.Sessions(-1, 0)
		case "grep": // PATTERN, then sessions
			c.ValidArgsFunction = src.Sessions(-1, 1)
		}
		if c.Flags().Lookup("project") != nil {
			_ = c.RegisterFlagCompletionFunc("project", src.Projects)
		}
		for name, fn := range map[string]complete.Func{"since": complete.Fixed("1d\tthe last 24 hours", "7d\tthe last 7 days", "30d\tthe last 30 days"), "until": complete.Nothing, "limit": complete.Nothing} {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, fn)
			}
		}
		if c.Flags().Lookup("leaf") != nil {
			_ = c.RegisterFlagCompletionFunc("leaf", src.Leaves)
		}
		switch c.Name() {
		case "grep":
			_ = c.RegisterFlagCompletionFunc("role", complete.Fixed("user", "assistant", "tool", "thinking"))
		case "archive":
			_ = c.RegisterFlagCompletionFunc("to", complete.Dirs)
		case "export":
			_ = c.RegisterFlagCompletionFunc("format", complete.Fixed("html\tone self-contained page", "md\tGitHub-flavoured Markdown"))
		case "tokens":
			var by []string
			for _, g := range append(tokens.Groupings, tokens.ByTool) {
				by = append(by, string(g)+"\t"+groupingHelp[g])
			}
			_ = c.RegisterFlagCompletionFunc("by", complete.Fixed(by...))
			_ = c.RegisterFlagCompletionFunc("format", complete.Fixed(
				"table\taligned on a terminal, tab-separated in a pipe", "json\tthe --json document",
				"markdown\ta table for $GITHUB_STEP_SUMMARY or a pull request", "ndjson\tone response a line (--by response)"))
			_ = c.RegisterFlagCompletionFunc("tz", complete.TimeZones)
		}
	}
	complete.PlainFlagUsages(root, f.Args)
}

var groupingHelp = map[tokens.Grouping]string{
	tokens.ByResponse: "every API response", tokens.BySession: "each session", tokens.ByAgent: "the main conversation and each subagent",
	tokens.ByModel: "each model", tokens.ByHour: "each hour (--tz)", tokens.ByDay: "each day (--tz)", tokens.ByWeek: "each week, from Monday (--tz)",
	tokens.ByMonth: "each month (--tz)", tokens.ByBlock: "5-hour plan windows", tokens.ByProject: "each project (cwd)",
	tokens.ByAgentType: "each subagent type", tokens.ByTool: "calls and result sizes of each tool",
}

type completeFunc = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// laterOut is f.Out() when something is written: the completion scripts'
// writer is chosen when the command tree is made, before the flags say
// how stdout is guarded.
type laterOut struct{ f *Factory }

func (l laterOut) Write(p []byte) (int, error) { return l.f.Out().Write(p) }

// quietFinder is a finder over the roots that says nothing.
func (f *Factory) quietFinder() *session.Finder {
	roots, _ := session.Roots(f.Globals.Dirs, f.Env)
	return session.NewFinder(roots, diag.Discard())
}
