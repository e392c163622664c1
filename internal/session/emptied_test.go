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
	"github.com/cctx-dev/cctx/internal/testfs"
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

// A main transcript that holds no conversation is read as an emptied one
// when its subagents hold one, whatever is left in it: a newline, a
// crash's NUL bytes, metadata lines only (review s12 item 5: ls hid such a
// session while tokens counted it). It is listed, cold and from the
// cache, found by id and path, and its start is its subagents'. A main
// with a conversation, one with lines that are no entry (damage its
// reading says), or one longer than a listing reads, is read as it is.
func TestMainWithoutConversationIsReadAsEmptied(t *testing.T) {
	meta := `{"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":{}},"isSnapshotUpdate":false}`
	tests := []struct {
		name, main string
		emptied    bool
		gone       string // MainGone, when emptied
	}{
		{"0 bytes", "", true, "is empty (0 bytes: " + id2 + ".jsonl)"},
		{"a newline", "\n", true, "holds no conversation (1 byte, no user or assistant line: " + id2 + ".jsonl)"},
		{"blank lines", "\n  \r\n\n", true, "holds no conversation (6 bytes"},
		{"NUL bytes (a crash)", strings.Repeat("\x00", 4096), true, "holds no conversation (4096 bytes"},
		{"metadata only", lines(meta, `{"type":"summary","summary":"s","leafUuid":"u"}`), true, "holds no conversation ("},
		{"metadata after NUL bytes", strings.Repeat("\x00", 100) + lines(meta), true, "holds no conversation ("},
		{"a conversation", lines(meta, userLine("hello", "")), false, ""},
		{"a conversation after NUL bytes", strings.Repeat("\x00", 100) + lines(userLine("hello", "")), false, ""},
		{"lines that are no entry", "x\ny\n", false, ""},
		{"metadata past what a listing reads", strings.Repeat(lines(meta), 70<<10/len(meta)), false, ""},
		// What the listing's first 4 KiB must read as the whole file does.
		{"a byte order mark, metadata only", "\xEF\xBB\xBF" + lines(meta), true, "holds no conversation ("},
		{"a line of no type with a user's role, past 4 KiB", lines(`{"message":{"role":"user","content":"hi"}}`, `{"type":"summary","summary":"`+strings.Repeat("s", 5000)+`"}`), true, "holds no conversation ("},
		{"a conversation after a first line longer than 4 KiB", lines(`{"type":"summary","summary":"`+strings.Repeat("s", 5000)+`"}`, userLine("hello", "")), false, ""},
		{"metadata past 4 KiB", lines(`{"type":"summary","summary":"`+strings.Repeat("s", 5000)+`"}`, meta), true, "holds no conversation ("},
	}
	agent := lines(userLine("find the callers", `"isSidechain":true,"sessionId":"`+id2+`",`))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// id1, a session with a conversation, gives the cache rows: a
			// second pass is then a warm one (the listing reads with files open).
			root := write(t, map[string]string{"-p/" + id2 + ".jsonl": tt.main, "-p/" + id2 + "/subagents/agent-a1.jsonl": agent,
				"-p/" + id1 + ".jsonl": lines(userLine("other", ""))})
			main := filepath.Join(root, "-p", id2+".jsonl")
			store := cache.Open(t.TempDir(), nil)
			for _, pass := range []string{"cold", "warm"} {
				var errOut bytes.Buffer
				f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&errOut, false, false))
				f.Cache = store
				if warm := f.rowsKnown(); warm != (pass == "warm") {
					t.Fatalf("%s: rows known %v", pass, warm)
				}
				l := f.List(ListOptions{IncludeEmpty: true})
				var in *Info
				for _, row := range l.Sessions {
					if row.ID == id2 {
						in = row
					}
				}
				if len(l.Sessions) != 2 || in == nil {
					t.Fatalf("%s: listed %d, %v", pass, len(l.Sessions), in)
				}
				if in.Orphan != tt.emptied || (in.Emptied == main) != tt.emptied {
					t.Fatalf("%s: Orphan %v, Emptied %q: want emptied %v", pass, in.Orphan, in.Emptied, tt.emptied)
				}
				if !tt.emptied {
					continue
				}
				if !strings.HasPrefix(in.MainGone(), tt.gone) || in.MainState() != "empty" || in.Project != "/home/me/app" || in.Empty || in.Size != 0 {
					t.Errorf("%s: MainGone %q, state %q, project %q, empty %v, size %d", pass, in.MainGone(), in.MainState(), in.Project, in.Empty, in.Size)
				}
				if !strings.Contains(errOut.String(), "1 session(s) have subagent transcripts but an empty main transcript") {
					t.Errorf("%s: not said: %q", pass, errOut.String())
				}
				if started, project, err := Start(in.Session); err != nil || project != "/home/me/app" || started.IsZero() {
					t.Errorf("%s: Start %v %q %v", pass, started, project, err)
				}
				for _, arg := range []string{id2, id2[:6], main} {
					if s, err := f.Resolve(arg); err != nil || !s.Orphan || s.Emptied != main {
						t.Errorf("%s: Resolve(%s) = %+v, %v", pass, arg, s, err)
					}
				}
			}
			// Without subagents it is a file without conversation, as it was.
			os.RemoveAll(filepath.Join(root, "-p", id2))
			for _, in := range NewFinder([]Root{{ProjectsDir: root}}, nil).List(ListOptions{IncludeEmpty: true}).Sessions {
				if in.Orphan {
					t.Errorf("without subagents: %+v", in)
				}
			}
		})
	}
}

