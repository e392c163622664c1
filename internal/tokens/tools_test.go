package tokens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

func toolUse(uuid, ts, mid string, uses ...[2]string) string {
	var blocks []string
	for _, u := range uses {
		blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":{}}`, u[0], u[1]))
	}
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":null,"timestamp":%q,"sessionId":"s","requestId":"r%s","message":{"id":%q,"model":"claude-sonnet-4-5-20250929","role":"assistant","content":[%s],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		uuid, ts, mid, mid, strings.Join(blocks, ","))
}

func toolResult(uuid, ts string, results ...string) string {
	return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":null,"timestamp":%q,"sessionId":"s","message":{"role":"user","content":[%s]}}`,
		uuid, ts, strings.Join(results, ","))
}

func toolReport(t *testing.T, w Window, files map[string][]string) *ToolReport {
	t.Helper()
	root := writeTree(t, files)
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() {
		ins = append(ins, Input{Session: s, Agents: f.Agents(s)})
	}
	return Tools(ins, w)
}

func TestToolsByTool(t *testing.T) {
	const ts = "2026-01-05T10:00:00Z"
	main := []string{
		toolUse("a1", ts, "m1", [2]string{"t1", "Bash"}, [2]string{"t2", "Read"}),
		// The same response written again (one line per content block):
		// its calls count once.
		toolUse("a1b", ts, "m1", [2]string{"t1", "Bash"}),
		toolResult("u1", ts,
			`{"type":"tool_result","tool_use_id":"t1","content":"a\nb"}`, // 3 bytes once decoded
			`{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":[{"type":"text","text":"12345"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]}`),
		toolUse("a2", ts, "m2", [2]string{"t3", "mcp__github__create_issue"}, [2]string{"t4", "mcp__github__list_prs"}, [2]string{"t5", "mcp__claude_ai_Gmail__search"}),
		toolResult("u2", ts,
			`{"type":"tool_result","tool_use_id":"t3","content":"12345678"}`,
			`{"type":"tool_result","tool_use_id":"t4","content":"1234"}`,
			`{"type":"tool_result","tool_use_id":"t5","content":""}`,
			`{"type":"tool_result","tool_use_id":"t-gone","content":"xy"}`), // its call is not in the files
		// Outside the window: neither the call nor its result counts.
		toolUse("a3", "2026-01-01T00:00:00Z", "m3", [2]string{"t6", "Bash"}),
		toolResult("u3", ts, `{"type":"tool_result","tool_use_id":"t6","content":"ignored"}`),
	}
	sub := []string{
		toolUse("s1", ts, "m9", [2]string{"t9", "Bash"}),
		toolResult("s2", ts, `{"type":"tool_result","tool_use_id":"t9","is_error":true,"content":"failed"}`),
	}
	const id = "11111111-0000-4000-8000-000000000000"
	// A resumed session replays the first one's lines: its calls are the
	// same calls, in its folder or another.
	resumed := append(append([]string{}, main...), toolUse("r1", ts, "m10", [2]string{"t10", "Read"}))
	w := Window{Since: time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)}
	rep := toolReport(t, w, map[string][]string{
		"-p/" + id + ".jsonl":                               main,
		"-p/" + id + "/subagents/agent-x.jsonl":             sub,
		"-p/22222222-0000-4000-8000-000000000000.jsonl":     resumed,
		"-other/33333333-0000-4000-8000-000000000000.jsonl": {toolUse("o1", ts, "m20", [2]string{"t20", "Grep"})},
		// The first session copied into another folder (a folder moved,
		// a backup): the same calls, counted once.
		"-moved/44444444-0000-4000-8000-000000000000.jsonl": main,
	})
	got := map[string]string{}
	var sum ToolGroup
	var estimates int64
	for _, g := range rep.Tools {
		got[g.Tool] = fmt.Sprintf("%d calls %d errors %d bytes %d images", g.Calls, g.Errors, g.ResultBytes, g.ResultImages)
		sum.merge(g)
		estimates += g.EstimatedTokens()
	}
	sum.estimated = rep.Total.estimated
	want := map[string]string{
		"Bash":                "2 calls 1 errors 9 bytes 0 images", // t1 (3) and the subagent's t9 (6)
		"Read":                "2 calls 1 errors 5 bytes 1 images", // t2 and the resumed session's own t10
		"mcp:github":          "2 calls 0 errors 12 bytes 0 images",
		"mcp:claude_ai_Gmail": "1 calls 0 errors 0 bytes 0 images",
		"(unknown)":           "0 calls 0 errors 2 bytes 0 images",
		"Grep":                "1 calls 0 errors 0 bytes 0 images",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("tools\n got %v\nwant %v", got, want)
	}
	if sum != rep.Total || rep.Total.Calls != 8 {
		t.Errorf("the tools sum to %+v, the total is %+v (want 8 calls)", sum, rep.Total)
	}
	// The total's estimate is the sum of the tools' (each rounded up): 9,
	// not 28 bytes / 4 rounded up once.
	if rep.Tools[0].Tool != "mcp:github" || rep.Total.EstimatedTokens() != estimates || estimates != 9 {
		t.Errorf("order or estimate: first %s, total %d tokens, the tools' %d (want 9)", rep.Tools[0].Tool, rep.Total.EstimatedTokens(), estimates)
	}
}

func TestToolName(t *testing.T) {
	for in, want := range map[string]string{
		"Bash": "Bash", "mcp__github__create_issue": "mcp:github", "mcp__plugin_x_y__do": "mcp:plugin_x_y", "mcp__solo": "mcp:solo", "": "(unknown)",
	} {
		if got := ToolName(in); got != want {
			t.Errorf("ToolName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A call whose first copy (in one folder) lacks its result, and whose
// later copy (a session resumed or copied into another folder) has it, is
// counted as one folder holding both copies counts it: once, with its
// result.
func TestToolsAcrossFoldersAsInOne(t *testing.T) {
	const ts = "2026-01-05T10:00:00Z"
	call := toolUse("a1", ts, "m1", [2]string{"t1", "Bash"})
	res := toolResult("u1", ts, `{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"12345"}`)
	first, later := "11111111-0000-4000-8000-000000000000.jsonl", "22222222-0000-4000-8000-000000000000.jsonl"
	for _, tc := range []struct {
		name  string
		files map[string][]string
	}{
		{"one folder", map[string][]string{"-p/" + first: {call}, "-p/" + later: {call, res}}},
		{"two folders", map[string][]string{"-p/" + first: {call}, "-q/" + later: {call, res}}},
		{"two folders, the result first", map[string][]string{"-p/" + first: {res}, "-q/" + later: {call, res}}},
	} {
		rep := toolReport(t, Window{}, tc.files)
		if len(rep.Tools) != 1 || rep.Total.Calls != 1 || rep.Total.Errors != 1 || rep.Total.ResultBytes != 5 {
			t.Errorf("%s: %+v, total %+v", tc.name, rep.Tools, rep.Total)
		}
	}
}
