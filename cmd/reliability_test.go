package cmd

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// themeColour matches the SGR sequences render.Theme writes.
var themeColour = regexp.MustCompile("\x1b\\[[0-9;]*m")

// runStdin is run with standard input.
func runStdin(t *testing.T, stdin string, tty bool, args ...string) result {
	t.Helper()
	io, in, out, errOut := TestIO()
	in.WriteString(stdin)
	io.SetStdoutTTY(tty)
	io.SetWidth(120)
	e := session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	code := Run(args, io, e, now)
	return result{code, out.String(), errOut.String()}
}

// writeTree writes files (path relative to a new root → content).
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func jsonl(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

const relSID = "5a5a5a5a-0000-4000-8000-000000000001"

// taskCall is an assistant line with an Agent tool call; taskResult its
// result, reporting agentID ("" = none).
func taskCall(uuid, parent, tool, extraInput string, sec int) string {
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%q,"sessionId":%q,"timestamp":"2026-01-01T10:00:%02dZ","requestId":"req_%s","message":{"id":"msg_%s","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":%q,"name":"Task","input":{"description":"job %s","subagent_type":"general-purpose","prompt":"do %s"%s}}],"usage":{"input_tokens":10,"output_tokens":5}}}`,
		uuid, parent, relSID, sec, uuid, uuid, tool, tool, tool, extraInput)
}

func taskResult(uuid, parent, tool, agentIDJSON string, sec int) string {
	agent := ""
	if agentIDJSON != "" {
		agent = `,"agentId":` + agentIDJSON
	}
	return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%q,"sessionId":%q,"timestamp":"2026-01-01T10:00:%02dZ","toolUseResult":{"status":"completed","totalTokens":15%s},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"done"}]}}`,
		uuid, parent, relSID, sec, agent, tool)
}

