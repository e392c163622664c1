// Package cmd holds cctx's commands. Each command parses its flags, calls
// the library under internal/, and renders; errors become exit codes in one
// place (Run).
package cmd

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
)

// Exit codes.
const (
	ExitOK     = 0
	ExitError  = 1
	ExitUsage  = 2 // bad flag or argument, unknown or ambiguous session
	ExitBudget = 3 // a --max-* budget was exceeded
)

// Version is set at link time (-ldflags "-X github.com/cctx-dev/cctx/cmd.Version=…").
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// UsageError is an error the user can fix by changing the command line.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// BudgetError reports budgets that were exceeded (exit 3) or could not be
// checked (exit 1 when none was exceeded); the report itself was printed
// already.
type BudgetError struct{ Lines, Unchecked []string }

func (e *BudgetError) Error() string { return "budget exceeded" }

// silentError ends with an exit code and no further message.
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// GlobalOptions are the flags every command shares.
type GlobalOptions struct {
	Dirs    []string
	Color   string
	JSON    bool
	Strict  bool
	Verbose bool
}

// Factory gives commands their dependencies.
type Factory struct {
	IO      *IOStreams
	Now     func() time.Time
	Env     session.Env
	Globals GlobalOptions

	color  bool
	report *diag.Reporter
	finder *session.Finder
}

// Report is where warnings and notes go (stderr).
func (f *Factory) Report() *diag.Reporter {
	if f.report == nil {
		f.report = diag.New(f.IO.ErrOut, f.Globals.Verbose, f.Globals.Strict)
	}
	return f.report
}

// Finder lists sessions under the roots chosen by --dir, CLAUDE_CONFIG_DIR
// or the defaults.
func (f *Factory) Finder() (*session.Finder, error) {
	if f.finder != nil {
		return f.finder, nil
	}
	roots, err := session.Roots(f.Globals.Dirs, f.Env)
	var cfg *session.ConfigDirError
	if err != nil && !errors.As(err, &cfg) {
		return nil, &UsageError{Err: err}
	}
	f.finder = session.NewFinder(roots, f.Report())
	f.finder.RootsErr = err // only for what looks sessions up
	return f.finder, nil
}

// Render is how output should look.
func (f *Factory) Render() render.Options {
	return render.Options{TTY: f.IO.IsStdoutTTY(), Width: f.IO.Width(), Theme: render.NewTheme(f.color)}
}

// resolveColor applies --color, then CLICOLOR_FORCE, then NO_COLOR, then
// whether stdout is a terminal (and TERM is not dumb).
func (f *Factory) resolveColor() error {
	switch f.Globals.Color {
	case "always":
		f.color = true
	case "never":
		f.color = false
	case "auto", "":
		switch {
		case f.Env.Getenv("CLICOLOR_FORCE") != "" && f.Env.Getenv("CLICOLOR_FORCE") != "0":
			f.color = true
		case f.Env.Getenv("NO_COLOR") != "":
			f.color = false
		default:
			f.color = f.IO.IsStdoutTTY() && f.Env.Getenv("TERM") != "dumb"
		}
	default:
		return usageErrorf("--color must be auto, always or never, not %q", f.Globals.Color)
	}
	return nil
}

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
  cctx tokens --since 7d --max-cost 20   # exit 3 when the week cost more`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(c *cobra.Command, args []string) error {
			return f.resolveColor()
		},
	}
	root.SetVersionTemplate("cctx {{.Version}}\n")
	root.CompletionOptions.HiddenDefaultCmd = true
	pf := root.PersistentFlags()
	pf.StringArrayVar(&f.Globals.Dirs, "dir", nil, "projects dir, config dir holding projects/, or one project folder (repeatable; default: CLAUDE_CONFIG_DIR or ~/.claude)")
	pf.StringVar(&f.Globals.Color, "color", "auto", "colour output: auto, always or never (auto honours NO_COLOR)")
	pf.BoolVar(&f.Globals.JSON, "json", false, "print JSON (schema in the README)")
	pf.BoolVar(&f.Globals.Strict, "strict", false, "exit 1 if any line was skipped or anything else was warned about")
	pf.BoolVarP(&f.Globals.Verbose, "verbose", "v", false, "print every warning and extra notes on stderr")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &UsageError{Err: fmt.Errorf("%s (see '%s --help')", plainFlagError(err), c.CommandPath())}
	})

	root.AddCommand(NewCmdLs(f, nil))
	root.AddCommand(NewCmdShow(f, nil))
	root.AddCommand(NewCmdTree(f, nil))
	root.AddCommand(NewCmdTokens(f, nil))
	root.AddCommand(NewCmdAgents(f, nil))
	root.AddCommand(NewCmdExport(f, nil))
	return root
}

