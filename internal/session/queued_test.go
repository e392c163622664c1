package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
)

// queuedFirstPrompt is a session whose first typed prompt is a queued
// one (2.1.2xx: an attachment line), after a local command: the old rule
// took /model for its first prompt. The file is longer than a head and a
// tail, and the attachment line long enough (past skimLine), that the
// head's skim must let it through.
var queuedFirstPrompt = []string{
	`{"parentUuid":null,"type":"user","message":{"role":"user","content":"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"},"uuid":"u1","timestamp":"2026-07-16T02:00:00.000Z","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/w/app","gitBranch":"main"}`,
	`{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"output_tokens":5}},"uuid":"a1","timestamp":"2026-07-16T02:00:01.000Z","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/w/app","gitBranch":"main"}`,
	`{"parentUuid":"a1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"uuid":"r1","timestamp":"2026-07-16T02:00:02.000Z","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/w/app","gitBranch":"main"}`,
	`{"parentUuid":"r1","isSidechain":false,"attachment":{"type":"queued_command","prompt":"fix the login bug","commandMode":"prompt","origin":{"kind":"human"},"timestamp":"2026-07-16T02:00:03.000Z"},"type":"attachment","uuid":"q1","timestamp":"2026-07-16T02:00:03.000Z","userType":"external","entrypoint":"cli","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main","pad":"` + strings.Repeat("p", 2*skimLine) + `"}`,
	`{"parentUuid":"q1","type":"assistant","message":{"id":"m2","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"Fixed: ` + strings.Repeat("long reply ", 2*liteBytes/11) + `"}],"usage":{"input_tokens":20,"output_tokens":5}},"uuid":"a2","timestamp":"2026-07-16T02:00:04.000Z","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/w/app","gitBranch":"main"}`,
}

// ls takes a queued prompt for a session's first prompt, read whole or
// skimmed, and a row kept in the cache by a build of the older rule
// (lsCacheFormat 2, whose first prompt was /model) is read again.
func TestFirstPromptMayBeQueued(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "-w-app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "11111111-2222-3333-4444-555555555555.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(queuedFirstPrompt, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	list := func() (*Finder, *Info) {
		f := NewFinder([]Root{{ProjectsDir: root}}, nil)
		f.Cache = cache.Open(cacheDir, nil)
		l := f.List(ListOptions{})
		f.flushRows()
		if len(l.Sessions) != 1 {
			t.Fatalf("%d sessions", len(l.Sessions))
		}
		return f, l.Sessions[0]
	}
	for _, skim := range []bool{true, false} {
		noSkim = !skim
		s := &Session{ID: "11111111-2222-3333-4444-555555555555", Path: path}
		in, err := Lite(s)
		noSkim = false
		if err != nil || in.FirstPrompt != "fix the login bug" || in.TitleSource != "first-prompt" {
			t.Errorf("skim %v: first prompt %q (%s), %v", skim, in.FirstPrompt, in.TitleSource, err)
		}
	}
	if _, in := list(); in.FirstPrompt != "fix the login bug" {
		t.Fatalf("cold: first prompt %q", in.FirstPrompt)
	}
	// keep rewrites the kept row as a build would keep it under format,
	// its first prompt read from the /model line.
	keep := func(format byte) {
		f, in := list()
		store, key := f.rows(in.Session)
		e, st := store.Lookup(key, path)
		if st != cache.Same {
			t.Fatalf("row not kept: %v", st)
		}
		old, ok := infoFrom(in.Session, e.Data)
		if !ok {
			t.Fatal("kept row unreadable")
		}
		old.promptAt = lineRef{0, int64(len(queuedFirstPrompt[0]))}
		b, ok := encodeInfo(old)
		if !ok || b[0] != lsCacheFormat {
			t.Fatalf("row not encoded: %x", b)
		}
		b[0] = format
		kept := *e
		kept.Data, kept.Brief = b, len(b)
		store.Put(key, &kept)
		store.Flush()
	}
	// The check that the test can fail: a row of this build's format is
	// taken from the cache, its first prompt read where it says.
	keep(lsCacheFormat)
	if _, in := list(); in.FirstPrompt != "/model" {
		t.Fatalf("a row of the current format is not taken from the cache: first prompt %q", in.FirstPrompt)
	}
	keep(2)
	if _, in := list(); in.FirstPrompt != "fix the login bug" {
		t.Errorf("after an upgrade, a row kept under format 2 gives the first prompt %q", in.FirstPrompt)
	}
}
