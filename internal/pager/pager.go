// Package pager runs the pager a long output goes through on a terminal:
// which one (CCTX_PAGER, PAGER, less -FRX), with what environment, and
// what happens when it is missing or quits early.
package pager

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
)

// Command is the pager's command line: CCTX_PAGER, else PAGER, else, with
// fallback (the process's own terminal), less -FRX. It is "" for none:
// nothing set without fallback, blank, or cat.
func Command(getenv func(string) string, fallback bool) string {
	cmdline := getenv("CCTX_PAGER")
	if cmdline == "" {
		cmdline = getenv("PAGER")
	}
	if cmdline == "" && fallback {
		cmdline = "less -FRX"
	}
	if t := strings.TrimSpace(cmdline); t == "cat" || t == "" {
		return ""
	}
	return cmdline
}

// Pager is a running pager: what is written to In, it shows.
type Pager struct {
	In  io.WriteCloser
	cmd *exec.Cmd
	sig chan os.Signal
}

// Start runs cmdline with sh, showing on out and errOut, with LESS=FRX
// and LV=-c unless getenv sets them. A pager that is not installed would
// take the output with it (sh only says "not found"): then, as when it does
// not start, warn says so and Start returns nil, and the output goes to
// stdout. Only a plain program name or path is looked up (PlainWord);
// anything the shell must expand first is left to the shell. While it
// runs, Ctrl-C is the pager's (less uses it to stop a search).
func Start(cmdline string, getenv func(string) string, out, errOut io.Writer, warn func(format string, args ...any)) *Pager {
	if first := strings.Fields(cmdline)[0]; PlainWord(first) {
		if _, err := exec.LookPath(first); err != nil {
			warn("pager %q not found; printing directly", first)
			return nil
		}
	}
	pc := exec.Command("sh", "-c", cmdline)
	pc.Stdout, pc.Stderr = out, errOut
	pc.Env = os.Environ()
	if getenv("LESS") == "" {
		pc.Env = append(pc.Env, "LESS=FRX")
	}
	if getenv("LV") == "" {
		pc.Env = append(pc.Env, "LV=-c")
	}
	in, err := pc.StdinPipe()
	if err != nil {
		return nil
	}
	if err := pc.Start(); err != nil {
		warn("pager %q did not start (%v); printing directly", cmdline, err)
		return nil
	}
	p := &Pager{In: in, cmd: pc, sig: make(chan os.Signal, 1)}
	signal.Notify(p.sig, os.Interrupt)
	return p
}

// Wait closes the pager's input and waits for it to exit: its own exit
// status is not an error.
func (p *Pager) Wait() error {
	p.In.Close()
	err := p.cmd.Wait()
	signal.Stop(p.sig)
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil
	}
	return err
}

// PlainWord reports whether a shell word is a program name or path as it
// is, not one the shell expands or a builtin that runs another.
func PlainWord(w string) bool {
	switch w {
	case "exec", "command", "builtin", "eval", "env", "nice", "nohup", "time":
		return false
	}
	return !strings.ContainsAny(w, "$`'\"\\~*?=[{(")
}

// IsClosed reports a write to a pager (or pipe) that was closed: the
// reader quit, which is not an error of the writer's.
func IsClosed(err error) bool {
	return err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe))
}
