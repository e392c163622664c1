// Package cmd holds cctx's commands. Each command parses its flags, calls
// the library under internal/, and renders; errors become exit codes in one
// place (Run).
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/buildinfo"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Exit codes.
const (
	ExitOK         = 0
	ExitError      = 1
	ExitUsage      = 2   // bad flag or argument, unknown or ambiguous session
	ExitBudget     = 3   // a --max-* budget was exceeded
	ExitBrokenPipe = 141 // stdout's reader went away (| head) while a report's cache was written: SIGPIPE's code
)

// Version is set at link time (-ldflags "-X github.com/cctx-dev/cctx/cmd.Version=…").
var Version = ""

// NewRootCmd builds the command tree.
func NewRootCmd(f *Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "cctx",
		Short: "Inspect Claude Code session transcripts",
		Long: `cctx reads the JSONL transcripts Claude Code writes under ~/.claude/projects and
shows them exactly: sessions, conversations, the uuid DAG, deduplicated token
usage and cost, and subagents.

Sessions are looked up in each --dir (a projects dir, or a config dir that
holds projects/), else in every dir of CLAUDE_CONFIG_DIR (comma-separated),
else in ~/.claude/projects and ~/.config/claude/projects.

A <session> argument is a session id, a unique prefix of one (4+ characters),
a path to a .jsonl file, "latest" (the newest activity: the first row of ls), or
"-" (one transcript on stdin).

Exit codes: 0 ok, 1 error (or warnings with --strict), 2 usage error
(bad flag, unknown or ambiguous session), 3 budget exceeded.`,
		Example: `  cctx ls                         # recent sessions, newest first
  cctx show latest                # read the latest conversation
  cctx tree ef95                  # its branches, compactions and subagents
  cctx tokens ef95                # usage per API call, by agent and model, cost
  cctx agents ef95                # its subagents, each linked to its call
  cctx resume ef95                # reopen it in Claude Code, in its directory
  cctx tokens --since 7d --max-cost 20 --budget-total   # exit 3 if over
  cctx tokens --by block --since 1d      # 5-hour plan windows (--watch: live)`,
		Version:       buildinfo.Version(Version),
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(c *cobra.Command, args []string) error {
			return f.resolveColor()
		},
	}
	root.SetVersionTemplate("cctx {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringArrayVar(&f.Globals.Dirs, "dir", nil, "projects dir, config dir holding projects/, or one project folder (repeatable; default: CLAUDE_CONFIG_DIR or ~/.claude)")
	f.Globals.Color = "auto"
	pf.Var(flagval.OneOf(&f.Globals.Color, "auto, always, never"), "color", "colour output: auto, always or never (auto honours NO_COLOR; tab-separated data in a pipe stays plain)")
	pf.BoolVar(&f.Globals.JSON, "json", false, "print JSON (schemas in docs/json.md)")
	pf.BoolVar(&f.Globals.Redact, "redact", false, "mask secrets (API keys, tokens, passwords, private keys, emails) and home paths in everything printed (docs/redaction.md)")
	pf.BoolVar(&f.Globals.Strict, "strict", false, "exit 1 if any line was skipped or anything else was warned about")
	pf.BoolVarP(&f.Globals.Verbose, "verbose", "v", false, "print every warning and extra notes on stderr")
	pf.BoolVar(&f.Globals.NoCache, "no-cache", false, "read every transcript whole: neither use nor update the summary cache (also CCTX_NO_CACHE=1; docs/cache.md)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if werr := tokens.WatchFlagError(f.Args); werr != nil && c.Flags().Lookup("watch") != nil {
			err = werr // --watch -1: pflag read -1 as flags
		}
		return &UsageError{Err: fmt.Errorf("%s (see '%s --help')", plainFlagError(err), c.CommandPath())}
	})

	root.AddCommand(NewCmdLs(f, nil))
	root.AddCommand(NewCmdShow(f, nil))
	root.AddCommand(NewCmdTree(f, nil))
	root.AddCommand(NewCmdTokens(f, nil))
	root.AddCommand(NewCmdAgents(f, nil))
	root.AddCommand(NewCmdArchive(f, nil))
	root.AddCommand(NewCmdGrep(f, nil))
	root.AddCommand(NewCmdExport(f, nil))
	root.AddCommand(NewCmdResume(f, nil))
	root.SetHelpCommand(newHelpCmd(root))
	root.SetUsageTemplate(wrapFlagUsages(root.UsageTemplate()))
	addCompletions(f, root)
	return root
}

// Execute runs cctx on the process's arguments and returns the exit code.
func Execute() int {
	return Run(os.Args[1:], SystemIO(), session.OSEnv(), time.Now)
}

// untilInterrupt is ctx, or when it is nil a context that Ctrl-C (or
// SIGTERM) ends: how show --follow and tokens --watch stop. stop lets the
// signals go.
func untilInterrupt(ctx context.Context) (_ context.Context, stop func()) {
	if ctx != nil {
		return ctx, func() {}
	}
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// boundMemory sets a soft memory limit for a command whose live memory does
// not grow with the history, and the collector's pace (as GOGC; 0 leaves
// it), and returns what restores both; GOMEMLIMIT overrides both, GOGC the
// pace. Why each command sets what it sets: docs/architecture.md, Memory.
func boundMemory(pace int) (restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	prev := debug.SetMemoryLimit(memoryLimit)
	if pace == 0 || os.Getenv("GOGC") != "" {
		return func() { debug.SetMemoryLimit(prev) }
	}
	prevPace := debug.SetGCPercent(pace)
	return func() { debug.SetGCPercent(prevPace); debug.SetMemoryLimit(prev) }
}

const memoryLimit = 48 << 20

// Run runs cctx with the given arguments and streams and maps the outcome
// to an exit code. Nothing else decides exit codes.
func Run(args []string, io *IOStreams, env session.Env, now func() time.Time) int {
	f := &Factory{IO: io, Env: env, Now: now, Args: args}
	root := NewRootCmd(f)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.Execute()
	f.store.Wait() // the cache a report wrote while it was printed (tokens.ReadOptions.WriteBehind)
	if f.pipe.Stop() {
		return ExitBrokenPipe
	}
	f.flushOut()
	f.Report().Flush()

	rep := f.Report()
	var budget *BudgetError
	var usage *UsageError
	var resolve *session.ResolveError
	var silent *silentError
	switch {
	case err == nil:
	case errors.As(err, &budget):
		for _, l := range budget.Lines {
			rep.Budget("%s", l)
		}
		for _, l := range budget.Unchecked {
			rep.Error("%s", l)
		}
		if len(budget.Lines) == 0 {
			return ExitError // nothing over a limit, but a limit not checked: no pass
		}
		return ExitBudget
	case errors.As(err, &silent):
		return silent.code
	case errors.As(err, &resolve):
		rep.Error("%s", resolve.Error())
		if len(resolve.Candidates) > 0 {
			rep.Hint("candidates (id, last activity, project):", candidates(resolve.Candidates))
		}
		return ExitUsage
	case errors.As(err, &usage):
		rep.Error("%s", err)
		return ExitUsage
	case isCobraUsage(err):
		rep.Error("%s", cobraMessage(err.Error()))
		return ExitUsage
	default:
		rep.Error("%s", diag.ErrorText(err))
		return ExitError
	}
	if f.Globals.Strict && rep.Warnings() > 0 {
		rep.Error("%d warning(s) with --strict", rep.Warnings())
		return ExitError
	}
	return ExitOK
}
