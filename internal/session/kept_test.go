package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
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

// With NoFirstPrompt a row from the cache reads its first prompt only
// when it is its title; the titles are the same either way, whether the
// text is read with the check (every row shown) or once shown.
func TestNoFirstPrompt(t *testing.T) {
	root := t.TempDir()
	const prompt = `{"type":"user","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","message":{"role":"user","content":"fix the build"}}` + "\n"
	const a, b = "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002"
	for id, body := range map[string]string{
		a: prompt + `{"type":"ai-title","aiTitle":"Build fixed"}` + "\n",
		b: prompt,
	} {
		p := filepath.Join(root, "proj", id+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	store := cache.Open(t.TempDir(), nil)
	list := func(o ListOptions) map[string][2]string {
		f := NewFinder([]Root{{ProjectsDir: root}}, diag.Discard())
		f.Cache = store
		out := map[string][2]string{}
		for _, in := range f.List(o).Sessions {
			out[in.ID] = [2]string{in.Title, in.FirstPrompt}
		}
		return out
	}
	list(ListOptions{}) // fills the cache
	for _, limit := range []int{0, 1} {
		got := list(ListOptions{NoFirstPrompt: true, Limit: limit})
		want := map[string][2]string{a: {"Build fixed", ""}, b: {"fix the build", "fix the build"}}
		if limit == 1 {
			delete(want, a) // the same time: the greater id first
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("limit %d: rows %v, want %v", limit, got, want)
		}
		if all := list(ListOptions{Limit: limit}); len(all) != len(got) || limit == 0 && all[a][1] != "fix the build" {
			t.Errorf("limit %d without NoFirstPrompt: %v", limit, all)
		}
	}
}

// The rows of a root's sessions are kept in at most rowShards cache files,
// whatever the number of project folders, and a second listing takes them
// from them, checked with the status the listing found: a row whose file
// is the one the cache describes (same status, same first and last 4 KiB)
// is not read again, as a branch changed in its middle behind the cache's
// back shows.
func TestListedRowsFromCache(t *testing.T) {
	root := t.TempDir()
	pad := `{"type":"user","timestamp":"2026-01-01T00:00:01Z","cwd":"/p","gitBranch":"main","message":{"role":"user","content":"` + string(bytes.Repeat([]byte("x"), 5000)) + `"}}` + "\n"
	var body bytes.Buffer
	body.WriteString(`{"type":"user","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","message":{"role":"user","content":"fix the build"}}` + "\n")
	for range 5 {
		body.WriteString(pad)
	}
	var ids, paths []string
	for i := range 3 * rowShards {
		id := fmt.Sprintf("%08x-0000-4000-8000-000000000001", i)
		ids = append(ids, id)
		p := filepath.Join(root, fmt.Sprintf("proj%d", i), id+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	dir := t.TempDir()
	list := func() map[string]string {
		f := NewFinder([]Root{{ProjectsDir: root}}, diag.Discard())
		f.Cache = cache.Open(dir, nil)
		out := map[string]string{}
		for _, in := range f.List(ListOptions{}).Sessions {
			out[in.ID] = in.GitBranch
		}
		return out
	}
	if got := list(); len(got) != len(ids) || got[ids[0]] != "main" {
		t.Fatalf("first listing: %v", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.bin"))
	if len(files) == 0 || len(files) > rowShards {
		t.Errorf("%d cache files for one root of %d project folders, want 1 to %d: %v", len(files), len(ids), rowShards, files)
	}
	// The last line's branch, outside the hashed 4 KiB at each end, as it
	// was (size and time too).
	b := bytes.Clone(body.Bytes())
	copy(b[bytes.LastIndex(b, []byte(`"main"`)):], `"mian"`)
	st, err := os.Stat(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(paths[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(paths[0], st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := list(); got[ids[0]] != "main" {
		t.Errorf("second listing: branch %q, want the cached row's \"main\" (the row was read again)", got[ids[0]])
	}
}

// A row is stamped through the file it was read from, still open: a file
// replaced by another of the same size before the row is kept is not
// given the old one's row by the next listing.
func TestRowStampedFromTheFileRead(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "-p", id1+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(lines(userLine("title A", `"version":"2.1.1",`))), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	finder := func() *Finder {
		f := NewFinder([]Root{{ProjectsDir: root}}, diag.Discard())
		f.Cache = cache.Open(dir, nil)
		return f
	}
	f := finder()
	s := f.Sessions()[0]
	read, err := rawfile.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer read.Close()
	in, err := liteFile(s, read)
	if err != nil || in.Title != "title A" {
		t.Fatalf("row of A: %q, %v", in.Title, err)
	}
	// Replaced (renamed over) by B, of the same size, before the row is kept.
	if err := os.WriteFile(p+".new", []byte(lines(userLine("title B", `"version":"2.1.2",`))), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	f.rememberRead(in, read)
	f.flushRows()
	rows := finder().List(ListOptions{}).Sessions
	// (A row keeps no text, only where it is: its title is read again
	// from B either way; its version is kept.)
	if len(rows) != 1 || rows[0].Title != "title B" || rows[0].Version != "2.1.2" {
		t.Errorf("the next listing: %+v, want B's row (version 2.1.2)", rows[0])
	}
}
