package reader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/tidwall/gjson"
)

// readAll collects every entry and issue of a transcript.
func readAll(t *testing.T, input string, o Options) ([]Entry, []Issue) {
	t.Helper()
	var issues []Issue
	o.Name = "t.jsonl"
	o.OnIssue = func(is Issue) { issues = append(issues, is) }
	r := New(strings.NewReader(input), o)
	var es []Entry
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		es = append(es, e)
	}
	if err := r.Err(); err != nil {
		t.Fatalf("read error: %v", err)
	}
	return es, issues
}

func uuids(es []Entry) string {
	var s []string
	for _, e := range es {
		s = append(s, e.UUID)
	}
	return strings.Join(s, ",")
}

func kinds(is []Issue) string {
	var s []string
	for _, i := range is {
		s = append(s, fmt.Sprintf("%d:%d", i.Line, i.Kind))
	}
	return strings.Join(s, ",")
}

func TestReaderLines(t *testing.T) {
	const a = `{"type":"user","uuid":"a"}`
	const b = `{"type":"assistant","uuid":"b"}`
	tests := []struct {
		name       string
		input      string
		wantUUIDs  string
		wantIssues string // line:kind
		wantLines  string // line numbers of the entries
	}{
		{"plain", a + "\n" + b + "\n", "a,b", "", "1,2"},
		{"no final newline but complete", a + "\n" + b, "a,b", "", "1,2"},
		{"BOM on first line", "\uFEFF" + a + "\n" + b + "\n", "a,b", "", "1,2"},
		{"CRLF line ends", a + "\r\n" + b + "\r\n", "a,b", "", "1,2"},
		{"blank and whitespace lines skipped", "\n" + a + "\n  \n\t\r\n" + b + "\n\n", "a,b", "", "2,5"},
		{"garbage line warned, rest read", a + "\nnot json at all\n" + b + "\n", "a,b", fmt.Sprintf("2:%d", Malformed), "1,3"},
		{"truncated middle line is malformed", a + "\n{\"type\":\"user\",\"uu\n" + b + "\n", "a,b", fmt.Sprintf("2:%d", Malformed), "1,3"},
		{"non-object JSON", a + "\n[1,2]\n\"str\"\n42\nnull\n" + b + "\n", "a,b",
			fmt.Sprintf("2:%d,3:%d,4:%d,5:%d", NotObject, NotObject, NotObject, NotObject), "1,6"},
		{"truncated last line", a + "\n" + b + "\n{\"type\":\"assistant\",\"mess", "a,b", fmt.Sprintf("3:%d", TruncatedTail), "1,2"},
		{"unknown entry type passes through", a + "\n{\"type\":\"atis-latch\",\"uuid\":\"x\",\"newField\":{\"deep\":[1]}}\n", "a,x", "", "1,2"},
		{"NUL bytes are malformed", a + "\n{\"type\":\x00}\n" + b + "\n", "a,b", fmt.Sprintf("2:%d", Malformed), "1,3"},
		{"NUL run glued to the next line", a + "\n\x00\x00\x00" + b + "\n", "a,b", fmt.Sprintf("2:%d", CrashResidue), "1,2"},
		{"line cut by a crash, then the next", a + "\n{\"type\":\"user\",\"uu\x00\x00 " + b + "\n" + a + "\n", "a,b,a", fmt.Sprintf("2:%d", CrashResidue), "1,2,3"},
		{"NUL-only line", a + "\n\x00\x00\n" + b + "\n", "a,b", fmt.Sprintf("2:%d", CrashResidue), "1,3"},
		{"NUL-only tail", a + "\n\x00\x00\x00", "a", fmt.Sprintf("2:%d", CrashResidue), "1"},
		{"empty input", "", "", "", ""},
		{"only blank lines", "\n\n\r\n", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, is := readAll(t, tt.input, Options{})
			if got := uuids(es); got != tt.wantUUIDs {
				t.Errorf("uuids = %q, want %q", got, tt.wantUUIDs)
			}
			if got := kinds(is); got != tt.wantIssues {
				t.Errorf("issues = %q, want %q", got, tt.wantIssues)
			}
			var lines []string
			for _, e := range es {
				lines = append(lines, fmt.Sprint(e.Line))
			}
			if got := strings.Join(lines, ","); got != tt.wantLines {
				t.Errorf("lines = %q, want %q", got, tt.wantLines)
			}
		})
	}
}

