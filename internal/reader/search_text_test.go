package reader

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readables lists "kind field tool: text" for each text of a line.
func readables(line string, thinking bool) []string {
	var d TextDecoder
	var out []string
	d.Readables([]byte(line), thinking, func(r *Readable) bool {
		s := r.Kind + " " + r.Field
		if r.Tool != "" {
			s += " " + r.Tool
		}
		out = append(out, s+": "+r.Text)
		return true
	})
	return out
}

func TestReadablesAreTheTextAPersonReads(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		thinking bool
		want     []string
	}{
		{"a string content", `{"type":"user","message":{"role":"user","content":"fix the \"login\" bug in C:\\src\\app\nplease"}}`, false,
			[]string{"text text: fix the \"login\" bug in C:\\src\\app\nplease"}},
		{"text blocks, never keys or ids", `{"type":"assistant","uuid":"u-1","message":{"id":"msg_1","role":"assistant","content":[{"type":"text","text":"hello"},{"type":"text","text":"world"}],"usage":{"input_tokens":12}}}`, false,
			[]string{"text text: hello", "text text: world"}},
		{"thinking only when asked, never its signature", `{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm","signature":"EpAxSIG"},{"type":"redacted_thinking","data":"ENCRYPTED"}]}}`, false,
			nil},
		{"thinking when asked", `{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm","signature":"EpAxSIG"},{"type":"redacted_thinking","data":"ENCRYPTED"}]}}`, true,
			[]string{"thinking thinking: hmm"}},
		{"a tool call's strings, not its id", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"git push","description":"Push","timeout":5000,"run_in_background":false}}]}}`, false,
			[]string{"tool_use command Bash: git push", "tool_use description Bash: Push"}},
		{"nested input strings, ids left out", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"MultiEdit","input":{"file_path":"/a/b.go","edits":[{"old_string":"x","new_string":"y"}],"task_id":"abc","sessionId":"s"}}]}}`, false,
			[]string{"tool_use file_path MultiEdit: /a/b.go", "tool_use edits[0].old_string MultiEdit: x", "tool_use edits[0].new_string MultiEdit: y"}},
		{"an image in a tool input is not text", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Upload","input":{"title":"shot","image":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo"}}}]}}`, false,
			[]string{"tool_use title Upload: shot"}},
		{"a tool result's string", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok\ndone"}]}}`, false,
			[]string{"tool_result content: ok\ndone"}},
		{"a tool result's text blocks, not its image", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","data":"iVBORw0KGgo"}},{"type":"tool_reference","tool_name":"TaskGet"}]}]}}`, false,
			[]string{"tool_result content[0].text: see"}},
		{"an image block is not text", `{"type":"user","message":{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo"}},{"type":"text","text":"what is this"}]}}`, false,
			[]string{"text text: what is this"}},
		{"toolUseResult (a copy of the result) is not searched", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"short"}]},"toolUseResult":{"stdout":"the whole output"}}`, false,
			[]string{"tool_result content: short"}},
		{"escapes decoded", `{"type":"user","message":{"content":"caf\u00e9 \ud83d\ude00 \ud800 a\/b \q"}}`, false,
			[]string{"text text: café 😀 \ufffd a/b \\q"}},
		{"keys first in any order", `{"message":{"content":[{"text":"late type","type":"text"}]},"type":"assistant"}`, false,
			[]string{"text text: late type"}},
		{"empty texts are left out", `{"type":"user","message":{"content":[{"type":"text","text":""}]}}`, false, nil},
		{"a malformed line gives nothing", `{"type":"user","message":{"content":"unterminated}}`, false, nil},
		{"content that is not text", `{"type":"user","message":{"content":42}}`, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readables(tt.line, tt.thinking); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestParseSearchLine(t *testing.T) {
	l, ok := ParseSearchLine([]byte(`  {"type":"user","uuid":"a-b","timestamp":"2026-01-02T03:04:05.678Z","isMeta":true,"isSidechain":true,"message":{"role":"user","content":"x"},"message":{"content":"second"}}` + "\r"))
	if !ok || l.Type != "user" || l.UUID() != "a-b" || !l.Meta || !l.Sidechain || l.Timestamp.IsZero() || string(l.content) != `"x"` {
		t.Errorf("got %+v %v (content %s)", l, ok, l.content)
	}
	for _, bad := range []string{``, `[]`, `{"a":1} x`, "{\"a\":\"\x00\"}", `{"a":`, `{"message":{"content":[}}`} {
		if _, ok := ParseSearchLine([]byte(bad)); ok {
			t.Errorf("%q: accepted", bad)
		}
	}
}

// The walk of grep accepts exactly the lines the Reader accepts: a line it
// refused would be left to the Reader, and a line it took that the Reader
// would refuse would be searched without a warning.
func TestParseSearchLineAgreesWithTheReader(t *testing.T) {
	var lines [][]byte
	files, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(b, []byte("\n"))...)
	}
	lines = append(lines, []byte(`{"a":[1,2,{"b":null}],"c":"\u0041"}`), []byte(`{"a":tru}`), []byte(`{"a":1,}`), []byte(`{"a" 1}`),
		[]byte(`{"message":{"content":[{"type":"text","text":"x"},]}}`), []byte(`{"message":"str"}`), []byte(`{"message":{"content":"a"}} `))
	for i, l := range lines {
		_, want := ParseLine(l)
		if _, got := ParseSearchLine(l); got != want {
			t.Errorf("line %d: grep's walk says %v, the Reader %v: %.200s", i, got, want, l)
		}
	}
}

func FuzzParseSearchLine(f *testing.F) {
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}`))
	f.Add([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"ls","a":[{"b":"c"}]}}]}}`))
	f.Add([]byte(`{"message":{"content":"\ud83d\ude00\u00"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		_, want := ParseLine(line)
		l, got := ParseSearchLine(line)
		if got != want {
			t.Fatalf("grep's walk says %v, the Reader %v", got, want)
		}
		var d TextDecoder
		d.Texts(&l, true, func(r *Readable) bool {
			if r.Text == "" {
				t.Fatal("an empty text")
			}
			return true
		})
	})
}
