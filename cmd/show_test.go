package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/cctx-dev/cctx/internal/render"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// showRunIO runs cctx with stdin, a fixed clock, width 100 and env.
func showRunIO(t *testing.T, tty bool, stdin string, env map[string]string, args ...string) result {
	t.Helper()
	io, in, out, errOut := TestIO()
	in.WriteString(stdin)
	io.SetStdoutTTY(tty)
	io.SetWidth(100)
	home := env["HOME"]
	if home == "" {
		home = t.TempDir()
	}
	e := session.Env{Getenv: func(k string) string { return env[k] }, Home: home}
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	code := Run(args, io, e, now)
	return result{code, out.String(), errOut.String()}
}

// showCorpus is the shared real corpus beside the repository.
func showCorpus(t *testing.T) string {
	t.Helper()
	return "../testdata/corpus"
}

func showGolden(t *testing.T, name, got string) {
	t.Helper()
	golden(t, filepath.Join("show", name), got)
}

// writeSession writes a crafted transcript into a projects dir and returns
// its path.
func writeSession(t *testing.T, lines ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "projects", "-tmp-proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "11111111-2222-3333-4444-555555555555.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// corpusShows are the sessions of every shape in testdata/corpus.
var corpusShows = []struct {
	name, folder, session string
	args                  []string
	stderr                string // the one warning expected, if any
}{
	{"inline-sidechains", "claude-code-viewer", "5c0375b4", []string{"--agents"}, ""},
	{"subagent-folders", "claude-code-log", "ef958aa1", nil, ""},
	{"flat-agents-rewinds", "kfischer-claude-history", "b3edadab", []string{"--agents"}, ""},
	{"compaction-spotter", "spotter", "8463c716", []string{"--since-compact"}, ""},
	{"compaction-codemie", "codemie", "624a4a58", []string{"--since-compact"}, ""},
	{"images-thinking", "claude-code-log", "0d3a8e6f", []string{"--thinking"}, ""},
	{"huge-lines", "codemie", "e9fb405b", []string{"--agents"}, ""},
	// Its Task call's subagent transcript is not in the corpus.
	{"headless", "claude-reliability", "c7d3d95c", []string{"--tail", "2"}, "the Agent/Task result names agent ab81802, but no transcript agent-ab81802.jsonl was found"},
}

func TestShowGoldensOnTheRealCorpus(t *testing.T) {
	base := showCorpus(t)
	for _, c := range corpusShows {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"show", "--dir", filepath.Join(base, c.folder), c.session}, c.args...)
			plain := showRunIO(t, false, "", nil, args...)
			if plain.code != 0 || (c.stderr == "") != (plain.errOut == "") || !strings.Contains(plain.errOut, c.stderr) {
				t.Fatalf("exit %d, stderr %q", plain.code, plain.errOut)
			}
			showGolden(t, c.name+".txt", plain.out)
			colour := showRunIO(t, true, "", nil, append(args, "--color", "always")...)
			if colour.code != 0 || (c.stderr == "") != (colour.errOut == "") {
				t.Fatalf("colour: exit %d, stderr %q", colour.code, colour.errOut)
			}
			showGolden(t, c.name+".color.txt", colour.out)
			if stripShowANSI(colour.out) == colour.out {
				t.Error("the colour view has no colour")
			}
		})
	}
}

var showANSI = regexp.MustCompile("\x1b\\[[0-9;]*m")

func stripShowANSI(s string) string { return showANSI.ReplaceAllString(s, "") }

// sourceLines reads every line of the session's files.
func sourceLines(t *testing.T, dir string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(b, []byte("\n")) {
			set[string(l)] = true
		}
		return nil
	})
	return set
}

type showDoc struct {
	SchemaVersion int `json:"schema_version"`
	Session       struct {
		SessionID string          `json:"session_id"`
		Usage     json.RawMessage `json:"usage"`
		Messages  int             `json:"messages"`
	} `json:"session"`
	Messages []struct {
		UUID      string            `json:"uuid"`
		Type      string            `json:"type"`
		ToolUseID *string           `json:"tool_use_id"`
		Content   []json.RawMessage `json:"content"`
		Usage     json.RawMessage   `json:"usage"`
		Raw       json.RawMessage   `json:"raw"`
	} `json:"messages"`
}

// TestShowInvariantsOnTheRealCorpus checks, on every session of the corpus
// and with everything shown (--all --agents): --raw prints lines of the
// source byte for byte, --json and --raw show the same entries, no uuid
// appears twice, every tool call shown has its result shown after it, and
// the header's usage equals cctx tokens.
func TestShowInvariantsOnTheRealCorpus(t *testing.T) {
	base := showCorpus(t)
	for _, c := range corpusShows {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(base, c.folder)
			src := sourceLines(t, dir)
			for _, extra := range [][]string{nil, {"--all", "--agents"}} {
				args := append([]string{"show", "--dir", dir, c.session}, extra...)
				raw := showRunIO(t, false, "", nil, append(args, "--raw")...)
				if raw.code != 0 {
					t.Fatalf("--raw: exit %d: %s", raw.code, raw.errOut)
				}
				rawLines := strings.Split(strings.TrimSuffix(raw.out, "\n"), "\n")
				for i, l := range rawLines {
					if !src[l] {
						t.Fatalf("--raw line %d is not a line of the source: %.200s", i+1, l)
					}
				}
				js := showRunIO(t, false, "", nil, append(args, "--json")...)
				var doc showDoc
				if err := json.Unmarshal([]byte(js.out), &doc); err != nil {
					t.Fatalf("--json: %v", err)
				}
				if doc.SchemaVersion != 1 || len(doc.Messages) != len(rawLines) || doc.Session.Messages != len(rawLines) {
					t.Fatalf("--json has %d messages, --raw %d lines", len(doc.Messages), len(rawLines))
				}
				seen := map[string]bool{}
				answered := map[string]bool{}
				var calls []string
				for i, m := range doc.Messages {
					if seen[m.UUID] {
						t.Errorf("uuid %s appears twice", m.UUID)
					}
					seen[m.UUID] = true
					var rawObj struct{ UUID string }
					json.Unmarshal(m.Raw, &rawObj)
					var lineObj struct{ UUID string }
					json.Unmarshal([]byte(rawLines[i]), &lineObj)
					if rawObj.UUID != m.UUID || lineObj.UUID != m.UUID {
						t.Errorf("message %d: uuid %s, raw %s, --raw line %s", i, m.UUID, rawObj.UUID, lineObj.UUID)
					}
					for _, b := range m.Content {
						var blk struct {
							Type      string `json:"type"`
							ID        string `json:"id"`
							ToolUseID string `json:"tool_use_id"`
						}
						json.Unmarshal(b, &blk)
						switch blk.Type {
						case "tool_use":
							calls = append(calls, blk.ID)
						case "tool_result":
							if m.ToolUseID == nil && !answered[blk.ToolUseID] {
								// A result shown on its own must answer a call
								// that is not shown.
								for _, c := range calls {
									if c == blk.ToolUseID {
										t.Errorf("result of %s is not under its call", c)
									}
								}
							}
							answered[blk.ToolUseID] = true
						}
					}
				}
				for _, id := range calls {
					if !answered[id] && !unansweredInSource(t, dir, id) {
						t.Errorf("tool call %s is shown without its result", id)
					}
				}
			}
			js := showRunIO(t, false, "", nil, "show", "--dir", dir, c.session, "--json")
			tok := showRunIO(t, false, "", nil, "tokens", "--dir", dir, c.session, "--json")
			var doc showDoc
			json.Unmarshal([]byte(js.out), &doc)
			var tdoc struct{ Total json.RawMessage }
			json.Unmarshal([]byte(tok.out), &tdoc)
			if string(doc.Session.Usage) != string(tdoc.Total) {
				t.Errorf("header usage %s\n!= cctx tokens total %s", doc.Session.Usage, tdoc.Total)
			}
		})
	}
}

