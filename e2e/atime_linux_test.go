package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/testfs"
)

// cctx looks at transcripts; it does not access them for their owner: no
// command moves a transcript's access time (rawfile.OpenFD), cold or
// from the cache, where a plain read does on this file system (the
// control). A tool that ages files by their access time sees what it saw
// before cctx ran. Each command is a process of its own, as a user runs
// it: what one process learned (an O_NOATIME refused) is not the next's.
func TestNoCommandMovesAnAccessTime(t *testing.T) {
	dir := testfs.AtimeDir(t)
	if err := os.CopyFS(filepath.Join(dir, "projects"), os.DirFS(samples)); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	// Each atime a day before its mtime: a relatime mount then writes it
	// on every read.
	back := func() map[string]time.Time {
		at := map[string]time.Time{}
		for _, p := range files {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			a := st.ModTime().Add(-24 * time.Hour).Truncate(time.Second)
			if err := os.Chtimes(p, a, st.ModTime()); err != nil {
				t.Fatal(err)
			}
			at[p] = a
		}
		return at
	}
	moved := func(at map[string]time.Time) (n int, one string) {
		for _, p := range files {
			var st syscall.Stat_t
			if err := syscall.Stat(p, &st); err != nil {
				t.Fatal(err)
			}
			if !time.Unix(st.Atim.Unix()).Equal(at[p]) {
				n, one = n+1, p
			}
		}
		return n, one
	}

	at := back()
	for _, p := range files {
		os.ReadFile(p)
	}
	if n, _ := moved(at); n == 0 {
		t.Fatal("control: plain reads moved no access time")
	}
	cacheDir, archive := t.TempDir(), t.TempDir()
	const id = "ef958aa1"
	for _, args := range [][]string{
		{"tokens", "--json", "--no-cache"},
		{"tokens", "--json"}, // fills the cache
		{"tokens", "--json"}, // from it
		{"tokens", "--by", "tool"},
		{"ls", "--all"},
		{"ls", "--all"},
		{"ls", "--long", "--all"},
		{"grep", "the"},
		{"show", id},
		{"show", "--json", id},
		{"tree", id},
		{"agents", id},
		{"tokens", id},
		{"export", id, "-o", filepath.Join(t.TempDir(), "s.html")},
		{"archive", "--to", archive},
	} {
		at := back()
		r := cctxWith(t, opts{env: []string{"CCTX_CACHE_DIR=" + cacheDir}}, append(args, "--dir", dir)...)
		if r.code != 0 {
			t.Fatalf("%v: %s", args, r)
		}
		if n, one := moved(at); n > 0 {
			t.Errorf("%v moved the access time of %d transcript(s), %s among them", args, n, one)
		}
	}
}
