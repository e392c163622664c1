package session

import (
	"os"
	"path/filepath"
	"testing"
)

// A root that is itself a project folder (--dir naming it), given unclean
// (a trailing slash, ., ..), lists its sessions under the paths
// filepath.Join makes: the paths its output shows and its cache entries
// are kept under.
func TestAnUncleanRootListsCleanPaths(t *testing.T) {
	dir := t.TempDir()
	id := "c27e4d9e-fd8d-4051-bda9-20d370765100"
	line := `{"type":"user","sessionId":"` + id + `","cwd":"/x","timestamp":"2026-01-02T03:04:05Z","message":{"role":"user","content":"hi"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, root := range []string{dir, dir + "/", dir + "/.", dir + "/../" + filepath.Base(dir), ".", "./"} {
		r, err := rootFromDir("--dir", root)
		if err != nil {
			t.Fatal(err)
		}
		ss := NewFinder([]Root{r}, nil).Sessions()
		if len(ss) != 1 {
			t.Fatalf("root %q: %d sessions", root, len(ss))
		}
		if want := filepath.Join(r.ProjectsDir, id+".jsonl"); ss[0].Path != want {
			t.Errorf("root %q: Path %q, want %q (filepath.Join)", root, ss[0].Path, want)
		}
	}
}
