package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/testfs"
)

// orphanDir holds a project folder with one session and one folder whose
// main transcript Claude Code deleted (issue 16 item 5).
const (
	orphanDir = "../testdata/crafted/orphan"
	orphanSID = "7d1c0a52-9a8e-4f6b-b1f4-2c3d4e5f6a7b"
)

// A session whose main transcript is gone is in every listing and total,
// marked, said on stderr, and every command reads it without failing.
func TestOrphanSessionInEveryCommand(t *testing.T) {
	tests := []struct {
		args   []string
		out    []string // substrings of stdout
		stderr string   // substring of stderr
	}{
		{[]string{"ls", "--all", "--json"}, []string{`"session_id":"` + orphanSID + `"`, `"main_transcript":false`, `"main_transcript":true`, `"subagents":2`},
			"1 session(s) have subagent transcripts but no main transcript"},
		{[]string{"ls", "--all"}, []string{orphanSID + "\t2026-03-03T10:00:10.000Z\t/home/me/app\tmain\t2\t"}, "no main transcript"},
		// The total counts the orphan's 3 responses beside the other
		// session's one.
		{[]string{"tokens", "--json"}, []string{`"total_tokens":10414`, `"api_calls":4`}, "no main transcript"},
		{[]string{"tokens", "7d1c"}, []string{"a1b2c3d4e5f6a7b80", "a9e8d7c6b5a4f3e20"}, "its main transcript was deleted"},
		{[]string{"tree", "7d1c"}, []string{"2 subagents", "Find parseConfig callers"}, "its main transcript was deleted"},
		{[]string{"tree", "7d1c", "--json"}, []string{`"session_id":"` + orphanSID + `"`}, "its main transcript was deleted"},
		{[]string{"agents", "7d1c", "--json"}, []string{`"agent_id":"a1b2c3d4e5f6a7b80"`, `"total_tokens":3407`}, "its main transcript was deleted"},
		{[]string{"show", "7d1c", "--no-pager"}, []string{"3 API calls · 2 subagents"}, "its main transcript was deleted"},
		{[]string{"show", "7d1c", "--json"}, []string{`"total_tokens":9872`}, "its main transcript was deleted"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := run(t, false, nil, append(tt.args, "--dir", orphanDir)...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %s", r.code, r.errOut)
			}
			for _, s := range tt.out {
				if !strings.Contains(r.out, s) {
					t.Errorf("stdout lacks %q:\n%.2000s", s, r.out)
				}
			}
			if !strings.Contains(r.errOut, tt.stderr) {
				t.Errorf("stderr lacks %q: %s", tt.stderr, r.errOut)
			}
			if strings.Count(r.errOut, "no main transcript") > 1 {
				t.Errorf("said more than once: %s", r.errOut)
			}
			// What the deleted file held (the calls that spawned the
			// agents) is implied by that warning, not warned again.
			if n := strings.Count(r.errOut, "cctx: warning:"); n != 1 {
				t.Errorf("%d warnings, want the one: %s", n, r.errOut)
			}
			if strings.Contains(tt.args[len(tt.args)-1], "json") || tt.args[len(tt.args)-1] == "--json" {
				if !json.Valid([]byte(r.out)) {
					t.Errorf("not JSON: %.300s", r.out)
				}
			}
		})
	}
}

// A session whose main transcript was emptied (0 bytes) while its
// subagent transcripts are full is read as one whose main transcript was
// deleted: every command prints what it prints of the deleted one, cold
// and from the cache, and stderr says the file is empty, not deleted.
func TestEmptiedMainAsDeletedInEveryCommand(t *testing.T) {
	// Emptied, or left with no conversation (review s12 item 5): a
	// newline, a crash's NUL bytes, a metadata line.
	for _, tc := range []struct{ name, main string }{
		{"0 bytes", ""}, {"a newline", "\n"}, {"NUL bytes", strings.Repeat("\x00", 4096)},
		{"metadata", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { emptiedAsDeleted(t, tc.main) })
	}
}

