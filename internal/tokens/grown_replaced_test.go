package tokens

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// A main file checked Grown (lines appended), then replaced (renamed
// over) before its new lines are read: the file opened is not the one its
// entry describes, so it is counted whole, not as the old entry's lines
// followed by the new file's past the offset (which the cache would then
// keep for good).
func TestGrownThenReplacedIsCountedWhole(t *testing.T) {
	x, err := os.ReadFile(filepath.Join(testcorpus.Samples(), "-experiments-worktrees", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(filepath.Join(testcorpus.Samples(), "-tmp-tmpqwh7888i", "c7d3d95c-57f0-4359-8f4b-926a9bef5a3f.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.IndexByte(x[len(x)/3:], '\n') + len(x)/3 + 1
	root := filepath.Join(t.TempDir(), "projects")
	dir := filepath.Join(root, "-p")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl")
	must(os.WriteFile(p, x[:cut], 0o600))
	cdir := t.TempDir()
	countWith(root, cdir) // stamps A
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	must(err)
	_, err = f.Write(x[cut : cut+2000+bytes.IndexByte(x[cut+2000:], '\n')+1])
	must(err)
	f.Close()

	// A run: the listing and the check (Grown) ...
	finder := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	s2 := cache.Open(cdir, nil)
	inputs, _ := Inputs(finder, Selection{Cache: s2})
	if _, st := s2.Lookup(dir, p); st != cache.Grown {
		t.Fatalf("state %d, want Grown", st)
	}
	// ... then the file is replaced before it is counted.
	must(os.WriteFile(p+".new", y, 0o600))
	must(os.Rename(p+".new", p))
	Build(inputs, DefaultPrices(), Window{}, ReadOptions{Cache: s2})
	s2.Flush()

	if got, want := countWith(root, cdir), countWith(root, ""); got != want {
		t.Errorf("the next warm run of the replaced file differs from --no-cache:\nwarm: %.300s\ncold: %.300s", got, want)
	}
}
