package session

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/diag"
)

// A recorded cwd is compared by the rules of the system that wrote it,
// whatever system cctx runs on.
func TestInProject(t *testing.T) {
	for _, tc := range []struct {
		cwd, project string
		want         bool
	}{
		{"/home/me/src/app", "/home/me/src", true},
		{"/home/me/src/app", "/home/me/src/app", true},
		{"/home/me/src/app", "/home/me/src/app/", true},
		{"/home/me/src/application", "/home/me/src/app", false},
		{"/home/me/src/App", "/home/me/src/app", false}, // POSIX paths keep their case
		{`C:\Users\empad\Desktop\Development`, `C:\Users\empad`, true},
		{`C:\Users\empad\Desktop\Development`, `c:/users/EMPAD/desktop`, true},
		{`C:\Users\empad\Desktop\Development`, `C:\Users\empad\`, true},
		{`C:\Users\empad`, `C:\Users\empad`, true},
		{`C:\Users\empadx`, `C:\Users\empad`, false},
		{`D:\Users\empad`, `C:\Users\empad`, false},
		{`\\server\share\repo`, `\\SERVER\share`, true},
		{"", "/home", false},
	} {
		if got := InProject(tc.cwd, tc.project); got != tc.want {
			t.Errorf("InProject(%q, %q) = %v, want %v", tc.cwd, tc.project, got, tc.want)
		}
	}
}

// A --project value written the Windows way is taken as it is: made
// absolute on Linux it would name a folder no session ran in.
func TestProjectPath(t *testing.T) {
	for _, p := range []string{`C:\Users\empad`, `c:/users/empad`, `\\server\share`} {
		if got := ProjectPath(p, "/home/me"); got != p {
			t.Errorf("ProjectPath(%q) = %q", p, got)
		}
	}
	if got := ProjectPath("~/src", "/home/me"); got != "/home/me/src" {
		t.Errorf("ProjectPath(~/src) = %q", got)
	}
}

// A --dir one level too high (a folder of copied config folders, or of
// projects dirs) or a Codex folder finds no session: a listing says where
// the sessions are instead of printing nothing.
func TestADirOneLevelTooHighIsSaid(t *testing.T) {
	session := `{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n"
	id := "aaaaaaaa-1111-4111-8111-111111111111.jsonl"
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"copied config folders", []string{"copy1/projects/-w-app/" + id}, "pass one of them, e.g. --dir "},
		{"a folder of projects dirs", []string{"projects-a/-w-app/" + id}, "sessions lie one level further down"},
		{"a Codex folder", []string{"sessions/2026/05/11/rollout-2026-05-11T11-26-55-x.jsonl"}, "this looks like a Codex CLI folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.files {
				writeTestFile(t, filepath.Join(root, f), session)
			}
			var buf bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&buf, false, false))
			if ss := f.Sessions(); len(ss) != 0 || !strings.Contains(buf.String(), tc.want) {
				t.Errorf("%d sessions, stderr %q, want it to say %q", len(ss), buf.String(), tc.want)
			}
		})
	}
}

func writeTestFile(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