func emptiedAsDeleted(t *testing.T, content string) {
	deleted, emptied := t.TempDir(), t.TempDir()
	copyTree(t, orphanDir, deleted)
	copyTree(t, orphanDir, emptied)
	main := filepath.Join(emptied, "projects", "-home-me-app", orphanSID+".jsonl")
	if err := os.WriteFile(main, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := "its main transcript is empty (0 bytes: " + orphanSID + ".jsonl)"
	if content != "" {
		unit := map[bool]string{true: "byte", false: "bytes"}[len(content) == 1]
		gone = fmt.Sprintf("its main transcript holds no conversation (%d %s, no user or assistant line: %s.jsonl)", len(content), unit, orphanSID)
	}
	cacheDir := t.TempDir()
	tests := []struct {
		args   []string
		stderr string // of the emptied session
	}{
		{[]string{"ls", "--all", "--json"}, "1 session(s) have subagent transcripts but an empty main transcript"},
		{[]string{"ls", "--all", "--long"}, "an empty main transcript"},
		{[]string{"ls", "--all", "--empty"}, "an empty main transcript"},
		{[]string{"tokens", "--json"}, "an empty main transcript"},
		{[]string{"tokens", "--by", "project"}, "an empty main transcript"},
		{[]string{"tokens", "7d1c"}, gone},
		{[]string{"tree", "7d1c"}, gone},
		{[]string{"agents", "7d1c", "--json"}, gone},
		{[]string{"show", "7d1c", "--no-pager", "--agents"}, gone},
		{[]string{"show", "7d1c", "--json"}, gone},
		{[]string{"show", main, "--json"}, gone}, // by its path
		{[]string{"grep", "parseConfig", "-l"}, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := func(root string) []string {
				a := slices.Clone(tt.args)
				if a[1] == main {
					a[1] = filepath.Join(root, "projects", "-home-me-app", orphanSID)
					if root == emptied {
						a[1] += ".jsonl"
					}
				}
				return append(a, "--dir", root)
			}
			want := run(t, false, nil, args(deleted)...)
			want.out = strings.ReplaceAll(want.out, deleted, "ROOT")
			if want.code != 0 || want.out == "" {
				t.Fatalf("deleted: exit %d, stdout %q, stderr %s", want.code, want.out, want.errOut)
			}
			for _, pass := range []string{"cold", "warm"} {
				got := run(t, false, map[string]string{"CCTX_CACHE_DIR": cacheDir}, args(emptied)...)
				got.out = strings.ReplaceAll(got.out, emptied, "ROOT")
				// agents --json quotes its warning: the one thing said otherwise.
				got.out = strings.ReplaceAll(got.out, gone, "its main transcript was deleted (Claude Code's cleanup, after cleanupPeriodDays)")
				if got.code != 0 || got.out != want.out {
					t.Errorf("%s: exit %d, stdout\n%.1500s\nwant (the deleted one's)\n%.1500s", pass, got.code, got.out, want.out)
				}
				if !strings.Contains(got.errOut, tt.stderr) || strings.Contains(got.errOut, "deleted") || strings.Contains(got.errOut, "panic") {
					t.Errorf("%s: stderr %q, want %q and nothing deleted", pass, got.errOut, tt.stderr)
				}
			}
		})
	}
	// A terminal marks it as what it is.
	r := run(t, true, nil, "ls", "--all", "--dir", emptied)
	if !strings.Contains(r.out, "(main transcript empty)") {
		t.Errorf("ls on a terminal:\n%s", r.out)
	}
}

