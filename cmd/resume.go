package cmd

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/resume"
	"github.com/cctx-dev/cctx/internal/session"
)

// ResumeOptions are the flags of cctx resume.
type ResumeOptions struct {
	F       *Factory
	Session string
	Print   bool

	// LookPath finds claude and Exec runs it (tests replace them).
	LookPath func(string) (string, error)
	Exec     func(claude string, t resume.Target, term resume.Stdio) error
}

// NewCmdResume builds `cctx resume`.
func NewCmdResume(f *Factory, runF func(*ResumeOptions) error) *cobra.Command {
	o := &ResumeOptions{F: f, LookPath: exec.LookPath, Exec: resume.Exec}
	c := &cobra.Command{
		Use:   "resume <session>",
		Short: "Reopen a session in Claude Code, from the directory it ran in",
		Long: `Reopen a session in Claude Code: run claude --resume <id> in the directory
the session recorded (its first cwd), where Claude Code looks for it; from
any other directory it answers "session not found". cctx gives the terminal
to Claude Code (on Windows it runs claude and waits for it).

When the session was found under another config directory than Claude
Code's own (--dir, CLAUDE_CONFIG_DIR with several entries), CLAUDE_CONFIG_DIR
is set to it. --print prints the command instead, quoted for the shell, to
copy or to run with eval.

It fails (exit 1, saying the command) when the directory no longer exists or
claude is not on PATH; and for what Claude Code cannot resume: a transcript
on standard input, a session whose main transcript was deleted (or
emptied), or one only cctx's archive holds.`,
		Example: `  cctx resume latest
  cctx resume b3ed
  cctx resume b3ed --print   # cd '/home/me/app' && claude --resume b3edadab-…
  eval "$(cctx resume b3ed --print)"`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			if runF != nil {
				return runF(o)
			}
			return resumeRun(o)
		},
	}
	c.Flags().BoolVarP(&o.Print, "print", "p", false, "print the command (cd and claude --resume) instead of running it")
	return c
}

func resumeRun(o *ResumeOptions) error {
	f := o.F
	if f.Globals.JSON {
		return usageErrorf("resume runs claude or, with --print, prints its command line: --json does not apply")
	}
	if f.Globals.Redact && o.Print {
		return usageErrorf("resume --print prints a command to run: --redact does not apply (the directory masked, the command could not run)")
	}
	finder, err := f.Finder()
	if err != nil {
		return err
	}
	s, err := finder.Resolve(o.Session)
	if err != nil {
		return err
	}
	t, err := resume.Plan(s, f.Env)
	if err != nil {
		return err
	}
	shell := render.ShellPOSIX
	if runtime.GOOS == "windows" {
		shell = render.ShellPowerShell
	}
	if o.Print {
		return render.Resume(f.Out(), t, shell)
	}
	claude, err := resume.Check(t, o.LookPath)
	if err != nil {
		return fmt.Errorf("%w; the command: %s", err, render.ResumeCommand(t, shell))
	}
	if l, ok := session.LiveSessions(finder.Roots)[t.SessionID]; ok {
		f.Report().Warn("session %s is open in Claude Code (pid %d, %s): two processes will write to it", t.SessionID, l.PID, l.Status)
	}
	f.Report().Flush()
	in, out, errOut := f.Terminal()
	err = o.Exec(claude, t, resume.Stdio{In: in, Out: out, Err: errOut})
	var exit *resume.ExitError
	if errors.As(err, &exit) {
		return &silentError{code: exit.Code}
	}
	if err != nil {
		return fmt.Errorf("cannot run %s: %w; the command: %s", claude, err, render.ResumeCommand(t, shell))
	}
	return nil
}
