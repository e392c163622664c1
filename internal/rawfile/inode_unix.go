//go:build unix

package rawfile

import (
	"os"
	"syscall"
)

// inode is the file's inode number: a file replaced by another of the same
// size and time is not the one an entry describes.
func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}

// owner is the file's owner (false: not known).
func owner(st os.FileInfo) (uint32, bool) {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return s.Uid, true
	}
	return 0, false
}