// The header's usage is counted from the tree's entries, not by reading
// the files again: it must still equal cctx tokens when lines carry usage
// without being nodes (no uuid; a duplicate uuid's losing line), for
// anonymous responses, for subagent files and from standard input.
func TestShowUsageEqualsTokens(t *testing.T) {
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"start"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"lost"}],"usage":{"input_tokens":1000,"output_tokens":5}}}`,
		`{"type":"assistant","sessionId":"s1","timestamp":"2026-01-02T10:00:02Z","requestId":"r7","message":{"id":"m7","role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":3,"output_tokens":4}}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:03Z","message":{"role":"user","content":"again"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:04Z","requestId":"r9","message":{"id":"m9","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"kept"}],"usage":{"input_tokens":10,"output_tokens":5}}}`,
		`{"type":"assistant","uuid":"x6","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:05Z","message":{"role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":7,"output_tokens":7}}}`,
		`{"type":"assistant","sessionId":"s1","timestamp":"2026-01-02T10:00:06Z","message":{"role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":7,"output_tokens":7}}}`,
	}
	p := writeSession(t, lines...)
	dir := filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents")
	os.MkdirAll(dir, 0o755)
	agent := `{"type":"assistant","uuid":"y1","parentUuid":null,"sessionId":"s1","isSidechain":true,"agentId":"abc1234","timestamp":"2026-01-02T10:00:07Z","requestId":"r20","message":{"id":"m20","role":"assistant","model":"claude-haiku-4-5","content":[],"usage":{"input_tokens":20,"output_tokens":2}}}`
	if err := os.WriteFile(filepath.Join(dir, "agent-abc1234.jsonl"), []byte(agent+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// cctx tokens reads standard input from the process, not from the
	// test's streams: it counts the same lines from a file without agents.
	alone := writeSession(t, lines...)
	for _, tc := range []struct {
		name, arg, stdin, tokArg string
		calls                    int
	}{
		// m1 (its line lost the uuid to a later one), m7 (no uuid), m9, the
		// anonymous response (two lines), m20 in the subagent.
		{"file", p, "", p, 5},
		{"stdin", "-", strings.Join(lines, "\n") + "\n", alone, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := showRunIO(t, false, tc.stdin, nil, "show", "--json", tc.arg)
			tok := showRunIO(t, false, "", nil, "tokens", "--json", tc.tokArg)
			if js.code != 0 || tok.code != 0 {
				t.Fatalf("show exit %d (%s), tokens exit %d (%s)", js.code, js.errOut, tok.code, tok.errOut)
			}
			var doc showDoc
			json.Unmarshal([]byte(js.out), &doc)
			var tdoc struct{ Total json.RawMessage }
			json.Unmarshal([]byte(tok.out), &tdoc)
			if string(doc.Session.Usage) != string(tdoc.Total) {
				t.Errorf("header usage %s\n!= cctx tokens total %s", doc.Session.Usage, tdoc.Total)
			}
			var u struct {
				APICalls int `json:"api_calls"`
			}
			json.Unmarshal(doc.Session.Usage, &u)
			if u.APICalls != tc.calls {
				t.Errorf("header counts %d API calls, want %d: %s", u.APICalls, tc.calls, doc.Session.Usage)
			}
		})
	}
}

// show reads each file once to build the tree and once more for the lines
// it displays; the usage is counted from the tree, not by a third read: it
// stays right when the files are gone once the tree is built.
func TestShowCountsUsageWithoutRereading(t *testing.T) {
	p := writeSession(t, craftedSession...)
	f := &Factory{IO: &IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, Now: time.Now,
		Env: session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}}
	f.Globals.Dirs = []string{filepath.Dir(filepath.Dir(p))}
	finder, err := f.Finder()
	if err != nil {
		t.Fatal(err)
	}
	s, err := finder.Resolve(p)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.Open(finder, s, nil, f.Report())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	u := tokens.CountTree(tr, "", "", nil)
	total, rs := u.Total, u.Responses()
	// m1 (three lines, the largest usage kept) and m2; the synthetic
	// placeholder carries no tokens.
	if total.APICalls != 2 || total.Tokens != 152+12 || len(rs) != 2 {
		t.Errorf("counted %d calls, %d tokens, %d responses; want 2, 164, 2", total.APICalls, total.Tokens, len(rs))
	}
}

// unansweredInSource reports whether no line of the session's files
// answers the call (an interrupted session): then "no result" is right.
func unansweredInSource(t *testing.T, dir, id string) bool {
	for l := range sourceLines(t, dir) {
		if strings.Contains(l, `"tool_use_id":"`+id+`"`) {
			return false
		}
	}
	return true
}

