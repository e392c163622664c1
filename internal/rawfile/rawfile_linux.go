package rawfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
)

var errNegative = errors.New("negative offset")

// atFDCWD is Linux's AT_FDCWD, which package syscall does not export:
// openat of a path from the working directory, as open.
const atFDCWD = -100

// File is an open file, read only.
type File struct {
	fd   int
	path string
}

// Open opens path for reading; its error is the one os.Open gives.
func Open(path string) (*File, error) {
	fd, err := OpenFD(path, false)
	if err != nil {
		return nil, err
	}
	return &File{fd: fd, path: path}, nil
}

// OpenNow is Open of a file its caller takes for a regular file (a
// listing found it so): opened without waiting (O_NONBLOCK), so that a
// FIFO that took its place since is not waited on (its status then says
// it is not regular). O_NONBLOCK changes nothing of a regular file's
// reads; an open refused because another process holds a lease on the
// file (EAGAIN) is made again, waiting, as Open would.
func OpenNow(path string) (*File, error) {
	fd, err := OpenFD(path, true)
	if err != nil {
		return nil, err
	}
	return &File{fd: fd, path: path}, nil
}

// OpenOS is Open as an *os.File, for a reader that wants one, in a third
// of os.Open's system calls: os.Open readies every file for the poller
// (fcntl four times, an epoll_ctl that a regular file refuses), which a
// transcript never needs; a count opens thousands. A descriptor in
// blocking mode makes a plain *os.File.
func OpenOS(path string) (*os.File, error) {
	fd, err := OpenFD(path, false)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// OpenFD is the descriptor of path opened for reading as Open (now
// false) or OpenNow (now true) open it; its error is the one os.Open
// gives.
//
// Its reads leave the file's access time alone (O_NOATIME, as indexers
// and backups read): an inspector's look is not an access, and the
// update was a tenth of the kernel's time of a warm run over a tree whose
// files' mtimes lie ahead of their atimes (relatime then writes each
// file's inode on every read). Only the file's owner may ask for it, and
// some file systems refuse it: such a file is opened as before, and so is
// every file after it (the tree most likely being all that user's, or on
// that file system).
func OpenFD(path string, now bool) (int, error) {
	return openFD(atFDCWD, path, path, now)
}

// openFD is OpenFD of name in the directory open as dirfd (AT_FDCWD: the
// working directory), path naming it in errors.
func openFD(dirfd int, name, path string, now bool) (int, error) {
	flags := syscall.O_RDONLY | syscall.O_CLOEXEC
	if now {
		flags |= syscall.O_NONBLOCK
	}
	if !noAtimeRefused.Load() {
		flags |= syscall.O_NOATIME
	}
	refused := false // O_NOATIME was refused: the open is made without it
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err == nil {
			if refused {
				noAtimeRefused.Store(true)
			}
			return fd, nil
		}
		switch {
		case err == syscall.EINTR:
		case err == syscall.EAGAIN && flags&syscall.O_NONBLOCK != 0:
			flags &^= syscall.O_NONBLOCK
		case flags&syscall.O_NOATIME != 0 && !notForNoAtime(err):
			// Refused for O_NOATIME itself (EPERM: another user's
			// file; EROFS and others on some shared folders), or for a
			// reason of its own, which the open without it gives.
			flags &^= syscall.O_NOATIME
			refused = true
		default:
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// notForNoAtime reports whether an open's error cannot be O_NOATIME's: a
// path that is not there, or no descriptor or memory left (which a second
// try may find, and must not end O_NOATIME for the run).
func notForNoAtime(err error) bool {
	switch err {
	case syscall.ENOENT, syscall.ENOTDIR, syscall.ELOOP, syscall.ENAMETOOLONG, syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM:
		return true
	}
	return false
}

// noAtimeRefused: an open with O_NOATIME was refused where one without it
// was not; the process asks no more.
var noAtimeRefused atomic.Bool

// Stat is the status of the file at path, a symlink followed, as os.Stat
// gives it (its error too), without the os.FileInfo: a listing stats
// thousands of files.
func Stat(path string) (Info, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == nil {
			return infoOf(&st), nil
		}
		if err != syscall.EINTR {
			return Info{}, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
	}
}

// Stat is the open file's status.
func (f *File) Stat() (Info, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == nil {
			return infoOf(&st), nil
		}
		if err != syscall.EINTR {
			return Info{}, &fs.PathError{Op: "stat", Path: f.path, Err: err}
		}
	}
}

func infoOf(st *syscall.Stat_t) Info {
	return Info{Size: st.Size, ModTime: int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec), Inode: uint64(st.Ino),
		Regular: st.Mode&syscall.S_IFMT == syscall.S_IFREG, mod: [2]int64{int64(st.Mtim.Sec), int64(st.Mtim.Nsec)},
		owner: st.Uid, perm: st.Mode & 0o777, permKnown: true}
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

// Dir is a directory open for listing it and for opening, by name, the
// files the listing found. Opening name from the directory walks that one
// name, not the whole path again: over a warm check of 5,000 transcripts
// the path walk was a sixth of the opens' time.
type Dir struct {
	fd     int
	path   string
	prefix string // what Join puts before a name
}

// OpenDir opens the directory at path.
func OpenDir(path string) (*Dir, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err == nil {
			return &Dir{fd: fd, path: path, prefix: joinPrefix(path)}, nil
		}
		if err != syscall.EINTR {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// OpenNow is rawfile.OpenNow of the file name in d: name is an entry of
// d's listing, never a path (its errors name d.Join(name)).
func (d *Dir) OpenNow(name string) (*File, error) {
	path := d.Join(name)
	fd, err := openFD(d.fd, name, path, true)
	if err != nil {
		return nil, err
	}
	return &File{fd: fd, path: path}, nil
}

// Close closes the directory.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return fs.ErrClosed
	}
	err := syscall.Close(d.fd)
	d.fd = -1
	if err != nil {
		return &fs.PathError{Op: "close", Path: d.path, Err: err}
	}
	return nil
}

// ReadDir lists a directory as os.ReadDir does (sorted by name, each
// entry's type from the directory when it holds it), with one open,
// getdents and one close: os.ReadDir registered the directory with the
// poller, which reading hundreds of project folders paid for.
func ReadDir(path string) ([]fs.DirEntry, error) {
	d, err := OpenDir(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir()
}

// ReadDir lists d as the function ReadDir does. It reads from where the
// last read of d ended: a Dir is listed once.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	path, fd := d.path, d.fd
	var out []fs.DirEntry
	buf := make([]byte, 8192)
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			// What was read, sorted, with the error: as os.ReadDir.
			slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
			return out, &fs.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
			reclen := int(b[16]) | int(b[17])<<8
			if reclen < 19 || reclen > len(b) {
				break
			}
			typ, name := b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if s := string(name); s != "." && s != ".." {
				out = append(out, &dirent{dir: path, name: s, typ: typ})
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// dirent is an entry of ReadDir.
type dirent struct {
	dir, name string
	typ       byte
}

func (d *dirent) Name() string { return d.name }

func (d *dirent) IsDir() bool { return d.Type().IsDir() }

func (d *dirent) Type() fs.FileMode {
	switch d.typ {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	// Not given by the file system: as os.ReadDir, from lstat.
	if st, err := os.Lstat(d.dir + "/" + d.name); err == nil {
		return st.Mode().Type()
	}
	return fs.ModeIrregular
}

func (d *dirent) Info() (fs.FileInfo, error) { return os.Lstat(d.dir + "/" + d.name) }

func (d *dirent) String() string { return fs.FormatDirEntry(d) }
