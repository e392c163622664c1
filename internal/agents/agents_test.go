package agents

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

const sid = "11111111-2222-3333-4444-555555555555"

// setup writes files (path relative to a project folder → lines) and
// finds the session's agents the way the command does.
func setup(t *testing.T, files map[string][]string) *Result {
	t.Helper()
	root := t.TempDir()
	proj := filepath.Join(root, "-proj")
	for name, lines := range files {
		p := filepath.Join(proj, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := strings.Join(lines, "\n")
		if !strings.HasSuffix(name, ".meta.json") {
			body += "\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	s, err := f.Resolve(sid)
	if err != nil {
		t.Fatal(err)
	}
	res, said := find(t, s, f.Agents(s), nil)
	if strings.Contains(said, "skipped") {
		t.Fatalf("unexpected skipped lines: %s", said)
	}
	return res
}

// find reads a session's tree as cctx agents does (quietly: the model's
// own warnings are not the report's) and reports on its agents; said is
// what went to stderr meanwhile.
func find(t *testing.T, s *session.Session, files []session.Agent, prices *tokens.Prices) (*Result, string) {
	t.Helper()
	var buf bytes.Buffer
	tr, err := tree.LoadQuiet(s.Path, files, diag.New(&buf, true, false))
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "" {
		tr.SessionID = s.ID
	}
	return Report(tr, nil, prices), buf.String()
}

func byID(t *testing.T, res *Result, id string) *Agent {
	t.Helper()
	for _, a := range res.Agents {
		if a.ID == id {
			return a
		}
	}
	t.Fatalf("no agent %q among %v", id, ids(res))
	return nil
}

func ids(res *Result) []string {
	var out []string
	for _, a := range res.Agents {
		out = append(out, a.ID)
	}
	return out
}

func warned(res *Result, substr string) bool {
	for _, w := range res.Warnings {
		if strings.Contains(w.String(), substr) {
			return true
		}
	}
	return false
}

// Lines are written out in full so each test shows what it checks. A
// "main" file is <sid>.jsonl; usage u1 is 1+10+100+5 = 116 tokens.
const (
	mainPrompt = `{"type":"user","uuid":"m1","parentUuid":null,"sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"go"}}`
)

func TestLinksBySidecarAgentIDAndNesting(t *testing.T) {
	res := setup(t, map[string][]string{
		sid + ".jsonl": {
			mainPrompt,
			`{"type":"assistant","uuid":"m2","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Agent","input":{"description":"Research","prompt":"Find things\nin detail","subagent_type":"Explore"}}],"usage":{"input_tokens":1,"output_tokens":5,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
			`{"type":"user","uuid":"m3","parentUuid":"m2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:05:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A","content":[{"type":"text","text":"done"}]}]},"toolUseResult":{"status":"completed","agentId":"aaa1","totalTokens":232,"totalDurationMs":299000,"totalToolUseCount":1,"usage":{"input_tokens":2,"output_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":200}}}`,
		},
		// The outer agent spawns a nested one; its sidecar names the call.
		sid + "/subagents/agent-aaa1.jsonl": {
			`{"type":"user","uuid":"a1","parentUuid":null,"isSidechain":true,"agentId":"aaa1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"Find things\nin detail"}}`,
			`{"type":"assistant","uuid":"a2","parentUuid":"a1","isSidechain":true,"agentId":"aaa1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:03Z","requestId":"r2","message":{"id":"msg2","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_B","name":"Agent","input":{"description":"Dig","prompt":"dig"}}],"usage":{"input_tokens":1,"output_tokens":5,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
			`{"type":"user","uuid":"a3","parentUuid":"a2","isSidechain":true,"agentId":"aaa1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:04:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_B","content":"dug"}]},"toolUseResult":{"status":"completed","agentId":"bbb2","totalTokens":116}}`,
			`{"type":"assistant","uuid":"a4","parentUuid":"a3","isSidechain":true,"agentId":"aaa1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:04:59Z","requestId":"r3","message":{"id":"msg3","model":"claude-opus-4-7","role":"assistant","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":2,"output_tokens":10,"cache_creation_input_tokens":20,"cache_read_input_tokens":200}}}`,
		},
		sid + "/subagents/agent-bbb2.jsonl": {
			`{"type":"user","uuid":"b1","parentUuid":null,"isSidechain":true,"agentId":"bbb2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:04Z","message":{"role":"user","content":"dig"}}`,
			`{"type":"assistant","uuid":"b2","parentUuid":"b1","isSidechain":true,"agentId":"bbb2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:05Z","requestId":"r4","message":{"id":"msg4","model":"claude-haiku-4-5","role":"assistant","content":[{"type":"text","text":"dug"}],"usage":{"input_tokens":1,"output_tokens":5,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
		},
		sid + "/subagents/agent-bbb2.meta.json": {`{"agentType":"Explore","toolUseId":"toolu_B","parentAgentId":"aaa1","spawnDepth":2}`},
	})
	if got := strings.Join(ids(res), ","); got != "aaa1,bbb2" {
		t.Fatalf("order = %s, want the parent then its child", got)
	}
	a, b := byID(t, res, "aaa1"), byID(t, res, "bbb2")
	if a.Link != "agent_id" || b.Link != "meta" {
		t.Errorf("links = %q, %q; want agent_id, meta", a.Link, b.Link)
	}
	if a.Depth != 0 || b.Depth != 1 || b.ParentID != "aaa1" {
		t.Errorf("nesting: a depth %d, b depth %d parent %q", a.Depth, b.Depth, b.ParentID)
	}
	if a.Status != StatusCompleted || a.Type != "Explore" || a.Description != "Research" || a.Prompt != "Find things\nin detail" {
		t.Errorf("a = %+v", a)
	}
	if b.Type != "Explore" {
		t.Errorf("b type %q from the sidecar", b.Type)
	}
	if a.Total.APICalls != 2 || a.Total.Tokens != 116+232 || b.Total.Tokens != 116 {
		t.Errorf("tokens: a %d calls %d tokens, b %d tokens", a.Total.APICalls, a.Total.Tokens, b.Total.Tokens)
	}
	if a.TokenCheck != CheckOK || b.TokenCheck != CheckOK {
		t.Errorf("checks %q %q", a.TokenCheck, b.TokenCheck)
	}
	if a.DurationMs != 299000 || a.ToolUses != 1 {
		t.Errorf("a duration %d tool uses %d", a.DurationMs, a.ToolUses)
	}
	if res.Main.APICalls != 1 {
		t.Errorf("main calls %d", res.Main.APICalls)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
}

// Each case is a main file (and maybe agent files) and what the one agent
// row of interest must say.
func TestStatusesAndMismatches(t *testing.T) {
	call := func(id, input string) string {
		return `{"type":"assistant","uuid":"c-` + id + `","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r-` + id + `","message":{"id":"msg-` + id + `","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Task","input":` + input + `}],"usage":{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`
	}
	result := func(id, content, extra string) string {
		return `{"type":"user","uuid":"r-` + id + `","parentUuid":"c-` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `",` + content + `}]}` + extra + `}`
	}
	agentLines := func(id string, output int) []string {
		return []string{
			`{"type":"user","uuid":"` + id + `-1","parentUuid":null,"isSidechain":true,"agentId":"` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"work"}}`,
			`{"type":"assistant","uuid":"` + id + `-2","parentUuid":"` + id + `-1","isSidechain":true,"agentId":"` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:30Z","requestId":"r-` + id + `-x","message":{"id":"msg-` + id + `-x","model":"claude-opus-4-7","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1,"output_tokens":` + strconv.Itoa(output) + `,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
		}
	}
	warmup := func(id string, replied bool) []string {
		lines := []string{`{"type":"user","uuid":"` + id + `-1","parentUuid":null,"isSidechain":true,"agentId":"` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"Warmup"}}`}
		if replied {
			lines = append(lines, agentLines(id, 5)[1])
		}
		return lines
	}
	cases := []struct {
		name       string
		files      map[string][]string
		id         string // the row to check ("" = the only row)
		status     string
		check      string
		warn       string // a warning that must be there
		noWarnings bool
		note       string
	}{
		{
			name: "failed call (input validation): no transcript expected",
			files: map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x"}`),
				result("t1", `"is_error":true,"content":"<tool_use_error>InputValidationError: prompt is missing</tool_use_error>"`, `,"toolUseResult":"InputValidationError"`)}},
			status: StatusFailed, noWarnings: true,
		},
		{
			name: "interrupted by the user",
			files: map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"p"}`),
				result("t1", `"is_error":true,"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]`, ``)}},
			status: StatusInterrupted, noWarnings: true,
		},
		{
			name:   "no result yet: running",
			files:  map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"p"}`)}},
			status: StatusRunning, noWarnings: true,
		},
		{
			name: "completed, but agent-zz9.jsonl does not exist: missing transcript",
			files: map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"p"}`),
				result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"zz9","totalTokens":5}`)}},
			id: "zz9", status: StatusMissing, warn: ":3: the Agent/Task result names agent zz9, but no transcript agent-zz9.jsonl was found",
		},
		{
			name: "an agentId that is a path is never looked up",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"p"}`),
					result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"../../x"}`)},
				// Would match if the id were joined to the subagents folder.
				"x.jsonl": agentLines("x", 5),
			},
			id: "../../x", status: StatusMissing, warn: `:3: the Agent/Task result names agentId "../../x", which cannot be a file name`,
		},
		{
			name: "a transcript no call spawned is an orphan",
			files: map[string][]string{sid + ".jsonl": {mainPrompt},
				sid + "/subagents/agent-lone.jsonl": agentLines("lone", 5)},
			id: "lone", status: StatusOrphan, warn: "no Agent/Task call spawned agent lone",
		},
		{
			// Claude Code 2.0.x warms its cache with an agent of its own.
			name: "a warm-up that replied is completed, not an orphan",
			files: map[string][]string{sid + ".jsonl": {mainPrompt},
				sid + "/subagents/agent-w1.jsonl": warmup("w1", true)},
			id: "w1", status: StatusCompleted, noWarnings: true,
		},
		{
			// Nothing waits for a warm-up's reply: without one it is not
			// running.
			name: "a warm-up without a reply is no_reply, not running",
			files: map[string][]string{sid + ".jsonl": {mainPrompt},
				sid + "/subagents/agent-w2.jsonl": warmup("w2", false)},
			id: "w2", status: StatusNoReply, noWarnings: true,
		},
		{
			name: "a compaction agent without a reply is still running",
			files: map[string][]string{sid + ".jsonl": {mainPrompt},
				sid + "/subagents/agent-acompact-3c4d.jsonl": agentLines("acompact-3c4d", 5)[:1]},
			id: "acompact-3c4d", status: StatusRunning, noWarnings: true,
		},
		{
			name: "compaction agents are not orphans",
			files: map[string][]string{sid + ".jsonl": {mainPrompt},
				sid + "/subagents/agent-acompact-1a2b.jsonl": agentLines("acompact-1a2b", 5)},
			id: "acompact-1a2b", status: StatusCompleted, noWarnings: true,
		},
		{
			name: "totalTokens matches no API call of the transcript",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work"}`),
					result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":9999,"usage":{"input_tokens":9,"output_tokens":9,"cache_creation_input_tokens":9,"cache_read_input_tokens":9972}}`)},
				sid + "/subagents/agent-ag1.jsonl": agentLines("ag1", 5),
			},
			id: "ag1", status: StatusCompleted, check: CheckMismatch, warn: "toolUseResult.totalTokens 9999 of agent ag1 matches no API call",
		},
		{
			name: "an empty transcript where the call reports tokens",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work"}`),
					result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":17}`)},
				sid + "/subagents/agent-ag1.jsonl": {},
			},
			id: "ag1", status: StatusCompleted, check: CheckMismatch, warn: "the transcript of agent ag1 holds no API call, but its Task result reports 17 tokens",
		},
		{
			name: "a very long unsafe agentId is cut in the warning",
			files: map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"p"}`),
				result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"/`+strings.Repeat("a", 5000)+`"}`)}},
			id: "/" + strings.Repeat("a", 5000), status: StatusMissing, warn: `result names agentId "/` + strings.Repeat("a", 79) + `"…, which cannot be a file name`,
		},
		{
			name: "the transcript kept a partial output count: a note, not a warning",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work"}`),
					result("t1", `"content":"done"`, `,"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":411,"usage":{"input_tokens":1,"output_tokens":300,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}`)},
				sid + "/subagents/agent-ag1.jsonl": agentLines("ag1", 2),
			},
			id: "ag1", status: StatusCompleted, check: CheckFinalMissing, noWarnings: true, note: "partial output count (2)",
		},
		{
			name: "background agent: launched, no completion seen",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work","run_in_background":true}`),
					result("t1", `"content":"Async agent launched"`, `,"toolUseResult":{"status":"async_launched","isAsync":true,"agentId":"bg1"}`)},
				sid + "/subagents/agent-bg1.jsonl": agentLines("bg1", 5),
			},
			id: "bg1", status: StatusBackground, noWarnings: true,
		},
		{
			name: "background agent: its task-notification says it completed",
			files: map[string][]string{
				sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work","run_in_background":true}`),
					result("t1", `"content":"Async agent launched"`, `,"toolUseResult":{"status":"async_launched","isAsync":true,"agentId":"bg1"}`),
					`{"type":"user","uuid":"n1","parentUuid":"r-t1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:09:00Z","message":{"role":"user","content":"<task-notification>\n<task-id>bg1</task-id>\n<status>completed</status>\n</task-notification>"}}`},
				sid + "/subagents/agent-bg1.jsonl": agentLines("bg1", 5),
			},
			id: "bg1", status: StatusCompleted, noWarnings: true,
		},
		{
			name: "background agent whose transcript is missing",
			files: map[string][]string{sid + ".jsonl": {mainPrompt, call("t1", `{"description":"x","prompt":"work","run_in_background":true}`),
				result("t1", `"content":"Async agent launched"`, `,"toolUseResult":{"status":"async_launched","agentId":"bg2"}`)}},
			id: "bg2", status: StatusMissing, warn: "agent-bg2.jsonl",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := setup(t, tc.files)
			var a *Agent
			if tc.id == "" {
				if len(res.Agents) != 1 {
					t.Fatalf("agents %v, want one", ids(res))
				}
				a = res.Agents[0]
			} else {
				a = byID(t, res, tc.id)
			}
			if a.Status != tc.status {
				t.Errorf("status %q, want %q", a.Status, tc.status)
			}
			if a.TokenCheck != tc.check {
				t.Errorf("token check %q, want %q", a.TokenCheck, tc.check)
			}
			if tc.warn != "" && !warned(res, tc.warn) {
				t.Errorf("no warning containing %q in %v", tc.warn, res.Warnings)
			}
			if tc.noWarnings && len(res.Warnings) > 0 {
				t.Errorf("unexpected warnings %v", res.Warnings)
			}
			if tc.note != "" {
				found := false
				for _, n := range res.Notes {
					found = found || strings.Contains(n.String(), tc.note)
				}
				if !found {
					t.Errorf("no note containing %q in %v", tc.note, res.Notes)
				}
			}
			if a.ID == "../../x" && a.Path != "" {
				t.Errorf("an unsafe id was linked to %s", a.Path)
			}
		})
	}
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestFlatAgentWarmupAndResume(t *testing.T) {
	res := setup(t, map[string][]string{
		sid + ".jsonl": {
			mainPrompt,
			`{"type":"assistant","uuid":"m2","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"description":"first","prompt":"start","subagent_type":"Plan"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"user","uuid":"m3","parentUuid":"m2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"half"}]},"toolUseResult":{"status":"completed","agentId":"f1a7","totalDurationMs":1000}}`,
			`{"type":"assistant","uuid":"m4","parentUuid":"m3","sessionId":"` + sid + `","timestamp":"2026-01-01T10:02:00Z","requestId":"r2","message":{"id":"msg2","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Task","input":{"description":"again","prompt":"continue","resume":"f1a7"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"user","uuid":"m5","parentUuid":"m4","sessionId":"` + sid + `","timestamp":"2026-01-01T10:03:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":"agent crashed"}]}}`,
		},
		// 2.0.x flat layout: beside the session, linked by sessionId.
		"agent-f1a7.jsonl": {
			`{"type":"user","uuid":"f1","parentUuid":null,"isSidechain":true,"agentId":"f1a7","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"start"}}`,
		},
		"agent-w4rm.jsonl": {
			`{"type":"user","uuid":"w1","parentUuid":null,"isSidechain":true,"agentId":"w4rm","sessionId":"` + sid + `","timestamp":"2026-01-01T09:59:59Z","message":{"role":"user","content":"Warmup"}}`,
			`{"type":"assistant","uuid":"w2","parentUuid":"w1","isSidechain":true,"agentId":"w4rm","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:00Z","requestId":"rw","message":{"id":"msgw","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"text","text":"ready"}],"usage":{"input_tokens":3,"output_tokens":1}}}`,
		},
	})
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
	w := byID(t, res, "w4rm")
	if w.Kind != KindWarmup || w.Type != KindWarmup || w.Status != StatusCompleted || w.Total.APICalls != 1 {
		t.Errorf("warmup = kind %q type %q status %q calls %d", w.Kind, w.Type, w.Status, w.Total.APICalls)
	}
	a := byID(t, res, "f1a7")
	if len(a.Calls) != 2 || a.Calls[1].Input.Resume != "f1a7" {
		t.Fatalf("calls = %d, want the spawn and the resume", len(a.Calls))
	}
	if a.Status != StatusFailed || a.Description != "first" || a.Type != "Plan" {
		t.Errorf("status %q (the resume failed), description %q, type %q", a.Status, a.Description, a.Type)
	}
	if len(res.Agents) != 2 {
		t.Errorf("agents %v: a resume is not a new agent", ids(res))
	}
}

