package render

import (
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/resume"
	"github.com/cctx-dev/cctx/internal/session"
)

func TestResumeCommand(t *testing.T) {
	const id = "3f2a0c1e-0000-4000-8000-000000000001"
	for _, tc := range []struct {
		dir, config, shell, want string
	}{
		{"/w/app", "", ShellPOSIX, "cd '/w/app' && claude --resume " + id},
		{"-experiments/x", "", ShellPOSIX, "cd -- '-experiments/x' && claude --resume " + id},
		{"/w/it's", "/cfg dir", ShellPOSIX, `cd '/w/it'\''s' && CLAUDE_CONFIG_DIR='/cfg dir' claude --resume ` + id},
		{"/w/a\nb", "", ShellPOSIX, "cd '/w/a\nb' && claude --resume " + id},
		{"/w/\x1b[2J\u202e", "", ShellPOSIX, `cd $'/w/\x1b[2J\u202e' && claude --resume ` + id},
		{"/w/bad\xff'\\", "", ShellPOSIX, `cd $'/w/bad\xff\'\\' && claude --resume ` + id},
		{`C:\Users\me\it's`, "", ShellPowerShell, `Set-Location -LiteralPath 'C:\Users\me\it''s'; claude --resume ` + id},
		{`C:\w\‘q’`, `D:\cfg`, ShellPowerShell, `Set-Location -LiteralPath 'C:\w\‘‘q’’'; $env:CLAUDE_CONFIG_DIR = 'D:\cfg'; claude --resume ` + id},
	} {
		got := ResumeCommand(resume.Target{SessionID: id, Dir: tc.dir, ConfigDir: tc.config}, tc.shell)
		if got != tc.want {
			t.Errorf("%q (%s)\n got %s\nwant %s", tc.dir, tc.shell, got, tc.want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		"a|b":                   `a\|b`,
		"<img src=x onerror=1>": "&lt;img src=x onerror=1&gt;",
		"[link](http://x)":      `\[link\](http://x)`,
		"*bold* _it_ `code`":    "\\*bold\\* \\_it\\_ \\`code\\`",
		"two\nlines":            "two lines",
		"esc\x1b[31m":           `esc\\x1b\[31m`,
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := mdCode("claude-opus-4-5"); got != "`claude-opus-4-5`" {
		t.Errorf("mdCode = %q", got)
	}
	if got := mdCode("a`b|c"); got != "a\\`b\\|c" {
		t.Errorf("mdCode with a backtick = %q", got)
	}
}

func TestCompletionText(t *testing.T) {
	if got := Completion("id", "title\twith\ttabs\nand\x1b[2J escapes"); got != `id	title with tabs and\x1b[2J escapes` {
		t.Errorf("%q", got)
	}
	if got := Completion("latest", ""); got != "latest" {
		t.Errorf("%q", got)
	}
}

// A value goes onto the command line as it is: one that is not plain text
// is no candidate, never the raw bytes (a cwd written with escapes).
func TestProjectCompletionsLeaveHostileValuesOut(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	projects := []session.Project{
		{Path: "/w/app", Sessions: 2, Updated: now.Add(-time.Hour)},
		{Path: "/w/\x1b[2J\x1b]52;c;ZXZpbA==\x07evil", Sessions: 1, Updated: now},
		{Path: "/w/tab\there", Sessions: 1, Updated: now},
		{Path: "/w/\u202eRTL", Sessions: 1, Updated: now},
		{Path: "/home/me/src", Sessions: 1, Updated: now},
	}
	got := ProjectCompletions(projects, "", "/home/me", now)
	want := []string{"/w/app\t2 session files, last written 1h ago", "/home/me/src\t1 session file, last written just now"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := ProjectCompletions(projects, "~/", "/home/me", now); len(got) != 1 || !strings.HasPrefix(got[0], "~/src\t") {
		t.Errorf("under ~: %q", got)
	}
}