func TestReaderLongLines(t *testing.T) {
	big := `{"type":"user","uuid":"big","message":{"content":"` + strings.Repeat("x", 10<<20) + `"}}`
	input := `{"uuid":"a"}` + "\n" + big + "\n" + `{"uuid":"b"}` + "\n"

	t.Run("a 10 MiB line is read whole", func(t *testing.T) {
		es, is := readAll(t, input, Options{KeepRaw: true})
		if got := uuids(es); got != "a,big,b" || len(is) != 0 {
			t.Fatalf("uuids=%q issues=%v", got, is)
		}
		if !bytes.Equal(es[1].Raw, []byte(big)) || es[1].Size != len(big) {
			t.Errorf("raw line of %d bytes not kept intact", len(es[1].Raw))
		}
	})
	t.Run("a line over the limit is skipped and reported", func(t *testing.T) {
		es, is := readAll(t, input, Options{MaxLineBytes: 1 << 20})
		if got := uuids(es); got != "a,b" {
			t.Errorf("uuids = %q, want a,b", got)
		}
		if len(is) != 1 || is[0].Kind != TooLong || is[0].Line != 2 {
			t.Fatalf("issues = %+v, want one TooLong on line 2", is)
		}
		if msg := is[0].Message(); !strings.Contains(msg, "longer than the 1.0 MiB limit") {
			t.Errorf("message %q does not name the limit the line went over", msg)
		}
		if es[1].Line != 3 || es[1].Offset != int64(len(`{"uuid":"a"}`)+1+len(big)+1) {
			t.Errorf("entry after the long line: line %d offset %d", es[1].Line, es[1].Offset)
		}
	})
	t.Run("a line exactly at the limit is kept", func(t *testing.T) {
		line := `{"uuid":"x","pad":"` + strings.Repeat("y", 100) + `"}`
		es, is := readAll(t, line+"\n", Options{MaxLineBytes: len(line)})
		if uuids(es) != "x" || len(is) != 0 {
			t.Errorf("uuids=%q issues=%v", uuids(es), is)
		}
	})
}

func TestReaderOffsetsPointAtTheLine(t *testing.T) {
	lines := []string{"\uFEFF" + `{"uuid":"a"}`, `{"uuid":"b","x":"` + strings.Repeat("z", 3<<20) + `"}`, "", `{"uuid":"c"}`,
		"\x00\x00\x00" + `{"uuid":"after a crash"}`}
	input := strings.Join(lines, "\r\n") + "\r\n"
	es, _ := readAll(t, input, Options{KeepRaw: true})
	if len(es) != 4 {
		t.Fatalf("got %d entries", len(es))
	}
	for _, e := range es {
		rest := strings.TrimPrefix(input[e.Offset:], "\uFEFF")
		if !strings.HasPrefix(rest, string(e.Raw)+"\r\n") {
			t.Errorf("%s: offset %d does not point at its line", e.UUID, e.Offset)
		}
	}
}

func TestEnvelope(t *testing.T) {
	line := `{"parentUuid":"p1","logicalParentUuid":"lp","isSidechain":true,"userType":"external","cwd":"/home/u/proj","sessionId":"s1","version":"2.1.7","gitBranch":"main","agentId":"a12","teamName":"t","isMeta":true,"isCompactSummary":true,"type":"assistant","subtype":"x","uuid":"u1","timestamp":"2026-01-02T03:04:05.678Z","requestId":"req_1","isApiErrorMessage":true,` +
		`"message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"hi \"there\""}],` +
		`"usage":{"input_tokens":3,"cache_creation_input_tokens":100,"cache_read_input_tokens":"2000","output_tokens":7.0,"server_tool_use":{"web_search_requests":2},"service_tier":"standard","cache_creation":{"ephemeral_5m_input_tokens":40,"ephemeral_1h_input_tokens":60},"speed":"fast"}},` +
		`"compactMetadata":{"trigger":"auto","preTokens":154000},"toolUseResult":{"agentId":"a9","status":"completed"}}`
	es, is := readAll(t, line, Options{})
	// "2000" and 7.0 are read, and said to be odd (one warning a line).
	if len(es) != 1 || len(is) != 1 || is[0].Kind != OddValue || !strings.Contains(is[0].Message(), `"2000" read as 2000`) {
		t.Fatalf("entries=%d issues=%v", len(es), is)
	}
	e := es[0]
	want := Entry{
		Line: 1, Size: len(line),
		Type: "assistant", Subtype: "x", UUID: "u1", ParentUUID: "p1", LogicalParentUUID: "lp",
		SessionID: "s1", AgentID: "a12", TeamName: "t",
		Sidechain: true, Meta: true, CompactSummary: true, APIError: true,
		Timestamp: time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC),
		CWD:       "/home/u/proj", GitBranch: "main", Version: "2.1.7",
		MessageID: "msg_1", RequestID: "req_1", Model: "claude-opus-4-5", Role: "assistant",
		HasUsage: true,
		Usage: Usage{Input: 3, Output: 7, CacheCreation: 100, CacheCreation5m: 40, CacheCreation1h: 60,
			CacheRead: 2000, WebSearch: 2, Speed: "fast", ServiceTier: "standard"},
		Content:        HasText,
		CompactTrigger: "auto", CompactPreTokens: 154000,
		ToolUseResultAgentID: "a9",
	}
	if fmt.Sprintf("%+v", e) != fmt.Sprintf("%+v", want) {
		t.Errorf("envelope\n got %+v\nwant %+v", e, want)
	}
	if e.Usage.Total() != 2110 || e.Usage.Context() != 2103 {
		t.Errorf("total %d context %d", e.Usage.Total(), e.Usage.Context())
	}
}

