//go:build unix

package archive

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting. The
// system drops it when the process ends, however it ends.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}
