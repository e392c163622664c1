//go:build !linux

package rawfile

import (
	"io/fs"
	"os"
	"syscall"
)

// File is an open file, read only.
type File struct{ f *os.File }

// Open opens path for reading.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &File{f: f}, nil
}

// OpenOS is os.Open (on Linux, one that leaves the access time alone).
func OpenOS(path string) (*os.File, error) { return os.Open(path) }

// OpenNow is Open (for a cache entry's checks, which on Linux never wait).
func OpenNow(path string) (*File, error) { return Open(path) }

// Stat is os.Stat's status of the file at path.
func Stat(path string) (Info, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Info{}, err
	}
	return InfoOf(st), nil
}

// Stat is the open file's status.
func (f *File) Stat() (Info, error) {
	st, err := f.f.Stat()
	if err != nil {
		return Info{}, err
	}
	return InfoOf(st), nil
}

// ReadAt reads len(b) bytes at off (os.File.ReadAt).
func (f *File) ReadAt(b []byte, off int64) (int, error) { return f.f.ReadAt(b, off) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// ReadDir is os.ReadDir.
func ReadDir(path string) ([]fs.DirEntry, error) { return os.ReadDir(path) }

// Dir is a directory, for listing it and opening the files it holds by
// name (on Linux, from the open directory).
type Dir struct {
	path   string
	prefix string // what Join puts before a name
	closed bool
}

// OpenDir is the directory at path.
func OpenDir(path string) (*Dir, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
	}
	return &Dir{path: path, prefix: joinPrefix(path)}, nil
}

// ReadDir is os.ReadDir of d.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) { return os.ReadDir(d.path) }

// OpenNow is OpenNow of the file name in d.
func (d *Dir) OpenNow(name string) (*File, error) { return OpenNow(d.Join(name)) }

// Close ends d.
func (d *Dir) Close() error {
	if d.closed {
		return fs.ErrClosed
	}
	d.closed = true
	return nil
}