// agentIds from file content that would leave the session folder if cctx
// built a path from them. Sentinel transcripts sit exactly where a naive
// join of "subagents/agent-" + id + ".jsonl" would land, each with a
// distinctive token count: if any is ever read, the totals show it.
func TestUnsafeAgentIDsAreNeverLookedUp(t *testing.T) {
	const sentinelTokens = 777_777
	sentinel := jsonl(fmt.Sprintf(`{"type":"assistant","uuid":"evil","parentUuid":null,"sessionId":%q,"timestamp":"2026-01-01T10:00:00Z","requestId":"req_evil","message":{"id":"msg_evil","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"usage":{"input_tokens":%d,"output_tokens":0}}}`, relSID, sentinelTokens))
	sub := "-w/" + relSID + "/subagents/"
	main := jsonl(
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+relSID+`","timestamp":"2026-01-01T10:00:00Z","cwd":"/w","message":{"role":"user","content":"start"}}`,
		taskCall("a1", "u1", "t1", "", 1), taskResult("r1", "a1", "t1", `"../escape"`, 2),
		taskCall("a2", "r1", "t2", "", 3), taskResult("r2", "a2", "t2", `"/etc/passwd"`, 4),
		taskCall("a3", "r2", "t3", "", 5), taskResult("r3", "a3", "t3", `"..\\win"`, 6),
		taskCall("a4", "r3", "t4", "", 7), taskResult("r4", "a4", "t4", `"nul\u0000id"`, 8),
		taskCall("a5", "r4", "t5", "", 9), taskResult("r5", "a5", "t5", `"sub/dir"`, 10),
		taskCall("a6", "r5", "t6", "", 11), taskResult("r6", "a6", "t6", `"good"`, 12),
		taskCall("a7", "r6", "t7", `,"resume":"../good"`, 13), taskResult("r7", "a7", "t7", "", 14),
		taskCall("a8", "r7", "t8", "", 15), taskResult("r8", "a8", "t8", `".."`, 16),
	)
	good := jsonl(
		// The agent's own lines claim other agentIds, with a NUL: labels only.
		`{"type":"user","uuid":"g1","parentUuid":null,"isSidechain":true,"agentId":"../../evil","sessionId":"`+relSID+`","timestamp":"2026-01-01T10:00:11Z","message":{"role":"user","content":"do t6 \u0000 now"}}`,
		`{"type":"assistant","uuid":"g2","parentUuid":"g1","isSidechain":true,"agentId":"/abs\u0000","sessionId":"`+relSID+`","timestamp":"2026-01-01T10:00:12Z","requestId":"req_g","message":{"id":"msg_g","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"output_tokens":4}}}`,
	)
	root := writeTree(t, map[string]string{
		"-w/" + relSID + ".jsonl":            main,
		sub + "agent-good.jsonl":             good,
		sub + "agent-good.meta.json":         `{"toolUseId":"t6","agentType":"type\u0000x","description":"desc\u0000"}`,
		sub + "agent-rawnul.jsonl":           good,
		sub + "agent-rawnul.meta.json":       "{\"toolUseId\":\"t\x00\",\x00}",
		sub + "agent-../escape.jsonl":        sentinel, // subagents/agent-../escape.jsonl
		sub + "agent-/etc/passwd.jsonl":      sentinel,
		sub + "agent-sub/dir.jsonl":          sentinel,
		"-w/" + relSID + "/escape.jsonl":     sentinel,
		"-w/" + relSID + "/agent-good.jsonl": sentinel, // where "../good" from subagents/ would land
	})

	r := run(t, false, nil, "agents", "--json", "--dir", root, relSID)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc struct {
		Agents []struct {
			AgentID  string   `json:"agent_id"`
			Status   string   `json:"status"`
			Path     string   `json:"path"`
			Link     string   `json:"link"`
			Problems []string `json:"problems"`
			Total    struct {
				Tokens int64 `json:"total_tokens"`
			} `json:"total"`
		} `json:"agents"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for i, a := range doc.Agents {
		byID[a.AgentID] = i
		if a.Path != "" && filepath.Base(a.Path) != "agent-good.jsonl" && filepath.Base(a.Path) != "agent-rawnul.jsonl" {
			t.Errorf("agent %q linked to %s", a.AgentID, a.Path)
		}
		if a.Total.Tokens >= sentinelTokens {
			t.Errorf("agent %q counted a sentinel file: %d tokens", a.AgentID, a.Total.Tokens)
		}
	}
	for _, id := range []string{"../escape", "/etc/passwd", `..\win`, "nul\x00id", "sub/dir", ".."} {
		i, ok := byID[id]
		if !ok {
			t.Errorf("agent %q not listed; agents %v", id, byID)
			continue
		}
		a := doc.Agents[i]
		if a.Path != "" || !strings.Contains(strings.Join(a.Problems, " "), "cannot be a file name") {
			t.Errorf("agent %q: path %q problems %q", id, a.Path, a.Problems)
		}
	}
	if i, ok := byID["good"]; !ok || doc.Agents[i].Link != "meta" || doc.Agents[i].Status != "completed" {
		t.Errorf("the safe agent is not linked: %+v", doc.Agents)
	}
	if strings.Contains(r.errOut, "\x00") {
		t.Errorf("a raw NUL reached stderr: %q", r.errOut)
	}

	// Tokens and tree read the same files: the sentinels never count.
	tk := run(t, false, nil, "tokens", "--json", "--by", "agent", "--dir", root, relSID)
	if tk.code != 0 {
		t.Fatalf("tokens: exit %d %s", tk.code, tk.errOut)
	}
	var tdoc struct {
		Total struct {
			Tokens int64 `json:"total_tokens"`
			Calls  int64 `json:"api_calls"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(tk.out), &tdoc); err != nil {
		t.Fatal(err)
	}
	// 8 main calls of 15, and the good agent's call of 7 (its copy in
	// agent-rawnul.jsonl is the same response: counted once).
	if tdoc.Total.Tokens != 8*15+7 || tdoc.Total.Calls != 9 {
		t.Errorf("tokens %d in %d calls, want %d in 9", tdoc.Total.Tokens, tdoc.Total.Calls, 8*15+7)
	}
	tr := run(t, false, nil, "tree", "--json", "--dir", root, relSID)
	if tr.code != 0 || strings.Contains(tr.out, `"evil"`) {
		t.Errorf("tree: exit %d, sentinel read: %v; %s", tr.code, strings.Contains(tr.out, `"evil"`), tr.errOut)
	}
	// The text views print the ids escaped.
	for _, args := range [][]string{{"agents", "-v"}, {"tree"}, {"tokens", "--by", "agent"}} {
		for _, tty := range []bool{false, true} {
			v := run(t, tty, nil, append(args, "--dir", root, relSID)...)
			// The theme's colours are the only escapes allowed.
			if out := themeColour.ReplaceAllString(v.out, ""); v.code != 0 || strings.ContainsAny(out, "\x00\x1b") {
				t.Errorf("%v tty=%v: exit %d, raw control in %q", args, tty, v.code, out)
			}
			if !strings.Contains(v.out, `nul\x00id`) && args[0] == "agents" {
				t.Errorf("%v tty=%v: the NUL id is not shown escaped", args, tty)
			}
		}
	}
}