// A crafted session: a prompt, a response streamed as three lines
// (thinking, text, tool_use) sharing message.id, its tool result, a
// response with a terminal escape in its text, a meta line and a
// synthetic placeholder.
var craftedSession = []string{
	`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","cwd":"/tmp/proj","gitBranch":"main","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"list the files"}}`,
	`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"I should run ls."}],"usage":{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":100}}}`,
	`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:02Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Let me **look**."}],"usage":{"input_tokens":10,"output_tokens":1,"cache_read_input_tokens":100}}}`,
	`{"type":"assistant","uuid":"a3","parentUuid":"a2","sessionId":"s1","timestamp":"2026-01-02T10:00:03Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls -la"}}],"usage":{"input_tokens":10,"output_tokens":42,"cache_read_input_tokens":100}}}`,
	`{"type":"user","uuid":"u2","parentUuid":"a3","sessionId":"s1","timestamp":"2026-01-02T10:00:04Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.txt\nb.txt","is_error":false}]}}`,
	`{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s1","isMeta":true,"timestamp":"2026-01-02T10:00:05Z","message":{"role":"user","content":"Caveat: meta text"}}`,
	`{"type":"assistant","uuid":"a4","parentUuid":"u3","sessionId":"s1","timestamp":"2026-01-02T10:00:06Z","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Two files: \u001b[31mred\u001b[0m and done."}],"usage":{"input_tokens":5,"output_tokens":7}}}`,
	`{"type":"assistant","uuid":"a5","parentUuid":"a4","sessionId":"s1","timestamp":"2026-01-02T10:00:07Z","message":{"id":"m3","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"No response requested."}],"usage":{"input_tokens":0,"output_tokens":0}}}`,
}

func TestShowTerminalView(t *testing.T) {
	p := writeSession(t, craftedSession...)
	cases := []struct {
		name     string
		args     []string
		want     []string
		wantNot  []string
		colour   bool
		exitCode int
	}{
		{name: "one message per response, usage once, result under its call",
			want: []string{
				"❯ user · 2026-01-02 10:00:00\n  list the files\n",
				"● assistant · 10:00:01 · opus-4-6 · 110 ctx · 42 out",
				"∴ thinking (16 chars, --thinking shows it)",
				"  Let me **look**.\n  ▸ Bash ls -la\n    ⎿ a.txt\n      b.txt\n",
				`Two files: \x1b[31mred\x1b[0m and done.`,
			},
			wantNot: []string{"I should run ls", "Caveat", "\x1b"}},
		{name: "thinking shown", args: []string{"--thinking"}, want: []string{"∴ thinking\n    I should run ls."}},
		{name: "meta shown with --all", args: []string{"--all"}, want: []string{"❯ user (meta)", "Caveat: meta text"}},
		{name: "tail", args: []string{"--tail", "1"}, want: []string{"list the files"}},
		// As grep: no match is exit 1.
		{name: "grep misses", args: []string{"--grep", "nothing-like-this"}, want: []string{"(nothing to show)"}, exitCode: ExitError},
		{name: "grep smart case", args: []string{"--grep", "A.TXT"}, want: []string{"(nothing to show)"}, exitCode: ExitError},
		{name: "grep hits tool output", args: []string{"--grep", "b.txt"}, want: []string{"list the files", "b.txt"}},
		{name: "colour escapes content but colours the view", args: []string{"--color", "always"}, colour: true,
			want: []string{`\x1b[31mred\x1b[0m`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := showRunIO(t, c.colour, "", nil, append([]string{"show", "--no-pager", p}, c.args...)...)
			if r.code != c.exitCode {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			got := r.out
			if c.colour {
				if !strings.Contains(got, "\x1b[") {
					t.Fatal("no colour")
				}
				if strings.Contains(got, "\x1b[31mred") {
					t.Fatal("a raw escape from the transcript reached the terminal")
				}
				got = stripShowANSI(got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("output has %q:\n%s", w, got)
				}
			}
			if !strings.Contains(got, "nothing to show") && strings.Count(got, "● assistant") != 3 {
				t.Errorf("want 3 assistant messages (m1, m2, synthetic), got:\n%s", got)
			}
		})
	}
}

// Model names lose their date on the terminal, as in every other view;
// --json keeps the full ids.
func TestShowModelNamesWithoutDate(t *testing.T) {
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":10,"output_tokens":5}}}`,
	)
	r := showRunIO(t, false, "", nil, "show", p)
	for _, want := range []string{"models   opus-4-5\n", "● assistant · 10:00:01 · opus-4-5 · "} {
		if !strings.Contains(r.out, want) {
			t.Errorf("output lacks %q:\n%s", want, r.out)
		}
	}
	if strings.Contains(r.out, "20251101") {
		t.Errorf("a dated model name is shown:\n%s", r.out)
	}
	js := showRunIO(t, false, "", nil, "show", "--json", p)
	if !strings.Contains(js.out, `"models":["claude-opus-4-5-20251101"]`) || !strings.Contains(js.out, `"model":"claude-opus-4-5-20251101"`) {
		t.Errorf("--json must keep the full model ids:\n%.600s", js.out)
	}
}

func TestShowFinal(t *testing.T) {
	p := writeSession(t, craftedSession...)
	var r result
	// The synthetic placeholder is skipped; the escape in the text is
	// shown visibly, in a pipe as on a terminal (--json has it exact).
	for _, tty := range []bool{false, true} {
		r = showRunIO(t, tty, "", nil, "show", "--final", p)
		if r.code != 0 || r.out != `Two files: \x1b[31mred\x1b[0m and done.`+"\n" {
			t.Fatalf("terminal %v: exit %d, out %q, err %q", tty, r.code, r.out, r.errOut)
		}
	}
	// A response streamed as two text lines gives both texts.
	p2 := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"first"}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"second"}]}}`,
	)
	r = showRunIO(t, false, "", nil, "show", "--final", p2)
	if r.out != "first\n\nsecond\n" {
		t.Fatalf("got %q", r.out)
	}
}

func TestShowJSONAndRaw(t *testing.T) {
	p := writeSession(t, craftedSession...)
	r := showRunIO(t, false, "", nil, "show", "--json", p)
	if r.code != 0 {
		t.Fatal(r.errOut)
	}
	var doc struct {
		SchemaVersion int `json:"schema_version"`
		Session       struct {
			SessionID string `json:"session_id"`
			Project   string `json:"project"`
			GitBranch string `json:"git_branch"`
			Prompts   int    `json:"prompts"`
			Usage     struct {
				APICalls int64 `json:"api_calls"`
				Tokens   int64 `json:"total_tokens"`
			} `json:"usage"`
		} `json:"session"`
		Messages []struct {
			UUID       string  `json:"uuid"`
			ParentUUID *string `json:"parent_uuid"`
			Type       string  `json:"type"`
			MessageID  *string `json:"message_id"`
			Usage      *struct {
				Output int64 `json:"output_tokens"`
			} `json:"usage"`
			Content []map[string]any `json:"content"`
			Raw     map[string]any   `json:"raw"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Session
	// The session is named by its file, not by the sessionId its lines record.
	if doc.SchemaVersion != 1 || s.SessionID != "11111111-2222-3333-4444-555555555555" || s.Project != "/tmp/proj" || s.GitBranch != "main" || s.Prompts != 1 {
		t.Errorf("session: %+v", s)
	}
	// Two real responses (the synthetic one carries no tokens): m1 counted
	// once with its largest usage.
	if s.Usage.APICalls != 2 || s.Usage.Tokens != 110+42+5+7 {
		t.Errorf("usage: %+v", s.Usage)
	}
	var uuids []string
	withUsage := map[string]int64{}
	for _, m := range doc.Messages {
		uuids = append(uuids, m.UUID)
		if m.Usage != nil {
			withUsage[m.UUID] = m.Usage.Output
		}
		if m.Raw["uuid"] != m.UUID {
			t.Errorf("raw of %s is not its entry", m.UUID)
		}
	}
	if strings.Join(uuids, ",") != "u1,a1,a2,a3,u2,a4,a5" {
		t.Errorf("messages %v (the meta line must be hidden)", uuids)
	}
	if len(withUsage) != 2 || withUsage["a1"] != 42 || withUsage["a4"] != 7 {
		t.Errorf("usage must be on the first line of each response: %v", withUsage)
	}
	if doc.Messages[0].ParentUUID != nil || doc.Messages[0].Content[0]["text"] != "list the files" {
		t.Errorf("first message: %+v", doc.Messages[0])
	}

	raw := showRunIO(t, false, "", nil, "show", "--raw", "--all", p)
	if raw.out != strings.Join(craftedSession, "\n")+"\n" {
		t.Errorf("--raw --all must print every line byte for byte:\n%s", raw.out)
	}
	tail := showRunIO(t, false, "", nil, "show", "--raw", "--tail", "1", p)
	if !strings.HasPrefix(tail.out, craftedSession[0]+"\n") {
		t.Errorf("--raw --tail 1: %s", tail.out)
	}
}

