package reader

// The gjson-based envelope parser the scanner replaced, kept as the
// oracle: on every valid line both must agree.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/tidwall/gjson"
)

func TestScannerAgreesWithGJSONOnEveryRealLine(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	files = append(files, testcorpus.Files("*/*.jsonl", "*/*/subagents/*.jsonl")...)
	lines := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// One string cache a file, as the Reader has: a field shared
		// with the line before must read the same as a fresh copy.
		ls := &lineStrings{}
		for _, line := range bytes.Split(b, []byte("\n")) {
			line = trimSpace(line)
			if len(line) == 0 {
				continue
			}
			lines++
			checkAgainstOracle(t, line, ls)
		}
	}
	if lines < 300 { // the samples alone hold more: the globs found nothing
		t.Errorf("only %d lines checked", lines)
	}
}

func checkAgainstOracle(t *testing.T, line []byte, ls *lineStrings) {
	t.Helper()
	got, ok := parseEnvelope(line, ls, nil)
	valid := len(line) > 0 && line[0] == '{' && gjson.ValidBytes(line)
	if valid && !ok {
		t.Fatalf("scanner rejects a valid line: %q", clip(line))
	}
	if ok && !valid && !lenientOnly(line) {
		t.Fatalf("scanner accepts an invalid line: %q", clip(line))
	}
	if !valid {
		return
	}
	want := parseEnvelopeGJSON(line)
	// Reported by the Reader as issues, not part of the envelope.
	got.Usage.implausible, got.Usage.negative, got.Usage.notObject, got.Usage.coerced, got.odd = false, false, false, "", ""
	got.TextHead = "" // the oracle has no text; TestTextHead checks it
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Fatalf("envelopes differ on %q\n got %+v\nwant %+v", clip(line), got, want)
	}
}