func TestInlineSidechains(t *testing.T) {
	side := func(uuid, parent, typ, content string) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + parent + `,"isSidechain":true,"sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:05Z","message":{"role":"` + typ + `","content":` + content + `}}`
	}
	res := setup(t, map[string][]string{
		sid + ".jsonl": {
			mainPrompt,
			`{"type":"assistant","uuid":"m2","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-sonnet-4","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"description":"look","prompt":"Look around."}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			side("aaaaaaaa-1", "null", "user", `"Look around."`),
			`{"type":"assistant","uuid":"aaaaaaaa-2","parentUuid":"aaaaaaaa-1","isSidechain":true,"sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:06Z","requestId":"rs","message":{"id":"msgs","model":"claude-sonnet-4","role":"assistant","content":[{"type":"text","text":"seen"}],"usage":{"input_tokens":2,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`,
			// A chain whose prompt no Task sent.
			side("bbbbbbbb-1", "null", "user", `"Something else."`),
			`{"type":"user","uuid":"m3","parentUuid":"m2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"seen"}]}]},"toolUseResult":{"totalTokens":5,"totalDurationMs":8000,"usage":{"input_tokens":2,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}`,
		},
	})
	a := byID(t, res, "sidechain-aaaaaaaa")
	if a.Link != "prompt" || a.Status != StatusCompleted || a.Description != "look" || a.TokenCheck != CheckOK || a.Total.Tokens != 5 {
		t.Errorf("linked chain = link %q status %q desc %q check %q tokens %d", a.Link, a.Status, a.Description, a.TokenCheck, a.Total.Tokens)
	}
	o := byID(t, res, "sidechain-bbbbbbbb")
	if o.Status != StatusOrphan || !warned(res, "inline sidechain sidechain-bbbbbbbb has no Task call") {
		t.Errorf("unlinked chain status %q, warnings %v", o.Status, res.Warnings)
	}
}

func TestTeamsAndMessages(t *testing.T) {
	res := setup(t, map[string][]string{
		sid + ".jsonl": {
			mainPrompt,
			`{"type":"assistant","uuid":"m2","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_T","name":"Agent","input":{"description":"review","prompt":"review it","name":"rev","team_name":"core"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"user","uuid":"m3","parentUuid":"m2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_T","content":"spawned"}]},"toolUseResult":{"status":"teammate_spawned","agent_id":"rev@core","name":"rev","team_name":"core"}}`,
			`{"type":"assistant","uuid":"m4","parentUuid":"m3","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:03Z","requestId":"r2","message":{"id":"msg2","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_S","name":"SendMessage","input":{"to":"rev","message":"hurry"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		},
		sid + "/subagents/agent-t33m.jsonl": {
			`{"type":"user","uuid":"t1","parentUuid":null,"isSidechain":true,"agentId":"t33m","teamName":"core","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"review it"}}`,
		},
		sid + "/subagents/agent-t33m.meta.json": {`{"agentType":"reviewer","toolUseId":"toolu_T","name":"rev","teamName":"core"}`},
	})
	a := byID(t, res, "t33m")
	if a.Status != StatusTeammate || a.Name != "rev" || a.TeamName != "core" || a.MessagesIn != 1 || a.Link != "meta" {
		t.Errorf("teammate = status %q name %q team %q messages in %d link %q", a.Status, a.Name, a.TeamName, a.MessagesIn, a.Link)
	}
	if !warned(res, `toolUseResult.agentId "rev@core" disagrees`) {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// A call whose result names the agent that made it must not loop.
func TestParentCycleIsCut(t *testing.T) {
	res := setup(t, map[string][]string{
		sid + ".jsonl": {mainPrompt},
		sid + "/subagents/agent-cy1.jsonl": {
			`{"type":"assistant","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"cy1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_c1","name":"Agent","input":{"prompt":"p"}}]}}`,
			`{"type":"user","uuid":"x2","parentUuid":"x1","isSidechain":true,"agentId":"cy1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_c1","content":"x"}]},"toolUseResult":{"status":"completed","agentId":"cy2"}}`,
		},
		sid + "/subagents/agent-cy2.jsonl": {
			`{"type":"assistant","uuid":"y1","parentUuid":null,"isSidechain":true,"agentId":"cy2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_c2","name":"Agent","input":{"prompt":"p"}}]}}`,
			`{"type":"user","uuid":"y2","parentUuid":"y1","isSidechain":true,"agentId":"cy2","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_c2","content":"x"}]},"toolUseResult":{"status":"completed","agentId":"cy1"}}`,
		},
	})
	if len(res.Agents) != 2 {
		t.Fatalf("agents %v, want each once", ids(res))
	}
	if !warned(res, "parent chain is a cycle") {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// Tokens per agent equal `cctx tokens --by agent` (tokens.Build grouped by
// agent) on every session of the sample projects and the real corpus.
func TestTokensMatchTokensByAgent(t *testing.T) {
	dirs := append([]string{"../../testdata/projects"}, testcorpus.Folders()...)
	checked := 0
	for _, dir := range dirs {
		f := session.NewFinder([]session.Root{{ProjectsDir: dir}}, nil)
		for _, s := range f.Sessions() {
			files := f.Agents(s)
			prices := tokens.DefaultPrices()
			res, _ := find(t, s, files, prices)
			rep := tokens.Build([]tokens.Input{{Session: s, Agents: files}}, prices, tokens.Window{}, tokens.ReadOptions{Strict: true})
			want := map[string]tokens.Total{}
			for _, g := range rep.GroupBy(tokens.ByAgent) {
				want[g.Key] = g.Total
			}
			got := map[string]tokens.Total{"": res.Main}
			for _, a := range res.Agents {
				if a.Total.APICalls > 0 {
					got[a.ID] = a.Total
				}
			}
			if res.Main.APICalls == 0 {
				delete(got, "")
			}
			if len(got) != len(want) {
				t.Errorf("%s: agents with usage %d, tokens --by agent has %d", s.Path, len(got), len(want))
			}
			for k, w := range want {
				g := got[k]
				if g.Tokens != w.Tokens || g.APICalls != w.APICalls || g.Output != w.Output || g.CostKnown() != w.CostKnown() || roundUSD(g.Cost) != roundUSD(w.Cost) {
					t.Errorf("%s agent %q: %d tokens in %d calls, tokens --by agent says %d in %d", s.Path, k, g.Tokens, g.APICalls, w.Tokens, w.APICalls)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d groups compared", checked)
	}
}

func roundUSD(v float64) int64 { return int64(v*1e6 + 0.5) }

// Standard input is named as the reader names it, in every message.
func TestWarningOnStdinIsNamedStdin(t *testing.T) {
	w := Warning{File: session.StdinPath, Line: 7, Msg: "m"}
	if got := w.String(); got != "<stdin>:7: m" {
		t.Errorf("%q", got)
	}
}

// A transcript that cannot be read is a file error (the command fails on
// it), not an empty transcript whose tokens do not match.
func TestAnUnreadableTranscriptIsNotAMismatch(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "-proj")
	os.MkdirAll(proj, 0o755)
	main := filepath.Join(proj, sid+".jsonl")
	call := `{"type":"assistant","uuid":"c1","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg-1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"description":"x","prompt":"p"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`
	result := `{"type":"user","uuid":"r1","parentUuid":"c1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]},"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":15}}`
	os.WriteFile(main, []byte(mainPrompt+"\n"+call+"\n"+result+"\n"), 0o644)
	gone := filepath.Join(proj, sid, "subagents", "agent-ag1.jsonl") // listed, then gone
	res, said := find(t, &session.Session{ID: sid, Path: main, ProjectDir: proj}, []session.Agent{{ID: "ag1", Path: gone}}, nil)
	if strings.Count(said, "warning: ") != 1 || !strings.Contains(said, gone+": no such file") {
		t.Errorf("file errors %q", said)
	}
	a := byID(t, res, "ag1")
	if a.TokenCheck == CheckMismatch || warned(res, "holds no API call") {
		t.Errorf("an unreadable transcript is reported as an empty one: %v", res.Warnings)
	}
	if len(a.Problems) != 1 || !strings.Contains(a.Problems[0], "transcript could not be read") {
		t.Errorf("problems %v: its row does not say it is incomplete", a.Problems)
	}
}

// A failed call keeps its whole error: the first line of a validation
// error only announces it, the reason follows.
func TestCallErrorText(t *testing.T) {
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	long := strings.Repeat("é", 5000)
	cases := []struct {
		name    string
		content string // the tool_result's content, as JSON
		isError bool
		want    string
		status  string
	}{
		{
			name:    "the reason on the next line is kept, the tags are dropped",
			content: quote("<tool_use_error>InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing</tool_use_error>"),
			isError: true,
			want:    "InputValidationError: Task failed due to the following issue:\nThe required parameter `prompt` is missing",
			status:  StatusFailed,
		},
		{
			name:    "text blocks are joined line by line",
			content: `[{"type":"text","text":"Agent failed:"},{"type":"text","text":"rate limited"}]`,
			isError: true,
			want:    "Agent failed:\nrate limited",
			status:  StatusFailed,
		},
		{
			name:    "a long error is cut to 2,000 characters, not bytes",
			content: quote(long),
			isError: true,
			want:    strings.Repeat("é", MaxErrorRunes-1) + "…",
			status:  StatusFailed,
		},
		{
			name:    "an interruption is told by the first line",
			content: `[{"type":"text","text":"[Request interrupted by user for tool use]"}]`,
			isError: true,
			want:    "[Request interrupted by user for tool use]",
			status:  StatusInterrupted,
		},
		{
			name:    "a detail that mentions an interruption does not make the call interrupted",
			content: quote("<tool_use_error>Agent failed: out of credits\nthe previous run was interrupted</tool_use_error>"),
			isError: true,
			want:    "Agent failed: out of credits\nthe previous run was interrupted",
			status:  StatusFailed,
		},
		{
			name:    "a call that did not fail has no error",
			content: quote("<tool_use_error>looks like one, but is_error is false</tool_use_error>"),
			want:    "",
			status:  StatusMissing, // completed, and no transcript: beside the point here
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := setup(t, map[string][]string{sid + ".jsonl": {
				mainPrompt,
				`{"type":"assistant","uuid":"c1","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"description":"x","prompt":"p"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
				`{"type":"user","uuid":"r1","parentUuid":"c1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":` + strconv.FormatBool(tc.isError) + `,"content":` + tc.content + `}]}}`,
			}})
			if len(res.Agents) != 1 || len(res.Agents[0].Calls) != 1 {
				t.Fatalf("agents %v", ids(res))
			}
			a := res.Agents[0]
			if got := a.Calls[0].ErrorText; got != tc.want {
				t.Errorf("error text (%d runes)\n%.300q\nwant (%d runes)\n%.300q", utf8.RuneCountInString(got), got, utf8.RuneCountInString(tc.want), tc.want)
			}
			if a.Status != tc.status {
				t.Errorf("status %q, want %q", a.Status, tc.status)
			}
		})
	}
}

// A background agent's <task-notification> is read alike whether Claude
// Code delivered it on a user line or, queued while the model worked, on
// the attachment line of a queued input (2.1.2xx): its status, and the
// duration, tool calls and tokens its launch could not report.
func TestBackgroundAgentNotice(t *testing.T) {
	call := `{"type":"assistant","uuid":"c1","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Agent","input":{"description":"Design","prompt":"work","subagent_type":"Plan","run_in_background":true}}],"usage":{"input_tokens":1,"output_tokens":1}}}`
	launched := `{"type":"user","uuid":"r1","parentUuid":"c1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Async agent launched successfully."}]},"toolUseResult":{"isAsync":true,"status":"async_launched","agentId":"a572","description":"Design","prompt":"work"}}`
	notice := "<task-notification>\n<task-id>a572</task-id>\n<tool-use-id>t1</tool-use-id>\n<status>completed</status>\n<summary>Agent \"Design\" finished</summary>\n<result>done, see <usage> below</result>\n<usage><subagent_tokens>110581</subagent_tokens><tool_uses>28</tool_uses><duration_ms>515405</duration_ms></usage>\n</task-notification>"
	q, _ := json.Marshal(notice)
	onUser := `{"type":"user","uuid":"n1","parentUuid":"r1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:09:00Z","message":{"role":"user","content":` + string(q) + `}}`
	queued := `{"parentUuid":"r1","isSidechain":false,"attachment":{"type":"queued_command","prompt":` + string(q) + `,"commandMode":"task-notification","timestamp":"2026-01-01T10:09:00Z"},"type":"attachment","uuid":"n1","timestamp":"2026-01-01T10:09:00Z","sessionId":"` + sid + `"}`
	hook := `{"parentUuid":"r1","isSidechain":false,"attachment":{"type":"hook_additional_context","content":` + string(q) + `},"type":"attachment","uuid":"n1","timestamp":"2026-01-01T10:09:00Z","sessionId":"` + sid + `"}`
	transcript := []string{
		`{"type":"user","uuid":"g1","parentUuid":null,"isSidechain":true,"agentId":"a572","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:03Z","message":{"role":"user","content":"work"}}`,
		`{"type":"assistant","uuid":"g2","parentUuid":"g1","isSidechain":true,"agentId":"a572","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:30Z","requestId":"rg","message":{"id":"msg-g","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"tg","name":"Read","input":{"file_path":"/x"}}],"usage":{"input_tokens":1,"output_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}`,
	}
	cases := []struct {
		name        string
		notice      string // "": none
		transcript  bool
		status      string
		durationMs  int64
		toolUses    int
		reported    int64 // 0: none
		hasReported bool
	}{
		{"launched, no notice", "", true, StatusBackground, 27000, 1, 0, false},
		{"notice on a user line", onUser, true, StatusCompleted, 515405, 1, 110581, true},
		{"notice queued, on an attachment line", queued, true, StatusCompleted, 515405, 1, 110581, true},
		{"notice queued, transcript missing", queued, false, StatusMissing, 515405, 28, 110581, true},
		{"notice on a user line, transcript missing", onUser, false, StatusMissing, 515405, 28, 110581, true},
		{"the notice's text in a hook's attachment is no notice", hook, true, StatusBackground, 27000, 1, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lines := []string{mainPrompt, call, launched}
			if tc.notice != "" {
				lines = append(lines, tc.notice)
			}
			files := map[string][]string{sid + ".jsonl": lines}
			if tc.transcript {
				files[sid+"/subagents/agent-a572.jsonl"] = transcript
			}
			a := byID(t, setup(t, files), "a572")
			if a.Status != tc.status || a.DurationMs != tc.durationMs || a.ToolUses != tc.toolUses || a.ReportedTokens != tc.reported || a.HasReportedTokens != tc.hasReported {
				t.Errorf("status %s, %d ms, %d tool uses, reported %d (%v); want %s, %d ms, %d, %d (%v)",
					a.Status, a.DurationMs, a.ToolUses, a.ReportedTokens, a.HasReportedTokens,
					tc.status, tc.durationMs, tc.toolUses, tc.reported, tc.hasReported)
			}
			if a.TokenCheck != "" {
				t.Errorf("token check %q: a notice's tokens are not checked", a.TokenCheck)
			}
		})
	}
}

// Whether an agent's usage is known here: the one fact behind `–` on a
// terminal, an empty cell in a pipe and "usage_known" in JSON. It is not
// known when no transcript of it was read: missing, or in the session this
// one resumed (its usage counted there), whatever its status says.
func TestUsageUnknown(t *testing.T) {
	const other = "99999999-2222-3333-4444-555555555555"
	call := func(s, result string) []string {
		content := `"content":"done"`
		if !strings.HasPrefix(result, "{") {
			content = `"is_error":true,"content":` + result
		}
		return []string{
			`{"type":"user","uuid":"m1","parentUuid":null,"sessionId":"` + s + `","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"go"}}`,
			`{"type":"assistant","uuid":"m2","parentUuid":"m1","sessionId":"` + s + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_A","name":"Task","input":{"description":"d","prompt":"p"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"user","uuid":"m3","parentUuid":"m2","sessionId":"` + s + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_A",` + content + `}]},"toolUseResult":` + result + `}`,
		}
	}
	transcript := func(s string) []string {
		return []string{
			`{"type":"user","uuid":"a1","parentUuid":null,"isSidechain":true,"agentId":"ag1","sessionId":"` + s + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"p"}}`,
			`{"type":"assistant","uuid":"a2","parentUuid":"a1","isSidechain":true,"agentId":"ag1","sessionId":"` + s + `","timestamp":"2026-01-01T10:00:03Z","requestId":"r2","message":{"id":"msg2","model":"claude-opus-4-7","role":"assistant","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":2,"output_tokens":3}}}`,
		}
	}
	completed := `{"status":"completed","agentId":"ag1","totalTokens":5}`
	tests := []struct {
		name       string
		files      map[string][]string
		id, status string
		unknown    bool
		calls      int64
	}{
		{"its transcript is read", map[string][]string{
			sid + ".jsonl": call(sid, completed), sid + "/subagents/agent-ag1.jsonl": transcript(sid),
		}, "ag1", StatusCompleted, false, 1},
		{"its transcript is missing", map[string][]string{
			sid + ".jsonl": call(sid, completed),
		}, "ag1", StatusMissing, true, 0},
		// This session resumed the other: its call is replayed, the agent
		// ran there, and its usage is counted there.
		{"it ran in the session this one resumed", map[string][]string{
			sid + ".jsonl": call(sid, completed), other + ".jsonl": call(other, completed), other + "/subagents/agent-ag1.jsonl": transcript(other),
		}, "ag1", StatusCompleted, true, 0},
		{"flat 2.0.x layout, in the session this one resumed", map[string][]string{
			sid + ".jsonl": call(sid, completed), other + ".jsonl": call(other, completed), "agent-ag1.jsonl": transcript(other),
		}, "ag1", StatusCompleted, true, 0},
		// A transcript that cannot be read (UTF-16, written by PowerShell)
		// tells nothing of its usage.
		{"its transcript cannot be read", map[string][]string{
			sid + ".jsonl": call(sid, completed), sid + "/subagents/agent-ag1.jsonl": {"\xff\xfe{\x00\"\x00t\x00"},
		}, "ag1", StatusCompleted, true, 0},
		// A call that failed before an agent was spawned ran nothing: 0.
		{"a call that spawned no agent", map[string][]string{
			sid + ".jsonl": call(sid, `"Error: no such agent type"`),
		}, "", StatusFailed, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, lines := range tt.files {
				p := filepath.Join(root, "-proj", filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res := reportOf(t, root)
			if len(res.Agents) != 1 {
				t.Fatalf("agents %v, want one", ids(res))
			}
			a := res.Agents[0]
			if a.ID != tt.id || a.Status != tt.status || a.UsageUnknown() != tt.unknown || a.Total.APICalls != tt.calls {
				t.Errorf("agent %q status %q unknown %v calls %d, want %q %q %v %d", a.ID, a.Status, a.UsageUnknown(), a.Total.APICalls, tt.id, tt.status, tt.unknown, tt.calls)
			}
		})
	}
}

// An agent no call spawned is an orphan, warned one by one; when Claude
// Code deleted the main transcript, where their calls were, that one
// warning (said when the tree was opened, repeated in the JSON's
// warnings) covers them, and -v counts them once.
func TestDeletedMainImpliesUnspawnedAgents(t *testing.T) {
	agentFile := func(id string) string {
		return `{"type":"user","uuid":"` + id + `-1","parentUuid":null,"isSidechain":true,"agentId":"` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"work"}}` + "\n" +
			`{"type":"assistant","uuid":"` + id + `-2","parentUuid":"` + id + `-1","isSidechain":true,"agentId":"` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:03Z","requestId":"r-` + id + `","message":{"id":"msg-` + id + `","model":"claude-opus-4-7","role":"assistant","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n"
	}
	tests := []struct {
		name       string
		withMain   bool
		warnings   int    // Result.Warnings
		fileErrors string // Result.FileErrors, joined
		note       string
	}{
		{"main deleted", false, 0, "its main transcript was deleted", "2 agent(s) no call spawned: their calls were in the deleted main transcript"},
		{"main present", true, 2, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			sub := filepath.Join(root, "-proj", sid, "subagents")
			os.MkdirAll(sub, 0o755)
			for _, id := range []string{"ag1", "ag2"} {
				os.WriteFile(filepath.Join(sub, "agent-"+id+".jsonl"), []byte(agentFile(id)), 0o644)
			}
			if tt.withMain {
				os.WriteFile(filepath.Join(root, "-proj", sid+".jsonl"), []byte(mainPrompt+"\n"), 0o644)
			}
			res := reportOf(t, root)
			var fileErrs, notes []string
			for _, w := range res.FileErrors {
				fileErrs = append(fileErrs, w.String())
			}
			for _, n := range res.Notes {
				notes = append(notes, n.String())
			}
			if len(res.Warnings) != tt.warnings || tt.warnings > 0 && !warned(res, "no Agent/Task call spawned agent ag1") {
				t.Errorf("warnings %v, want %d", res.Warnings, tt.warnings)
			}
			if got := strings.Join(fileErrs, "\n"); tt.fileErrors == "" && got != "" || !strings.Contains(got, tt.fileErrors) {
				t.Errorf("file errors %q, want %q", got, tt.fileErrors)
			}
			if got := strings.Join(notes, "\n"); tt.note == "" && got != "" || !strings.Contains(got, tt.note) {
				t.Errorf("notes %q, want %q", got, tt.note)
			}
			for _, a := range res.Agents {
				if a.Status != StatusOrphan {
					t.Errorf("agent %s: status %q, want orphan either way", a.ID, a.Status)
				}
			}
		})
	}
}

// An agent no call spawned is described by its transcript's first prompt,
// read by the tree's rule (tree.Agent.FirstPrompt): its first user line
// that is not a tool result.
func TestPromptOfAnAgentWithoutACall(t *testing.T) {
	line := func(id, parent, content string) string {
		p := `null`
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"user","uuid":"` + id + `","parentUuid":` + p + `,"isSidechain":true,"agentId":"lone","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":` + content + `}}`
	}
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"its first line", []string{line("x1", "", `"look around"`)}, "look around"},
		{"past a tool result", []string{line("x1", "", `[{"type":"tool_result","tool_use_id":"t9","content":"old output"}]`), line("x2", "x1", `[{"type":"text","text":"  look around\n"}]`)}, "look around"},
		{"none", []string{line("x1", "", `[{"type":"tool_result","tool_use_id":"t9","content":"old output"}]`)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := setup(t, map[string][]string{sid + ".jsonl": {mainPrompt}, sid + "/subagents/agent-lone.jsonl": tc.lines})
			if a := byID(t, res, "lone"); a.Prompt != tc.want || a.Status != StatusOrphan {
				t.Errorf("prompt %q status %q, want %q", a.Prompt, a.Status, tc.want)
			}
		})
	}
}

// reportOf is the agents report of session sid in the projects dir root.
func reportOf(t *testing.T, root string) *Result {
	t.Helper()
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	s, err := f.Resolve(sid)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.OpenQuiet(f, s, nil, diag.New(&bytes.Buffer{}, true, false))
	if err != nil {
		t.Fatal(err)
	}
	return Report(tr, nil, nil)
}
