package tokens

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// ls --long's counts are kept only while every file is the one read: a
// transcript replaced by another of the same size while it is read is
// counted again by the next run, not given the old one's counts.
func TestStatsKeptOnlyForTheFilesRead(t *testing.T) {
	const id = "10000000-0000-4000-8000-000000000001"
	a := asst("u1", "", "m1", "r1", 1000, 2000, 0, 0, "") + "\n"
	b := asst("u1", "", "m1", "r1", 3000, 4000, 0, 0, "") + "\n" // same size, other tokens
	if len(a) != len(b) {
		t.Fatal("the two transcripts differ in size")
	}
	root := filepath.Join(t.TempDir(), "projects")
	p := filepath.Join(root, "-p", id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(a), 0o600); err != nil {
		t.Fatal(err)
	}
	cdir := t.TempDir()
	stats := func(cached bool) SessionStats {
		finder := session.NewFinder([]session.Root{{ProjectsDir: root}}, diag.Discard())
		o := ReadOptions{}
		if cached {
			o.Cache = cache.Open(cdir, nil)
		}
		return Stats(finder, finder.Sessions(), o)[0]
	}
	defer func() { readStats = sessionStats }()
	readStats = func(s *session.Session, agents []session.Agent, o ReadOptions) (SessionStats, []reader.Issue) {
		got, unlinked := sessionStats(s, agents, o)
		// Replaced (renamed over) once read, before the counts are kept.
		if err := os.WriteFile(p+".new", []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil {
			t.Fatal(err)
		}
		return got, unlinked
	}
	if got := stats(true); got.Tokens != 3000 {
		t.Fatalf("first run: %+v, want A's 3000 tokens", got)
	}
	readStats = sessionStats
	want := stats(false)
	if want.Tokens != 7000 {
		t.Fatalf("B without the cache: %+v, want 7000 tokens", want)
	}
	if got := stats(true); got != want {
		t.Errorf("the next run with the cache: %+v, want B's %+v", got, want)
	}
}

// ls --long says the issues of its sessions in the sessions' order, the
// same on every run, though it reads them in parallel.
func TestStatsSaysIssuesInOrder(t *testing.T) {
	files := map[string][]string{}
	for i := range 12 {
		sid := fmt.Sprintf("%08d-0000-0000-0000-000000000000", i)
		files["-p/"+sid+".jsonl"] = []string{strings.Replace(asst("u1", "", fmt.Sprintf("m%d", i), "r", 1, 2, 0, 0, ""), `"sessionId":"s"`, `"sessionId":"`+sid+`"`, 1), "{not json " + sid}
	}
	root := writeTree(t, files)
	finder := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	ss := finder.Sessions()
	for run := range 5 {
		var got []string
		Stats(finder, ss, ReadOptions{OnIssue: func(is reader.Issue) { got = append(got, filepath.Base(is.File)) }})
		if len(got) != len(ss) {
			t.Fatalf("%d issues, want one a session: %q", len(got), got)
		}
		for i, s := range ss {
			if got[i] != filepath.Base(s.Path) {
				t.Fatalf("run %d: issue %d of %s, the session there is %s", run, i, got[i], filepath.Base(s.Path))
			}
		}
	}
}
