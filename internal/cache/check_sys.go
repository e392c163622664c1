//go:build linux || darwin

package cache

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Check compares an entry with the file at path now.
//
// It opens and reads the file with the system's calls, not os.Open:
// os.Open hands every file to Go's poller (an fcntl and an epoll_ctl that
// fails for a regular file), and a warm run checks every transcript
// (thousands), nothing else.
func Check(path string, e *Entry) State {
	fd, err := openRead(path)
	if err != nil {
		return Miss
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	for {
		if err = unix.Fstat(fd, &st); err != unix.EINTR {
			break
		}
	}
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return Miss
	}
	size := int64(st.Size)
	if uint64(st.Ino) != e.Inode || size < e.Offset {
		return Miss
	}
	head, tail, err := hashes(fdReader(fd), e.Offset)
	if err != nil || head != e.Head || tail != e.Tail {
		return Miss
	}
	if size == e.Size && int64(st.Mtim.Sec)*1e9+int64(st.Mtim.Nsec) == e.ModTime {
		return Same
	}
	if size > e.Offset {
		return Grown
	}
	return Miss // same size, another time: rewritten
}

// openRead opens path for reading: not blocking on a FIFO (it is not a
// regular file, so Miss), not inherited by a child.
func openRead(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// fdReader reads an open file at offsets (io.ReaderAt).
type fdReader int

func (fd fdReader) ReadAt(b []byte, off int64) (int, error) {
	n := 0
	for n < len(b) {
		m, err := unix.Pread(int(fd), b[n:], off+int64(n))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			return n, io.ErrUnexpectedEOF
		}
		n += m
	}
	return n, nil
}

// readFile is os.ReadFile with the system's calls (a warm run loads the
// cache file of every project folder: hundreds).
func readFile(path string) ([]byte, error) {
	fd, err := openRead(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	for {
		if err = unix.Fstat(fd, &st); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("not a regular file")}
	}
	b := make([]byte, st.Size)
	n, err := fdReader(fd).ReadAt(b, 0)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	return b[:n], nil
}
