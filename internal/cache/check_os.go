//go:build !(linux || darwin)

package cache

import "os"

// Check compares an entry with the file at path now.
func Check(path string, e *Entry) State {
	fh, err := os.Open(path)
	if err != nil {
		return Miss
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return Miss
	}
	if inode(st) != e.Inode || st.Size() < e.Offset {
		return Miss
	}
	head, tail, err := hashes(fh, e.Offset)
	if err != nil || head != e.Head || tail != e.Tail {
		return Miss
	}
	if st.Size() == e.Size && st.ModTime().UnixNano() == e.ModTime {
		return Same
	}
	if st.Size() > e.Offset {
		return Grown
	}
	return Miss // same size, another time: rewritten
}

// readFile reads a cache file.
func readFile(path string) ([]byte, error) { return os.ReadFile(path) }
