package cmd

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
)

// pager returns where a long output goes: a pager on a terminal (unless
// off: --no-pager, --follow), else stdout; guarded as Out (or OutJSON,
// for JSON text) is. done waits for the pager.
func (f *Factory) pager(off, json bool) (io.Writer, func() error) {
	direct := func() error { return nil }
	stdout := f.Out()
	if json {
		stdout = f.OutJSON() // --raw
	}
	if !f.IO.IsStdoutTTY() || off {
		return stdout, direct
	}
	cmdline := f.Env.Getenv("CCTX_PAGER")
	if cmdline == "" {
		cmdline = f.Env.Getenv("PAGER")
	}
	if cmdline == "" {
		// The default pager only for the real terminal: tests and embedders
		// that hand in their own writer get their output directly.
		if fh, ok := f.IO.Out.(*os.File); !ok || fh != os.Stdout {
			return stdout, direct
		}
		cmdline = "less -FRX"
	}
	if strings.TrimSpace(cmdline) == "cat" || strings.TrimSpace(cmdline) == "" {
		return stdout, direct
	}
	// A pager that is not installed would take the output with it (sh
	// only says "not found"): then print directly. Only a plain program
	// name or path is looked up; anything the shell must expand first
	// (variables, quotes, an assignment, exec …) is left to the shell.
	if first := strings.Fields(cmdline)[0]; plainWord(first) {
		if _, err := exec.LookPath(first); err != nil {
			f.Report().Warn("pager %q not found; printing directly", first)
			return stdout, direct
		}
	}
	pc := exec.Command("sh", "-c", cmdline)
	pc.Stdout = f.IO.Out
	pc.Stderr = f.IO.ErrOut
	pc.Env = os.Environ()
	if f.Env.Getenv("LESS") == "" {
		pc.Env = append(pc.Env, "LESS=FRX")
	}
	if f.Env.Getenv("LV") == "" {
		pc.Env = append(pc.Env, "LV=-c")
	}
	in, err := pc.StdinPipe()
	if err != nil {
		return stdout, direct
	}
	if err := pc.Start(); err != nil {
		f.Report().Warn("pager %q did not start (%v); printing directly", cmdline, err)
		return stdout, direct
	}
	guarded, flushes := f.stdout(in, json, nil)
	// Ctrl-C belongs to the pager while it runs (less uses it to stop a
	// search); cctx waits for it to exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	return guarded, func() error {
		for _, fl := range flushes {
			fl()
		}
		in.Close()
		err := pc.Wait()
		signal.Stop(sig)
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil // the pager's own exit status is not ours
		}
		return err
	}
}

// plainWord reports whether a shell word is a program name or path as it
// is, not one the shell expands or a builtin that runs another.
func plainWord(w string) bool {
	switch w {
	case "exec", "command", "builtin", "eval", "env", "nice", "nohup", "time":
		return false
	}
	return !strings.ContainsAny(w, "$`'\"\\~*?=[{(")
}

// isClosedPipe reports a write to a pager (or pipe) that was closed.
func isClosedPipe(err error) bool {
	return err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe))
}
