package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
)

const (
	orphanFixture = "../../testdata/crafted/orphan"
	orphanID      = "7d1c0a52-9a8e-4f6b-b1f4-2c3d4e5f6a7b"
	mainID        = "3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7"
)

// A session folder whose main transcript Claude Code deleted is a session:
// its subagents, under the folder's id, listed with what they record, and
// said once on stderr.
func TestOrphanFolderIsASession(t *testing.T) {
	var errOut bytes.Buffer
	rep := diag.New(&errOut, false, false)
	roots, err := Roots([]string{orphanFixture}, Env{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFinder(roots, rep)
	l := f.List(ListOptions{})
	f.Sessions() // a second listing says nothing more
	if len(l.Sessions) != 2 {
		t.Fatalf("%d sessions listed, want the main one and the orphan", len(l.Sessions))
	}
	var o *Info
	for _, in := range l.Sessions {
		if in.ID == orphanID {
			o = in
		}
	}
	if o == nil {
		t.Fatalf("orphan folder %s not listed", orphanID)
	}
	tests := []struct {
		what      string
		got, want any
	}{
		{"Orphan", o.Orphan, true},
		{"Path", o.Path, ""},
		{"Folder", filepath.Base(o.Folder()), orphanID},
		{"Subagents", o.Subagents, 2},
		{"Project", o.Project, "/home/me/app"},
		{"GitBranch", o.GitBranch, "main"},
		{"StartedAt", o.StartedAt, time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)},
		{"UpdatedAt", o.UpdatedAt, time.Date(2026, 3, 3, 10, 0, 10, 0, time.UTC)},
		{"Title", o.Title, ""},
		{"Empty", o.Empty, false},
		{"warnings", rep.Warnings(), 1},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.what, tt.got, tt.want)
		}
	}
	if !strings.Contains(errOut.String(), "1 session(s) have subagent transcripts but no main transcript") {
		t.Errorf("stderr %q", errOut.String())
	}
	s, err := f.Resolve("7d1c")
	if err != nil || !s.Orphan || len(f.Agents(s)) != 2 {
		t.Fatalf("Resolve(7d1c) = %+v, %v", s, err)
	}
	// The folder given as a path is the same session.
	s, err = f.Resolve(filepath.Join(orphanFixture, "projects", "-home-me-app", orphanID))
	if err != nil || !s.Orphan || s.ID != orphanID || len(f.Agents(s)) != 2 {
		t.Fatalf("Resolve(folder) = %+v, %v", s, err)
	}
}

// The archive's copy of a session whose live main transcript is gone is
// read instead of the orphan (it has the main transcript), with the
// subagents of both, and no warning: nothing was lost. A session in both
// is read live.
func TestArchiveCopyBeatsOrphanAndLiveBeatsArchive(t *testing.T) {
	live, arch := t.TempDir(), t.TempDir()
	agent := lines(userLine("sub", `"isSidechain":true,`))
	writeAt(t, live, "-p/"+id1+"/subagents/agent-aaa.jsonl", agent)
	writeAt(t, live, "-p/"+id2+".jsonl", lines(userLine("live one", "")))
	writeAt(t, arch, "projects/-p/"+id1+".jsonl", lines(userLine("archived main", "")))
	writeAt(t, arch, "projects/-p/"+id1+"/subagents/agent-bbb.jsonl", agent)
	writeAt(t, arch, "projects/-p/"+id2+".jsonl", lines(userLine("stale copy", "")))
	writeAt(t, arch, ArchiveMarker, "")
	// The archive's copy is newer: still the live file is read.
	future := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(arch, "projects", "-p", id2+".jsonl"), future, future)

	env := Env{Getenv: func(k string) string {
		if k == "CCTX_ARCHIVE" {
			return arch
		}
		if k == "CLAUDE_CONFIG_DIR" {
			return live
		}
		return ""
	}}
	roots, err := Roots(nil, env)
	if err != nil || len(roots) != 2 || !roots[1].Archive {
		t.Fatalf("roots %+v, %v: want the live root and the archive", roots, err)
	}
	var errOut bytes.Buffer
	f := NewFinder(roots, diag.New(&errOut, true, false))
	byID := map[string]*Info{}
	for _, in := range f.List(ListOptions{}).Sessions {
		byID[in.ID] = in
	}
	a, b := byID[id1], byID[id2]
	if a == nil || a.Orphan || !a.Archived || a.Title != "archived main" || a.Subagents != 2 {
		t.Errorf("id1: %+v: want the archive's copy, with both subagents", a)
	}
	if b == nil || b.Archived || b.Title != "live one" {
		t.Errorf("id2: %+v: want the live file", b)
	}
	if strings.Contains(errOut.String(), "warning") || strings.Contains(errOut.String(), "two places") {
		t.Errorf("stderr %q: want nothing said", errOut.String())
	}
	// --dir names what is read: no archive then.
	if roots, _ := Roots([]string{live}, env); len(roots) != 1 {
		t.Errorf("--dir: %d roots, want 1", len(roots))
	}
}

