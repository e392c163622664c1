package rawfile

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

var errNegative = errors.New("negative offset")

// File is an open file, read only.
type File struct {
	fd   int
	path string
}

// Open opens path for reading; its error is the one os.Open gives.
func Open(path string) (*File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return &File{fd: fd, path: path}, nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// Stat is the open file's status.
func (f *File) Stat() (Info, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return Info{}, &fs.PathError{Op: "stat", Path: f.path, Err: err}
		}
	}
	return Info{Size: st.Size, ModTime: int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec), Inode: uint64(st.Ino),
		Regular: st.Mode&syscall.S_IFMT == syscall.S_IFREG}, nil
}

// ReadAt reads len(b) bytes at off, as os.File.ReadAt does: fewer only
// with an error, io.EOF at the end of the file.
func (f *File) ReadAt(b []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "readat", Path: f.path, Err: errNegative}
	}
	for len(b) > 0 {
		m, e := syscall.Pread(f.fd, b, off)
		if e == syscall.EINTR {
			continue
		}
		if e != nil {
			return n, &fs.PathError{Op: "read", Path: f.path, Err: e}
		}
		if m == 0 {
			return n, io.EOF
		}
		n += m
		b = b[m:]
		off += int64(m)
	}
	return n, nil
}

// Close closes the file.
func (f *File) Close() error {
	if f.fd < 0 {
		return fs.ErrClosed
	}
	err := syscall.Close(f.fd)
	f.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: f.path, Err: err}
	}
	return nil
}
