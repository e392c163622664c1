package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/dates"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// LsOptions are the flags of cctx ls.
type LsOptions struct {
	F       *Factory
	Long    bool
	Project string
	Since   string
	Until   string
	Limit   int
	All     bool
	Empty   bool
}

// NewCmdLs builds `cctx ls`. runF replaces the run function in tests.
func NewCmdLs(f *Factory, runF func(*LsOptions) error) *cobra.Command {
	o := &LsOptions{F: f}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List sessions across projects, newest activity first",
		Long: `List sessions across projects, newest activity first.

Each row shows the session id (a prefix of it works as a <session> argument),
when it was last active, its project (the cwd Claude Code recorded), git
branch, number of subagent transcripts, and its title: the custom title, else
the AI title, else the last prompt, else the summary, else the first prompt.
Running sessions show working or idle; a narrow terminal leaves columns out.

Without --long only the first and last 64 KiB of each file are read, so the
listing stays fast on thousands of sessions; lines are not checked, and
--strict fails only on a file that cannot be read. --long reads every file to
count prompts, API calls (deduplicated) and tokens, subagents included; with
--strict it parses and checks every line.

Files without any conversation (empty, or only metadata) are left out unless
--empty is given.` + "\n\n" + render.PipeHelp(render.LsPipeTables),
		Example: `  cctx ls
  cctx ls -l --since 7d
  cctx ls --project ~/src/app --limit 10
  cctx ls --all --json | jq -r '.sessions[] | [.session_id, .title] | @tsv'`,
		Args: func(c *cobra.Command, args []string) error {
			if err := boolValueArg(c, args); err != nil {
				return err
			}
			if len(args) > 0 {
				fix := "to list the sessions run in a folder, use --project " + args[0] + " (see '" + c.CommandPath() + " --help')"
				if c.Flags().Changed("project") { // a path with a space, split by the shell
					fix = "a --project path with spaces needs quotes (--project " + render.ShellQuote(o.Project+" "+strings.Join(args, " ")) + ")"
				}
				return usageErrorf("%s takes no argument, got %q: %s", c.CommandPath(), strings.Join(args, " "), fix)
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if o.Limit < 0 {
				return usageErrorf("--limit must be 0 or more")
			}
			// --all is --limit 0, unless a limit is given too: then the
			// limit is what was asked.
			if o.All && !c.Flags().Changed("limit") {
				o.Limit = 0
			}
			if runF != nil {
				return runF(o)
			}
			return lsRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVarP(&o.Long, "long", "l", false, "also count prompts, API calls, tokens and size (reads every file)")
	fl.Var(flagval.New(&o.Project, flagval.Folder), "project", "only sessions whose cwd is `PATH` or inside it")
	fl.Var(dates.Date(&o.Since), "since", "only sessions active since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.Var(dates.Date(&o.Until), "until", "only sessions active until `DATE` (a bare date includes that day)")
	fl.IntVar(&o.Limit, "limit", 50, "show at most `N` sessions (0: all)")
	fl.BoolVarP(&o.All, "all", "a", false, "show every session (same as --limit 0; a --limit given too wins)")
	fl.BoolVar(&o.Empty, "empty", false, "also list files without a conversation")
	return c
}

func lsRun(o *LsOptions) error {
	f := o.F
	pace := 0 // warm: collect near the memory limit only (docs/architecture.md, "Memory")
	if !o.Long && f.Cache() != nil {
		pace = -1
	}
	defer boundMemory(pace)()
	finder, err := f.listing()
	if err != nil {
		return err
	}
	window, err := dates.ParseRange(o.Since, o.Until, f.Now())
	if err != nil {
		return &UsageError{Err: err}
	}
	lo := session.ListOptions{Since: window.Since, Until: window.Until, Project: session.ProjectPath(o.Project, f.Env.Home),
		IncludeEmpty: o.Empty, Limit: o.Limit, NoFirstPrompt: !f.Globals.JSON, Now: f.Now()}
	list := finder.List(lo)
	var stats []tokens.SessionStats
	if o.Long {
		stats = tokens.ListStats(finder, list, f.readOptions())
	}
	if f.Globals.JSON {
		err = render.JSON(f.Out(), render.NewLsJSON(list.Sessions, stats), f.Render())
	} else {
		err = render.Ls(f.Out(), list.Sessions, stats, f.Render())
	}
	if err != nil {
		return err
	}
	lsNotes(f, list, finder, lo.Filters())
	return nil
}

// lsNotes says on stderr what the listing left out, in a pipe and in JSON
// too: a script that reads 50 rows should know there were more.
func lsNotes(f *Factory, list session.Listing, finder *session.Finder, filters session.Filters) {
	rep := f.Report()
	if list.Matched == 0 { // an empty answer says why, in a pipe too
		rep.Info("%s", list.NoneFound(finder.Where(), filters))
	}
	if list.Matched > len(list.Sessions) {
		rep.Info("%d of %d sessions shown (--all shows every one)", len(list.Sessions), list.Matched)
	}
	// A file without conversation has no cwd: whether it is of --project
	// is not known, and it is not said to be.
	if n := len(list.Hidden); n > 0 && filters.Project == "" && (f.IO.IsStdoutTTY() || list.Matched == 0) {
		rep.Info("%d file(s) without conversation hidden (--empty lists them)", n)
	}
	if len(list.Sessions) > 0 && f.IO.IsStdoutTTY() && !f.Globals.JSON {
		// A note (-v), not a hint under every listing: said once, it is noise.
		rep.Note("cctx resume <id> reopens a session in Claude Code, from the directory it ran in")
	}
	archiveHint(f, finder)
}
