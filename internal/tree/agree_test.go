package tree_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// line writes a transcript line with its keys in Claude Code 1.0.x order,
// or in the reverse order: a reader must not depend on it.
func line(reversed bool, kv ...string) string {
	var ms []string
	for i := 0; i < len(kv); i += 2 {
		ms = append(ms, fmt.Sprintf("%q:%s", kv[i], kv[i+1]))
	}
	if reversed {
		slices.Reverse(ms)
	}
	return "{" + strings.Join(ms, ",") + "}"
}

const sid = "d15a9ee0-0000-4000-8000-000000000001"

// sessionWithSidechain is a 1.0.x session: a prompt, a Task call sending
// callPrompt, its inline sidechain (whose first prompt is sidePrompt: a
// prompt and a reply with usage), and the Task's result.
func sessionWithSidechain(reversed bool, callPrompt, sidePrompt string) []string {
	env := func(uuid, parent string, side bool, typ, ts, msg string, extra ...string) string {
		p := "null"
		if parent != "" {
			p = fmt.Sprintf("%q", parent)
		}
		kv := []string{"parentUuid", p, "isSidechain", fmt.Sprint(side), "userType", `"external"`, "cwd", `"/w"`,
			"sessionId", `"` + sid + `"`, "version", `"1.0.98"`, "type", `"` + typ + `"`, "message", msg}
		kv = append(kv, extra...)
		kv = append(kv, "uuid", fmt.Sprintf("%q", uuid), "timestamp", `"2025-08-01T10:00:0`+ts+`Z"`)
		return line(reversed, kv...)
	}
	usage := `"usage":{"input_tokens":3,"output_tokens":7,"cache_read_input_tokens":100}`
	return []string{
		env("a1000000-0000", "", false, "user", "0", `{"role":"user","content":"look at the package"}`),
		env("a2000000-0000", "a1000000-0000", false, "assistant", "1",
			`{"id":"msg_main","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"tool_use","id":"toolu_T","name":"Task","input":{"description":"Inspect","prompt":`+fmt.Sprintf("%q", callPrompt)+`}}],`+usage+`}`,
			"requestId", `"req_1"`),
		env("b1000000-0000", "", true, "user", "2", `{"role":"user","content":`+fmt.Sprintf("%q", sidePrompt)+`}`),
		env("b2000000-0000", "b1000000-0000", true, "assistant", "3",
			`{"id":"msg_side","role":"assistant","model":"claude-sonnet-4-20250514","content":[{"type":"text","text":"done"}],`+usage+`}`,
			"requestId", `"req_2"`),
		env("a3000000-0000", "a2000000-0000", false, "user", "4", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_T","content":"the report"}]}`),
	}
}

// One linker, one name: for a Task call and an inline sidechain, the tree,
// show --agents, the agents report and the token counter (with and without
// --strict) agree on whether they are linked and on the agent's name,
// whatever order the lines' keys are in. A sidechain is linked only on
// evidence (the call's exact prompt), never by time.
func TestOneLinkAndOneNameInEveryCommand(t *testing.T) {
	const side = "sidechain-b1000000"
	for _, tc := range []struct {
		name       string
		sidePrompt string
		linked     bool
	}{
		{"the exact prompt links them", "Find the bug in the parser", true},
		{"a prompt that is not the call's does not", "Find the bug in the parser, please", false},
	} {
		for _, reversed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/reversed=%v", tc.name, reversed), func(t *testing.T) {
				dir := t.TempDir()
				proj := filepath.Join(dir, "-w")
				os.MkdirAll(proj, 0o755)
				path := filepath.Join(proj, sid+".jsonl")
				lines := sessionWithSidechain(reversed, "Find the bug in the parser", tc.sidePrompt)
				os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
				finder := session.NewFinder([]session.Root{{ProjectsDir: dir}}, nil)
				s, err := finder.Resolve(sid)
				if err != nil {
					t.Fatal(err)
				}
				tr, err := tree.Open(finder, s, nil, nil)
				if err != nil {
					t.Fatal(err)
				}

				// The tree.
				a := tr.AgentByID(side)
				if a == nil {
					t.Fatalf("tree: no agent %s among %d", side, len(tr.Agents))
				}
				if got := a.Spawn != nil && a.ToolUseID == "toolu_T"; got != tc.linked {
					t.Errorf("tree: linked = %v (by %q), want %v", got, a.LinkedBy, tc.linked)
				}

				// show --agents: the sidechain's lines under the call, or not at all.
				doc, err := show.New(tr, tr.Source(), nil, show.Options{Agents: true}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				var under []string
				for _, it := range doc.Items {
					if it.Depth == 1 && !it.Loose { // an agent no call spawned is shown after the conversation
						under = append(under, it.Node.Agent().ID+" "+it.For)
					}
				}
				if got := len(under) > 0; got != tc.linked {
					t.Errorf("show --agents: lines under the call %v, want linked %v", under, tc.linked)
				}
				for _, u := range under {
					if u != side+" toolu_T" {
						t.Errorf("show --agents: %q under the call, want %s", u, side)
					}
				}

				// cctx agents.
				res := agents.Report(tr, nil, nil)
				var ag *agents.Agent
				for _, x := range res.Agents {
					if x.ID == side {
						ag = x
					}
				}
				if ag == nil {
					t.Fatalf("agents: no agent %s", side)
				}
				wantStatus, wantAgents := agents.StatusOrphan, 2 // the sidechain, and the call without it
				if tc.linked {
					wantStatus, wantAgents = agents.StatusCompleted, 1
				}
				if ag.Status != wantStatus || len(res.Agents) != wantAgents {
					t.Errorf("agents: %s is %s among %d agents, want %s among %d", side, ag.Status, len(res.Agents), wantStatus, wantAgents)
				}

				// cctx tokens --by agent, lean and --strict.
				for _, strict := range []bool{false, true} {
					rep := tokens.Build([]tokens.Input{{Session: s}}, nil, tokens.Window{}, tokens.ReadOptions{Strict: strict})
					var keys []string
					for _, g := range rep.GroupBy(tokens.ByAgent) {
						keys = append(keys, g.Key)
					}
					if !slices.Contains(keys, side) {
						t.Errorf("tokens --by agent (strict %v): keys %q, want %s", strict, keys, side)
					}
				}
			})
		}
	}
}
