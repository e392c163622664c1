package reader

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// asCounted is a full read of a line as Options.Count reads it: no
// content, and uuids only on an inline sidechain's line.
func asCounted(e Entry) Entry {
	e.Content, e.TextHead = 0, ""
	if !e.Sidechain || e.AgentID != "" {
		e.UUID, e.ParentUUID = "", ""
	}
	return e
}

// callsOf is what the tree facts (the content's other reader) say of a
// line's Agent/Task calls and its tool results.
func callsOf(raw []byte) (spawns, results []string) {
	f := ExtractTreeFacts(raw)
	for _, tu := range f.ToolUses {
		if IsSpawnTool(tu.Name) && tu.ID != "" {
			spawns = append(spawns, tu.ID)
		}
	}
	return spawns, f.ToolResults
}

// The rule of Options.Count, line by line: what it leaves out, what it
// still reads, and that it rejects what a full read rejects.
func TestCountReadsWhatACounterNeeds(t *testing.T) {
	const usage = `"usage":{"input_tokens":3,"output_tokens":7}`
	cases := []struct {
		name         string
		line         string
		ok           bool
		uuid, parent string
		content      bool // Content read (never with Count)
		spawns       []string
		results      []string
	}{
		{"main assistant line: no uuids", `{"parentUuid":"p1","isSidechain":false,"type":"assistant","uuid":"u1","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hi"}],` + usage + `}}`, true, "", "", false, nil, nil},
		{"inline sidechain: uuids kept", `{"parentUuid":"p2","isSidechain":true,"type":"assistant","uuid":"u2","message":{"id":"m","content":[{"type":"text","text":"hi"}],` + usage + `}}`, true, "u2", "p2", false, nil, nil},
		{"inline sidechain, keys after the uuids", `{"uuid":"u3","parentUuid":"p3","type":"user","message":{"content":"x"},"isSidechain":true}`, true, "u3", "p3", false, nil, nil},
		{"agent file's sidechain: its agent names it", `{"parentUuid":"p4","isSidechain":true,"agentId":"a1","type":"assistant","uuid":"u4","message":{` + usage + `}}`, true, "", "", false, nil, nil},
		{"escaped uuid on an inline sidechain", `{"parentUuid":"p\u0035","isSidechain":true,"uuid":"u\u0035","type":"user"}`, true, "u5", "p5", false, nil, nil},
		{"uuid that is no string", `{"parentUuid":null,"isSidechain":true,"uuid":7,"type":"user"}`, true, "", "", false, nil, nil},
		{"malformed content is still rejected", `{"type":"assistant","message":{"content":[{"type":"text","text":"hi"},],` + usage + `}}`, false, "", "", false, nil, nil},
		{"content cut short", `{"type":"assistant","message":{"content":[{"type":"text","text":"hi}`, false, "", "", false, nil, nil},
		{"bad escape inside content is accepted as a full read does", `{"type":"assistant","message":{"content":"a\qb",` + usage + `}}`, true, "", "", false, nil, nil},
		{"content that is no array", `{"type":"assistant","message":{"content":12,` + usage + `}}`, true, "", "", false, nil, nil},
		{"an Agent call: its id", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Agent","input":{"prompt":"p"}}],` + usage + `}}`, true, "", "", false, []string{"t1"}, nil},
		{"a Task call (before 2.1), keys in any order", `{"type":"assistant","message":{"content":[{"name":"Task","input":{},"id":"t2","type":"tool_use"}]}}`, true, "", "", false, []string{"t2"}, nil},
		{"calls among other blocks, each once", `{"type":"assistant","message":{"content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t3","name":"Agent"},{"type":"tool_use","id":"b1","name":"Bash"},{"type":"tool_use","id":"t4","name":"Task"}]}}`, true, "", "", false, []string{"t3", "t4"}, nil},
		{"another tool is no call", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b2","name":"Bash"}]}}`, true, "", "", false, nil, nil},
		{"escaped name and id", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t\u0035","name":"Ag\u0065nt"}]}}`, true, "", "", false, []string{"t5"}, nil},
		{"Claude Code's shape, an escape in the name: walked", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Ag\u0065nt","input":{}}]}}`, true, "", "", false, []string{"t1"}, nil},
		{"Claude Code's shape, another tool named first", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","name":"Agent","input":{}}]}}`, true, "", "", false, nil, nil},
		{"Claude Code's shape, another tool, malformed input: rejected", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{,}}]}}`, false, "", "", false, nil, nil},
		{"a call without an id", `{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Agent"}]}}`, true, "", "", false, nil, nil},
		{"the first of a key counts", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t6","id":"t7","name":"Agent","name":"Bash"}]}}`, true, "", "", false, []string{"t6"}, nil},
		{"a lone result: the call it answers", `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":[{"type":"text","text":"done"}]}]},"toolUseResult":{"agentId":"a1"}}`, true, "", "", false, nil, []string{"t1"}},
		{"two results: both", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1"},{"type":"tool_result","tool_use_id":"t2"}]}}`, true, "", "", false, nil, []string{"t1", "t2"}},
		{"a result without an id", `{"type":"user","message":{"content":[{"type":"tool_result","content":"x"}]}}`, true, "", "", false, nil, []string{""}},
		{"a result's nested blocks are not read", `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t8","content":[{"type":"tool_use","id":"t9","name":"Agent"}]}]}}`, true, "", "", false, nil, []string{"t8"}},
		{"only the first content is read", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Agent"}],"content":[{"type":"tool_use","id":"t2","name":"Agent"}]}}`, true, "", "", false, []string{"t1"}, nil},
		{"a malformed block is rejected", `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Agent",}]}}`, false, "", "", false, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := parseEntry([]byte(c.line), &lineStrings{}, nil, readForCount)
			full, fok := parseEntry([]byte(c.line), &lineStrings{}, nil, readFull)
			if ok != c.ok || fok != c.ok {
				t.Fatalf("ok: count %v, full %v, want %v", ok, fok, c.ok)
			}
			if !ok {
				return
			}
			if got.UUID != c.uuid || got.ParentUUID != c.parent {
				t.Errorf("uuid %q parent %q, want %q %q", got.UUID, got.ParentUUID, c.uuid, c.parent)
			}
			if got.Content != 0 || got.TextHead != "" {
				t.Errorf("content read: %v %q", got.Content, got.TextHead)
			}
			if !reflect.DeepEqual(got, asCounted(full)) {
				t.Errorf("count  %+v\nfull   %+v", got, asCounted(full))
			}
			if !slices.Equal(got.SpawnIDs, c.spawns) || !slices.Equal(got.ResultIDs, c.results) {
				t.Errorf("calls %q, results %q; want %q, %q", got.SpawnIDs, got.ResultIDs, c.spawns, c.results)
			}
			if spawns, results := callsOf([]byte(c.line)); !slices.Equal(spawns, c.spawns) || !slices.Equal(results, c.results) {
				t.Errorf("the tree facts say calls %q, results %q", spawns, results)
			}
			if got.HasUsage != full.HasUsage || got.Usage != full.Usage {
				t.Errorf("usage %+v, full read %+v", got.Usage, full.Usage)
			}
		})
	}
}

// On every line of the repository's transcripts, and on those lines cut
// short or with a byte changed, Options.Count accepts and rejects what a
// full read does, and reads the same of what it reads (warnings
// included: they come from the same fields).
func TestCountIsAFullReadLessContent(t *testing.T) {
	lines := testdataLines(t)
	r := rand.New(rand.NewPCG(9, 10))
	for i, n := 0, len(lines); i < n; i++ {
		l := lines[i]
		if len(l) < 2 {
			continue
		}
		flip := bytes.Clone(l)
		const odd = "{}[]\",:\\x0 "
		flip[r.IntN(len(flip))] = odd[r.IntN(len(odd))]
		lines = append(lines, bytes.Clone(l[:r.IntN(len(l))]), flip)
	}
	bad, inline, spawns, results := 0, 0, 0, 0
	cs, fs := &lineStrings{}, &lineStrings{}
	for _, l := range lines {
		l = trimSpace(l)
		if len(l) == 0 || hasNUL(l) {
			continue
		}
		got, ok := parseEntry(l, cs, nil, readForCount)
		full, fok := parseEntry(l, fs, nil, readFull)
		if !fok {
			bad++
		}
		if fok && full.Sidechain && full.AgentID == "" && full.UUID != "" {
			inline++
		}
		if ok != fok || ok && !reflect.DeepEqual(got, asCounted(full)) {
			t.Fatalf("line %.300q:\ncount %v %+v\nfull  %v %+v", l, ok, got, fok, asCounted(full))
		}
		if spawns, results := callsOf(l); ok && (!slices.Equal(got.SpawnIDs, spawns) || !slices.Equal(got.ResultIDs, results)) {
			t.Fatalf("line %.300q: calls %q, results %q; the tree facts say %q, %q", l, got.SpawnIDs, got.ResultIDs, spawns, results)
		}
		if ok {
			spawns += len(got.SpawnIDs)
			results += len(got.ResultIDs)
		}
	}
	if bad == 0 || bad == len(lines) || inline == 0 || spawns == 0 || results == 0 {
		t.Fatalf("%d of %d lines malformed, %d of inline sidechains, %d Agent/Task calls, %d lone results: the test shows nothing",
			bad, len(lines), inline, spawns, results)
	}
}

// A block that starts as Claude Code writes a tool_use block, naming
// another tool than Agent or Task, is skipped whole; any other start is
// walked (otherToolUse false).
func TestOtherToolUse(t *testing.T) {
	for _, tc := range []struct {
		block string
		skip  bool
	}{
		{`{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}`, true},
		{`{"type":"tool_use","id":"toolu_1","name":"Agent","input":{}}`, false},
		{`{"type":"tool_use","id":"toolu_1","name":"Task","input":{}}`, false},
		{`{"type":"tool_use","id":"toolu_1","name":"Ag\u0065nt"}`, false},
		{`{"type":"tool_use","id":"t\u0031","name":"Bash"}`, false},
		{`{"type":"tool_use","name":"Bash","id":"toolu_1"}`, false},
		{`{"type":"tool_use","id":"toolu_1" ,"name":"Bash"}`, false},
		{`{"type":"tool_use","id":"toolu_1","name":"Bash`, false},
		{`{"type":"tool_result","tool_use_id":"toolu_1"}`, false},
	} {
		if got := otherToolUse([]byte(tc.block)); got != tc.skip {
			t.Errorf("%s: %v, want %v", tc.block, got, tc.skip)
		}
	}
}
