package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

const (
	id1 = "11111111-1111-4111-8111-111111111111"
	id2 = "22222222-2222-4222-8222-222222222222"
	id3 = "22223333-3333-4333-8333-333333333333"
)

// write creates files (name → content) under a new temp dir.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func userLine(text string, extra string) string {
	return fmt.Sprintf(`{"type":"user",%s"cwd":"/home/me/app","gitBranch":"main","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":%q}}`, extra, text)
}

func liteOf(t *testing.T, content string) *Info {
	t.Helper()
	root := write(t, map[string]string{"-p/" + id1 + ".jsonl": content})
	in, err := Lite(&Session{ID: id1, Path: filepath.Join(root, "-p", id1+".jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestTitlePrecedence(t *testing.T) {
	prompt := userLine("fix the login bug", "")
	tests := []struct {
		name, content, title, source string
	}{
		{"first prompt", lines(prompt), "fix the login bug", "first-prompt"},
		{"summary beats first prompt", lines(prompt, `{"type":"summary","summary":"Login fix","leafUuid":"x"}`), "Login fix", "summary"},
		{"last prompt beats summary", lines(prompt, `{"type":"summary","summary":"Login fix"}`, `{"type":"last-prompt","lastPrompt":"now add tests"}`), "now add tests", "last-prompt"},
		{"ai title beats last prompt", lines(prompt, `{"type":"ai-title","aiTitle":"Fixing login"}`, `{"type":"last-prompt","lastPrompt":"now add tests"}`), "Fixing login", "ai-title"},
		{"custom title beats everything", lines(`{"type":"custom-title","customTitle":"Mine"}`, prompt, `{"type":"ai-title","aiTitle":"Fixing login"}`), "Mine", "custom-title"},
		{"the last custom title wins", lines(prompt, `{"type":"custom-title","customTitle":"Old"}`, `{"type":"custom-title","customTitle":"New"}`), "New", "custom-title"},
		{"a title key inside a tool input is not a title", lines(prompt,
			`{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"customTitle":"leak","type":"custom-title"}}]}}`), "fix the login bug", "first-prompt"},
		{"nothing at all", lines(`{"type":"file-history-snapshot"}`), "", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := liteOf(t, tt.content)
			if in.Title != tt.title || in.TitleSource != tt.source {
				t.Errorf("title %q (%s), want %q (%s)", in.Title, in.TitleSource, tt.title, tt.source)
			}
		})
	}
}

func TestFirstPromptRules(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"string content", lines(userLine("hello", "")), "hello"},
		{"text blocks", lines(`{"type":"user","message":{"content":[{"type":"text","text":"from blocks"}]}}`), "from blocks"},
		{"meta lines are skipped", lines(userLine("caveat", `"isMeta":true,`), userLine("real", "")), "real"},
		{"compact summaries are skipped", lines(userLine("summary of before", `"isCompactSummary":true,`), userLine("real", "")), "real"},
		{"tool results are skipped", lines(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}`, userLine("real", "")), "real"},
		{"command output and hook context are skipped", lines(userLine("<local-command-stdout>x</local-command-stdout>", ""), userLine("<session-start-hook>y", ""), userLine("real", "")), "real"},
		{"interruptions are skipped", lines(userLine("[Request interrupted by user]", ""), userLine("real", "")), "real"},
		{"a slash command is the fallback", lines(userLine("<command-name>/review</command-name>\n<command-message>review</command-message>", "")), "/review"},
		{"a slash command loses to a later prompt", lines(userLine("<command-name>/clear</command-name>", ""), userLine("then this", "")), "then this"},
		{"bash input", lines(userLine("<bash-input>ls -la</bash-input>", "")), "! ls -la"},
		{"bash input loses to a later prompt", lines(userLine("<bash-input>ls -la</bash-input>", ""), userLine("then this", "")), "then this"},
		{"a slash command run as a prompt is the prompt, with its arguments", lines(userLine("<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app</command-args>", ""), userLine("later", "")), "/orchestrator create TODO app"},
		{"an IDE selection before the prompt is skipped", lines(`{"type":"user","message":{"content":[{"type":"text","text":"<ide_selection>The user selected the lines 1 to 2</ide_selection>"},{"type":"text","text":"fix this"}]}}`), "fix this"},
		{"a task notification is skipped", lines(userLine("<task-notification>\n<task-id>b1</task-id>\n</task-notification>", ""), userLine("real", "")), "real"},
		{"whitespace collapses", lines(userLine("  two\n\nlines\t here ", "")), "two lines here"},
		{"long prompts are cut at 200 characters", lines(userLine(strings.Repeat("é", 300), "")), strings.Repeat("é", 200) + "…"},
		{"an image-only prompt", lines(`{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}}`), "[Image]"},
		{"control characters are kept, to be escaped where printed (dropped, they left [31m)", lines(`{"type":"user","message":{"content":"red \u001b[31mtext"}}`), "red \x1b[31mtext"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := liteOf(t, tt.content).FirstPrompt; got != tt.want {
				t.Errorf("first prompt %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLiteFields(t *testing.T) {
	in := liteOf(t, lines(
		`{"type":"permission-mode","permissionMode":"default"}`,
		userLine("go", ""),
		`{"type":"assistant","cwd":"/home/me/app","gitBranch":"feature","version":"2.1.7","timestamp":"2026-01-02T11:30:00Z","message":{"content":[]}}`,
	))
	if in.Project != "/home/me/app" || in.GitBranch != "feature" || in.Version != "2.1.7" {
		t.Errorf("project %q branch %q version %q", in.Project, in.GitBranch, in.Version)
	}
	if !in.StartedAt.Equal(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)) || !in.UpdatedAt.Equal(time.Date(2026, 1, 2, 11, 30, 0, 0, time.UTC)) {
		t.Errorf("started %v updated %v", in.StartedAt, in.UpdatedAt)
	}
	if in.Empty || in.Sidechain {
		t.Errorf("empty %v sidechain %v", in.Empty, in.Sidechain)
	}
	if !liteOf(t, lines(`{"type":"summary","summary":"x"}`)).Empty {
		t.Error("a summary-only file is not empty")
	}
	if !liteOf(t, lines(userLine("x", `"isSidechain":true,`))).Sidechain {
		t.Error("a file starting with a sidechain entry is not marked")
	}
}

func TestLiteReadsOnlyHeadAndTailButFindsAHugeFirstPrompt(t *testing.T) {
	// The first user line holds a 1 MiB image before its text: the head cuts
	// it, so the prompt is found by reading on.
	big := `{"type":"user","cwd":"/w","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` +
		strings.Repeat("A", 1<<20) + `"}},{"type":"text","text":"what is in this screenshot?"}]}}`
	var middle []string
	for i := range 2000 {
		middle = append(middle, fmt.Sprintf(`{"type":"progress","uuid":"p%d","data":{"pad":"%s"}}`, i, strings.Repeat("x", 100)))
	}
	content := lines(append(append([]string{big}, middle...), `{"type":"last-prompt","lastPrompt":"tail prompt"}`)...)
	in := liteOf(t, content)
	if in.FirstPrompt != "what is in this screenshot?" {
		t.Errorf("first prompt %q", in.FirstPrompt)
	}
	if in.Title != "tail prompt" {
		t.Errorf("title %q: the tail was not read", in.Title)
	}
}

func TestRoots(t *testing.T) {
	home := write(t, map[string]string{".claude/projects/-a/x": "", ".config/claude/projects/-b/y": "", "cfg2/projects/-c/z": ""})
	env := func(vars map[string]string) Env {
		return Env{Getenv: func(k string) string { return vars[k] }, Home: home}
	}
	dirsOf := func(rs []Root) string {
		var s []string
		for _, r := range rs {
			s = append(s, strings.TrimPrefix(r.ProjectsDir, home+"/")+"|"+strings.TrimPrefix(r.ConfigDir, home+"/"))
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name string
		dirs []string
		vars map[string]string
		want string
	}{
		{"defaults that exist", nil, nil, ".claude/projects|.claude,.config/claude/projects|.config/claude"},
		{"CLAUDE_CONFIG_DIR list", nil, map[string]string{"CLAUDE_CONFIG_DIR": home + "/cfg2, " + home + "/.claude"}, "cfg2/projects|cfg2,.claude/projects|.claude"},
		{"CLAUDE_CONFIG_DIR naming a projects dir", nil, map[string]string{"CLAUDE_CONFIG_DIR": home + "/cfg2/projects"}, "cfg2/projects|cfg2"},
		{"--dir as a config dir", []string{home + "/cfg2"}, map[string]string{"CLAUDE_CONFIG_DIR": "/elsewhere"}, "cfg2/projects|cfg2"},
		{"--dir as a projects dir", []string{home + "/.claude/projects"}, nil, ".claude/projects|.claude"},
		{"--dir as any folder", []string{home + "/cfg2/projects/-c"}, nil, "cfg2/projects/-c|"},
		{"the same root twice is listed once", []string{home + "/cfg2", home + "/cfg2/projects"}, nil, "cfg2/projects|cfg2"},
		{"--dir=~/… (no shell expands it there)", []string{"~/cfg2"}, nil, "cfg2/projects|cfg2"},
		{"CLAUDE_CONFIG_DIR=~/…", nil, map[string]string{"CLAUDE_CONFIG_DIR": "~/cfg2"}, "cfg2/projects|cfg2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Roots(tt.dirs, env(tt.vars))
			if err != nil {
				t.Fatal(err)
			}
			if got := dirsOf(rs); got != tt.want {
				t.Errorf("roots %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := Roots([]string{home + "/nope"}, env(nil)); err == nil {
		t.Error("a missing --dir is not an error")
	}
	// A typo in CLAUDE_CONFIG_DIR is an error, not an empty history (a CI
	// budget would pass on nothing).
	_, err := Roots(nil, env(map[string]string{"CLAUDE_CONFIG_DIR": home + "/cfg2," + home + "/typo"}))
	if err == nil || !strings.Contains(err.Error(), "CLAUDE_CONFIG_DIR "+home+"/typo: no such directory") {
		t.Errorf("a missing CLAUDE_CONFIG_DIR entry: %v", err)
	}
}

func discoveryTree(t *testing.T) string {
	t.Helper()
	return write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                            lines(userLine("one", "")),
		"-p/" + id1 + "/subagents/agent-aaa.jsonl":        lines(userLine("sub", `"isSidechain":true,`)),
		"-p/" + id1 + "/subagents/agent-aaa.meta.json":    `{"agentType":"Explore"}`,
		"-p/" + id1 + "/subagents/deep/agent-bbb.jsonl":   lines(userLine("sub", `"isSidechain":true,`)),
		"-p/" + id1 + "/subagents/notes.txt":              "not an agent",
		"-p/agent-flat.jsonl":                             lines(fmt.Sprintf(`{"type":"user","sessionId":%q,"isSidechain":true}`, id1)),
		"-p/agent-stray.jsonl":                            lines(`{"type":"user","sessionId":"99999999-9999-4999-8999-999999999999","timestamp":"2020-01-01T00:00:00Z"}`),
		"-q/" + id2 + ".jsonl":                            lines(userLine("two", "")),
		"-q/" + id3 + ".jsonl":                            lines(userLine("three", "")),
		"-q/not-a-session.jsonl":                          lines(userLine("x", "")),
		"-q/" + strings.ToUpper(id1[:8]) + "-notes.jsonl": "x",
	})
}

func TestDiscovery(t *testing.T) {
	root := discoveryTree(t)
	os.Mkdir(filepath.Join(root, "-q", "dir.jsonl"), 0o755)
	os.Symlink(filepath.Join(root, "-p", id1), filepath.Join(root, "-p", id1, "subagents", "loop"))
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	ss := f.Sessions()
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	// The three uuid-named files, and the session of the stray flat agent
	// file, whose main transcript is gone (2.0.x: no folder of its own).
	if len(ids) != 4 {
		t.Fatalf("sessions %v, want the three uuid-named files and the stray agent's", ids)
	}
	var s1, stray *Session
	for _, s := range ss {
		switch s.ID {
		case id1:
			s1 = s
		case "99999999-9999-4999-8999-999999999999":
			stray = s
		}
	}
	if stray == nil || !stray.Orphan || len(f.Agents(stray)) != 1 || f.Agents(stray)[0].ID != "stray" {
		t.Errorf("the stray agent's session: %+v", stray)
	}
	var agents []string
	for _, a := range f.Agents(s1) {
		agents = append(agents, fmt.Sprintf("%s:flat=%v:meta=%v", a.ID, a.Flat, a.MetaPath != ""))
	}
	want := "aaa:flat=false:meta=true,bbb:flat=false:meta=false,flat:flat=true:meta=false"
	if strings.Join(agents, ",") != want {
		t.Errorf("agents %q, want %q", strings.Join(agents, ","), want)
	}
}

func TestResolve(t *testing.T) {
	root := discoveryTree(t)
	// id3 is the newest file.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "-p", id1+".jsonl"), old, old)
	os.Chtimes(filepath.Join(root, "-q", id2+".jsonl"), old, old)
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	tests := []struct {
		arg, want, err string
	}{
		{id1, id1, ""},
		{strings.ToUpper(id1), id1, ""},
		{"1111", id1, ""},
		{"2222", "", "ambiguous prefix: 2 sessions match"},
		{"22222", id2, ""},
		{"111", "", "at least 4 characters"},
		{"abcd", "", "no such session"},
		{"latest", id3, ""},
		{"-", "", ""},
		{filepath.Join(root, "-q", id2+".jsonl"), id2, ""},
		{filepath.Join(root, "-q", "missing.jsonl"), "", "no such file"},
		{filepath.Join(root, "-q"), "", "a folder of sessions, not one: list them with cctx ls --dir " + filepath.Join(root, "-q")},
		{filepath.Join(root, "-p", id1, "subagents"), "", "not a regular file"},
		{id1 + ".jsonl", id1, ""}, // the file name seen in a project folder, run elsewhere
		{filepath.Join(root, "-p", id1) + "/", "", "a session's folder (it holds its subagents); the transcript is " + filepath.Join(root, "-p", id1) + ".jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			s, err := f.Resolve(tt.arg)
			if tt.err != "" {
				var re *ResolveError
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				if strings.HasPrefix(tt.err, "ambiguous") && len(re.Candidates) != 2 {
					t.Errorf("candidates %d", len(re.Candidates))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.ID != tt.want {
				t.Errorf("resolved %q, want %q", s.ID, tt.want)
			}
		})
	}
}

// An argument taken for a session id (no separator, no .jsonl) that
// names a file in the current directory: the lookup fails as any, and
// says how to read the file (with or without roots).
func TestResolveAFileHereThatIsNoID(t *testing.T) {
	root := discoveryTree(t)
	here := t.TempDir()
	t.Chdir(here)
	os.WriteFile("notes.txt", []byte("{}\n"), 0o644)
	os.Mkdir("adir", 0o755)
	for _, tc := range []struct {
		f        *Finder
		arg      string
		withHint bool
	}{
		{NewFinder([]Root{{ProjectsDir: root}}, nil), "notes.txt", true},
		{&Finder{RootsErr: errors.New("no projects directory found")}, "notes.txt", true},
		{NewFinder([]Root{{ProjectsDir: root}}, nil), "adir", false},
		{NewFinder([]Root{{ProjectsDir: root}}, nil), "nothere", false},
	} {
		_, err := tc.f.Resolve(tc.arg)
		hint := "; " + tc.arg + " is a file here: ./" + tc.arg + " reads it as a transcript"
		if err == nil || strings.HasSuffix(err.Error(), hint) != tc.withHint {
			t.Errorf("%s (roots error %v): %v; want the hint %v", tc.arg, tc.f.RootsErr, err, tc.withHint)
		}
	}
}

// A transcript named by a link whose target is gone is said to be that,
// by its path or as a bare <id>.jsonl in the current directory (which
// would otherwise be looked up as the session id, and said missing from
// the roots).
func TestResolveABrokenLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, id1+".jsonl")
	if err := os.Symlink(filepath.Join(dir, "gone", "x.jsonl"), link); err != nil {
		t.Fatal(err)
	}
	f := NewFinder([]Root{{ProjectsDir: discoveryTree(t)}}, nil)
	t.Chdir(dir)
	for _, arg := range []string{link, id1 + ".jsonl"} {
		_, err := f.Resolve(arg)
		if err == nil || !strings.Contains(err.Error(), "a symbolic link to \""+filepath.Join(dir, "gone", "x.jsonl")+"\", which does not exist") {
			t.Errorf("Resolve(%s): %v", arg, err)
		}
	}
}

func TestSameSessionInTwoRootsIsListedOnce(t *testing.T) {
	a := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("old copy", ""))})
	b := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("new copy", ""))})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(a, "-p", id1+".jsonl"), old, old)
	ss := NewFinder([]Root{{ProjectsDir: a}, {ProjectsDir: b}}, nil).Sessions()
	if len(ss) != 1 || !strings.HasPrefix(ss[0].Path, b) {
		t.Fatalf("got %d sessions, first %v", len(ss), ss)
	}
}

