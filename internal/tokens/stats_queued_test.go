package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/session"
)

// queuedSession is a session whose second typed prompt was queued while
// the model worked, delivered as an attachment line (2.1.2xx), with the
// queue operations Claude Code writes around it, and a prompt queued and
// taken back (an enqueue and a remove, no delivery).
var queuedSession = []string{
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:00.000Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"start the build"}`,
	`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-07-16T02:00:00.050Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
	`{"parentUuid":null,"type":"user","message":{"role":"user","content":"start the build"},"uuid":"u1","timestamp":"2026-07-16T02:00:00.100Z","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/w/app"}`,
	`{"parentUuid":"u1","type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"output_tokens":5}},"uuid":"a1","timestamp":"2026-07-16T02:00:01.000Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:02.000Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"also bump the version"}`,
	`{"parentUuid":"a1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"uuid":"r1","timestamp":"2026-07-16T02:00:03.000Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
	`{"parentUuid":"r1","isSidechain":false,"attachment":{"type":"queued_command","prompt":"also bump the version","commandMode":"prompt","origin":{"kind":"human"}},"type":"attachment","uuid":"q1","timestamp":"2026-07-16T02:00:03.100Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
	`{"type":"queue-operation","operation":"remove","timestamp":"2026-07-16T02:00:03.200Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"also bump the version"}`,
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:03.300Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"never mind the docs"}`,
	`{"type":"queue-operation","operation":"remove","timestamp":"2026-07-16T02:00:03.400Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"never mind the docs"}`,
	`{"parentUuid":"q1","type":"assistant","message":{"id":"m2","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"Bumped."}],"usage":{"input_tokens":20,"output_tokens":5}},"uuid":"a2","timestamp":"2026-07-16T02:00:04.000Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
}

// ls --long counts a queued prompt as a typed prompt, once, though the
// queue operations name it too; and counts kept in the cache by a build
// of the older rule (statsFormat 4, which counted 1) are read again.
func TestStatsCountQueuedPromptsAfterAnUpgrade(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "-w-app")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "11111111-2222-3333-4444-555555555555.jsonl"), []byte(strings.Join(queuedSession, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cacheDir := t.TempDir()
	count := func() int {
		f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
		ss := f.Sessions()
		if len(ss) != 1 {
			t.Fatalf("%d sessions", len(ss))
		}
		st := Stats(f, ss, ReadOptions{Cache: cache.Open(cacheDir, nil)})
		return st[0].Prompts
	}
	if n := count(); n != 2 {
		t.Fatalf("cold: %d prompts, want 2 (the typed one and the queued one, not the queue operations)", n)
	}
	if n := count(); n != 2 {
		t.Fatalf("warm: %d prompts, want 2", n)
	}
	// keep rewrites the kept counts as a build would keep 1 prompt under
	// format (the bytes: format, no subagent, prompts as a zigzag
	// varint, the rest as they are).
	path := filepath.Join(dir, "11111111-2222-3333-4444-555555555555.jsonl")
	keep := func(format byte) {
		store := cache.Open(cacheDir, nil).Sub("stats")
		e, st := store.Lookup(dir, path)
		if st != cache.Same || len(e.Data) < 3 || e.Data[1] != 0 {
			t.Fatalf("kept counts: %v %x", st, e.Data)
		}
		old := *e
		old.Data = append([]byte{format, 0, 2 * 1}, e.Data[3:]...)
		store.Put(dir, &old)
		store.Flush()
	}
	// The check that the test can fail: counts kept under this build's
	// format are read from the cache.
	keep(statsFormat)
	if n := count(); n != 1 {
		t.Fatalf("a kept count of the current format is not read from the cache: %d prompts", n)
	}
	// What the build before this rule kept for the session: format 4,
	// 1 prompt.
	keep(4)
	if n := count(); n != 2 {
		t.Errorf("after an upgrade, the counts kept under format 4 give %d prompts, want 2", n)
	}
}