// Execute runs cctx on the process's arguments and returns the exit code.
func Execute() int {
	return Run(os.Args[1:], SystemIO(), session.OSEnv(), time.Now)
}

// Run runs cctx with the given arguments and streams and maps the outcome
// to an exit code. Nothing else decides exit codes.
func Run(args []string, io *IOStreams, env session.Env, now func() time.Time) int {
	f := &Factory{IO: io, Env: env, Now: now}
	root := NewRootCmd(f)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	err := root.Execute()
	if f.report != nil {
		f.report.Flush()
	}

	var budget *BudgetError
	var usage *UsageError
	var resolve *session.ResolveError
	var silent *silentError
	switch {
	case err == nil:
	case errors.As(err, &budget):
		for _, l := range budget.Lines {
			fmt.Fprintf(io.ErrOut, "cctx: budget exceeded: %s\n", l)
		}
		for _, l := range budget.Unchecked {
			fmt.Fprintf(io.ErrOut, "cctx: error: %s\n", l)
		}
		if len(budget.Lines) == 0 {
			return ExitError // nothing over a limit, but a limit not checked: no pass
		}
		return ExitBudget
	case errors.As(err, &silent):
		return silent.code
	case errors.As(err, &resolve):
		fmt.Fprintf(io.ErrOut, "cctx: error: %s\n", resolve.Error())
		printCandidates(io, resolve.Candidates)
		return ExitUsage
	case errors.As(err, &usage) || isCobraUsage(err):
		fmt.Fprintf(io.ErrOut, "cctx: error: %s\n", err)
		return ExitUsage
	default:
		fmt.Fprintf(io.ErrOut, "cctx: error: %s\n", err)
		return ExitError
	}
	if f.Globals.Strict && f.report != nil && f.report.Warnings() > 0 {
		fmt.Fprintf(io.ErrOut, "cctx: error: %d warning(s) with --strict\n", f.report.Warnings())
		return ExitError
	}
	return ExitOK
}

// isCobraUsage recognises the errors cobra returns before a command runs:
// unknown commands and wrong argument counts.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "unknown flag", "unknown shorthand", "invalid argument"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func printCandidates(io *IOStreams, cands []*session.Session) {
	if len(cands) == 0 {
		return
	}
	fmt.Fprintln(io.ErrOut, "cctx: hint: candidates (id, project, last activity):")
	for i, s := range cands {
		if i == 20 {
			fmt.Fprintf(io.ErrOut, "  … and %d more\n", len(cands)-i)
			break
		}
		project := s.ProjectKey()
		updated := s.ModTime
		if in, err := session.Lite(s); err == nil {
			if in.Project != "" {
				project = in.Project
			}
			updated = in.UpdatedAt
		}
		fmt.Fprintf(io.ErrOut, "  %s  %s  %s\n", s.ID, render.Safe(project), render.Timestamp(updated))
	}
}

// plainFlagError says what is wrong with a flag value without Go's parser
// names: `invalid argument "abc" for "--limit" flag: not a number`, not
// `…: strconv.ParseInt: parsing "abc": invalid syntax`.
func plainFlagError(err error) string {
	msg := err.Error()
	i := strings.Index(msg, ": strconv.")
	if i < 0 {
		return msg
	}
	switch rest := msg[i:]; {
	case strings.Contains(rest, "ParseBool"):
		return msg[:i] + ": true or false"
	case strings.Contains(rest, "out of range"):
		return msg[:i] + ": out of range"
	default:
		return msg[:i] + ": not a number"
	}
}

// unreadableFiles is the error of a command whose output leaves out files
// it could not read (reported as they were met): the output stands for
// what was read, and the exit code says it is not all.
func unreadableFiles(f *Factory) error {
	if n := f.Report().UnreadableFiles(); n > 0 {
		return fmt.Errorf("%d file(s) could not be read: the output above leaves them out", n)
	}
	return nil
}

// listing is the Finder for a command that lists sessions: the roots must
// all be there.
func (f *Factory) listing() (*session.Finder, error) {
	finder, err := f.Finder()
	if err != nil {
		return nil, err
	}
	if finder.RootsErr != nil {
		return nil, &UsageError{Err: finder.RootsErr}
	}
	return finder, nil
}