func TestSafeAgentID(t *testing.T) {
	for id, want := range map[string]bool{
		"a1b2c3": true, "acompact-946d2b": true, "": false, "..": false, "../x": false, "a/b": false,
		`a\b`: false, "/etc/passwd": false, "a\x00b": false, "C:x": false, ".": false,
	} {
		if SafeAgentID(id) != want {
			t.Errorf("SafeAgentID(%q) = %v", id, !want)
		}
	}
}

func TestLiveSessions(t *testing.T) {
	cfg := write(t, map[string]string{
		"sessions/100.json": fmt.Sprintf(`{"pid":100,"sessionId":%q,"status":"working","updatedAt":2}`, id1),
		"sessions/200.json": fmt.Sprintf(`{"pid":200,"sessionId":%q,"status":"idle"}`, id2),
		"sessions/300.json": `not json`,
		"sessions/400.txt":  `{}`,
	})
	saved := ProcessAlive
	defer func() { ProcessAlive = saved }()
	ProcessAlive = func(pid int) bool { return pid == 100 } // 200 is stale
	live := LiveSessions([]Root{{ConfigDir: cfg}})
	if len(live) != 1 || live[id1].Status != "working" {
		t.Errorf("live %+v", live)
	}
}

func TestListFiltersAndOrder(t *testing.T) {
	at := func(ts string) string {
		return fmt.Sprintf(`{"type":"user","cwd":"/w/app/sub","timestamp":%q,"message":{"content":"hi"}}`, ts)
	}
	root := write(t, map[string]string{
		"-a/" + id1 + ".jsonl":                          lines(at("2026-01-01T10:00:00Z")),
		"-a/" + id2 + ".jsonl":                          lines(at("2026-01-03T10:00:00Z")),
		"-b/" + id3 + ".jsonl":                          lines(strings.Replace(at("2026-01-02T10:00:00Z"), "/w/app/sub", "/w/other", 1)),
		"-b/33333333-3333-4333-8333-333333333333.jsonl": lines(`{"type":"summary","summary":"only metadata"}`),
	})
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	ids := func(l Listing) string {
		var s []string
		for _, in := range l.Sessions {
			s = append(s, in.ID[:4])
		}
		return strings.Join(s, ",")
	}
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name string
		o    ListOptions
		want string
	}{
		{"newest activity first, metadata-only hidden", ListOptions{}, "2222,2222,1111"},
		{"with empty files (their activity is the file's mtime)", ListOptions{IncludeEmpty: true}, "3333,2222,2222,1111"},
		{"limit", ListOptions{Limit: 1}, "2222"},
		{"project prefix", ListOptions{Project: "/w/app"}, "2222,1111"},
		{"a project is not a string prefix", ListOptions{Project: "/w/ap"}, ""},
		{"since", ListOptions{Since: day(2)}, "2222,2222"},
		{"until", ListOptions{Until: day(2)}, "1111"},
		// A file without a timestamp has no start; its last write (now)
		// still places it after the window.
		{"until, with empty files", ListOptions{Until: day(2), IncludeEmpty: true}, "1111"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(f.List(tt.o)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHugeFirstLineIn21xKeyOrder(t *testing.T) {
	// 2.1.x writes message first, timestamp and cwd after it: a cut head
	// line hides both, and the prompt.
	big := `{"parentUuid":null,"isSidechain":false,"message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` +
		strings.Repeat("A", 200<<10) + `"}},{"type":"text","text":"look at this"}]},"type":"user","uuid":"u1","timestamp":"2026-01-02T10:00:00Z","cwd":"/w/app"}`
	content := lines(big, `{"type":"assistant","timestamp":"2026-01-02T12:59:00Z","cwd":"/w/app","message":{"role":"assistant","content":[]}}`)
	in := liteOf(t, content)
	if in.FirstPrompt != "look at this" || !in.StartedAt.Equal(time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)) || in.Project != "/w/app" {
		t.Errorf("prompt %q started %v project %q", in.FirstPrompt, in.StartedAt, in.Project)
	}
}

// A session's start and project are the timestamp and cwd of the first
// line of its file, in line order, that has one; Start (tokens) reads them
// as Lite (ls) does, and a file without one has none: never its mtime,
// never its folder's name.
func TestStartAndProject(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 1, 2, h, 0, 0, 0, time.UTC) }
	line := func(typ, ts, cwd string) string {
		return fmt.Sprintf(`{"type":%q,"timestamp":%q,"cwd":%q,"message":{"role":"user","content":"x"}}`, typ, ts, cwd)
	}
	summaries := strings.Repeat(`{"type":"summary","summary":"an earlier session, summed up","leafUuid":"0000"}`+"\n", 1200) // 90 KB: more than the head
	tests := []struct {
		name    string
		content string
		started time.Time
		project string
	}{
		{"the first line's", lines(line("user", "2026-01-02T10:00:00Z", "/w/a"), line("assistant", "2026-01-02T11:00:00Z", "/w/b")), at(10), "/w/a"},
		{"in line order, not the earliest", lines(line("user", "2026-01-02T11:00:00Z", "/w/a"), line("user", "2026-01-02T09:00:00Z", "/w/b")), at(11), "/w/a"},
		{"lines without them are passed over", lines(`{"type":"permission-mode","permissionMode":"default"}`, line("user", "", ""), line("user", "2026-01-02T12:00:00Z", "/w/c")), at(12), "/w/c"},
		{"past a head full of summaries", summaries + lines(line("user", "2026-01-02T13:00:00Z", "/w/d")) + summaries + lines(line("user", "2026-01-02T14:00:00Z", "/w/e")), at(13), "/w/d"},
		{"none in a summary-only file", lines(`{"type":"summary","summary":"x","leafUuid":"0000"}`), time.Time{}, ""},
		// 2.1.x starts with a short permission-mode line; a 5 MiB hook
		// output that starts in the head is read whole for its time and cwd.
		{"in a long line that starts in the head", lines(`{"type":"permission-mode","permissionMode":"default"}`,
			`{"type":"attachment","attachment":{"type":"hook_success","content":"`+strings.Repeat("x", 5<<20)+`"},"timestamp":"2026-01-02T16:00:00Z","cwd":"/w/g"}`), at(16), "/w/g"},
		// A listing does not read a file whole for them: 4 MiB past the head.
		{"not looked for past 4 MiB of lines without them", strings.Repeat(summaries, 50) + lines(line("user", "2026-01-02T15:00:00Z", "/w/f")), time.Time{}, ""},
		{"none in an empty file", "", time.Time{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, map[string]string{"-w-a/" + id1 + ".jsonl": tt.content})
			s := &Session{ID: id1, Path: filepath.Join(root, "-w-a", id1+".jsonl"), ProjectDir: filepath.Join(root, "-w-a"), ModTime: at(20)}
			in, err := Lite(s)
			if err != nil {
				t.Fatal(err)
			}
			if !in.StartedAt.Equal(tt.started) || in.Project != tt.project {
				t.Errorf("Lite: started %v project %q, want %v %q", in.StartedAt, in.Project, tt.started, tt.project)
			}
			started, project, err := Start(s)
			if err != nil || !started.Equal(tt.started) || project != tt.project {
				t.Errorf("Start: started %v project %q (%v), want %v %q", started, project, err, tt.started, tt.project)
			}
		})
	}
}