// A million entries: tree and tokens finish, with exact counts. The chain
// is linear (parent = previous line), so any recursion or quadratic walk
// shows up as a crash or a timeout. Under the race detector (make test),
// which slows everything tenfold and checks concurrency, not scale, the
// file has 100 000 entries.
func TestMillionEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("a million entries, under -short")
	}
	n := 1_000_000 // lines: a user prompt, then an assistant reply, alternating
	if raceEnabled() {
		n = 100_000
		t.Logf("race detector on: %d entries", n)
	}
	dir := filepath.Join(t.TempDir(), "-w")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, relSID+".jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"%07d"`, i-1)
		}
		ts := start.Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		if i%2 == 0 {
			fmt.Fprintf(w, `{"type":"user","uuid":"%07d","parentUuid":%s,"sessionId":"%s","timestamp":"%s","message":{"role":"user","content":"p"}}`+"\n", i, parent, relSID, ts)
		} else {
			fmt.Fprintf(w, `{"type":"assistant","uuid":"%07d","parentUuid":%s,"sessionId":"%s","timestamp":"%s","requestId":"r%d","message":{"id":"m%d","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":2,"output_tokens":1}}}`+"\n", i, parent, relSID, ts, i, i)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	root := filepath.Dir(dir)

	// No session argument: the per-session report, without the list of
	// every response (which would only measure JSON encoding).
	began := time.Now()
	r := run(t, false, nil, "tokens", "--json", "--dir", root)
	tookTokens := time.Since(began)
	if r.code != 0 {
		t.Fatalf("tokens: exit %d %s", r.code, r.errOut)
	}
	var doc struct {
		Total struct {
			Tokens int64 `json:"total_tokens"`
			Calls  int64 `json:"api_calls"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Total.Calls != int64(n/2) || doc.Total.Tokens != int64(3*n/2) {
		t.Errorf("tokens: %d calls, %d tokens; want %d, %d", doc.Total.Calls, doc.Total.Tokens, n/2, 3*n/2)
	}

	began = time.Now()
	r = run(t, false, nil, "tree", "--dir", root, relSID)
	tookTree := time.Since(began)
	if r.code != 0 {
		t.Fatalf("tree: exit %d %s", r.code, r.errOut)
	}
	if want := fmt.Sprintf("%d entries · 1 leaf · 0 forks", n); !strings.Contains(r.out, want) {
		t.Errorf("tree: want %q in\n%s", want, r.out[:min(len(r.out), 500)])
	}
	t.Logf("%d entries: tokens %v, tree %v", n, tookTokens, tookTree)
	// A hang guard, not a benchmark: generous for a loaded machine.
	if limit := 90 * time.Second; tookTokens+tookTree > limit {
		t.Errorf("tokens %v + tree %v > %v", tookTokens, tookTree, limit)
	}
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" && s.Value == "true" {
			return true
		}
	}
	return false
}

// Entries out of timestamp order (clock changes, merged files, resumed
// sessions): the tree follows parentUuid and file order, not time; tokens
// count every response once and --since/--until select by each response's
// own timestamp.
func TestEntriesOutOfTimestampOrder(t *testing.T) {
	user := func(uuid, parent, ts string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%s,"sessionId":%q,"timestamp":%q,"message":{"role":"user","content":"prompt %s"}}`, uuid, p, relSID, ts, uuid)
	}
	asst := func(uuid, parent, ts string, in int) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%q,"sessionId":%q,"timestamp":%q,"requestId":"r_%s","message":{"id":"m_%s","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":%d,"output_tokens":0}}}`, uuid, parent, relSID, ts, uuid, uuid, in)
	}
	root := writeTree(t, map[string]string{"-w/" + relSID + ".jsonl": jsonl(
		user("u1", "", "2026-03-05T10:00:00Z"),
		asst("a1", "u1", "2026-03-01T10:00:00Z", 1), // earlier than its prompt
		user("u2", "a1", "2026-03-09T10:00:00Z"),
		asst("a2", "u2", "2026-03-02T10:00:00Z", 10),
		user("u3", "a2", ""), // no timestamp at all
		asst("a3", "u3", "2026-03-03T10:00:00Z", 100),
	)})
	r := run(t, false, nil, "tree", "--json", "--dir", root, relSID)
	if r.code != 0 || !strings.Contains(r.out, `"active_leaf":"a3"`) {
		t.Errorf("tree: exit %d, want the last line in file order as leaf:\n%s%s", r.code, r.out, r.errOut)
	}
	tests := []struct {
		args   []string
		tokens int64
	}{
		{nil, 111},
		{[]string{"--since", "2026-03-02"}, 110},
		{[]string{"--until", "2026-03-01"}, 1},
		{[]string{"--since", "2026-03-02", "--until", "2026-03-02"}, 10},
		{[]string{"--since", "2026-03-04"}, 0},
	}
	for _, tt := range tests {
		r := run(t, false, nil, append([]string{"tokens", "--json", "--dir", root, relSID}, tt.args...)...)
		var doc struct {
			Total struct {
				Tokens int64 `json:"total_tokens"`
			} `json:"total"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil || r.code != 0 {
			t.Fatalf("%v: exit %d %v %s", tt.args, r.code, err, r.errOut)
		}
		if doc.Total.Tokens != tt.tokens {
			t.Errorf("tokens %v = %d, want %d", tt.args, doc.Total.Tokens, tt.tokens)
		}
	}
	// By day groups by each response's day, whatever the file order.
	r = run(t, false, nil, "tokens", "--by", "day", "--dir", root, relSID)
	if r.code != 0 {
		t.Fatal(r.errOut)
	}
	for _, day := range []string{"2026-03-01", "2026-03-02", "2026-03-03"} {
		if !strings.Contains(r.out, day) {
			t.Errorf("--by day lacks %s:\n%s", day, r.out)
		}
	}
}

