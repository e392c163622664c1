//go:build !windows

package session

import (
	"errors"
	"syscall"
)

// processAlive sends signal 0: no signal, only the check that the process
// exists (EPERM: it does, as another user's).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