func TestResolveARenamedFileByItsSessionID(t *testing.T) {
	root := write(t, map[string]string{"export.jsonl": lines(fmt.Sprintf(`{"type":"user","sessionId":%q,"message":{"content":"x"}}`, id1))})
	s, err := NewFinder(nil, nil).Resolve(filepath.Join(root, "export.jsonl"))
	if err != nil || s.ID != id1 {
		t.Errorf("id %v err %v", s, err)
	}
}

func TestARootWithoutProjectsIsWarnedAbout(t *testing.T) {
	var buf strings.Builder
	root := write(t, map[string]string{"notes.txt": "x"})
	ss := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&buf, false, false)).Sessions()
	if len(ss) != 0 || !strings.Contains(buf.String(), "no project folders or sessions here") {
		t.Errorf("sessions %d, stderr %q", len(ss), buf.String())
	}
}

func TestNoRootsIsSaidOnceAndOnlyForListings(t *testing.T) {
	var buf strings.Builder
	f := NewFinder(nil, diag.New(&buf, false, false))
	if _, err := f.Resolve("-"); err != nil || buf.Len() != 0 {
		t.Fatalf("stdin: err %v, stderr %q", err, buf.String())
	}
	f.Sessions()
	f.Sessions()
	if strings.Count(buf.String(), "no projects directory found") != 1 {
		t.Errorf("stderr %q", buf.String())
	}
}