func TestEnvelopeToleratesOddShapes(t *testing.T) {
	tests := []struct {
		name, line string
		check      func(Entry) bool
		odd        string // the OddValue warning it gets, if any
	}{
		{"null where objects are expected", `{"type":"assistant","uuid":"u","message":null,"toolUseResult":null,"parentUuid":null}`,
			func(e Entry) bool { return e.UUID == "u" && !e.HasUsage && e.ParentUUID == "" }, ""},
		{"toolUseResult as a string", `{"type":"user","toolUseResult":"Error: boom"}`,
			func(e Entry) bool { return e.ToolUseResultAgentID == "" }, ""},
		{"numbers in place of strings", `{"type":7,"uuid":12,"timestamp":99}`,
			func(e Entry) bool { return e.Type == "" && e.UUID == "" && e.Timestamp.IsZero() }, "uuid is not a string"},
		{"a negative count in cache_creation is zero", `{"message":{"usage":{"cache_creation":{"ephemeral_5m_input_tokens":-5}}}}`,
			func(e Entry) bool { return e.HasUsage && e.Usage.CacheCreation5m == 0 }, "negative"},
		{"negative and bogus counts are zero", `{"message":{"usage":{"input_tokens":-5,"output_tokens":"lots"}}}`,
			func(e Entry) bool { return e.HasUsage && e.Usage.Input == 0 && e.Usage.Output == 0 }, "negative"},
		{"a fractional count is read whole and reported", `{"message":{"usage":{"input_tokens":1.5,"output_tokens":2}}}`,
			func(e Entry) bool { return e.Usage.Input == 1 && e.Usage.Output == 2 }, "not written as an integer: 1.5 read as 1"},
		{"a count in a string is read and reported", `{"message":{"usage":{"output_tokens":"12"}}}`,
			func(e Entry) bool { return e.Usage.Output == 12 }, `not written as an integer: "12" read as 12`},
		{"a nested count in a string is read and reported", `{"message":{"usage":{"server_tool_use":{"web_search_requests":"2"}}}}`,
			func(e Entry) bool { return e.Usage.WebSearch == 2 }, `"2" read as 2`},
		{"a count that is no number is zero and reported", `{"message":{"usage":{"cache_read_input_tokens":"lots"}}}`,
			func(e Entry) bool { return e.HasUsage && e.Usage.CacheRead == 0 }, `"lots" read as 0`},
		{"a null count is no count", `{"message":{"usage":{"input_tokens":null,"output_tokens":3}}}`,
			func(e Entry) bool { return e.Usage.Input == 0 && e.Usage.Output == 3 }, ""},
		{"duplicate keys: the last wins", `{"uuid":"first","uuid":"second"}`,
			func(e Entry) bool { return e.UUID == "second" }, ""},
		{"escaped strings are decoded", `{"cwd":"C:\\Users\\x","uuid":"\u0061"}`,
			func(e Entry) bool { return e.CWD == `C:\Users\x` && e.UUID == "a" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, is := readAll(t, tt.line+"\n", Options{})
			if len(es) != 1 || (tt.odd == "") != (len(is) == 0) {
				t.Fatalf("entries=%d issues=%v", len(es), is)
			}
			if tt.odd != "" && (len(is) != 1 || is[0].Kind != OddValue || !strings.Contains(is[0].Message(), tt.odd)) {
				t.Errorf("issues %v, want one OddValue saying %q", is, tt.odd)
			}
			if !tt.check(es[0]) {
				t.Errorf("unexpected envelope %+v", es[0])
			}
		})
	}
}