func TestShowRawKeepsBytesOfOddLines(t *testing.T) {
	// A BOM on the first line, CRLF endings, leading blanks, unicode
	// escapes and a non-ASCII text: --raw prints the JSON object of each
	// line exactly, as the reader delimits it.
	lines := []string{
		"\xef\xbb\xbf" + `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","message":{"role":"user","content":"caf\u00e9 — ok"}}` + "\r",
		`   {"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"naïve <b>&amp;</b>"}]}}` + "\r",
	}
	p := writeSession(t, lines...)
	r := showRunIO(t, false, "", nil, "show", "--raw", p)
	want := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","message":{"role":"user","content":"caf\u00e9 — ok"}}` + "\n" +
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"naïve <b>&amp;</b>"}]}}` + "\n"
	if r.out != want {
		t.Fatalf("got\n%q\nwant\n%q", r.out, want)
	}
	// JSON keeps the raw entry without HTML escaping.
	js := showRunIO(t, false, "", nil, "show", "--json", p)
	if !strings.Contains(js.out, `"text":"naïve <b>&amp;</b>"`) {
		t.Errorf("--json rewrote the raw entry: %s", js.out)
	}
}

func TestShowStdin(t *testing.T) {
	in := strings.Join(craftedSession, "\n") + "\n"
	r := showRunIO(t, false, in, nil, "show", "-", "--raw", "--all")
	if r.code != 0 || r.out != in {
		t.Fatalf("exit %d, err %s, out:\n%s", r.code, r.errOut, r.out)
	}
	r = showRunIO(t, false, in, nil, "show", "-")
	if !strings.Contains(r.out, "● assistant · 10:00:01 · opus-4-6 · 110 ctx · 42 out") || !strings.Contains(r.out, "session  s1") {
		t.Fatalf("stdin view:\n%s", r.out)
	}
}

// A compaction: pre-compaction history, the boundary (parentUuid null,
// logicalParentUuid to the last entry before), the summary, what follows.
var compactedSession = []string{
	`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"old prompt"}}`,
	`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"old answer"}]}}`,
	`{"type":"system","subtype":"compact_boundary","uuid":"b1","parentUuid":null,"logicalParentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T11:00:00Z","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":154000}}`,
	`{"type":"user","uuid":"u2","parentUuid":"b1","sessionId":"s1","isCompactSummary":true,"timestamp":"2026-01-02T11:00:01Z","message":{"role":"user","content":"This session is being continued. Summary: we did things."}}`,
	`{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s1","timestamp":"2026-01-02T11:00:02Z","message":{"role":"user","content":"new prompt"}}`,
	`{"type":"assistant","uuid":"a2","parentUuid":"u3","sessionId":"s1","timestamp":"2026-01-02T11:00:03Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"new answer"}]}}`,
}

func TestShowCompaction(t *testing.T) {
	p := writeSession(t, compactedSession...)
	r := showRunIO(t, false, "", nil, "show", p)
	for _, w := range []string{"old answer", "──── context compacted (auto) · 154k tokens → summary · 11:00:00 ─",
		"▸ summary of the earlier conversation: 56 chars (--full shows it)", "new answer"} {
		if !strings.Contains(r.out, w) {
			t.Errorf("lacks %q:\n%s", w, r.out)
		}
	}
	if strings.Contains(r.out, "we did things") {
		t.Error("the summary must be collapsed")
	}
	full := showRunIO(t, false, "", nil, "show", "--full", p)
	if !strings.Contains(full.out, "we did things") {
		t.Errorf("--full must show the summary:\n%s", full.out)
	}
	since := showRunIO(t, false, "", nil, "show", "--since-compact", "--raw", p)
	if since.out != strings.Join(compactedSession[2:], "\n")+"\n" || since.errOut != "" {
		t.Errorf("--since-compact (stderr %q):\n%s", since.errOut, since.out)
	}
	// Without a compaction, everything is shown, and said to be.
	plain := showRunIO(t, false, "", nil, "show", "--since-compact", "--raw", writeSession(t, craftedSession...))
	if !strings.Contains(plain.errOut, "no compaction on this branch") || plain.out == "" {
		t.Errorf("--since-compact without a compaction: stderr %q", plain.errOut)
	}
	js := showRunIO(t, false, "", nil, "show", "--json", p)
	if !strings.Contains(js.out, `"type":"system","subtype":"compact_boundary"`) {
		t.Errorf("--json must include the boundary as a system message:\n%s", js.out)
	}
}