// Start reads less than Lite and must say the same: the start and the
// project of crafted files, and of every sample and corpus session.
func TestStartIsWhatLiteSays(t *testing.T) {
	big := strings.Repeat("A", 200<<10)
	tail := make([]string, 3000)
	for i := range tail {
		tail[i] = `{"type":"progress","data":{}}`
	}
	crafted := map[string]string{
		"usual":               lines(`{"type":"permission-mode"}`, userLine("go", "")),
		"no timestamp":        lines(`{"type":"user","cwd":"/a","message":{"role":"user","content":"x"}}`),
		"no cwd":              lines(`{"type":"user","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"x"}}`),
		"cwd only at the end": lines(append(append([]string{`{"type":"user","timestamp":"2026-01-02T10:00:00Z"}`}, tail...), `{"type":"system","cwd":"/late","timestamp":"2026-01-03T10:00:00Z"}`)...),
		"huge first line":     lines(`{"type":"user","cwd":"/w","timestamp":"2026-01-01T09:00:00Z","message":{"role":"user","content":"`+big+`"}}`, userLine("x", "")),
		"bom":                 "\xEF\xBB\xBF" + lines(userLine("x", "")),
		// Start reads 8 KiB first, then the 64 KiB head.
		"crlf": strings.ReplaceAll(lines(`{"type":"permission-mode"}`, userLine("go", "")), "\n", "\r\n"),
		"a first line across 8 KiB": lines(`{"type":"user","cwd":"/w","timestamp":"2026-01-01T09:00:00Z","message":{"role":"user","content":"` +
			strings.Repeat("B", 9000) + `"}}`),
		"the cwd after 8 KiB": lines(append(append([]string{`{"type":"user","timestamp":"2026-01-02T10:00:00Z"}`}, tail[:400]...),
			`{"type":"system","cwd":"/after","timestamp":"2026-01-03T10:00:00Z"}`)...),
		"empty":             "",
		"broken first line": lines(`{"type":"user","cwd":`, userLine("x", "")),
	}
	root := t.TempDir()
	var paths []string
	for name, content := range crafted {
		p := filepath.Join(root, strings.ReplaceAll(name, " ", "-")+".jsonl")
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	more, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	paths = append(append(paths, more...), testcorpus.Files("*/*.jsonl")...)
	if len(paths) < 20 {
		t.Fatalf("only %d files", len(paths))
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		s := &Session{ID: filepath.Base(p), Path: p, ModTime: st.ModTime()}
		in, err := Lite(s)
		if err != nil {
			t.Fatal(err)
		}
		started, project, err := Start(s)
		if err != nil || !started.Equal(in.StartedAt) || project != in.Project {
			t.Errorf("%s: Start = %v %q %v; Lite says %v %q", p, started, project, err, in.StartedAt, in.Project)
		}
	}
}

// "latest" is the first row of ls: the newest activity in the files, not
// the newest file time (a file copied or synced later).
func TestLatestIsTheNewestActivity(t *testing.T) {
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl": lines(strings.Replace(userLine("newer talk", ""), "2026-01-02", "2026-03-01", 1)),
		"-p/" + id2 + ".jsonl": lines(userLine("older talk, newer file", "")),
	})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "-p", id1+".jsonl"), old, old)
	s, err := NewFinder([]Root{{ProjectsDir: root}}, nil).Resolve("latest")
	if err != nil || s.ID != id1 {
		t.Errorf("latest = %v (%v), want %s", s, err, id1)
	}
}

