//go:build linux && !(amd64 || arm64)

package rawfile

import "syscall"

// The system calls of raw_linux64.go, through the scheduler.

func openNow(path string) (int, error) {
	return syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
}

func stat(path string, st *syscall.Stat_t) error { return syscall.Stat(path, st) }

func fstat(fd int, st *syscall.Stat_t) error { return syscall.Fstat(fd, st) }

func pread(fd int, b []byte, off int64) (int, error) { return syscall.Pread(fd, b, off) }

func closeFD(fd int) error { return syscall.Close(fd) }