func TestEnvelopeStringsOutliveTheBuffer(t *testing.T) {
	// Lines fit in the bufio buffer and are handed out without a copy; the
	// envelope must not alias them.
	var sb strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&sb, `{"uuid":"u%d","type":"user","sessionId":"s%d"}`+"\n", i, i)
	}
	es, _ := readAll(t, sb.String(), Options{})
	for i, e := range es {
		if e.UUID != fmt.Sprintf("u%d", i) || e.SessionID != fmt.Sprintf("s%d", i) {
			t.Fatalf("entry %d corrupted: %+v", i, e)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := Open(dir, Options{}); err == nil {
		t.Error("opening a directory succeeded")
	}
	if _, _, err := Open(filepath.Join(dir, "missing.jsonl"), Options{}); err == nil {
		t.Error("opening a missing file succeeded")
	}
	p := filepath.Join(dir, "s.jsonl")
	os.WriteFile(p, []byte(`{"uuid":"a"}`+"\n"), 0o644)
	r, c, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if e, ok := r.Next(); !ok || e.UUID != "a" {
		t.Errorf("got %+v %v", e, ok)
	}
}

func TestRealCorpusParsesCleanly(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	files = append(files, testcorpus.Files("*/*.jsonl")...)
	if len(files) < 40 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, f := range files {
		var issues []Issue
		r, c, err := Open(f, Options{OnIssue: func(is Issue) { issues = append(issues, is) }})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, ok := r.Next(); !ok {
				break
			}
			n++
		}
		c.Close()
		if len(issues) != 0 || r.Err() != nil {
			t.Errorf("%s: issues %v err %v", f, issues, r.Err())
		}
		if n != r.Line() && n == 0 {
			t.Errorf("%s: no entries", f)
		}
	}
}

func TestWantSkipsLinesButStillReportsBrokenOnes(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"user","uuid":"a"}`,
		`{"type":"assistant","uuid":"b"}`,
		`not json`,
		`{"type":"user","uuid":"c","broken":}`, // shaped like an object: not validated when unwanted
		`{"type":"assistant","uuid":"d",`,      // wanted lines are validated
		`{"type":"user","uuid":"e","cut`,
	}, "\n")
	es, is := readAll(t, input, Options{Want: func(l []byte) bool { return bytes.Contains(l, []byte("assistant")) }})
	if got := uuids(es); got != "b" {
		t.Errorf("uuids %q, want only the wanted line", got)
	}
	if got := kinds(is); got != fmt.Sprintf("3:%d,5:%d,6:%d", Malformed, Malformed, TruncatedTail) {
		t.Errorf("issues %q", got)
	}
}

// A line longer than the read buffer that Want turns down on its first
// megabyte is drained, never put together: a 5 MiB tool result costs no
// memory. Its shape is still checked, and the lines around it keep their
// numbers and offsets.
func TestWantDrainsLongUnwantedLines(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	lines := []string{
		`{"type":"assistant","uuid":"a"}`,
		`{"type":"user","uuid":"big","content":"` + big + `"}`, // unwanted, well shaped
		`{"type":"assistant","uuid":"b"}`,
		`{"type":"user","uuid":"bad","content":"` + big + `"} junk`,  // unwanted, bad end
		`{"type":"assistant","uuid":"long","content":"` + big + `"}`, // wanted: parsed
		`{"type":"user","uuid":"cut","content":"` + big,              // unwanted, cut short
	}
	want := func(l []byte) bool { return bytes.Contains(l[:min(len(l), 40)], []byte("assistant")) }
	var issues []Issue
	r := New(strings.NewReader(strings.Join(lines, "\n")), Options{Want: want, OnIssue: func(is Issue) { issues = append(issues, is) }})
	var got []string
	var offsets []int64
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		got = append(got, e.UUID)
		offsets = append(offsets, e.Offset)
		if e.UUID != "long" && cap(r.buf) > 0 {
			t.Errorf("after %s the line buffer holds %d bytes: an unwanted line was put together", e.UUID, cap(r.buf))
		}
	}
	if strings.Join(got, ",") != "a,b,long" {
		t.Errorf("entries %v", got)
	}
	wantOffset := int64(len(lines[0]) + 1 + len(lines[1]) + 1)
	if len(offsets) < 2 || offsets[1] != wantOffset {
		t.Errorf("offset of b = %v, want %d", offsets, wantOffset)
	}
	if got := kinds(issues); got != fmt.Sprintf("4:%d,6:%d", Malformed, TruncatedTail) {
		t.Errorf("issues %q", got)
	}
	if len(issues) == 2 && issues[0].Size != len(lines[3]) {
		t.Errorf("size of line 4 = %d, want %d", issues[0].Size, len(lines[3]))
	}
}