// A flat agent file given as the session is read as its conversation, not
// also as one of its own agents (it would be counted twice).
func TestAgentFileAsSessionIsNotItsOwnAgent(t *testing.T) {
	root := discoveryTree(t)
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	s, err := f.Resolve(filepath.Join(root, "-p", "agent-flat.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range f.Agents(s) {
		if a.Path == s.Path {
			t.Errorf("the session's own file is listed as agent %s", a.ID)
		}
	}
}

// A session in two roots is read from its newest copy, with the subagent
// transcripts of both (the older copy may hold some the newer lacks).
func TestSessionInTwoRootsKeepsTheSubagentsOfBoth(t *testing.T) {
	a := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                     lines(userLine("one", "")),
		"-p/" + id1 + "/subagents/agent-old.jsonl": lines(userLine("sub", `"isSidechain":true,`)),
	})
	b := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                     lines(userLine("one", "")),
		"-p/" + id1 + "/subagents/agent-new.jsonl": lines(userLine("sub", `"isSidechain":true,`)),
	})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(a, "-p", id1+".jsonl"), old, old)
	f := NewFinder([]Root{{ProjectsDir: a}, {ProjectsDir: b}}, nil)
	s, err := f.Resolve(id1)
	if err != nil || !strings.HasPrefix(s.Path, b) {
		t.Fatalf("resolved %v (%v), want the newer copy in %s", s, err, b)
	}
	var ids []string
	for _, ag := range f.Agents(s) {
		ids = append(ids, ag.ID)
	}
	if got := strings.Join(ids, ","); got != "old,new" && got != "new,old" {
		t.Errorf("agents %q, want both copies' (old, new)", got)
	}
}

