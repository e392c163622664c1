package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// invisibles are characters JSON allows raw in strings that a terminal or
// a reader of the output may obey: C1 controls (U+009B is CSI, U+0085 a
// line break), bidi overrides and isolates (they reorder what is shown),
// the line and paragraph separators, and DEL.
const invisibles = "\u0085\u009b\u009d\u202a\u202e\u2066\u2069\u200f\u2028\u2029\x7f"

// invisibleSession writes a session whose every field Claude Code fills
// holds the invisibles written raw (as a transcript holds them: Claude Code
// does not escape them), with a subagent. It returns the root and the id.
func invisibleSession(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	const id = "1a7b1a7b-0000-4000-8000-000000000001"
	x := invisibles
	task := `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"` + id + `","timestamp":"2026-01-01T10:00:02Z","requestId":"req_1","message":{"id":"m1` + x + `","role":"assistant","model":"claude-` + x + `","content":[{"type":"text","text":"t` + x + `"},{"type":"tool_use","id":"t1","name":"Task` + x + `","input":{"description":"d` + x + `","subagent_type":"s` + x + `","prompt":"p` + x + `"}}],"usage":{"input_tokens":10,"output_tokens":5}}}`
	res := `{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"` + id + `","timestamp":"2026-01-01T10:00:03Z","toolUseResult":{"status":"completed","agentId":"ab12","totalTokens":15,"content":[{"type":"text","text":"r` + x + `"}]},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"c` + x + `"}]}}`
	main := lines(
		`{"type":"custom-title","customTitle":"title`+x+`","sessionId":"`+id+`"}`,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","timestamp":"2026-01-01T10:00:00Z","cwd":"/w/`+x+`","gitBranch":"b`+x+`","version":"2.1.0","message":{"role":"user","content":"hello `+x+`"}}`,
		task, res,
	)
	project := "-w-p"
	writeFile(t, root, filepath.Join(project, id+".jsonl"), main)
	agent := lines(
		`{"type":"user","uuid":"g1","parentUuid":null,"isSidechain":true,"agentId":"ab12","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"p`+x+`"}}`,
		`{"type":"assistant","uuid":"g2","parentUuid":"g1","isSidechain":true,"agentId":"ab12","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:02Z","requestId":"req_g","message":{"id":"mg","role":"assistant","model":"claude-`+x+`","content":[{"type":"text","text":"a`+x+`"}],"usage":{"input_tokens":7,"output_tokens":8}}}`,
	)
	sub := filepath.Join(project, id, "subagents")
	writeFile(t, root, filepath.Join(sub, "agent-ab12.jsonl"), agent)
	writeFile(t, root, filepath.Join(sub, "agent-ab12.meta.json"), `{"agentType":"m`+x+`","description":"md`+x+`"}`)
	return root, id
}

// jsonRuns are the --json runs of every command.
func jsonRuns(id string) [][]string {
	return [][]string{
		{"ls"}, {"ls", "--long"}, {"tokens"}, {"tokens", id}, {"tokens", "--by", "agent"},
		{"tokens", "--by", "model"}, {"tokens", "--by", "project"}, {"tokens", "--by", "day"},
		{"tree", id}, {"agents", id}, {"show", id}, {"show", id, "--agents"},
	}
}

// Every command's --json writes the invisibles as \u escapes, as it writes
// ESC, in a pipe too, and they decode back to what the transcript holds.
func TestJSONEscapesInvisibleControls(t *testing.T) {
	root, id := invisibleSession(t)
	for _, run := range jsonRuns(id) {
		what := strings.Join(run, " ")
		r := cctx(t, append(append(run, "--dir", root), "--json")...)
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s", what, r.code, r)
			continue
		}
		for i, c := range r.stdout {
			if c == 0x7f || c >= 0x80 && c < 0xa0 || c == 0x2028 || c == 0x2029 || isBidi(c) {
				t.Errorf("%s: %U raw in the output: %q", what, c, r.stdout[max(0, i-30):min(len(r.stdout), i+30)])
				break
			}
		}
		var v any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Errorf("%s: not JSON: %v", what, err)
			continue
		}
		// Escaped, not dropped: the text still holds them when decoded.
		if !strings.Contains(fmt.Sprint(v), invisibles) {
			t.Errorf("%s: the characters are lost, not escaped:\n%s", what, cut(r.stdout, 1500))
		}
	}
}

func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// A run of bytes that are not UTF-8 shows as one replacement mark (U+FFFD)
// in every view: not dropped (ls, tree labels), not the six characters
// \ufffd once per byte (show), and decoded as one U+FFFD from --json.
func TestInvalidUTF8IsOneMark(t *testing.T) {
	root := t.TempDir()
	const id = "bad0bad0-0000-4000-8000-000000000001"
	// Two bad sequences: a Latin-1 é, then a cut three-byte character
	// and a stray byte.
	prompt := "caf\xe9 ok \xe2\x9c\xff end"
	const want = "caf\ufffd ok \ufffd end"
	writeFile(t, root, filepath.Join("-w-p", id+".jsonl"), lines(
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","timestamp":"2026-01-01T10:00:00Z","cwd":"/w/p","message":{"role":"user","content":"`+prompt+`"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:01Z","requestId":"req_1","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
	))
	text := []struct {
		name string
		args []string
	}{
		{"ls", []string{"ls"}},
		{"ls --long", []string{"ls", "--long"}},
		{"tree", []string{"tree", id}},
		{"show", []string{"show", id}},
		{"show --full", []string{"show", id, "--full"}},
	}
	for _, tt := range text {
		r := cctx(t, append(tt.args, "--dir", root)...)
		expect(t, r, 0, tt.name)
		if !utf8.ValidString(r.stdout) {
			t.Errorf("%s: output is not UTF-8: %q", tt.name, r.stdout)
		}
		if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, `\ufffd`) {
			t.Errorf("%s: want %q (one mark a bad sequence) in\n%s", tt.name, want, r.stdout)
		}
	}
	for _, run := range [][]string{{"ls"}, {"tree", id}, {"show", id}} {
		r := cctx(t, append(run, "--dir", root, "--json")...)
		expect(t, r, 0, strings.Join(run, " ")+" --json")
		var v any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("%s: not JSON: %v", run, err)
		}
		if s := fmt.Sprint(v); strings.Contains(s, "\ufffd\ufffd") || (run[0] != "tree" && !strings.Contains(s, want)) {
			t.Errorf("%s --json: want %q, one U+FFFD a bad sequence, in\n%s", run, want, r.stdout)
		}
	}
}