// A main transcript this user may not read (permission denied), beside
// subagent transcripts, gets one answer from every command (review s12
// item 7: ls listed nothing while tokens counted it, show failed): the
// session is read from its subagents as a deleted one is, the file is
// named as unreadable, and a command that named the session exits 1,
// with what it read printed. Run as nobody when the tests run as root.
func TestUnreadableMainOneAnswer(t *testing.T) {
	// The child run as nobody starts elsewhere: it is told where the
	// crafted tree is.
	src := os.Getenv("CCTX_TEST_ORPHAN_DIR")
	if src == "" {
		src, _ = filepath.Abs(orphanDir)
		t.Setenv("CCTX_TEST_ORPHAN_DIR", src)
	}
	if testfs.RunUnprivileged(t) {
		return
	}
	deleted, locked := t.TempDir(), t.TempDir()
	copyTree(t, src, deleted)
	copyTree(t, src, locked)
	main := filepath.Join(locked, "projects", "-home-me-app", orphanSID+".jsonl")
	if err := os.WriteFile(main, []byte(`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(main, 0)
	gone := "its main transcript could not be read (permission denied: " + orphanSID + ".jsonl)"
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"ls", "--all", "--json"}, 0},
		{[]string{"ls", "--all"}, 0},
		{[]string{"tokens", "--json"}, 0},
		{[]string{"tokens", "7d1c"}, 1},
		{[]string{"tree", "7d1c"}, 1},
		{[]string{"agents", "7d1c", "--json"}, 1},
		{[]string{"show", "7d1c", "--no-pager"}, 1},
		{[]string{"show", "7d1c", "--json"}, 1},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			want := run(t, false, nil, append(tt.args, "--dir", deleted)...)
			got := run(t, false, nil, append(tt.args, "--dir", locked)...)
			want.out = strings.ReplaceAll(want.out, deleted, "ROOT")
			got.out = strings.ReplaceAll(strings.ReplaceAll(got.out, locked, "ROOT"), gone, "its main transcript was deleted (Claude Code's cleanup, after cleanupPeriodDays)")
			if got.code != tt.code || got.out != want.out || want.out == "" {
				t.Errorf("exit %d (want %d), stdout\n%.1500s\nwant (the deleted one's)\n%.1500s\nstderr %s", got.code, tt.code, got.out, want.out, got.errOut)
			}
			if !strings.Contains(got.errOut, "permission denied") || strings.Contains(got.errOut, "deleted") {
				t.Errorf("stderr %q: want the file said unreadable, nothing deleted", got.errOut)
			}
		})
	}
	if r := run(t, true, nil, "ls", "--all", "--dir", locked); !strings.Contains(r.out, "(main transcript unreadable)") {
		t.Errorf("ls on a terminal:\n%s", r.out)
	}
}

// A session named whose transcript holds no conversation, with no
// subagent to read instead, says why it has nothing to show or count,
// in a pipe too (review s12 item 12: tokens and agents printed nothing at
// all, show "(nothing to show)", resume "records no directory"); one that
// holds a conversation says nothing of the kind. And -v's note on the
// agents of an emptied main transcript does not call it deleted.
func TestEmptyTranscriptSaysWhy(t *testing.T) {
	const id = "6875bbee-5e91-4ed0-a998-0eea42529e13"
	for _, tc := range []struct{ name, main, why string }{
		{"0 bytes", "", "cctx: session " + id + ": its transcript is empty (0 bytes: " + id + ".jsonl)\n"},
		{"metadata", `{"type":"summary","summary":"s","leafUuid":"u"}` + "\n",
			"cctx: session " + id + ": its transcript holds no conversation (48 bytes, no user or assistant line: " + id + ".jsonl)\n"},
		{"a conversation", `{"type":"user","uuid":"u1","sessionId":"` + id + `","cwd":"/w","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"hi"}}` + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "projects", "-w", id+".jsonl")
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(tc.main), 0o644)
			for _, args := range [][]string{{"tokens", "6875"}, {"agents", "6875"}, {"show", "6875"}, {"tree", "6875"}, {"export", "6875", "--format", "md"}, {"show", p}} {
				r := run(t, false, nil, append(args, "--dir", dir)...)
				said := strings.Contains(r.errOut, tc.why)
				if tc.why == "" {
					said = !strings.Contains(r.errOut, "its transcript")
				}
				if r.code != 0 || !said || strings.Count(r.errOut, "its transcript") > 1 {
					t.Errorf("%v: exit %d, stderr %q, want %q", args, r.code, r.errOut, tc.why)
				}
			}
			r := run(t, false, nil, "resume", "6875", "--print", "--dir", dir)
			if tc.why != "" && (r.code != 1 || !strings.Contains(r.errOut, strings.TrimSuffix(strings.TrimPrefix(tc.why, "cctx: "), "\n")+": there is no conversation for Claude Code to resume")) {
				t.Errorf("resume: exit %d, stderr %q", r.code, r.errOut)
			}
		})
	}
	// -v of agents, an emptied main transcript: its agents' calls were in
	// it, now empty, not deleted.
	emptied := t.TempDir()
	copyTree(t, orphanDir, emptied)
	os.WriteFile(filepath.Join(emptied, "projects", "-home-me-app", orphanSID+".jsonl"), nil, 0o644)
	r := run(t, false, nil, "agents", "7d1c", "-v", "--dir", emptied)
	if !strings.Contains(r.errOut, "their calls were in the main transcript, empty now") || strings.Contains(r.errOut, "deleted") {
		t.Errorf("agents -v: %s", r.errOut)
	}
}