// A broken file in another project is for a listing to report: finding a
// session by its id says nothing of it (tree <id> --strict must not fail
// for it).
func TestResolveIsQuietAboutOtherSessions(t *testing.T) {
	root := discoveryTree(t)
	if err := os.Symlink(filepath.Join(root, "gone.jsonl"), filepath.Join(root, "-q", "44444444-4444-4444-8444-444444444444.jsonl")); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
	if _, err := f.Resolve(id1); err != nil || stderr.Len() != 0 {
		t.Errorf("resolve: %v, stderr %q", err, stderr.String())
	}
	f.Sessions()
	if !strings.Contains(stderr.String(), "44444444-4444-4444-8444-444444444444.jsonl") {
		t.Errorf("the listing does not report the broken link: %q", stderr.String())
	}
	// When nothing matches, what was skipped may be why: it is said.
	stderr.Reset()
	if _, err := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false)).Resolve("4444"); err == nil || !strings.Contains(stderr.String(), "44444444-4444-4444-8444-444444444444.jsonl") {
		t.Errorf("resolve 4444: %v, stderr %q", err, stderr.String())
	}
}

// AgentElsewhere finds an agent's transcript in another session of the
// folder, in either layout, never in the asking session's own; its index
// serves every session of the folder.
func TestAgentElsewhere(t *testing.T) {
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                        lines(userLine("one", "")),
		"-p/" + id2 + ".jsonl":                        lines(userLine("two", "")),
		"-p/" + id1 + "/subagents/agent-nested.jsonl": lines(userLine("sub", `"isSidechain":true,`)),
		"-p/agent-flat.jsonl":                         lines(fmt.Sprintf(`{"type":"user","sessionId":%q,"isSidechain":true}`, id1)),
		"-p/agent-nobody.jsonl":                       "",
	})
	f := NewFinder([]Root{{ProjectsDir: root}}, nil)
	s1, _ := f.Resolve(id1)
	s2, _ := f.Resolve(id2)
	for _, tc := range []struct {
		s        *Session
		id, want string
	}{
		{s2, "nested", filepath.Join(root, "-p", id1, "subagents", "agent-nested.jsonl")},
		{s2, "flat", filepath.Join(root, "-p", "agent-flat.jsonl")},
		{s1, "nested", ""}, // its own
		{s1, "flat", ""},   // its own
		{s2, "nobody", ""}, // records no session: proves nothing
		{s2, "../x", ""},
	} {
		if got := f.AgentElsewhere(tc.s, tc.id); got != tc.want {
			t.Errorf("AgentElsewhere(%s, %s) = %q, want %q", tc.s.ID[:4], tc.id, got, tc.want)
		}
	}
}

