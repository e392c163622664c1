package reader

import (
	"os"
	"syscall"
)

// openRead opens a file to read as os.Open does, in a third of its
// system calls: os.Open readies every file for the poller (fcntl four
// times, an epoll_ctl that a regular file refuses), which a transcript
// never needs; a count opens thousands. A descriptor in blocking mode
// makes a plain *os.File.
func openRead(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