func TestPeek(t *testing.T) {
	tests := []struct {
		line, typ, role string
		side            bool
	}{
		{`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"x"}}`, "user", "", false},
		{`{"isSidechain":true,"message":{"model":"m","id":"i","role":"assistant","content":[]},"type":"assistant"}`, "", "assistant", true},
		{`{"type":"progress","data":{"message":{"role":"assistant"}}}`, "progress", "", false},
		{`{"message":{"content":"no role first","role":"user"}}`, "", "user", false},
		{`{"message":"not an object","type":"x"}`, "x", "", false},
		{`not json`, "", "", false},
		{`{"isSidechain":true,"cut`, "", "", true},
	}
	for _, tt := range tests {
		typ, role, side := Peek([]byte(tt.line))
		if typ != tt.typ || role != tt.role || side != tt.side {
			t.Errorf("Peek(%s) = %q %q %v, want %q %q %v", tt.line, typ, role, side, tt.typ, tt.role, tt.side)
		}
	}
	// Peek runs on every line a counter reads: the usual types and roles
	// cost no allocation.
	for _, tt := range tests[:3] {
		line := []byte(tt.line)
		if n := testing.AllocsPerRun(100, func() { Peek(line) }); n != 0 {
			t.Errorf("Peek(%.40s…) allocates %.0f times", line, n)
		}
	}
}

