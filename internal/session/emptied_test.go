package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
)

// A main transcript emptied to 0 bytes whose subagent transcripts hold a
// conversation is read as one whose main transcript was deleted: an
// Orphan, listed with what its subagents record, found so by id and by
// path. An empty file whose agents hold none (no agent, an empty one,
// only metadata, only the warm-up of a 2.0.x session never used) stays a
// file without conversation.
func TestEmptiedMainIsReadAsDeleted(t *testing.T) {
	agent := func(text string) string {
		return lines(userLine(text, `"isSidechain":true,"sessionId":"`+id2+`",`),
			`{"type":"assistant","isSidechain":true,"sessionId":"`+id2+`","timestamp":"2026-01-02T10:00:05Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}}`)
	}
	nested := "-p/" + id2 + "/subagents/agent-a1.jsonl"
	tests := []struct {
		name    string
		files   map[string]string // beside -p/<id2>.jsonl, which is empty
		orphan  bool              // read as its subagents
		project string            // of its row (listed with --empty when not an orphan)
	}{
		{"a subagent with a conversation", map[string]string{nested: agent("find the callers")}, true, "/home/me/app"},
		{"a 2.0.x flat agent with a conversation", map[string]string{"-p/agent-a2.jsonl": agent("find the callers")}, true, "/home/me/app"},
		{"no subagent", nil, false, ""},
		{"an empty session folder", map[string]string{"-p/" + id2 + "/subagents/notes.txt": "x"}, false, ""},
		{"a 0-byte agent file", map[string]string{nested: ""}, false, ""},
		{"an agent file of metadata only", map[string]string{nested: lines(`{"type":"summary","summary":"s","leafUuid":"u"}`)}, false, ""},
		{"a warm-up agent only", map[string]string{nested: agent("Warmup")}, false, ""},
		{"a 2.0.x flat warm-up only", map[string]string{"-p/agent-a2.jsonl": agent("Warmup")}, false, ""},
		{"a warm-up and a real agent", map[string]string{nested: agent("Warmup"), "-p/" + id2 + "/subagents/agent-a3.jsonl": agent("go")}, true, "/home/me/app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"-p/" + id2 + ".jsonl": "", "-p/" + id1 + ".jsonl": lines(userLine("other", ""))}
			for k, v := range tt.files {
				files[k] = v
			}
			root := write(t, files)
			main := filepath.Join(root, "-p", id2+".jsonl")
			// Emptied just now: the session's time is its agents'.
			agentTime := time.Date(2026, 1, 2, 11, 0, 0, 0, time.UTC)
			for k := range tt.files {
				os.Chtimes(filepath.Join(root, k), agentTime, agentTime)
			}
			var errOut bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&errOut, false, false))
			l := f.List(ListOptions{IncludeEmpty: true})
			var row *Info
			for _, in := range l.Sessions {
				if in.ID == id2 {
					row = in
				}
			}
			if row == nil {
				t.Fatalf("%s not listed with --empty", id2)
			}
			emptied := ""
			if tt.orphan {
				emptied = main
			}
			checks := []struct {
				what      string
				got, want any
			}{
				{"Orphan", row.Orphan, tt.orphan},
				{"Emptied", row.Emptied, emptied},
				{"Empty (hidden without --empty)", row.Empty, !tt.orphan},
				{"Project", row.Project, tt.project},
				{"warned", strings.Contains(errOut.String(), "1 session(s) have subagent transcripts but an empty main transcript"), tt.orphan},
				{"said deleted", strings.Contains(errOut.String(), "no main transcript"), false},
			}
			if tt.orphan {
				checks = append(checks, []struct {
					what      string
					got, want any
				}{
					{"Path", row.Path, ""},
					{"ModTime", row.ModTime.UTC(), agentTime},
					{"StartedAt", row.StartedAt, time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)},
					{"UpdatedAt", row.UpdatedAt, time.Date(2026, 1, 2, 10, 0, 5, 0, time.UTC)},
					{"Subagents", row.Subagents, len(tt.files)},
					{"MainGone", row.MainGone(), "is empty (0 bytes: " + id2 + ".jsonl)"},
				}...)
			} else {
				checks = append(checks, struct {
					what      string
					got, want any
				}{"Path", row.Path, main})
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s = %v, want %v (stderr %q)", c.what, c.got, c.want, errOut.String())
				}
			}
			// Without --empty: listed when an orphan, else hidden.
			hidden := len(f.List(ListOptions{}).Hidden)
			if want := map[bool]int{true: 0, false: 1}[tt.orphan]; hidden != want {
				t.Errorf("%d hidden, want %d", hidden, want)
			}
			// By id, prefix and path, the same session.
			for _, arg := range []string{id2, id2[:6], main} {
				s, err := f.Resolve(arg)
				if err != nil || s.Orphan != tt.orphan || s.Emptied != emptied || s.ID != id2 {
					t.Errorf("Resolve(%s) = %+v, %v", arg, s, err)
				}
			}
		})
	}
}

// The ls cache holds the row of an empty file; once subagent transcripts
// appear beside it (or with a cache an older cctx wrote), the row is not
// taken: the session is its subagents.
func TestEmptiedMainIsNotTakenFromTheCache(t *testing.T) {
	root := write(t, map[string]string{"-p/" + id2 + ".jsonl": ""})
	store := cache.Open(t.TempDir(), nil)
	list := func() Listing {
		f := NewFinder([]Root{{ProjectsDir: root}}, nil)
		f.Cache = store
		return f.List(ListOptions{})
	}
	if l := list(); len(l.Sessions) != 0 || len(l.Hidden) != 1 {
		t.Fatalf("listed %d, hidden %d: want the empty file hidden", len(l.Sessions), len(l.Hidden))
	}
	list() // its row is in the cache now
	writeAt(t, root, "-p/"+id2+"/subagents/agent-a1.jsonl", lines(userLine("go", `"isSidechain":true,`)))
	for range 2 { // cold, then warm
		l := list()
		if len(l.Sessions) != 1 || !l.Sessions[0].Orphan || l.Sessions[0].Project != "/home/me/app" {
			t.Fatalf("listed %+v, hidden %d: want the emptied session, from its agent", l.Sessions, len(l.Hidden))
		}
	}
}

// An orphan whose only agents are 2.0.x warm-ups (what the archive keeps
// of a session never used: its empty main file is not archived) is a
// session without conversation, as the same session with its empty main
// file is.
func TestOrphanOfWarmupsIsEmpty(t *testing.T) {
	warm := lines(userLine("Warmup", `"isSidechain":true,"sessionId":"`+id2+`",`))
	for _, layout := range []string{"-p/" + id2 + "/subagents/agent-a1.jsonl", "-p/agent-a1.jsonl"} {
		root := write(t, map[string]string{layout: warm, "-p/" + id1 + ".jsonl": lines(userLine("one", ""))})
		f := NewFinder([]Root{{ProjectsDir: root}}, nil)
		l := f.List(ListOptions{})
		if len(l.Sessions) != 1 || l.Sessions[0].ID != id1 || len(l.Hidden) != 1 || !l.Hidden[0].Orphan {
			t.Errorf("%s: listed %d (hidden %d), want only %s", layout, len(l.Sessions), len(l.Hidden), id1)
		}
	}
}
