package render

import (
	"bytes"
	"encoding/json"
	"iter"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/search"
	"github.com/cctx-dev/cctx/internal/session"
)

var grepSGR = regexp.MustCompile("\x1b\\[[0-9;]*m")

func grepStripSGR(s string) string { return grepSGR.ReplaceAllString(s, "") }

// The match stays in view, the line fits the room, and what the text
// holds is shown, never sent to the terminal: the only escape sequences
// are the highlight's.
func TestFitAround(t *testing.T) {
	th := NewTheme(true)
	long := strings.Repeat("word ", 40)
	for _, tt := range []struct {
		name                 string
		before, match, after string
		room                 int
		want                 string // without colour
	}{
		{"fits", "say ", "needle", " here", 40, "say needle here"},
		{"long on both sides", long, " needle ", long, 30, "… word  needle word word word…"},
		{"long before only", long, "needle", ".", 20, "…d word word needle."},
		{"a match wider than the room", "", strings.Repeat("x", 50), "", 10, "xxxxxxxxx…"},
		{"escapes shown, not sent", "a\x1b[2J", "\x1b]0;owned\x07", "\u202ez", 60, `a\x1b[2J\x1b]0;owned\x07\u202ez`},
		{"wide characters count twice", "日本語の", "needle", "テキスト", 14, "…needleテキス…"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := grepFitAround(th, tt.before, tt.match, tt.after, tt.room)
			if plain := grepStripSGR(got); plain != tt.want {
				t.Errorf("%q, want %q", grepStripSGR(got), tt.want)
			}
			if Width(grepStripSGR(got)) > tt.room {
				t.Errorf("%d columns, room %d", Width(grepStripSGR(got)), tt.room)
			}
			if n := strings.Count(got, "\x1b"); n != 4 { // bold, red, reset, normal intensity
				t.Errorf("%d escape bytes: %q", n, got)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"needle":            "needle",
		"a b":               "'a b'",
		"it's":              `'it'\''s'`,
		"(?i)x|y":           "'(?i)x|y'",
		"src/app.go":        "src/app.go",
		"":                  "''",
		"$(rm -rf ~)":       "'$(rm -rf ~)'",
		"tab\there":         "'tab\there'",
		"/home/me/my dir/x": "'/home/me/my dir/x'",
	} {
		if got := grepShellQuote(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestGrepLabel(t *testing.T) {
	for _, tt := range []struct {
		agent      string
		role       search.Role
		kind, tool string
		want       string
	}{
		{"", search.RoleUser, "text", "", "user"},
		{"", search.RoleTool, "tool_use", "Bash", "Bash"},
		{"", search.RoleTool, "tool_result", "Read", "Read result"},
		{"", search.RoleTool, "tool_result", "", "tool result"},
		{"a4ca7529859c158c2", search.RoleAssistant, "text", "", "↳a4ca752 assistant"},
		{"", search.RoleTool, "tool_use", "mcp\x1b[2Jevil", `mcp\x1b[2Jevil`},
	} {
		if got := grepLabel(tt.agent, tt.role, tt.kind, tt.tool); got != tt.want {
			t.Errorf("%q, want %q", got, tt.want)
		}
	}
}

func results(rs ...*search.Result) iter.Seq[*search.Result] {
	return func(yield func(*search.Result) bool) {
		for _, r := range rs {
			if !yield(r) {
				return
			}
		}
	}
}

func sampleResult(id string) *search.Result {
	s := &session.Session{ID: id, Path: "/p/-w/" + id + ".jsonl", ProjectDir: "/p/-w"}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.Local) // shown in local time: the same in any zone
	return &search.Result{
		Target: search.Target{Session: s, Info: &session.Info{Session: s, Title: "Fix it", Project: "/w/app", UpdatedAt: at}},
		Count:  1,
		Hits: []*search.Hit{{SessionID: id, UUID: "u1", Time: at, Role: search.RoleUser, Kind: "text", Field: "text",
			File: s.Path, Line: 3, TextBytes: 11, Excerpt: "say needle!", Matches: []search.Match{{Start: 4, End: 10, Text: "needle"}}}},
	}
}

// The JSON document is one valid document however many sessions stream
// into it, indented on a terminal and compact in a pipe.
func TestGrepJSONStreams(t *testing.T) {
	for _, tty := range []bool{false, true} {
		for n := 0; n <= 2; n++ {
			var rs []*search.Result
			for i := range n {
				rs = append(rs, sampleResult(strings.Repeat(string(rune('a'+i)), 8)))
			}
			var b bytes.Buffer
			found, err := Grep(&b, results(rs...), Options{TTY: tty, Width: 80, Theme: NewTheme(false)},
				GrepOptions{JSON: true, Pattern: "needle", Roles: []string{"user"}})
			if err != nil || found != (n > 0) {
				t.Fatalf("found %v, err %v", found, err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
				t.Fatalf("tty %v, %d sessions: %v\n%s", tty, n, err, b.String())
			}
			if got := len(doc["sessions"].([]any)); got != n {
				t.Errorf("%d sessions, want %d", got, n)
			}
			if strings.Contains(b.String(), "\n  ") != tty {
				t.Errorf("tty %v: indentation %q", tty, b.String())
			}
		}
	}
}

func TestGrepTerminalView(t *testing.T) {
	r := sampleResult("5c0375b4-0000-4000-8000-000000000000")
	r.Hits = append(r.Hits, &search.Hit{UUID: "u2", Time: r.Hits[0].Time.Add(time.Minute), Role: search.RoleTool, Kind: "tool_use", Tool: "Bash",
		Field: "command", AgentID: "abc1234567", Abandoned: true, TextBytes: 9, Excerpt: "rg needle", Matches: []search.Match{{Start: 3, End: 9}}})
	r.Count, r.Agents, r.Abandoned = 2, true, true
	var b bytes.Buffer
	Grep(&b, results(r), Options{TTY: true, Width: 100, Theme: NewTheme(false)},
		GrepOptions{ShowPattern: "needle", Dirs: []string{"my dir"}, Now: r.Hits[0].Time.Add(time.Hour)})
	want := `5c0375b4  Fix it  /w/app · 1h ago · 2 hits
  10:00  user           say needle!
  10:01  ↳abc1234 Bash  (abandoned branch) command: rg needle
  → cctx --dir 'my dir' show 5c0375b4 --agents --grep needle
  → cctx --dir 'my dir' show 5c0375b4 --agents --leaf u2 --grep needle   (the abandoned branch)
  → cctx --dir 'my dir' resume 5c0375b4

`
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Hits only on an abandoned branch: the command that opens the active
// branch (where show --grep finds nothing) is not suggested, the --leaf
// one is.
func TestGrepSuggestsOnlyCommandsThatFind(t *testing.T) {
	r := sampleResult("5c0375b4-0000-4000-8000-000000000000")
	r.Hits[0].Abandoned, r.Hits[0].UUID, r.Abandoned = true, "u1", true
	var b bytes.Buffer
	Grep(&b, results(r), Options{TTY: true, Width: 100, Theme: NewTheme(false)},
		GrepOptions{ShowPattern: "needle", Now: r.Hits[0].Time.Add(time.Hour)})
	if out := b.String(); strings.Contains(out, "show 5c0375b4 --grep") || !strings.Contains(out, "show 5c0375b4 --leaf u1 --grep needle") {
		t.Errorf("suggestions:\n%s", out)
	}
}

// On a terminal a session's header gives the title the room: a long
// project is cut from the left to 32 columns (as ls and tokens cut it),
// not the title to its 20-column minimum; a session read from standard
// input has no project (not the "." of the "-" path's folder).
func TestGrepHeaderCutsTheProjectNotTheTitle(t *testing.T) {
	r := sampleResult("5c0375b4-0000-4000-8000-000000000000")
	r.Info.Title = "Upgrade Ollama to support the muse-glimmer model"
	r.Info.Project = "/Users/someone/Library/Mobile Documents/com~apple~CloudDocs/Developer/zoia-canvas"
	var b bytes.Buffer
	Grep(&b, results(r), Options{TTY: true, Width: 120, Theme: NewTheme(false)},
		GrepOptions{ShowPattern: "needle", Now: r.Hits[0].Time.Add(time.Hour)})
	head, _, _ := strings.Cut(b.String(), "\n")
	if want := "5c0375b4  Upgrade Ollama to support the muse-glimmer model  …CloudDocs/Developer/zoia-canvas · 1h ago · 1 hit"; head != want {
		t.Errorf("header\n%q, want\n%q", head, want)
	}

	s := &session.Session{Path: session.StdinPath, ProjectDir: "."}
	r = sampleResult("x")
	r.Target = search.Target{Session: s}
	b.Reset()
	Grep(&b, results(r), Options{TTY: true, Width: 100, Theme: NewTheme(false)},
		GrepOptions{ShowPattern: "needle", Now: r.Hits[0].Time.Add(time.Hour)})
	head, _, _ = strings.Cut(b.String(), "\n")
	if strings.Contains(head, " . ") || !strings.Contains(head, "standard input") {
		t.Errorf("stdin header %q: want it to say standard input, not the project %q", head, ".")
	}
}

// grep -l and -c on a terminal print a row a session in columns of fixed
// widths, the rows streaming: activity, project and title start at the
// same column on every row, whatever each one's text, and a row fits the
// width.
func TestGrepSessionRowsAlign(t *testing.T) {
	long := sampleResult("ef958aa1-0000-4000-8000-000000000000")
	long.Info.Title = "Well, the subagents seem to be either stuck or done... can you check?"
	long.Info.Project = "/home/someone/src/claude-code-experiments/worktrees"
	short := sampleResult("c7d3d95c-0000-4000-8000-000000000000")
	short.Info.Title, short.Info.Project, short.Count = "Port it", "/tmp/x", 62
	for _, tc := range []struct {
		mode   search.Mode
		colour bool
	}{{search.Sessions, false}, {search.Counts, false}, {search.Sessions, true}, {search.Counts, true}} {
		mode := tc.mode
		var b bytes.Buffer
		Grep(&b, results(long, short), Options{TTY: true, Width: 80, Theme: NewTheme(tc.colour)},
			GrepOptions{Mode: mode, Now: long.Hits[0].Time.Add(time.Hour)})
		rows := strings.Split(strings.TrimSuffix(grepStripSGR(b.String()), "\n"), "\n")
		if len(rows) != 2 {
			t.Fatalf("mode %v: %q", mode, b.String())
		}
		for _, cell := range []string{"1h ago", "/tmp/x", "Port it"} {
			at := strings.Index(rows[1], cell)
			col := Width(rows[1][:at])
			var other string
			switch cell {
			case "1h ago":
				other = "1h ago"
			case "/tmp/x":
				other = "…"
			default:
				other = "Well,"
			}
			if oat := strings.Index(rows[0], other); oat < 0 || Width(rows[0][:oat]) != col {
				t.Errorf("mode %v: %q starts at column %d of\n%s\nbut %q of\n%s", mode, cell, col, rows[1], other, rows[0])
			}
		}
		if w := Width(rows[0]); w != 79 { // the title fills the width, one column to spare
			t.Errorf("mode %v, colour %v: a row %d wide, want 79: %s", mode, tc.colour, w, rows[0])
		}
	}
}

// Context lines (-C) are set apart from hits without colour: "·" where a
// hit line has a space; a context of only spaces is not printed.
func TestGrepContextLines(t *testing.T) {
	r := sampleResult("5c0375b4-0000-4000-8000-000000000000")
	at := r.Hits[0].Time
	r.Hits[0].Before = []search.Context{{Role: search.RoleAssistant, Kind: "text", Time: at.Add(-time.Minute), Excerpt: "let me look"}}
	r.Hits[0].After = []search.Context{{Role: search.RoleAssistant, Kind: "text", Time: at.Add(time.Minute), Excerpt: "\n\n  "}}
	var b bytes.Buffer
	Grep(&b, results(r), Options{TTY: true, Width: 100, Theme: NewTheme(false)}, GrepOptions{ShowPattern: "needle", Now: at.Add(time.Hour)})
	lines := strings.Split(b.String(), "\n")
	if lines[1] != "· 09:59  assistant  let me look" || lines[2] != "  10:00  user       say needle!" || strings.HasPrefix(lines[3], "·") {
		t.Errorf("got\n%s", b.String())
	}
}