// A compressed transcript is a session as its plain file is: same id,
// same listing, size of its text; an older version an archive keeps
// beside a file (<name>@1) is neither a session nor an agent.
func TestCompressedSessionIsListedAsPlain(t *testing.T) {
	plainDir, zstDir := t.TempDir(), t.TempDir()
	text := lines(userLine("hello there", ""), `{"type":"custom-title","customTitle":"My title","sessionId":"`+id1+`"}`)
	agent := lines(userLine("sub", `"isSidechain":true,`))
	writeAt(t, plainDir, "-p/"+id1+".jsonl", text)
	writeAt(t, plainDir, "-p/"+id1+"/subagents/agent-aaa.jsonl", agent)
	compress(t, filepath.Join(zstDir, "-p", id1+".jsonl.zst"), text)
	compress(t, filepath.Join(zstDir, "-p", id1, "subagents", "agent-aaa.jsonl.zst"), agent)
	compress(t, filepath.Join(zstDir, "-p", id1+"@1.jsonl.zst"), text)
	compress(t, filepath.Join(zstDir, "-p", id1, "subagents", "agent-aaa@1.jsonl.zst"), agent)

	list := func(dir string) *Info {
		f := NewFinder([]Root{{ProjectsDir: dir}}, nil)
		l := f.List(ListOptions{})
		if len(l.Sessions) != 1 {
			t.Fatalf("%s: %d sessions", dir, len(l.Sessions))
		}
		return l.Sessions[0]
	}
	p, z := list(plainDir), list(zstDir)
	if z.ID != id1 || z.Title != p.Title || z.FirstPrompt != p.FirstPrompt || !z.StartedAt.Equal(p.StartedAt) ||
		z.Size != p.Size || z.Subagents != 1 || z.Project != p.Project {
		t.Fatalf("compressed: %+v\nplain: %+v", z, p)
	}
}

func compress(t *testing.T, path, text string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := reader.NewZstdWriter(f, nil)
	z.Write([]byte(text))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// An orphan whose subagent files hold nothing (an empty file left behind)
// is a session without conversation: listed with --empty only, and never
// "latest".
func TestOrphanWithEmptyAgentsIsEmpty(t *testing.T) {
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                   lines(userLine("one", "")),
		"-p/" + id2 + "/subagents/agent-a.jsonl": "",
	})
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	if l := f.List(ListOptions{}); len(l.Sessions) != 1 || l.Sessions[0].ID != id1 || len(l.Hidden) != 1 {
		t.Errorf("listed %d (hidden %d), want only %s", len(l.Sessions), len(l.Hidden), id1)
	}
	if l := f.List(ListOptions{IncludeEmpty: true}); len(l.Sessions) != 2 {
		t.Errorf("with --empty: %d sessions, want 2", len(l.Sessions))
	}
	if s, err := f.Resolve("latest"); err != nil || s.ID != id1 {
		t.Errorf("latest is %v (%v), want %s", s, err, id1)
	}
}

