// Package rawfile reads regular files with plain system calls where the
// system allows it (Linux): os.Open registers every file with the
// runtime's poller (an fcntl pair and a failing epoll_ctl a file, then
// more fcntls to close it), which is most of what checking a cached file
// costs when thousands of them are checked in a run. Elsewhere it is
// os.File.
package rawfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Info is what a listing needs of an open file's status.
type Info struct {
	Size    int64
	ModTime int64  // nanoseconds since 1970, as os.FileInfo.ModTime().UnixNano() (wraps outside 1678-2262: compared only)
	Inode   uint64 // 0 where the system gives none (Windows)
	Regular bool
	mod     [2]int64 // the modification time in seconds and nanoseconds, whole
	// The owner and permission bits, where the system says them (not on
	// Windows: permKnown false), for MayBeUnreadable.
	owner     uint32
	perm      uint32
	permKnown bool
}

// MayBeUnreadable reports whether this process may lack the right to
// read the file, from its mode bits and owner alone (no system call):
// false when they grant it (the process owns it and may read it, anyone
// may, or the process is root) or are not known (Windows); true when
// only opening it tells (a group's right, an ACL, a file of another user
// without o+r, one chmod 000).
func (i Info) MayBeUnreadable() bool {
	switch {
	case !i.permKnown || euid == 0:
		return false
	case euid >= 0 && i.owner == uint32(euid):
		return i.perm&0o400 == 0
	}
	// A process in the file's group gets the group's right, not anyone's:
	// when they differ (0604), only opening it tells.
	return i.perm&0o004 == 0 || i.perm&0o040 == 0
}

// euid is the process's effective user id (-1 on Windows).
var euid = os.Geteuid()

// Mod is the file's modification time (any year, unlike ModTime).
func (i Info) Mod() time.Time { return time.Unix(i.mod[0], i.mod[1]) }

// ReadFile reads a whole file, as os.ReadFile does.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Regular {
		size = st.Size
	}
	b := make([]byte, 0, size+512)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.ReadAt(b[len(b):cap(b)], int64(len(b)))
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// InfoOf is the Info of a file's status from os.Stat or os.Lstat: what
// Stat of the file open gives, without opening it again (a listing that
// stat'ed thousands of files has it already).
func InfoOf(st os.FileInfo) Info {
	t := st.ModTime()
	owner, known := owner(st)
	return Info{Size: st.Size(), ModTime: t.UnixNano(), Inode: inode(st), Regular: st.Mode().IsRegular(),
		mod: [2]int64{t.Unix(), int64(t.Nanosecond())}, owner: owner, perm: uint32(st.Mode().Perm()), permKnown: known}
}

// Join is filepath.Join(the directory's path, name) for name an entry of
// its listing (no separator, not . or ..), without Clean's pass over the
// whole path each time: the cleaned directory and its separator are
// worked out once (joinPrefix), and a listing of 5,000 files spent 1.5 %
// of a warm run in Clean.
func (d *Dir) Join(name string) string { return d.prefix + name }

// joinPrefix is what filepath.Join(dir, name) puts before a plain name:
// the cleaned dir and a separator ("" for ".", the root alone for "/").
func joinPrefix(dir string) string {
	return strings.TrimSuffix(filepath.Join(dir, "x"), "x")
}