// What a typed prompt is, for every command (ls -l and show count them,
// show --tail starts turns and tree tells rewinds by them): a user line a
// person wrote to the model. The lines Claude Code writes into the user's
// turn itself are not.
func TestTypedPrompt(t *testing.T) {
	user := func(content string) string {
		return `{"type":"user","message":{"role":"user","content":` + content + `}}`
	}
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	blocks := func(texts ...string) string {
		var bs []string
		for _, t := range texts {
			bs = append(bs, `{"type":"text","text":`+str(t)+`}`)
		}
		return "[" + strings.Join(bs, ",") + "]"
	}
	tests := []struct {
		name, line string
		typed      bool
	}{
		{"plain text", user(str("fix the login bug")), true},
		{"text blocks", user(blocks("fix the login bug")), true},
		{"text beside an image", user(`[{"type":"image","source":{}},{"type":"text","text":"what is this?"}]`), true},
		{"a slash command with arguments (runs as a prompt)", user(str("<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>")), true},
		{"a slash command without arguments (runs as a prompt)", user(str("<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args></command-args>")), true},
		{"the slash command's expansion (meta)", `{"type":"user","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Split complex tasks into subtasks"}]}}`, false},
		{"a local command (/clear)", user(str("<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>")), false},
		{"a local command of 1.0.x, no slash", user(str("<command-name>clear</command-name>\n<command-message>clear</command-message>")), false},
		{"a local command's output", user(str("<local-command-stdout>See ya!</local-command-stdout>")), false},
		{"the caveat before a local command (meta)", `{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>"}}`, false},
		{"the caveat of 1.0.x (meta, no tag)", `{"type":"user","isMeta":true,"message":{"role":"user","content":"Caveat: The messages below were generated by the user while running local commands."}}`, false},
		{"bash mode input", user(str("<bash-input>ls -la</bash-input>")), false},
		{"bash mode output", user(str("<bash-stdout>a b</bash-stdout><bash-stderr></bash-stderr>")), false},
		{"interrupted by the user", user(blocks("[Request interrupted by user]")), false},
		{"interrupted during a tool call", user(blocks("[Request interrupted by user for tool use]")), false},
		{"a tool result", user(`[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]`), false},
		{"a tool result with text beside it", user(`[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"and more"}]`), false},
		{"an IDE selection, then the prompt", user(blocks("<ide_selection>The user selected the lines 508 to 508 from x.py</ide_selection>", "How can I install this with uv?")), true},
		{"an opened file, then the prompt", user(blocks("<ide_opened_file>The user opened README.md in the IDE.</ide_opened_file>", "add the install steps")), true},
		{"an IDE selection alone", user(blocks("<ide_selection>The user selected the lines 1 to 2 from x.py</ide_selection>")), false},
		{"a task notification", user(str("<task-notification>\n<task-id>be613ab</task-id>\n<status>completed</status>\n</task-notification>")), false},
		{"a system reminder", user(blocks("<system-reminder>be careful</system-reminder>")), false},
		{"a compaction summary", `{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation."}}`, false},
		{"blank text", user(str("  \n ")), false},
		// The tags of newer integrations, long enough that the head alone
		// cannot see the end: a known name, or one element of a name of
		// Claude Code's kind (words joined by - or _) that ends the text.
		{"a channel message", user(str(`<channel source="plugin:telegram:bot">` + strings.Repeat("a long message ", 20) + `</channel>`)), false},
		{"a cross-session message", user(str("<cross-session-message from=\"s2\">" + strings.Repeat("done ", 40) + "</cross-session-message>\n")), false},
		{"a tag not known yet, wrapping the whole text", user(blocks("<brand-new-notice id=\"7\">" + strings.Repeat("news ", 40) + "</brand-new-notice>")), false},
		{"a prompt that starts with a custom element", user(str("<router-view> renders nothing after the redirect, " + strings.Repeat("why ", 30))), true},
		{"a prompt that quotes a whole element, then asks", user(str("<my-app>" + strings.Repeat("x", 120) + "</my-app> why is this blank?")), true},
		{"a prompt that starts with HTML", user(str("<div> is not centered")), true},
		{"elements of a list, and words between", user(str("<todo-item>milk</todo-item> and " + strings.Repeat("x", 100) + " <todo-item>eggs</todo-item>")), true},
		{"a long tag not known yet", user(str("<" + strings.Repeat("very-long-", 4) + "notice>" + strings.Repeat("news ", 30) + "</" + strings.Repeat("very-long-", 4) + "notice>\n\n")), false},
		{"a closing tag written <\\/name>", user(`"<brand-new-notice>` + strings.Repeat("news ", 30) + `<\/brand-new-notice>"`), false},
		{"an image alone", user(`[{"type":"image","source":{}}]`), false},
		{"text after a long run of blank lines", user(str(strings.Repeat("\n", 60) + "fix it")), true},
		{"a user line without message.role", `{"type":"user","message":{"content":"fix it"}}`, true},
		{"an assistant line", `{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"reply"}]}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := ParseLine([]byte(tt.line))
			if !ok {
				t.Fatalf("not parsed: %s", tt.line)
			}
			if got := e.IsTypedPrompt(); got != tt.typed {
				t.Errorf("IsTypedPrompt() = %v, want %v (text head %q)", got, tt.typed, e.TextHead)
			}
		})
	}
}

// TextHead is the start of the first typed text, decoded, cut short.
func TestTextHead(t *testing.T) {
	long := strings.Repeat("é", 200)
	tests := []struct{ line, head string }{
		{`{"type":"user","message":{"role":"user","content":"  fix the bug"}}`, "fix the bug"},
		{`{"type":"user","message":{"role":"user","content":[{"type":"image"},{"type":"text","text":"what is this?"},{"type":"text","text":"second"}]}}`, "what is this?"},
		{`{"type":"user","message":{"role":"user","content":[{"text":"key order\nreversed","type":"text"}]}}`, "key order\nreversed"},
		{`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"<ide_selection>x</ide_selection>"},{"type":"text","text":"the prompt"}]}}`, "the prompt"},
		{`{"type":"user","message":{"role":"user","content":"<local-command-stdout>ok</local-command-stdout>"}}`, ""},
		{`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"reply"}]}}`, ""},
		{`{"type":"user","message":{"role":"user","content":"` + long + `"}}`, strings.Repeat("é", 48)},
		{`{"type":"user","message":{"role":"user","content":"` + strings.Repeat("a", 94) + `\u00e9 cut"}}`, strings.Repeat("a", 94)},
	}
	for _, tt := range tests {
		e, ok := ParseLine([]byte(tt.line))
		if !ok {
			t.Fatalf("not parsed: %s", tt.line)
		}
		if want := strings.ReplaceAll(tt.head, `\n`, "\n"); e.TextHead != want {
			t.Errorf("%.60s: head %q, want %q", tt.line, e.TextHead, want)
		}
	}
}

// Reading a file in pieces (SplitPoints, OpenRange) gives the entries of
// reading it whole: same lines once the pieces before are counted, same
// offsets, the same issues. Only the file's start may hold a BOM.
func TestReadingInPiecesIsReadingWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("\xEF\xBB\xBF")
	for i := range 400 {
		switch {
		case i == 150:
			b.WriteString("not json\n")
		case i%37 == 0:
			fmt.Fprintf(&b, "{\"uuid\":\"u%d\",\"pad\":%q}\r\n", i, strings.Repeat("p", 3000))
		default:
			fmt.Fprintf(&b, "{\"uuid\":\"u%d\"}\n", i)
		}
	}
	b.WriteString(`{"uuid":"cut"`) // a half-written last line
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(start, end int64) (es []Entry, is []Issue) {
		r, c, err := OpenRange(path, start, end, Options{OnIssue: func(i Issue) { is = append(is, i) }})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for {
			e, ok := r.Next()
			if !ok {
				return es, is
			}
			es = append(es, e)
		}
	}
	whole, wholeIssues := read(0, -1)
	starts, err := SplitPoints(path, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) < 10 {
		t.Fatalf("only %d pieces: %v", len(starts), starts)
	}
	var pieces []Entry
	var pieceIssues []Issue
	base := 0
	for i, s := range starts {
		end := int64(-1)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		es, is := read(s, end)
		r, c, _ := OpenRange(path, s, end, Options{})
		for {
			if _, ok := r.Next(); !ok {
				break
			}
		}
		lines := r.Line()
		c.Close()
		for _, e := range es {
			e.Line += base
			pieces = append(pieces, e)
		}
		for _, x := range is {
			x.Line += base
			pieceIssues = append(pieceIssues, x)
		}
		base += lines
	}
	if a, b := fmt.Sprintf("%+v", whole), fmt.Sprintf("%+v", pieces); a != b {
		t.Errorf("entries differ:\nwhole  %.300s\npieces %.300s", a, b)
	}
	if a, b := fmt.Sprint(wholeIssues), fmt.Sprint(pieceIssues); a != b {
		t.Errorf("issues differ: whole %s, pieces %s", a, b)
	}
	if len(whole) != 399 || whole[0].UUID != "u0" {
		t.Errorf("%d entries, first %q", len(whole), whole[0].UUID)
	}
	// A BOM-like start of a later piece is content, not a mark.
	bom := filepath.Join(t.TempDir(), "b.jsonl")
	os.WriteFile(bom, []byte("{\"uuid\":\"a\"}\n\xEF\xBB\xBF{\"uuid\":\"b\"}\n"), 0o644)
	r, c, _ := OpenRange(bom, 13, -1, Options{})
	defer c.Close()
	if e, ok := r.Next(); ok {
		t.Errorf("a BOM in the middle of a file was stripped: %+v", e.UUID)
	}
}

// The reader shares a string equal to the one the line before had in the
// same field; an escaped value must still be decoded, not matched by its
// raw bytes against the last decoded one.
func TestSharedStringsAreTheDecodedValue(t *testing.T) {
	in := strings.Join([]string{
		`{"uuid":"1","cwd":"C:\\tmp\\new","model":"m"}`, // C:\tmp\new
		`{"uuid":"2","cwd":"C:\tmp\new"}`,               // C:<tab>mp<newline>ew
		`{"uuid":"3","cwd":"C:\tmp\new"}`,
		`{"uuid":"4","cwd":"plain"}`,
		`{"uuid":"5","cwd":"plain"}`,
		`{"uuid":"6","cwd":"pl\u0061in"}`,
	}, "\n")
	es, _ := readAll(t, in, Options{})
	var got []string
	for _, e := range es {
		got = append(got, e.CWD)
	}
	want := []string{`C:\tmp\new`, "C:\tmp\new", "C:\tmp\new", "plain", "plain", "plain"}
	if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
		t.Errorf("cwd %q, want %q", got, want)
	}
}

func TestStartsWithToolResult(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	tests := []struct {
		line string
		want bool
	}{
		{`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"` + big + `"}]}}`, true},
		{`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + big[:10], true}, // the start of a long line
		{`{"type":"user","message":{"role":"user","content":"fix the bug"}}`, false},
		{`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"},{"type":"tool_result"}]}}`, false},
		{`{"type":"user","message":{"role":"user","content":[]}}`, false},
		{`{"toolUseResult":{"type":"tool_result"},"message":{"content":"x"}}`, false},
		{`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t"}]}}`, false},
		{`not json`, false},
		{`{"message":{"content":[{"type":"tool_re`, false},
	}
	for _, tt := range tests {
		if got := StartsWithToolResult([]byte(tt.line)); got != tt.want {
			t.Errorf("StartsWithToolResult(%.90q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// A line cut by a crash past the read buffer, turned down by Want on its
// start, may hide the line written after the NUL run: that line is read.
func TestWantReadsTheLineAfterACrashInALongUnwantedLine(t *testing.T) {
	cut := `{"type":"user","uuid":"cut","content":"` + strings.Repeat("x", 3<<20) // no end: cut by the crash
	after := `{"type":"assistant","uuid":"b"}`
	input := `{"type":"assistant","uuid":"a"}` + "\n" + cut + strings.Repeat("\x00", 5000) + after + "\n" + `{"type":"assistant","uuid":"c"}` + "\n"
	want := func(l []byte) bool { return bytes.Contains(l[:min(len(l), 40)], []byte("assistant")) }
	var issues []Issue
	r := New(strings.NewReader(input), Options{Want: want, KeepRaw: true, OnIssue: func(is Issue) { issues = append(issues, is) }})
	var got []string
	for e, ok := r.Next(); ok; e, ok = r.Next() {
		got = append(got, e.UUID)
		if input[e.Offset:e.Offset+int64(e.Size)] != string(e.Raw) {
			t.Errorf("%s: offset %d does not point at its line", e.UUID, e.Offset)
		}
	}
	if strings.Join(got, ",") != "a,b,c" || len(issues) != 1 || issues[0].Kind != CrashResidue || issues[0].Line != 2 {
		t.Fatalf("entries %v, issues %v", got, issues)
	}
	if issues[0].Size != len(cut)+5000 {
		t.Errorf("residue of %d bytes reported as %d", len(cut)+5000, issues[0].Size)
	}
	// The residue does not count toward the line limit of what follows.
	r = New(strings.NewReader(input), Options{Want: want, MaxLineBytes: 2 << 20})
	got = nil
	for e, ok := r.Next(); ok; e, ok = r.Next() {
		got = append(got, e.UUID)
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Errorf("with a 2 MiB limit: entries %v", got)
	}
}

// ParseLine refuses a NUL byte inside a string, as the Reader does (the
// scanner itself does not look for one).
func TestParseLineRefusesNUL(t *testing.T) {
	if _, ok := ParseLine([]byte("{\"uuid\":\"a\x00b\"}")); ok {
		t.Error("a line holding a NUL byte was parsed")
	}
	if e, ok := ParseLine([]byte(`{"uuid":"ab"}`)); !ok || e.UUID != "ab" {
		t.Errorf("%+v %v", e, ok)
	}
}

// Done is where reading goes on in a file still being written: past the
// last line read whole, newline included, whatever it held (a BOM, spaces,
// a line that is not an entry, a broken one), and before a last line not
// yet whole.
func TestDoneIsPastTheLastWholeLine(t *testing.T) {
	tests := []struct {
		name, input string
		lines       int
	}{
		{"empty", "", 0},
		{"whole lines", "{\"uuid\":\"a\"}\n{\"uuid\":\"b\"}\n", 2},
		{"a BOM and spaces", "\uFEFF  {\"uuid\":\"a\"}  \r\n", 1},
		{"then a broken line and a blank one", "{\"uuid\":\"a\"}\n{oops\n\n", 3},
		{"then a last line not yet whole", "{\"uuid\":\"a\"}\n{\"uuid\":\"b\",\"x\":", 1},
		{"nothing whole yet", "{\"uuid\":\"a\"", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(strings.NewReader(tt.input), Options{})
			for {
				if _, ok := r.Next(); !ok {
					break
				}
			}
			want := int64(strings.LastIndexByte(tt.input, '\n') + 1)
			if off, lines := r.Done(); off != want || lines != tt.lines {
				t.Errorf("Done() = %d, %d lines; want %d, %d", off, lines, want, tt.lines)
			}
		})
	}
}

// A text block counts only when it is not blank. Blank is what
// strings.TrimSpace leaves empty, escapes and non-ASCII spaces included,
// decided without decoding more than the leading space.
func TestBlankString(t *testing.T) {
	for _, tt := range []struct {
		raw   string
		blank bool
	}{
		{`""`, true},
		{`"  \n\t\r "`, true},
		{`" \u0020\u00a0\u3000 "`, true},
		{"\"\u00a0\u3000\u2028\"", true},
		{`"\f"`, true},
		{`" x "`, false},
		{`"\nfix it"`, false},
		{`"\"quoted\""`, false},
		{`"\u00e9t\u00e9"`, false},
		{`"日本"`, false},
		{`"\b"`, false},
	} {
		if got, want := blankString([]byte(tt.raw)), strings.TrimSpace(gjson.Parse(tt.raw).Str) == ""; got != tt.blank || got != want {
			t.Errorf("blankString(%s) = %v, want %v (TrimSpace says %v)", tt.raw, got, tt.blank, want)
		}
	}
}

// Lines appended in UTF-16 (PowerShell's >> onto a transcript) are said
// as UTF-16, one issue a line, not as a crash's NUL run; the second byte
// of the last UTF-16 newline is no line of its own.
func TestUTF16LinesAppended(t *testing.T) {
	const a = `{"type":"user","uuid":"a"}`
	le := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			b.WriteByte(c)
			b.WriteByte(0)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, input string
		issues      int
	}{
		{"two lines", a + "\n" + le(a+"\n"+a+"\n"), 2},
		{"one line, no final newline", a + "\n" + le(a), 1},
	} {
		es, is := readAll(t, tc.input, Options{})
		if got := uuids(es); got != "a" {
			t.Errorf("%s: uuids %q, want a", tc.name, got)
		}
		if len(is) != tc.issues {
			t.Errorf("%s: %d issues, want %d: %v", tc.name, len(is), tc.issues, is)
		}
		for _, i := range is {
			if i.Kind != CrashResidue || !strings.Contains(i.Message(), "in UTF-16") || strings.Contains(i.Message(), "crash") {
				t.Errorf("%s: line %d: %q", tc.name, i.Line, i.Message())
			}
		}
	}
	// A lone NUL after an ordinary line is still a crash's residue.
	if _, is := readAll(t, a+"\n\x00\n"+a+"\n", Options{}); len(is) != 1 || !strings.Contains(is[0].Message(), "crash") {
		t.Errorf("lone NUL: %v", is)
	}
}