// A session whose main transcript is gone takes its project from its
// subagents' cwd: an agent isolated in a worktree ran in
// <project>/.claude/worktrees/<name>, the session's project is <project>.
func TestOutsideWorktree(t *testing.T) {
	for in, want := range map[string]string{
		"/src/app/.claude/worktrees/agent-a4ca7529":   "/src/app",
		`C:\src\app\.claude\worktrees\agent-a4ca7529`: `C:\src\app`,
		"/src/app": "/src/app",
		"/src/app/.claude/worktrees/agent-a4ca7529/sub":  "/src/app", // a folder inside it
		"/src/app/.claude/worktrees/":                    "/src/app/.claude/worktrees/",
		"-experiments/worktrees/.claude/worktrees/agent": "-experiments/worktrees",
		"": "",
	} {
		if got := outsideWorktree(in); got != want {
			t.Errorf("outsideWorktree(%q) = %q, want %q", in, got, want)
		}
	}
}

// A flat agent file whose sessionId is not a session id is said, not
// dropped without a word (its tokens are not counted), and never a path.
func TestFlatAgentOfNoSessionIsSaid(t *testing.T) {
	root := write(t, map[string]string{"-p/agent-x.jsonl": lines(`{"type":"user","sessionId":"../../etc","timestamp":"2026-01-01T00:00:00Z"}`)})
	var errOut bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&errOut, false, false))
	if ss := f.Sessions(); len(ss) != 0 || !strings.Contains(errOut.String(), `agent-x.jsonl: its sessionId "../../etc" is not a session id`) {
		t.Errorf("sessions %v, stderr %q", ss, errOut.String())
	}
}

// An agent whose transcript is in both layouts (a flat agent-<id>.jsonl
// and one under <id>/subagents/) is one subagent, as the tree counts it;
// a compaction agent is none.
func TestSubagentsCountsAnAgentOnce(t *testing.T) {
	files := []Agent{{ID: "a1", Flat: true}, {ID: "a1"}, {ID: "a2"}, {ID: "acompact-x"}}
	if n := Subagents(files, nil); n != 2 {
		t.Errorf("Subagents = %d, want 2", n)
	}
}

// A session id is a uuid, whatever its case: B3EDADAB-….jsonl and
// b3edadab-….jsonl are one session in two places, not two sessions (and
// not an ambiguous prefix).
func TestSessionIDsIgnoreCase(t *testing.T) {
	a := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("one", ""))})
	b := write(t, map[string]string{"-p/" + strings.ToUpper(id1) + ".jsonl": lines(userLine("one", ""))})
	f := NewFinder([]Root{{ProjectsDir: a}, {ProjectsDir: b}}, nil)
	if ss := f.Sessions(); len(ss) != 1 {
		t.Errorf("%d sessions, want 1", len(ss))
	}
	if _, err := f.Resolve(strings.ToUpper(id1[:8])); err != nil {
		t.Errorf("resolve: %v", err)
	}
}

// A session is named in messages by where its transcripts are: its main
// file; its folder of subagents once the main file is gone; its project
// folder when only flat agent files (2.0.x) are left.
func TestWhereASessionIs(t *testing.T) {
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                   lines(userLine("one", "")),
		"-p/" + id2 + "/subagents/agent-a.jsonl": lines(userLine("sub", `"isSidechain":true,`)),
		"-p/agent-flat.jsonl":                    lines(fmt.Sprintf(`{"type":"user","sessionId":%q,"isSidechain":true,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"x"}}`, id3)),
	})
	want := map[string]string{
		id1: filepath.Join(root, "-p", id1+".jsonl"),
		id2: filepath.Join(root, "-p", id2),
		id3: filepath.Join(root, "-p"),
	}
	ss := NewFinder([]Root{{ProjectsDir: root}}, nil).Sessions()
	if len(ss) != 3 {
		t.Fatalf("%d sessions, want 3", len(ss))
	}
	for _, s := range ss {
		if s.Where() != want[s.ID] {
			t.Errorf("%s: Where = %q, want %q", s.ID[:4], s.Where(), want[s.ID])
		}
	}
}
