package cmd

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestArchiveFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    ArchiveOptions
		wantErr string
	}{
		{args: nil, want: ArchiveOptions{}},
		{args: []string{"--to", "/x", "--no-compress"}, want: ArchiveOptions{To: "/x", NoCompress: true}},
		{args: []string{"--status"}, want: ArchiveOptions{Status: true}},
		{args: []string{"extra"}, wantErr: "takes no arguments"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			io, _, _, _ := TestIO()
			f := &Factory{IO: io}
			var got *ArchiveOptions
			c := NewCmdArchive(f, func(o *ArchiveOptions) error { got = o; return nil })
			c.SetArgs(append([]string{}, tt.args...)) // not nil: cobra would read the test binary's own arguments
			c.SetOut(io.Out)
			c.SetErr(io.ErrOut)
			err := c.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.To != tt.want.To || got.NoCompress != tt.want.NoCompress || got.Status != tt.want.Status {
				t.Fatalf("got %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// liveCopy copies the sample sessions to a config dir (<tmp>/live/projects).
func liveCopy(t *testing.T) string {
	t.Helper()
	live := filepath.Join(t.TempDir(), "live")
	err := filepath.WalkDir(samples, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(samples, p)
		dst := filepath.Join(live, "projects", rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
		st, _ := d.Info()
		return os.Chtimes(dst, st.ModTime(), st.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
	return live
}

// Claude Code deletes a main transcript (as its cleanup does): ls, show
// and tokens give the same output from the archive, but for the path
// (and ls's archived mark).
func TestArchiveSurvivesDeletedMainFile(t *testing.T) {
	// Deleted by the cleanup; or emptied, or left with a crash's NUL
	// bytes, and archived again (review s12 item 1: the archive made its
	// full copy a version no command read, and ls lost the session).
	for _, how := range []string{"deleted", "emptied", "NUL bytes"} {
		t.Run(how, func(t *testing.T) { archiveSurvives(t, how) })
	}
}

func archiveSurvives(t *testing.T, how string) {
	live := liveCopy(t)
	arch := filepath.Join(t.TempDir(), "arch")
	env := map[string]string{"CLAUDE_CONFIG_DIR": live, "CCTX_ARCHIVE": arch}
	r := run(t, false, env, "archive")
	if r.code != 0 || !strings.Contains(r.out, "new") {
		t.Fatalf("archive: exit %d\n%s%s", r.code, r.out, r.errOut)
	}
	ids := []string{"b3edadab-bca0-4054-9b41-f7ffa6941260", "ef958aa1-0e93-49f0-bb71-150f63befcd1"}
	cmds := func(id string) [][]string {
		return [][]string{{"ls", "--all", "--json"}, {"ls", "--all", "--long"}, {"tokens", "--json"}, {"tokens", id, "--json"},
			{"show", id, "--json"}, {"show", id, "--no-pager"}, {"tree", id, "--json"}, {"agents", id, "--json"}}
	}
	before := map[string]string{}
	for _, id := range ids {
		for _, c := range cmds(id) {
			r := run(t, false, env, c...)
			if r.code != 0 {
				t.Fatalf("%v: exit %d %s", c, r.code, r.errOut)
			}
			before[strings.Join(c, " ")] = r.out
		}
	}
	// The cleanup: main files gone, subagent folders left.
	for _, p := range []string{"-Users-user-project/" + ids[0] + ".jsonl", "-experiments-worktrees/" + ids[1] + ".jsonl"} {
		var err error
		switch p = filepath.Join(live, "projects", p); how {
		case "deleted":
			err = os.Remove(p)
		case "emptied":
			err = os.WriteFile(p, nil, 0o644)
		default:
			err = os.WriteFile(p, []byte(strings.Repeat("\x00", 4096)), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if how != "deleted" { // the next run keeps the archived copies
		if r := run(t, false, env, "archive"); r.code != 0 || !strings.Contains(r.out, "2 without conversation now (their archived copy kept)") {
			t.Fatalf("archive again: exit %d\n%s%s", r.code, r.out, r.errOut)
		}
	}
	norm := func(s string) string {
		s = strings.ReplaceAll(s, filepath.Join(arch, "projects"), filepath.Join(live, "projects"))
		s = strings.ReplaceAll(s, ".jsonl.zst", ".jsonl")
		return strings.ReplaceAll(s, `"archived":true`, `"archived":false`)
	}
	for _, id := range ids {
		for _, c := range cmds(id) {
			key := strings.Join(c, " ")
			r := run(t, false, env, c...)
			if r.code != 0 {
				t.Fatalf("%v after the deletion: exit %d %s", c, r.code, r.errOut)
			}
			if strings.Contains(r.errOut, "no main transcript") || strings.Contains(r.errOut, "empty main transcript") || strings.Contains(r.errOut, "its main transcript") {
				t.Errorf("%s: %s (the archive has it)", key, r.errOut)
			}
			if got := norm(r.out); got != before[key] {
				t.Errorf("%s differs from the archive:\n%.1500s\n--- before\n%.1500s", key, got, before[key])
			}
		}
	}
	r = run(t, false, env, "ls", "--all", "--json")
	var doc struct {
		Sessions []struct {
			ID       string `json:"session_id"`
			Archived bool   `json:"archived"`
		} `json:"sessions"`
	}
	json.Unmarshal([]byte(r.out), &doc)
	archived := 0
	for _, s := range doc.Sessions {
		if s.Archived {
			archived++
			if s.ID != ids[0] && s.ID != ids[1] {
				t.Errorf("%s marked archived", s.ID)
			}
		}
	}
	if archived != 2 {
		t.Errorf("%d sessions marked archived, want 2", archived)
	}
}

// A compressed archive reads exactly as a plain one: tokens --json is
// byte-equal but for the file names, and grep finds the same text (it
// scanned the compressed bytes once).
func TestArchiveZstdReadsAsPlain(t *testing.T) {
	live := liveCopy(t)
	zst, plain := filepath.Join(t.TempDir(), "z"), filepath.Join(t.TempDir(), "p")
	env := map[string]string{"CLAUDE_CONFIG_DIR": live}
	for _, a := range [][]string{{"archive", "--to", zst}, {"archive", "--to", plain, "--no-compress"}} {
		if r := run(t, false, env, a...); r.code != 0 {
			t.Fatalf("%v: %s", a, r.errOut)
		}
	}
	for _, args := range [][]string{{"tokens", "--json"}, {"tokens", "--json", "--by", "response"}, {"tokens", "b3edadab", "--json"}, {"ls", "--long", "--json", "--all"},
		{"grep", "the"}, {"grep", "--json", "Okarin"}, {"grep", "-c", "error"}, {"grep", "-l", "Okarin", "b3edadab"}, {"grep", "--json", "-C", "1", "the"}} {
		z := run(t, false, nil, append(args, "--dir", zst)...)
		p := run(t, false, nil, append(args, "--dir", plain)...)
		asPlain := func(s string) string {
			return strings.ReplaceAll(strings.ReplaceAll(s, zst, plain), ".jsonl.zst", ".jsonl")
		}
		if got := asPlain(z.out); z.code != 0 || got != p.out || asPlain(z.errOut) != p.errOut {
			t.Errorf("%v: compressed and plain differ\n%.800s\n---\n%.800s\n%s\n---\n%s", args, got, p.out, z.errOut, p.errOut)
		}
	}
}

// --status, and ls -v's hint while a session Claude Code deletes soon is
// not archived.
func TestArchiveStatusAndLsHint(t *testing.T) {
	live := liveCopy(t)
	arch := filepath.Join(t.TempDir(), "arch")
	env := map[string]string{"CLAUDE_CONFIG_DIR": live, "CCTX_ARCHIVE": arch}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) // run's clock
	old := now.Add(-26 * 24 * time.Hour)
	os.Chtimes(filepath.Join(live, "projects", "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"), old, old)
	r := run(t, false, env, "ls", "-v")
	if !strings.Contains(r.errOut, "will be deleted by Claude Code within 7 days and are not archived") {
		t.Errorf("ls -v: %s", r.errOut)
	}
	if r := run(t, false, env, "ls"); strings.Contains(r.errOut, "archive") {
		t.Errorf("ls without -v: %s", r.errOut)
	}
	r = run(t, false, env, "archive", "--status", "--json")
	var st struct {
		Exists  bool `json:"exists"`
		Pending int  `json:"pending_sessions"`
		AtRisk  []struct {
			Session string `json:"session"`
		} `json:"at_risk"`
		Days int `json:"cleanup_period_days"`
	}
	if err := json.Unmarshal([]byte(r.out), &st); err != nil || r.code != 0 {
		t.Fatalf("%v %s", err, r.out)
	}
	if st.Exists || st.Pending == 0 || len(st.AtRisk) != 1 || !strings.HasSuffix(st.AtRisk[0].Session, "b3edadab-bca0-4054-9b41-f7ffa6941260") || st.Days != 30 {
		t.Errorf("status %+v", st)
	}
	run(t, false, env, "archive")
	r = run(t, false, env, "archive", "--status")
	if !strings.Contains(r.out, "not archived  0 of") || !strings.Contains(r.out, "at risk       0 sessions") {
		t.Errorf("status after archiving:\n%s", r.out)
	}
	if r := run(t, false, env, "ls", "-v"); strings.Contains(r.errOut, "not archived") {
		t.Errorf("ls -v after archiving: %s", r.errOut)
	}
	// The archive is not archived again, nor a folder inside the roots.
	if r := run(t, false, env, "archive", "--dir", arch); r.code != 2 {
		t.Errorf("archiving the archive: exit %d %s", r.code, r.errOut)
	}
	if r := run(t, false, env, "archive", "--to", filepath.Join(live, "projects", "x")); r.code != 2 || !strings.Contains(r.errOut, "overlap") {
		t.Errorf("an archive inside the roots: exit %d %s", r.code, r.errOut)
	}
	if r := run(t, false, env, "archive", "--status", "--no-compress"); r.code != 2 || !strings.Contains(r.errOut, "--no-compress is for a run that stores files") {
		t.Errorf("--status --no-compress: exit %d %s", r.code, r.errOut)
	}
}

// An archive made before there was anything to archive holds no project
// yet: read beside the default roots, it is not worth a warning (which
// failed every --strict run), while a --dir that names it still says so.
func TestAnEmptyArchiveIsQuietBesideTheDefaults(t *testing.T) {
	empty := t.TempDir()
	os.MkdirAll(filepath.Join(empty, "projects"), 0o755)
	arch := filepath.Join(t.TempDir(), "arch")
	if r := run(t, false, map[string]string{"CLAUDE_CONFIG_DIR": empty, "CCTX_ARCHIVE": arch}, "archive"); r.code != 0 {
		t.Fatalf("archive: %s", r.errOut)
	}
	live := liveCopy(t)
	env := map[string]string{"CLAUDE_CONFIG_DIR": live, "CCTX_ARCHIVE": arch}
	for _, args := range [][]string{{"ls", "--strict"}, {"ls", "--json"}, {"grep", "--strict", "-c", "the"}} {
		if r := run(t, false, env, args...); r.code != 0 || r.errOut != "" {
			t.Errorf("%v beside an empty archive: exit %d\n%s", args, r.code, r.errOut)
		}
	}
	if r := run(t, false, nil, "ls", "--dir", arch); !strings.Contains(r.errOut, "no project folders or sessions here") {
		t.Errorf("ls --dir ARCHIVE (empty): %q", r.errOut)
	}
}

// --status exits as a run does when a transcript cannot be read (a link to
// nothing named as one): 1, the status printed all the same.
func TestArchiveStatusSaysWhatItCannotRead(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	src := filepath.Join(t.TempDir(), "projects")
	if err := os.MkdirAll(filepath.Join(src, "-p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone.jsonl"), filepath.Join(src, "-p", "55555555-5555-4555-8555-555555555555.jsonl")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"archive"}, {"archive", "--status"}, {"archive", "--status", "--json"}} {
		r := run(t, false, nil, append(args, "--dir", src, "--to", filepath.Join(t.TempDir(), "arch"))...)
		if r.code != 1 || !strings.Contains(r.errOut, "1 file(s) could not be read") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
}

// archive --status counts the sessions at risk as it counts sessions,
// each once with its files below it, and the files of no session as
// files; ls -v says the same (review s12 item 6: "2 of 2 sessions", then
// "at risk 6 sessions").
func TestArchiveStatusCountsEachSessionAtRiskOnce(t *testing.T) {
	const a, b = "3f6ddfee-788c-48a5-8f7a-d43377b51472", "cb2e607c-c758-415a-8b45-c49e4631906a"
	user := func(sid string) string {
		return `{"type":"user","uuid":"u1","sessionId":"` + sid + `","cwd":"/w","timestamp":"2026-10-01T10:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	}
	live := t.TempDir()
	files := map[string]string{
		"-p-a/" + b + ".jsonl": user(b), "-p-a/agent-f1.jsonl": user(b), "-p-b/agent-f1.jsonl": user(b), // b, its flat agent in two folders
		"-p-a/" + a + ".jsonl": user(a), "-p-b/" + a + ".jsonl": user(a), // a, in two folders
		"-p-b/notes.jsonl": user(a), "-p-b/agent-zzz.jsonl": `{"type":"summary","summary":"s"}` + "\n", // of no session
	}
	old := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Add(-40 * 24 * time.Hour)
	for rel, text := range files {
		p := filepath.Join(live, "projects", filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		os.Chtimes(p, old, old)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": live, "CCTX_ARCHIVE": filepath.Join(t.TempDir(), "arch")}
	r := run(t, false, env, "archive", "--status")
	for _, want := range []string{
		"not archived  2 of 2 sessions",
		"at risk       2 sessions and 2 files of no session,",
		"\n  -p-a/" + a + "  last written", " not archived\n    -p-a/" + a + ".jsonl\n    -p-b/" + a + ".jsonl\n",
		"\n  -p-a/" + b + "  last written", " not archived\n    -p-a/agent-f1.jsonl\n    -p-a/" + b + ".jsonl\n    -p-b/agent-f1.jsonl\n",
		"\n  -p-b/notes.jsonl (of no session)  last written", "\n  -p-b/agent-zzz.jsonl (of no session)  last written",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("status lacks %q:\n%s", want, r.out)
		}
	}
	if n := strings.Count(r.out, "last written"); n != 4 {
		t.Errorf("%d rows at risk, want 4:\n%s", n, r.out)
	}
	if r := run(t, false, env, "ls", "-v"); !strings.Contains(r.errOut, "note: 2 session(s) and 2 file(s) of no session (") {
		t.Errorf("ls -v: %s", r.errOut)
	}
}
