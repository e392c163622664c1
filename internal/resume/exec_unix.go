//go:build !windows

package resume

import (
	"os"
	"syscall"
)

// Exec replaces cctx with claude, in the target's directory: the terminal
// is then Claude Code's, and its exit code the command's.
func Exec(claude string, t Target) error {
	if err := os.Chdir(t.Dir); err != nil {
		return &DirError{t, err}
	}
	return syscall.Exec(claude, t.Args(), t.Env(os.Environ()))
}
