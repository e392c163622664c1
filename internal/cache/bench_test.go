package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// What checking one unchanged file costs (open, fstat, the two 4 KiB
// reads its hashes need, close), next to a stat of it (what a listing
// pays anyway): a warm run checks every transcript, so this, times the
// files, is its floor. Files of 64 KiB, in the page cache.
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	const n, size = 512, 64 << 10
	body := make([]byte, size)
	for i := range body {
		body[i] = 'x'
		if i%200 == 199 {
			body[i] = '\n'
		}
	}
	body[size-1] = '\n'
	var paths []string
	var entries []*Entry
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("s%04d.jsonl", i))
		if err := os.WriteFile(p, body, 0o600); err != nil {
			b.Fatal(err)
		}
		e, ok := Stamp(p, size, 0, nil)
		if !ok {
			b.Fatal("not stamped")
		}
		paths, entries = append(paths, p), append(entries, e)
	}
	b.Run("check", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if Check(paths[i%n], entries[i%n]) != Same {
				b.Fatal("changed")
			}
		}
	})
	b.Run("stat", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, err := os.Stat(paths[i%n]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
