//go:build windows

package resume

import (
	"errors"
	"os"
	"os/exec"
)

// Exec runs claude in the target's directory and waits for it: Windows
// has no exec, so cctx stays as its parent, claude gets cctx's console
// (term), and cctx exits with its code (ExitError).
func Exec(claude string, t Target, term Stdio) error {
	c := exec.Command(claude, t.Args()[1:]...)
	c.Dir, c.Env = t.Dir, t.Env(os.Environ())
	c.Stdin, c.Stdout, c.Stderr = term.In, term.Out, term.Err
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return &ExitError{Code: ee.ExitCode()}
	}
	return err
}