func TestShowLeaf(t *testing.T) {
	// A rewind: two prompts with different times under one parent.
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"start"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:02Z","message":{"role":"user","content":"first try"}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s1","timestamp":"2026-01-02T10:00:03Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"abandoned"}]}}`,
		`{"type":"user","uuid":"u3","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:05:00Z","message":{"role":"user","content":"second try"}}`,
		`{"type":"assistant","uuid":"a3","parentUuid":"u3","sessionId":"s1","timestamp":"2026-01-02T10:05:01Z","message":{"id":"m3","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"kept"}]}}`,
	)
	r := showRunIO(t, false, "", nil, "show", p)
	if !strings.Contains(r.out, "kept") || strings.Contains(r.out, "abandoned") || !strings.Contains(r.out, "branches 2, showing the active one") {
		t.Errorf("active branch:\n%s", r.out)
	}
	r = showRunIO(t, false, "", nil, "show", "--leaf", "a2", p)
	if !strings.Contains(r.out, "abandoned") || strings.Contains(r.out, "kept") || !strings.Contains(r.out, "not the active one") {
		t.Errorf("--leaf a2:\n%s", r.out)
	}
	r = showRunIO(t, false, "", nil, "show", "--leaf", "zz", p)
	if r.code != ExitUsage || !strings.Contains(r.errOut, "give at least 4 characters") {
		t.Errorf("short --leaf: exit %d, %s", r.code, r.errOut)
	}
	r = showRunIO(t, false, "", nil, "show", "--leaf", "zzzz", p)
	if r.code != ExitUsage || !strings.Contains(r.errOut, "its leaves: a2, a3") {
		t.Errorf("unknown --leaf: exit %d, %s", r.code, r.errOut)
	}
}

// The branches row says which branch is shown from --leaf, never from the
// last shown item: with --agents the active branch can end on a subagent's
// line (its call has no result yet), and --grep can leave nothing.
func TestShowBranchesRow(t *testing.T) {
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"start"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","timestamp":"2026-01-02T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:02Z","message":{"role":"user","content":"first try"}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"u2","sessionId":"s1","timestamp":"2026-01-02T10:00:03Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"abandoned"}]}}`,
		`{"type":"user","uuid":"u3","parentUuid":"a1","sessionId":"s1","timestamp":"2026-01-02T10:05:00Z","message":{"role":"user","content":"second try"}}`,
		`{"type":"assistant","uuid":"a3","parentUuid":"u3","sessionId":"s1","timestamp":"2026-01-02T10:05:01Z","message":{"id":"m3","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"tk","name":"Task","input":{"description":"look","prompt":"look around","subagent_type":"general-purpose"}}]}}`,
	)
	dir := filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	agent := `{"type":"user","uuid":"x1","parentUuid":null,"sessionId":"s1","isSidechain":true,"agentId":"abc1234","timestamp":"2026-01-02T10:05:02Z","message":{"role":"user","content":"look around"}}`
	os.WriteFile(filepath.Join(dir, "agent-abc1234.jsonl"), []byte(agent+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "agent-abc1234.meta.json"), []byte(`{"toolUseId":"tk","agentType":"general-purpose"}`), 0o644)
	tests := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"--agents"}, "branches 2, showing the active one (--leaf UUID for another)\n", 0},
		{[]string{"--grep", "nothing matches this"}, "branches 2, showing the active one (--leaf UUID for another)\n", ExitError},
		{[]string{"--leaf", "a2"}, "branches 2, showing the one ending at a2 (--leaf), not the active one\n", 0},
		{[]string{"--leaf", "a2", "--agents"}, "branches 2, showing the one ending at a2 (--leaf), not the active one\n", 0},
		{[]string{"--leaf", "u3", "--agents"}, "branches 2, showing the active one up to u3 (--leaf)\n", 0},
	}
	for _, tc := range tests {
		r := showRunIO(t, false, "", nil, append([]string{"show", p}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.out, tc.want) {
			t.Errorf("%v: exit %d, want %q in:\n%s%s", tc.args, r.code, tc.want, r.out, r.errOut)
		}
	}
	if r := showRunIO(t, false, "", nil, "show", p, "--agents"); !strings.Contains(r.out, "look around") {
		t.Errorf("the subagent is not shown under its call, so the test proves nothing:\n%s", r.out)
	}
}

func TestShowUsageErrors(t *testing.T) {
	p := writeSession(t, craftedSession...)
	for _, args := range [][]string{
		{"show"},
		{"show", p, "--final", "--json"},
		{"show", p, "--json", "--raw"},
		{"show", p, "--json", "--follow"},
		{"show", "-", "--follow"},
		{"show", p, "--tail", "-1"},
		{"show", p, "--grep", "("},
		{"show", "nosuchsession"},
		{"show", p, "--leaf", ""},
		{"show", p, "--final", "--grep", "x"},
		{"show", p, "--final", "--tail", "2"},
	} {
		if r := showRunIO(t, false, "", nil, args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, r.code, ExitUsage, r.errOut)
		}
	}
}

func TestShowPager(t *testing.T) {
	p := writeSession(t, craftedSession...)
	// On a terminal the view goes through CCTX_PAGER (before PAGER).
	r := showRunIO(t, true, "", map[string]string{"CCTX_PAGER": "sed s/^/P:/", "PAGER": "false"}, "show", p)
	if r.code != 0 || !strings.Contains(stripShowANSI(r.out), "P:❯ user") {
		t.Fatalf("exit %d, err %q, out:\n%s", r.code, r.errOut, r.out)
	}
	// Never in a pipe, never with --no-pager.
	for _, c := range []struct {
		tty  bool
		args []string
	}{{false, nil}, {true, []string{"--no-pager"}}} {
		r := showRunIO(t, c.tty, "", map[string]string{"PAGER": "sed s/^/P:/"}, append([]string{"show", p}, c.args...)...)
		if strings.Contains(r.out, "P:") {
			t.Errorf("tty %v %v: paged", c.tty, c.args)
		}
	}
	// A pager that is not installed does not take the output with it.
	r = showRunIO(t, true, "", map[string]string{"PAGER": "no-such-pager-cctx -R"}, "show", p)
	if r.code != 0 || !strings.Contains(stripShowANSI(r.out), "❯ user") || !strings.Contains(r.errOut, `pager "no-such-pager-cctx" not found`) {
		t.Fatalf("missing pager: exit %d, err %q, out:\n%s", r.code, r.errOut, r.out)
	}
	// A pager that quits early is not an error.
	var many []string
	for i := 0; i < 3000; i++ {
		many = append(many, strings.ReplaceAll(strings.ReplaceAll(craftedSession[0], `"u1"`, `"u`+strconv.Itoa(i+1)+`"`), `"parentUuid":null`, parentOf(i)))
	}
	big := writeSession(t, many...)
	r = showRunIO(t, true, "", map[string]string{"PAGER": "head -1"}, "show", big)
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("closed pager: exit %d, %q", r.code, r.errOut)
	}
}