// lenientOnly reports whether a line gjson rejects holds something the
// scanner accepts on purpose: a control character or an unchecked escape
// inside a string, or a number form it reads loosely.
func lenientOnly(line []byte) bool {
	for _, c := range line {
		if c < 0x20 || c == '\\' || c == 'e' || c == 'E' || c == '+' || c == '.' || c == '-' || c == '0' {
			return true
		}
	}
	return false
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":3,"cache_creation":{"ephemeral_5m_input_tokens":1}},"content":[{"type":"text","text":"a\"b"}]}}`,
		`{"uuid":"a\\","parentUuid":null,"isSidechain":true,"timestamp":"2026-01-01T00:00:00Z"}`,
		`{"a":[1,[2,{"b":[]}],{}],"message":{"content":"x"}}`,
		`{"toolUseResult":{"stdout":"x","agentId":"ag"},"compactMetadata":{"trigger":"auto","preTokens":"12"}}`,
		`{"toolUseResult":{"agentId":"a1","agentId":"a2"}}`,
		`{"toolUseResult":{"agentId":"a1"},"toolUseResult":{"stdout":"x"}}`,
		`{"toolUseResult":{"agentId":"a1"},"toolUseResult":{"agentId":"a2"}}`,
		`{"toolUseResult":{"x":{"agentId":"nested"},"agentId":"top"}}`,
		`{"toolUseResult":{"agentId":7,"agentId":"a2"}}`,
		`{"toolUseResult":{"agentId":"a1","content":[1,}}`,
		`{"attachment":{"type":"queued_command","prompt":"typed","commandMode":"prompt"},"type":"attachment","uuid":"q"}`,
		`{"type":"attachment","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"a"},{"type":"image"}],"commandMode":7}}`,
		`{"type":"attachment","attachment":{"type":"queued_command","prompt":null,"commandMode":"task-notification"},"attachment":{"type":"hook"}}`,
		`{}`, `{"a":1,}`, `{"a" 1}`, `[{}]`, `{"a":"\u00e9\ud800"}`, `{"a":-1.5e+3}`, `{"a":tru}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = trimSpace(line)
		checkAgainstOracle(t, line, nil)
		// Again with every string already in the cache.
		ls := &lineStrings{}
		parseEnvelope(line, ls, nil)
		checkAgainstOracle(t, line, ls)
	})
}

func TestScannerDepth(t *testing.T) {
	deep := []byte(strings.Repeat(`{"a":[`, 200_000) + strings.Repeat("]}", 200_000))
	if !Valid(deep) {
		t.Error("deep valid object rejected")
	}
	if Valid(deep[:len(deep)-1]) {
		t.Error("deep truncated object accepted")
	}
	_ = time.Now
}

// parseEnvelopeGJSON walks the top level of a valid JSON object once and keeps
// the envelope fields. Strings are cloned: line is reused by the reader.
func parseEnvelopeGJSON(line []byte) Entry {
	var e Entry
	messageSeen := false // the calls of its first message only (Entry.SpawnIDs)
	var attach *gjson.Result
	gjson.Parse(view(line)).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "attachment":
			if attach == nil {
				attach = &v
			}
		case "type":
			e.Type = oracleStr(v)
		case "subtype":
			e.Subtype = oracleStr(v)
		case "uuid":
			e.UUID = oracleStr(v)
		case "parentUuid":
			e.ParentUUID = oracleStr(v)
		case "logicalParentUuid":
			e.LogicalParentUUID = oracleStr(v)
		case "sessionId":
			e.SessionID = oracleStr(v)
		case "agentId":
			e.AgentID = oracleStr(v)
		case "teamName":
			e.TeamName = oracleStr(v)
		case "promptId":
			e.PromptID = oracleStr(v)
		case "isSidechain":
			e.Sidechain = v.Bool()
		case "isMeta":
			e.Meta = v.Bool()
		case "isCompactSummary":
			e.CompactSummary = v.Bool()
		case "isApiErrorMessage":
			e.APIError = v.Bool()
		case "timestamp":
			e.Timestamp = oracleTime(v)
		case "cwd":
			e.CWD = oracleStr(v)
		case "gitBranch":
			e.GitBranch = oracleStr(v)
		case "version":
			e.Version = oracleStr(v)
		case "requestId":
			e.RequestID = oracleStr(v)
		case "message":
			if v.IsObject() {
				oracleMessage(v, &e)
			}
			if !messageSeen && v.IsObject() && v.Get("content").IsArray() {
				e.SpawnIDs, e.ResultIDs = oracleCalls(v.Get("content"))
			}
			messageSeen = true
		case "compactMetadata":
			if v.IsObject() {
				e.CompactTrigger = oracleStr(v.Get("trigger"))
				e.CompactPreTokens = v.Get("preTokens").Int()
			}
		case "toolUseResult":
			if v.IsObject() {
				e.ToolUseResultAgentID = oracleStr(v.Get("agentId"))
			}
		}
		return true
	})
	if e.Type == "attachment" && attach != nil {
		oracleQueued(*attach, &e)
	}
	return e
}

// oracleQueued is the queued-input rule (Entry.Queued) read with gjson: an
// attachment whose type is queued_command is a user message whose
// content is its prompt; commandMode says what it is.
func oracleQueued(a gjson.Result, e *Entry) {
	if !a.IsObject() || a.Get("type").Type != gjson.String || a.Get("type").Str != "queued_command" {
		return
	}
	e.Queued = QueuedOther
	switch m := a.Get("commandMode"); {
	case !m.Exists() || m.Type == gjson.Null:
		e.Queued = QueuedPrompt
	case m.Type == gjson.String && (m.Str == "prompt" || m.Str == ""):
		e.Queued = QueuedPrompt
	case m.Type == gjson.String && m.Str == "task-notification":
		e.Queued = QueuedNotification
	}
	e.Role = "user"
	e.Content = oracleContentFlags(a.Get("prompt"))
}

// oracleCalls is what Entry.SpawnIDs and Entry.ResultIDs say of a
// content array: the first of each key of a block, its type as written.
func oracleCalls(content gjson.Result) (spawns, results []string) {
	content.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Raw {
		case `"tool_use"`:
			if id := oracleStr(b.Get("id")); id != "" && IsSpawnTool(oracleStr(b.Get("name"))) {
				spawns = append(spawns, id)
			}
		case `"tool_result"`:
			results = append(results, oracleStr(b.Get("tool_use_id")))
		}
		return true
	})
	return spawns, results
}

func oracleMessage(m gjson.Result, e *Entry) {
	m.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			e.MessageID = oracleStr(v)
		case "model":
			e.Model = oracleStr(v)
		case "role":
			e.Role = oracleStr(v)
		case "stop_reason":
			e.StopReasonNull = v.Type == gjson.Null
		case "usage":
			if v.IsObject() {
				e.HasUsage = true
				e.Usage = oracleUsage(v)
			}
		case "content":
			e.Content = oracleContentFlags(v)
		}
		return true
	})
}

func oracleUsage(u gjson.Result) Usage {
	var us Usage
	u.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "input_tokens":
			us.Input = oracleCount(v)
		case "output_tokens":
			us.Output = oracleCount(v)
		case "cache_creation_input_tokens":
			us.CacheCreation = oracleCount(v)
		case "cache_read_input_tokens":
			us.CacheRead = oracleCount(v)
		case "cache_creation":
			us.CacheCreation5m = oracleCount(v.Get("ephemeral_5m_input_tokens"))
			us.CacheCreation1h = oracleCount(v.Get("ephemeral_1h_input_tokens"))
		case "server_tool_use":
			us.WebSearch = oracleCount(v.Get("web_search_requests"))
		case "speed":
			us.Speed = oracleStr(v)
		case "service_tier":
			us.ServiceTier = oracleStr(v)
		}
		return true
	})
	return us
}

// count reads a token count. Numbers written as strings or floats are
// accepted; anything negative or not a number counts as zero.
func oracleCount(v gjson.Result) int64 {
	n := v.Int()
	if n < 0 || n > MaxTokenCount {
		return 0
	}
	return n
}

// str returns a string field, cloned so it outlives the line buffer. Values
// that are not strings (null, numbers, objects) give "".
func oracleStr(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	return strings.Clone(v.Str)
}

func oracleTime(v gjson.Result) time.Time {
	if v.Type != gjson.String {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.Str)
	if err != nil {
		return time.Time{}
	}
	return t
}

func oracleContentFlags(v gjson.Result) ContentFlags {
	switch {
	case v.Type == gjson.String:
		if strings.TrimSpace(v.Str) != "" {
			return HasText
		}
		return 0
	case !v.IsArray():
		return 0
	}
	var f ContentFlags
	v.ForEach(func(_, b gjson.Result) bool {
		switch b.Get("type").Str {
		case "text":
			f |= HasText
		case "tool_use", "server_tool_use":
			f |= HasToolUse
		case "tool_result":
			f |= HasToolResult
		case "image":
			f |= HasImage
		case "thinking", "redacted_thinking":
			f |= HasThinking
		case "document":
			f |= HasDocument
		}
		return true
	})
	return f
}