// `-` with empty stdin: a valid, empty session for every command that
// reads one, in every output mode; those that show a session say it was
// empty (a pipe from a command that failed), as of an empty file named.
func TestEmptyStdin(t *testing.T) {
	for _, verb := range []string{"tree", "tokens", "agents", "show"} {
		for _, mode := range []struct {
			name string
			args []string
			tty  bool
		}{{"pipe", nil, false}, {"terminal", nil, true}, {"json", []string{"--json"}, false}, {"strict", []string{"--strict"}, false}} {
			t.Run(verb+"/"+mode.name, func(t *testing.T) {
				r := runStdin(t, "", mode.tty, append([]string{verb, "-"}, mode.args...)...)
				if r.code != 0 {
					t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
				}
				if strings.Contains(r.errOut, "warning") {
					t.Errorf("an empty input is not a problem: %q", r.errOut)
				}
				// tokens says it where it says why a report is empty: not
				// with --json.
				if said := strings.Contains(r.errOut, "cctx: standard input is empty (0 bytes)\n"); said != (verb != "tokens" || mode.name != "json") {
					t.Errorf("said empty: %v, stderr %q", said, r.errOut)
				}
				if mode.name == "json" {
					var v map[string]any
					if err := json.Unmarshal([]byte(r.out), &v); err != nil || v["schema_version"] != float64(1) {
						t.Errorf("JSON %v: %q", err, r.out)
					}
				}
			})
		}
	}
	// Blank lines only: the same.
	if r := runStdin(t, "\n\r\n  \n", false, "tokens", "--strict", "-"); r.code != 0 || strings.Contains(r.errOut, "is empty") {
		t.Errorf("blank stdin: exit %d %q", r.code, r.errOut)
	}
	if r := runStdin(t, "\n\r\n  \n", false, "show", "--strict", "-"); r.code != 0 || !strings.Contains(r.errOut, "standard input holds no conversation (6 bytes, no user or assistant line)") {
		t.Errorf("blank stdin: exit %d %q", r.code, r.errOut)
	}
	// A user line without a uuid is no entry of the tree, but it is a
	// conversation's line: not said to hold none (review s13).
	noUUID := `{"type":"user","sessionId":"6875bbee-5e91-4ed0-a998-0eea42529e13","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hello"}}` + "\n"
	if r := runStdin(t, noUUID, false, "show", "-"); strings.Contains(r.errOut, "standard input") {
		t.Errorf("a user line without a uuid: exit %d %q", r.code, r.errOut)
	}
}