// SessionsWith lists what Sessions lists, and calls found once on every
// session file the listing found, with its listed status: a copy in
// another root too, not a session folder without its main file, nor a
// file that is not regular. A file the folder lists as regular comes
// open, its status the open file's; a symbolic link is followed by a
// stat, and comes unopened.
func TestSessionsWith(t *testing.T) {
	a := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                    lines(userLine("one", "")),
		"-p/" + id2 + ".jsonl":                    lines(userLine("two", "")),
		"-q/" + id1 + ".jsonl":                    lines(userLine("one, another folder", "")),
		"-q/" + id3 + "/subagents/agent-a1.jsonl": lines(userLine("an orphan's agent", "")),
		"-q/notes.txt":                            "not a transcript",
		"-q/" + id2 + ".jsonl.bak":                "not a transcript",
	})
	b := write(t, map[string]string{"-p/" + id2 + ".jsonl": lines(userLine("two, another root", ""))})
	if err := os.Mkdir(filepath.Join(a, "-p", "12345678-1234-1234-1234-123456789abc.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(a, "-p", "12345678-1234-1234-1234-123456789abd.jsonl")
	if err := os.Symlink(filepath.Join(a, "-q", id1+".jsonl"), linked); err != nil {
		t.Fatal(err)
	}
	roots := []Root{{ProjectsDir: a}, {ProjectsDir: b}}
	var mu sync.Mutex
	var got []string
	with := NewFinder(roots, diag.New(io.Discard, false, false)).SessionsWith(func(s *Session, fh *rawfile.File) {
		st := s.ListedStat()
		if st == nil || !st.Regular || st.Size != s.Size {
			t.Errorf("%s: listed status %+v", s.Path, st)
		}
		if (fh == nil) != (s.Path == linked) {
			t.Errorf("%s: open file %v", s.Path, fh)
		}
		if fh != nil {
			open, err := fh.Stat()
			head := make([]byte, 10)
			n, _ := fh.ReadAt(head, 0)
			want, _ := os.ReadFile(s.Path)
			if err != nil || open != *st || string(head[:n]) != string(want[:min(10, len(want))]) {
				t.Errorf("%s: the open file's status %+v (%v), listed %+v; its first bytes %q", s.Path, open, err, *st, head[:n])
			}
		}
		mu.Lock()
		got = append(got, s.Path)
		mu.Unlock()
	})
	slices.Sort(got)
	want := []string{
		filepath.Join(a, "-p", id1+".jsonl"), filepath.Join(a, "-p", id2+".jsonl"), linked,
		filepath.Join(a, "-q", id1+".jsonl"), filepath.Join(b, "-p", id2+".jsonl"),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("found called on\n%q\nwant\n%q", got, want)
	}
	plain := NewFinder(roots, diag.New(io.Discard, false, false)).Sessions()
	if len(with) != len(plain) {
		t.Fatalf("SessionsWith: %d sessions, Sessions: %d", len(with), len(plain))
	}
	for i := range plain {
		if with[i].Path != plain[i].Path || with[i].ID != plain[i].ID || with[i].Orphan != plain[i].Orphan || len(with[i].Copies) != len(plain[i].Copies) {
			t.Errorf("session %d: %+v, Sessions: %+v", i, with[i], plain[i])
		}
	}
}

// Of two copies of a session that differ, the longer is read (a copy
// taken before is shorter, however recently it was written: a backup
// restored, a sync), and stderr says so without -v; copies of one size
// are read from the newest, said under -v only.
func TestSessionInTwoPlacesReadsTheLonger(t *testing.T) {
	for _, tc := range []struct {
		name       string
		longerOld  bool
		sameSize   bool
		wantIn     string // "a": the older copy's root
		wantWarned bool
	}{
		{"the longer written first", true, false, "a", true},
		{"the longer written last", false, false, "b", true},
		{"one size: the newest", false, true, "b", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			short, long := lines(userLine("one", "")), lines(userLine("one", ""), userLine("two", ""))
			aContent, bContent := long, short
			if !tc.longerOld {
				aContent, bContent = short, long
			}
			if tc.sameSize {
				aContent, bContent = short, short
			}
			a := write(t, map[string]string{"-p/" + id1 + ".jsonl": aContent})
			b := write(t, map[string]string{"-p/" + id1 + ".jsonl": bContent})
			old := time.Now().Add(-time.Hour)
			os.Chtimes(filepath.Join(a, "-p", id1+".jsonl"), old, old)
			var errOut bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: a}, {ProjectsDir: b}}, diag.New(&errOut, false, false))
			ss := f.Sessions()
			want := map[string]string{"a": a, "b": b}[tc.wantIn]
			if len(ss) != 1 || !strings.HasPrefix(ss[0].Path, want) {
				t.Fatalf("read %v, want the copy in %s", ss, want)
			}
			if warned := strings.Contains(errOut.String(), "in two places that differ: reading "+ss[0].Path+", the longer"); warned != tc.wantWarned {
				t.Errorf("warned %v, want %v: %q", warned, tc.wantWarned, errOut.String())
			}
		})
	}
}