// A main transcript this user may not read, beside subagent transcripts
// that hold a conversation, is read as an emptied one, said unreadable
// (review s12 item 7: ls listed nothing, tokens counted its subagents,
// show failed): every command reads the session from its subagents and
// says why, as a file it could not read. Without subagents it is an
// unreadable file, as before. Run as nobody when the tests run as root.
func TestUnreadableMainIsReadFromItsSubagents(t *testing.T) {
	if testfs.RunUnprivileged(t) {
		return
	}
	agent := lines(userLine("find the callers", `"isSidechain":true,"sessionId":"`+id2+`",`))
	for _, tt := range []struct {
		name      string
		main      string
		subagents bool
	}{
		{"small, with subagents", lines(userLine("hi", "")), true},
		{"past what a listing reads, with subagents", strings.Repeat(lines(userLine("hi", "")), 1000), true},
		{"without subagents", lines(userLine("hi", "")), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"-p/" + id2 + ".jsonl": tt.main, "-p/" + id1 + ".jsonl": lines(userLine("other", ""))}
			if tt.subagents {
				files["-p/"+id2+"/subagents/agent-a1.jsonl"] = agent
			}
			root := write(t, files)
			main := filepath.Join(root, "-p", id2+".jsonl")
			if err := os.Chmod(main, 0); err != nil {
				t.Fatal(err)
			}
			var errOut bytes.Buffer
			rep := diag.New(&errOut, false, false)
			f := NewFinder([]Root{{ProjectsDir: root}}, rep)
			l := f.List(ListOptions{})
			var row *Info
			for _, in := range l.Sessions {
				if in.ID == id2 {
					row = in
				}
			}
			if !tt.subagents {
				if row != nil || l.Unread != 1 {
					t.Errorf("without subagents: listed %v, unread %d", row, l.Unread)
				}
				return
			}
			if row == nil || !row.Orphan || row.MainState() != "unreadable" || !row.MainUnreadable() || row.Project != "/home/me/app" || l.Unread != 0 {
				t.Fatalf("row %+v, unread %d (stderr %q)", row, l.Unread, errOut.String())
			}
			if want := "could not be read (permission denied: " + id2 + ".jsonl)"; row.MainGone() != want {
				t.Errorf("MainGone %q, want %q", row.MainGone(), want)
			}
			if !strings.Contains(errOut.String(), main+": permission denied") || !strings.Contains(errOut.String(), "listed as \"main transcript unreadable\"") || rep.UnreadableFiles() != 1 {
				t.Errorf("said %q, %d unreadable", errOut.String(), rep.UnreadableFiles())
			}
			for _, arg := range []string{id2, main} {
				if s, err := f.Resolve(arg); err != nil || !s.MainUnreadable() {
					t.Errorf("Resolve(%s) = %+v, %v", arg, s, err)
				}
			}
		})
	}
}

// The warning of orphans counts those the listing lists (review s12 item
// 14: "2 session(s) … listed as main transcript deleted" over one row),
// and names what the cleanup left in their layout: <id>/subagents/, or a
// 2.0.x session's flat agent files.
func TestOrphanWarningCountsWhatIsListed(t *testing.T) {
	flat := func(sid, text string) string {
		return lines(userLine(text, `"isSidechain":true,"sessionId":"`+sid+`",`))
	}
	tests := []struct {
		name   string
		files  map[string]string
		empty  bool // ls --empty
		want   string
		leaves string
	}{
		{"a flat warm-up orphan and a real one", map[string]string{"-p/agent-a1.jsonl": flat(id1, "Warmup"), "-p/agent-a2.jsonl": flat(id2, "go")}, false,
			"1 session(s) have subagent transcripts but no main transcript", "the agent-<agent-id>.jsonl files Claude Code 2.0.x wrote beside it"},
		{"the same with --empty", map[string]string{"-p/agent-a1.jsonl": flat(id1, "Warmup"), "-p/agent-a2.jsonl": flat(id2, "go")}, true,
			"2 session(s) have subagent transcripts but no main transcript", "the agent-<agent-id>.jsonl files Claude Code 2.0.x wrote beside it"},
		{"a subagents/ folder", map[string]string{"-p/" + id2 + "/subagents/agent-a1.jsonl": flat(id2, "go")}, false,
			"1 session(s)", "leaves <id>/subagents/)"},
		{"both layouts", map[string]string{"-p/" + id2 + "/subagents/agent-a1.jsonl": flat(id2, "go"), "-q/agent-a2.jsonl": flat(id1, "go")}, false,
			"2 session(s)", "leaves <id>/subagents/, or the agent-<agent-id>.jsonl files Claude Code 2.0.x wrote beside it)"},
		{"a warm-up orphan alone", map[string]string{"-p/agent-a1.jsonl": flat(id1, "Warmup")}, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: write(t, tt.files)}}, diag.New(&errOut, false, false))
			f.List(ListOptions{IncludeEmpty: tt.empty})
			got := errOut.String()
			if tt.want == "" {
				if strings.Contains(got, "main transcript") {
					t.Errorf("said of no listed session: %q", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) || !strings.Contains(got, tt.leaves) || strings.Count(got, "\n") != 1 {
				t.Errorf("said %q, want %q and %q", got, tt.want, tt.leaves)
			}
		})
	}
}