func parentOf(i int) string {
	if i == 0 {
		return `"parentUuid":null`
	}
	return `"parentUuid":"u` + strconv.Itoa(i) + `"`
}

func TestShowRedact(t *testing.T) {
	home := t.TempDir()
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s1","cwd":"`+home+`/src/app","message":{"role":"user","content":"use key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 and ghp_0123456789abcdefghijABCDEFGHIJ012345 in `+home+`/src/app"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"curl -H \"Authorization: Bearer abcDEF123456789xyzXYZ\" https://x"}}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nok"}]}}`,
	)
	secrets := []string{"AbCdEfGhIjKlMnOpQrStUvWxYz", "0123456789abcdefghijABCDEFGHIJ", "abcDEF123456789xyzXYZ", "MIIEowIBAAKCAQEA", home}
	for _, format := range [][]string{nil, {"--json"}, {"--raw"}, {"--final"}} {
		r := showRunIO(t, false, "", map[string]string{"HOME": home}, append([]string{"show", "--redact", p}, format...)...)
		if format != nil && format[0] == "--final" {
			continue // no text response here; checked below that it fails cleanly
		}
		if r.code != 0 {
			t.Fatalf("%v: exit %d %s", format, r.code, r.errOut)
		}
		for _, s := range secrets {
			if strings.Contains(r.out, s) {
				t.Errorf("%v: %q not masked:\n%s", format, s, r.out)
			}
		}
		if !strings.Contains(r.out, "sk-ant-api03-[REDACTED]") || !strings.Contains(r.out, "~/src/app") {
			t.Errorf("%v: masks missing:\n%s", format, r.out)
		}
		if format != nil && format[0] == "--raw" {
			for _, l := range strings.Split(strings.TrimSpace(r.out), "\n") {
				if !json.Valid([]byte(l)) {
					t.Errorf("redacted line is not JSON: %s", l)
				}
			}
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestShowFollowPrintsAppendedLines(t *testing.T) {
	for _, raw := range []bool{false, true} {
		p := writeSession(t, craftedSession[:2]...)
		out := &syncBuffer{}
		io := &IOStreams{In: &bytes.Buffer{}, Out: out, ErrOut: &bytes.Buffer{}}
		f := &Factory{IO: io, Now: time.Now, Env: session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}}
		f.Globals.Color = "never"
		f.resolveColor()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		o := &ShowOptions{F: f, Session: p, Follow: true, Raw: raw, Context: ctx, PollInterval: 5 * time.Millisecond}
		done := make(chan error, 1)
		go func() { done <- showRun(o) }()

		waitFor := func(s string) {
			t.Helper()
			for !strings.Contains(out.String(), s) {
				select {
				case err := <-done:
					t.Fatalf("show returned early (%v) before %q:\n%s", err, s, out.String())
				case <-ctx.Done():
					t.Fatalf("timed out waiting for %q:\n%s", s, out.String())
				case <-time.After(5 * time.Millisecond):
				}
			}
		}
		waitFor("list the files")
		fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		// A line written in two parts: nothing is shown until it is whole.
		half := len(craftedSession[2]) / 2
		fh.WriteString(craftedSession[2][:half])
		time.Sleep(50 * time.Millisecond)
		if strings.Contains(out.String(), "look") {
			t.Fatal("a half-written line was shown")
		}
		fh.WriteString(craftedSession[2][half:] + "\n")
		for _, l := range craftedSession[3:5] {
			fh.WriteString(l + "\n")
		}
		fh.Close()
		if raw {
			waitFor(craftedSession[4])
		} else {
			waitFor("a.txt")
			waitFor("Let me **look**.")
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Ctrl-C must end --follow cleanly: %v", err)
		}
		if raw {
			want := strings.Join(craftedSession[:5], "\n") + "\n"
			if out.String() != want {
				t.Errorf("--raw --follow:\n%s\nwant\n%s", out.String(), want)
			}
		}
		prompt := "\n  list the files\n" // the prompt, not the header's title
		if raw {
			prompt = "list the files"
		}
		if strings.Count(out.String(), prompt) != 1 {
			t.Errorf("a line was shown twice:\n%s", out.String())
		}
	}
}

// TestShowFollowSeesNewSubagentFiles: a subagent transcript that appears
// while following is read from its start.
func TestShowFollowSeesNewSubagentFiles(t *testing.T) {
	p := writeSession(t, craftedSession[:2]...)
	out, ctx, cancel, done := followRaw(t, p)
	defer cancel()
	// The agent file must appear after the session was read.
	dir := strings.TrimSuffix(p, ".jsonl") + "/subagents"
	os.MkdirAll(dir, 0o755)
	agentLine := `{"type":"user","uuid":"x1","parentUuid":null,"sessionId":"s1","isSidechain":true,"agentId":"abc1234","message":{"role":"user","content":"agent prompt"}}`
	os.WriteFile(filepath.Join(dir, "agent-abc1234.jsonl"), []byte(agentLine+"\n"), 0o644)
	for !strings.Contains(out.String(), agentLine) {
		select {
		case <-ctx.Done():
			t.Fatalf("the new subagent file was not followed:\n%s", out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	<-done
}

// Claude Code 2.0.x wrote an agent's transcript flat, beside the session
// (agent-<id>.jsonl, linked only by the sessionId in its lines): one that
// appears while following is followed as a subagents/ one is.
func TestShowFollowSeesNewFlatAgentFiles(t *testing.T) {
	p := writeSession(t, craftedSession[:2]...)
	out, ctx, cancel, done := followRaw(t, p)
	defer cancel()
	sid := strings.TrimSuffix(filepath.Base(p), ".jsonl")
	agentLine := `{"type":"user","uuid":"x1","parentUuid":null,"sessionId":"` + sid + `","isSidechain":true,"agentId":"abc1234","message":{"role":"user","content":"agent prompt"}}`
	other := `{"type":"user","uuid":"y1","parentUuid":null,"sessionId":"99999999-2222-3333-4444-555555555555","isSidechain":true,"agentId":"def5678","message":{"role":"user","content":"another session's agent"}}`
	os.WriteFile(filepath.Join(filepath.Dir(p), "agent-def5678.jsonl"), []byte(other+"\n"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(p), "agent-abc1234.jsonl"), []byte(agentLine+"\n"), 0o644)
	for !strings.Contains(out.String(), agentLine) {
		select {
		case <-ctx.Done():
			t.Fatalf("the new flat agent file was not followed:\n%s", out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	<-done
	if strings.Contains(out.String(), "another session's agent") {
		t.Errorf("an agent of another session was followed:\n%s", out.String())
	}
}

func TestShowDoesNotHoldLinesInMemory(t *testing.T) {
	// Not a benchmark: a guard that the view streams. 2,000 entries with a
	// 64 KiB tool result each are shown; the output stays small because
	// results are cut, and nothing fails.
	var ls []string
	ls = append(ls, `{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"s1","message":{"role":"user","content":"go"}}`)
	big := strings.Repeat("x", 64<<10)
	prev := "u0"
	for i := 1; i <= 1000; i++ {
		a, u := "a"+strconv.Itoa(i), "u"+strconv.Itoa(i)
		ls = append(ls,
			`{"type":"assistant","uuid":"`+a+`","parentUuid":"`+prev+`","sessionId":"s1","message":{"id":"m`+strconv.Itoa(i)+`","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t`+strconv.Itoa(i)+`","name":"Read","input":{"file_path":"/f"}}]}}`,
			`{"type":"user","uuid":"`+u+`","parentUuid":"`+a+`","sessionId":"s1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t`+strconv.Itoa(i)+`","content":"`+big+`"}]}}`)
		prev = u
	}
	p := writeSession(t, ls...)
	r := showRunIO(t, false, "", nil, "show", p)
	if r.code != 0 || len(r.out) > 1<<20 {
		t.Fatalf("exit %d, %d bytes of output", r.code, len(r.out))
	}
	sc := bufio.NewScanner(strings.NewReader(r.out))
	results := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "    ⎿ ") {
			results++
		}
	}
	if results != 1000 {
		t.Errorf("%d results shown, want 1000", results)
	}
}

// A byte that is not UTF-8 in a transcript (a damaged file) must not make
// the JSON document invalid: it becomes U+FFFD, in the raw line as in the
// content.
func TestShowJSONIsUTF8(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "-p"), 0o755)
	os.WriteFile(filepath.Join(dir, "-p", "11111111-1111-4111-8111-111111111111.jsonl"), []byte(
		`{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"h`+"\xff"+`i"}}`+"\n"+
			`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"o`+"\xc3"+`k"}],"usage":{"input_tokens":1,"output_tokens":2}}}`+"\n"), 0o644)
	r := run(t, false, nil, "show", "--dir", dir, "1111", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if !utf8.ValidString(r.out) || !json.Valid([]byte(r.out)) {
		t.Fatalf("show --json is not valid UTF-8 JSON: %q", r.out)
	}
	if !strings.Contains(r.out, `h\ufffdi`) || !strings.Contains(r.out, `o\ufffdk`) {
		t.Errorf("the bad bytes are not U+FFFD escapes: %s", r.out)
	}
}

// A session whose main file holds no entry (only an agent wrote) still
// names itself in the header.
func TestShowHeaderNamesAnEmptySession(t *testing.T) {
	r := run(t, false, nil, "show", "--dir", samples, "0f13eeba")
	if r.code != 0 || !strings.HasPrefix(r.out, "session  0f13eeba-e6ed-42ea-ad8c-d8db37e1304e\n") {
		t.Errorf("exit %d, out:\n%s", r.code, r.out)
	}
}

// An agent with two transcripts (a copied folder): the tree reads one, and
// following the session does not replay the other from its start.
func TestShowFollowDoesNotReplayASecondTranscript(t *testing.T) {
	p := writeSession(t, craftedSession[:2]...)
	agentLine := `{"type":"user","uuid":"x1","parentUuid":null,"sessionId":"s1","isSidechain":true,"agentId":"abc1234","message":{"role":"user","content":"agent prompt"}}`
	dir := strings.TrimSuffix(p, ".jsonl") + "/subagents"
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "agent-abc1234.jsonl"), []byte(agentLine+"\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "copy"), 0o755)
	os.WriteFile(filepath.Join(dir, "copy", "agent-abc1234.jsonl"), []byte(agentLine+"\n"), 0o644)
	out, _, cancel, done := followRaw(t, p)
	defer cancel()
	time.Sleep(100 * time.Millisecond) // many polls
	cancel()
	<-done
	if strings.Contains(out.String(), agentLine) {
		t.Errorf("the second transcript was replayed:\n%s", out.String())
	}
}

// followRaw starts `show --raw -f` on the session at p, in its folder's
// projects dir, and returns once the session's lines are printed.
func followRaw(t *testing.T, p string) (*syncBuffer, context.Context, context.CancelFunc, chan error) {
	t.Helper()
	out := &syncBuffer{}
	io := &IOStreams{In: &bytes.Buffer{}, Out: out, ErrOut: &bytes.Buffer{}}
	f := &Factory{IO: io, Now: time.Now, Env: session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}}
	f.Globals.Color = "never"
	f.Globals.Dirs = []string{filepath.Dir(filepath.Dir(p))}
	f.resolveColor()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	o := &ShowOptions{F: f, Session: p, Follow: true, Raw: true, Context: ctx, PollInterval: 5 * time.Millisecond}
	done := make(chan error, 1)
	go func() { done <- showRun(o) }()
	for !strings.Contains(out.String(), craftedSession[1]) {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("show returned at once (%v):\n%s", err, out.String())
		case <-ctx.Done():
			cancel()
			t.Fatalf("no initial output:\n%s", out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	return out, ctx, cancel, done
}

// What show --follow says about lines that do not parse, by the end of the
// run, with --strict: a last line still being written is waited for and
// shown once whole; a line cut by a crash and never ended, or ended by the
// next line appended right after it, is one warning with its line number;
// a broken line read at the start is not reported again when followed.
func TestShowFollowReportsEachBrokenLineOnce(t *testing.T) {
	half := len(craftedSession[2]) / 2
	tests := []struct {
		name           string
		start, appends string
		warns          []string // the warnings, each once
		shown          bool     // craftedSession[3] is appended whole and shown
	}{
		{"a cut line that ends", craftedSession[2][:half], craftedSession[2][half:] + "\n" + craftedSession[3] + "\n", nil, true},
		{"a cut line that never ends", craftedSession[2][:half], "", []string{":3: last line is incomplete"}, false},
		{"a cut line, then the next line appended to it", craftedSession[2][:half], craftedSession[3] + "\n", []string{":3: skipped malformed line"}, false},
		{"a broken line before following starts", "{\"type\":\"user\",oops}\n", craftedSession[3] + "\n", []string{":3: skipped malformed line"}, true},
		{"a crash's NUL run, then the next line", "", craftedSession[2][:half] + "\x00\x00\x00" + craftedSession[3] + "\n", []string{":3: skipped 161 bytes ending in NUL bytes"}, true},
		{"a NUL run, then a broken line", "", "abc\x00\x00{oops}\n" + craftedSession[3] + "\n", []string{":3: skipped 5 bytes ending in NUL bytes", ":3: skipped malformed line"}, true},
		{"a BOM and spaces around the last line read", "  " + craftedSession[2] + "  \r\n", craftedSession[3] + "\n", nil, true},
		{"a line appended and never ended", "", craftedSession[3][:half], []string{":3: last line is incomplete"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeSession(t, craftedSession[:2]...)
			if strings.HasPrefix(tt.name, "a BOM") {
				b, _ := os.ReadFile(p)
				os.WriteFile(p, append([]byte("\uFEFF"), b...), 0o644)
			}
			fh, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			fh.WriteString(tt.start)
			var errOut bytes.Buffer
			out := &syncBuffer{}
			f := &Factory{IO: &IOStreams{In: &bytes.Buffer{}, Out: out, ErrOut: &errOut}, Now: time.Now,
				Env: session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}}
			f.Globals.Color, f.Globals.Strict = "never", true
			f.resolveColor()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				done <- showRun(&ShowOptions{F: f, Session: p, Follow: true, Raw: true, Context: ctx, PollInterval: 5 * time.Millisecond})
			}()
			for !strings.Contains(out.String(), craftedSession[1]) && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
			fh.WriteString(tt.appends)
			if tt.shown {
				for !strings.Contains(out.String(), craftedSession[3]) && ctx.Err() == nil {
					time.Sleep(5 * time.Millisecond) // the last line, whole: every line was polled
				}
			} else {
				time.Sleep(100 * time.Millisecond) // some twenty polls
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if tt.warns == nil && !strings.Contains(out.String(), craftedSession[2]) {
				t.Errorf("the line that was being written is not shown:\n%s", out.String())
			}
			ok := f.Report().Warnings() == len(tt.warns) && strings.Count(errOut.String(), "cctx: warning: ") == len(tt.warns)
			for _, w := range tt.warns {
				ok = ok && strings.Count(errOut.String(), w) == 1
			}
			if !ok {
				t.Errorf("%d warning(s), stderr %q, want %q", f.Report().Warnings(), errOut.String(), tt.warns)
			}
		})
	}
}

// A tool call's line fits the terminal however long the tool's name: an
// MCP tool's is cut from the left (mcp__<server>__<tool>: the tool is at
// the end) before its summary goes under 20 columns.
func TestShowLongToolNameFits(t *testing.T) {
	name := "mcp__plugin_" + strings.Repeat("very-long-server-name_", 6) + "_ctx_batch_execute"
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"11111111-2222-3333-4444-555555555555","timestamp":"2026-11-22T10:00:00Z","message":{"role":"user","content":"run it"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"11111111-2222-3333-4444-555555555555","timestamp":"2026-11-22T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"`+name+`","input":{"cwd":"/w/app","commands":["ls"]}}],"usage":{"input_tokens":1,"output_tokens":1}}}`)
	r := run(t, true, nil, "show", "--no-pager", "--color", "never", p)
	for _, l := range strings.Split(r.out, "\n") {
		if !strings.Contains(l, "▸") {
			continue
		}
		if w := render.Width(l); w >= 120 || !strings.Contains(l, "ctx_batch_execute") {
			t.Errorf("a %d-column line at 120 (the tool's name kept at its end): %q", w, l)
		}
	}
}

// show --grep shows the lines of a folded tool result that match, when
// its first lines do not: the match grep pointed at is on the screen.
func TestShowGrepUnfoldsTheMatch(t *testing.T) {
	var out []string
	for i := range 30 {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	out[17] = "line 17 has the needle"
	body, _ := json.Marshal(strings.Join(out, "\n"))
	p := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"11111111-2222-3333-4444-555555555555","timestamp":"2026-11-22T10:00:00Z","message":{"role":"user","content":"list"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"11111111-2222-3333-4444-555555555555","timestamp":"2026-11-22T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"seq"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"11111111-2222-3333-4444-555555555555","timestamp":"2026-11-22T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":`+string(body)+`}]}}`)
	r := run(t, true, nil, "show", "--no-pager", "--color", "never", "--grep", "needle", p)
	if !strings.Contains(r.out, "line 17 has the needle") || strings.Contains(r.out, "line 0\n") {
		t.Errorf("the matching line, not the first ones:\n%s", r.out)
	}
	if r := run(t, true, nil, "show", "--no-pager", "--color", "never", p); strings.Contains(r.out, "needle") {
		t.Errorf("without --grep the first lines:\n%s", r.out)
	}
}

// show --agents of a session whose main transcript was deleted shows its
// subagents' conversations (no call is left to hang them under): it
// showed "(nothing to show)". Without --agents it shows the header only.
func TestShowAgentsOfAnOrphanSession(t *testing.T) {
	dir := filepath.Join("..", "testdata", "crafted", "orphan")
	r := run(t, false, nil, "show", "--dir", dir, "7d1c0a52", "--agents")
	if r.code != 0 || !strings.Contains(r.out, "agents not linked to a tool call:") || !strings.Contains(r.out, "↳ agent a9e8d7c6b5a4f3e20") ||
		!strings.Contains(r.out, "Run the test suite and report failures") || strings.Contains(r.out, "nothing to show") {
		t.Errorf("--agents: exit %d\n%s", r.code, r.out)
	}
	if r := run(t, false, nil, "show", "--dir", dir, "7d1c0a52"); !strings.Contains(r.out, "(nothing to show: --agents shows the conversations of its 2 agents no call spawned)") {
		t.Errorf("without --agents:\n%s", r.out)
	}
}

// show of a subagent's transcript, given by its path, says it is one and
// how to see it under its call.
func TestShowOfASubagentFileSaysSo(t *testing.T) {
	p := filepath.Join(samples, "-experiments-worktrees", "ef958aa1-0e93-49f0-bb71-150f63befcd1", "subagents", "agent-a4ca7529859c158c2.jsonl")
	r := run(t, false, nil, "show", p)
	if r.code != 0 || !strings.Contains(r.out, "agent    a4ca7529859c158c2 · a subagent's transcript\n         cctx show ef958aa1 --agents shows it under its call\n") {
		t.Errorf("exit %d\n%s", r.code, r.out)
	}
	if r := run(t, false, nil, "show", "--dir", samples, "ef958aa1"); strings.Contains(r.out, "a subagent's transcript") {
		t.Errorf("the session itself:\n%s", r.out)
	}
}
