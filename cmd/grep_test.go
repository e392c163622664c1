package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The flags of grep, parsed: what reaches the run function, or the usage
// error.
func TestGrepFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    GrepOptions // F and what is not compared left zero
		wantErr string
	}{
		{args: []string{"needle"}, want: GrepOptions{Pattern: "needle", Sessions: []string{}}},
		{args: []string{"needle", "ef95", "latest"}, want: GrepOptions{Pattern: "needle", Sessions: []string{"ef95", "latest"}}},
		{args: []string{"-i", "-F", "-w", "a.b"}, want: GrepOptions{Pattern: "a.b", Sessions: []string{}, IgnoreCase: true, Fixed: true, Word: true}},
		{args: []string{"-s", "x"}, want: GrepOptions{Pattern: "x", Sessions: []string{}, CaseSensitive: true}},
		{args: []string{"--role", "user", "--role", "tool,assistant", "--thinking", "x"},
			want: GrepOptions{Pattern: "x", Sessions: []string{}, Roles: []string{"user", "tool,assistant"}, Thinking: true}},
		{args: []string{"-l", "x"}, want: GrepOptions{Pattern: "x", Sessions: []string{}, FilesOnly: true}},
		{args: []string{"-c", "-m", "3", "x"}, want: GrepOptions{Pattern: "x", Sessions: []string{}, Count: true, MaxCount: 3}},
		{args: []string{"-C", "2", "x"}, want: GrepOptions{Pattern: "x", Sessions: []string{}, Context: 2}},
		{args: []string{"--project", "~/src", "--since", "7d", "--until", "today", "x"},
			want: GrepOptions{Pattern: "x", Sessions: []string{}, Project: "~/src", Since: "7d", Until: "today"}},
		{args: []string{}, wantErr: "needs PATTERN"},
		{args: []string{""}, wantErr: "the pattern is empty"},
		{args: []string{"-i", "-s", "x"}, wantErr: "-i and -s contradict"},
		{args: []string{"-l", "-c", "x"}, wantErr: "-l and -c are two different outputs"},
		{args: []string{"-m", "-1", "x"}, wantErr: "--max-count must be 0 or more"},
		{args: []string{"-C", "-2", "x"}, wantErr: "--context must be 0 or more"},
		{args: []string{"-C", "1", "-l", "x"}, wantErr: "--context shows hits"},
		{args: []string{"--role", "bot", "x"}, wantErr: `--role "bot": choose user, assistant, tool or thinking`},
		{args: []string{"x", "-", "-"}, wantErr: "only one argument can read standard input"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			io, _, _, _ := TestIO()
			f := &Factory{IO: io}
			var got *GrepOptions
			c := NewCmdGrep(f, func(o *GrepOptions) error { got = o; return nil })
			c.SetArgs(tt.args)
			c.SetOut(io.Out)
			c.SetErr(io.ErrOut)
			err := c.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.F = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

// grepSession is a small projects dir for the runs below.
func grepSession(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "-w-app", "11111111-2222-3333-4444-555555555555.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-03-01T10:00:00Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","message":{"role":"user","content":"Fix the NEEDLE bug in a.b and axb"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","timestamp":"2026-03-01T10:00:05Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","message":{"role":"assistant","content":[{"type":"text","text":"the needles are sharp\u001b[31m"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rg needle src/"}}]}}`,
	}
	os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	return dir
}

func TestGrepExitCodesAndSmartCase(t *testing.T) {
	dir := grepSession(t)
	for _, tt := range []struct {
		args []string
		code int
		out  string // a line of stdout it must hold ("" for none)
		err  string
	}{
		{[]string{"needle"}, 0, "NEEDLE bug", ""},              // all lower case: case-insensitive
		{[]string{"Needle"}, 1, "", ""},                        // a capital: case-sensitive
		{[]string{"-i", "Needle"}, 0, "NEEDLE", ""},            // forced
		{[]string{"-s", "needle"}, 0, "needles are sharp", ""}, // forced sensitive
		{[]string{"-s", "-c", "needle"}, 0, "\t2", ""},         // assistant text, Bash command
		{[]string{"a.b"}, 0, "a.b and axb", ""},                // a regexp
		{[]string{"-F", "-c", "a.b"}, 0, "\t1", ""},            // a fixed string
		{[]string{"-w", "needle"}, 0, "NEEDLE", ""},            // words: not "needles"
		{[]string{"-w", "-s", "-c", "needle"}, 0, "\t1", ""},   // only the Bash command
		{[]string{"--role", "tool", "needle"}, 0, "command: rg needle", ""},
		{[]string{"--role", "user", "-c", "needle"}, 0, "\t1", ""},
		{[]string{"-l", "needle"}, 0, "11111111-2222-3333-4444-555555555555\t", ""},
		{[]string{"zebra"}, 1, "", ""},
		{[]string{"foo(bar"}, 2, "", "pattern `foo(bar`: missing closing ) at column 4"},
		{[]string{"needle", "nosuch"}, 2, "", "no such session"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := run(t, false, nil, append([]string{"grep", "--dir", dir}, tt.args...)...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", r.code, tt.code, r.out, r.errOut)
			}
			if tt.out != "" && !strings.Contains(r.out, tt.out) {
				t.Errorf("stdout lacks %q:\n%s", tt.out, r.out)
			}
			if tt.out == "" && r.out != "" {
				t.Errorf("stdout: %q", r.out)
			}
			if tt.err != "" && !strings.Contains(r.errOut, tt.err) {
				t.Errorf("stderr lacks %q:\n%s", tt.err, r.errOut)
			}
		})
	}
}

// In a pipe: one tab-separated line per hit, the columns the help names,
// text made safe; on a terminal: the hit highlighted and cut to the width,
// with the commands that open the session.
func TestGrepOutputs(t *testing.T) {
	dir := grepSession(t)
	r := run(t, false, nil, "grep", "--dir", dir, "-s", "needle")
	rows := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	if len(rows) != 2 {
		t.Fatalf("rows: %q", rows)
	}
	cols := strings.Split(rows[0], "\t")
	if len(cols) != 7 || cols[0] != "11111111-2222-3333-4444-555555555555" || cols[1] != "a1" || cols[2] != "2026-03-01T10:00:05.000Z" ||
		cols[3] != "assistant" || cols[4] != "/w/app" || cols[5] != `the needles are sharp\x1b[31m` || cols[6] != "" {
		t.Errorf("columns: %q", cols)
	}
	if cols := strings.Split(rows[1], "\t"); cols[3] != "tool" || cols[5] != "command: rg needle src/" {
		t.Errorf("tool row: %q", cols)
	}

	r = run(t, true, map[string]string{"CLICOLOR_FORCE": "1"}, "grep", "--dir", dir, "-s", "sharp")
	for _, want := range []string{"11111111", "Fix the NEEDLE bug", "/w/app", "1 hit", "assistant", "\x1b[1m\x1b[31msharp\x1b[0m\x1b[22m",
		`\x1b[31m`, "→ cctx --dir " + dir + " show 11111111 --grep '(?-i)sharp'", "→ cctx --dir " + dir + " resume 11111111"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("terminal view lacks %q:\n%s", want, r.out)
		}
	}
	if strings.Contains(r.out, "\x1b[31m\x1b[31m") || strings.Count(r.out, "\x1b[31m") != 1 {
		t.Errorf("the escape in the text reached the terminal:\n%q", r.out)
	}
}

func TestGrepJSON(t *testing.T) {
	dir := grepSession(t)
	r := run(t, false, nil, "grep", "--dir", dir, "--json", "needle")
	var doc struct {
		SchemaVersion int      `json:"schema_version"`
		Pattern       string   `json:"pattern"`
		IgnoreCase    bool     `json:"ignore_case"`
		Roles         []string `json:"roles"`
		Sessions      []struct {
			SessionID string           `json:"session_id"`
			HitCount  int              `json:"hit_count"`
			Hits      []map[string]any `json:"hits"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	if doc.SchemaVersion != 1 || doc.Pattern != "needle" || !doc.IgnoreCase || len(doc.Sessions) != 1 || doc.Sessions[0].HitCount != 3 {
		t.Fatalf("%+v", doc)
	}
	h := doc.Sessions[0].Hits[2]
	for k, v := range map[string]any{"uuid": "a1", "role": "tool", "kind": "tool_use", "tool": "Bash", "field": "command", "agent_id": nil,
		"abandoned": false, "line": 2.0, "text_bytes": 14.0, "timestamp": "2026-03-01T10:00:05.000Z"} {
		if !reflect.DeepEqual(h[k], v) {
			t.Errorf("%s = %v, want %v", k, h[k], v)
		}
	}
	if m := h["matches"].([]any)[0].(map[string]any); m["start"] != 3.0 || m["end"] != 9.0 || m["text"] != "needle" {
		t.Errorf("match %v", m)
	}
	// No hit: an empty list, exit 1.
	r = run(t, false, nil, "grep", "--dir", dir, "--json", "zebra")
	if r.code != 1 || strings.TrimSpace(r.out) != `{"schema_version":1,"pattern":"zebra","ignore_case":true,"roles":["user","assistant","tool"],"sessions":[]}` {
		t.Errorf("%d %s", r.code, r.out)
	}
}

// A pattern --redact masks cannot be found in the masked text: the
// message says so, not "no match for [EMAIL]".
func TestGrepRedactedPatternIsSaid(t *testing.T) {
	r := run(t, false, nil, "grep", "--dir", samples, "-F", "someone@example.org", "--redact")
	if r.code != 1 || !strings.Contains(r.errOut, "the pattern is what --redact masks in the text searched") || strings.Contains(r.errOut, "[EMAIL]") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}

// A transcript saved as UTF-16 is said, not searched without a word.
func TestGrepSaysAUTF16File(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "-p")
	os.MkdirAll(dir, 0o755)
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range `{"type":"user","uuid":"u1","message":{"role":"user","content":"hello"}}` + "\n" {
		utf16 = append(utf16, byte(c), 0)
	}
	os.WriteFile(filepath.Join(dir, "11111111-1111-4111-8111-111111111111.jsonl"), utf16, 0o644)
	r := run(t, false, nil, "grep", "--dir", filepath.Dir(dir), "hello")
	if r.code != 1 || !strings.Contains(r.errOut, "the file is UTF-16") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}
