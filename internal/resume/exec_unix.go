//go:build !windows

package resume

import (
	"os"
	"syscall"
)

// Exec replaces cctx with claude, in the target's directory: the terminal
// (the process's own streams; term is for Windows) is then Claude Code's,
// and its exit code the command's.
func Exec(claude string, t Target, term Stdio) error {
	if err := os.Chdir(t.Dir); err != nil {
		return &DirError{t, err}
	}
	return syscall.Exec(claude, t.Args(), t.Env(os.Environ()))
}
