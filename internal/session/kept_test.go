package session

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// A read through keptReads gives the file's bytes, whether it is answered
// from a kept read or from the file, and only the first two small reads
// are kept.
func TestKeptReads(t *testing.T) {
	data := make([]byte, 50000)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(r.IntN(256))
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fh, err := rawfile.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	k := &keptReads{File: fh}
	for _, w := range []struct{ off, n int }{{0, 4096}, {50000 - 4096, 4096}, {100, 50}} {
		b := make([]byte, w.n)
		if n, err := k.ReadAt(b, int64(w.off)); n != w.n || err != nil || !bytes.Equal(b, data[w.off:w.off+w.n]) {
			t.Fatalf("ReadAt(%d, %d) = %d, %v", w.n, w.off, n, err)
		}
	}
	if k.n != 2 || k.kept[0].off != 0 || k.kept[1].off != 50000-4096 {
		t.Fatalf("kept %d reads (%d, %d), want the first two", k.n, k.kept[0].off, k.kept[1].off)
	}
	// Inside a kept read, across its edge, past the end of the file.
	for range 2000 {
		off := r.IntN(len(data) + 100)
		n := r.IntN(5000)
		if r.IntN(2) == 0 {
			off = len(data) - 4096 + r.IntN(4096)
			n = r.IntN(len(data) - off + 10)
		}
		b, want := make([]byte, n), make([]byte, n)
		got, gerr := k.ReadAt(b, int64(off))
		wn, werr := fh.ReadAt(want, int64(off))
		if got != wn || (gerr == nil) != (werr == nil) || !bytes.Equal(b[:got], want[:wn]) {
			t.Fatalf("ReadAt(%d, %d) = %d, %v; the file: %d, %v", n, off, got, gerr, wn, werr)
		}
	}
}
