package cache

import (
	"os"
	"path/filepath"
	"testing"
)

// A second run of one store (tokens --watch) drops the entry of a file it
// did not look up once the file is gone, though the first run looked it
// up: an entry's "used" is the run's, not the store's.
func TestASecondRunDropsAGoneFileItDidNotLookUp(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	p, q := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	must(t, os.WriteFile(q, []byte("{}\n"), 0o600))
	s := Open(cdir, nil)
	e, _ := Stamp(p, 3, 1, nil)
	s.Put(dir, e)
	s.Flush() // run 1: p put (used)
	must(t, os.Remove(p))
	e, _ = Stamp(q, 3, 1, nil)
	s.Put(dir, e) // run 2: p not looked up, q put: the folder is written
	s.Flush()
	entries, _, err := ReadFolder(cdir, dir)
	if err != nil || entries[p] != nil || entries[q] == nil {
		t.Errorf("after run 2: %v, %v; want q's entry only", entries, err)
	}
}
