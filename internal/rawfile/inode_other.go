//go:build !unix

package rawfile

import "os"

// inode is 0 where the system gives none through os.FileInfo (Windows):
// size, time and the hashes still tell a replaced file.
func inode(os.FileInfo) uint64 { return 0 }

// owner is not known where the system gives no owner (Windows): its
// permission bits do not say who may read a file.
func owner(os.FileInfo) (uint32, bool) { return 0, false }
