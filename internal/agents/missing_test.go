package agents

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// One fact, one wording, one line: what cctx agents says of an agent whose
// transcript is missing is the warning cctx tree says of it, at the same
// line (the result's, which names the agent), and on standard input what
// tokens - says of it. Each case is a main file (line 1 the prompt, then
// calls and results), read from a folder or from standard input; the tree
// is opened as cctx tree opens it (loud) and as cctx agents does (quiet).
func TestMissingTranscriptIsSaidAsTheTreeSaysIt(t *testing.T) {
	call := func(id, input string) string {
		return `{"type":"assistant","uuid":"c-` + id + `","parentUuid":"m1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r-` + id + `","message":{"id":"msg-` + id + `","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"Agent","input":` + input + `}],"usage":{"input_tokens":1,"output_tokens":1}}}`
	}
	result := func(id, extra string) string {
		return `{"type":"user","uuid":"r-` + id + `","parentUuid":"c-` + id + `","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"done"}]}` + extra + `}`
	}
	const (
		in       = `{"description":"x","prompt":"p"}`
		names    = `,"toolUseResult":{"status":"completed","agentId":"zz9"}`
		notFound = "the Agent/Task result names agent zz9, but no transcript agent-zz9.jsonl was found"
		notRead  = "the Agent/Task result names agent zz9, whose transcript is not read from standard input (name the session, not -, to read it)"
	)
	cases := []struct {
		name   string
		lines  []string
		stdin  bool
		status string
		tree   []string // what cctx tree says (file:line: message, the file's name left out)
		agents []string // what cctx agents says of the agent (the same, or its own when the tree says nothing)
	}{
		{
			name:   "a completed call whose agent has no transcript: the tree's warning, at the result's line",
			lines:  []string{mainPrompt, call("t1", in), result("t1", names)},
			status: StatusMissing, tree: []string{":3: " + notFound}, agents: []string{":3: " + notFound},
		},
		{
			name:   "a background launch whose agent has no transcript",
			lines:  []string{mainPrompt, call("t1", `{"description":"x","prompt":"p","run_in_background":true}`), result("t1", `,"toolUseResult":{"status":"async_launched","agentId":"zz9"}`)},
			status: StatusMissing, tree: []string{":3: " + notFound}, agents: []string{":3: " + notFound},
		},
		{
			name: "resumed twice: said once, at the first result naming it",
			lines: []string{mainPrompt, call("t1", in), result("t1", names),
				call("t2", `{"description":"x","prompt":"more","resume":"zz9"}`), result("t2", names)},
			status: StatusMissing, tree: []string{":3: " + notFound}, agents: []string{":3: " + notFound},
		},
		{
			name:   "an agentId that cannot be a file name",
			lines:  []string{mainPrompt, call("t1", in), result("t1", `,"toolUseResult":{"status":"completed","agentId":"../x"}`)},
			status: StatusMissing,
			tree:   []string{`:3: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`},
			agents: []string{`:3: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`},
		},
		{
			// Each call naming an unsafe id is an agent of its own: the
			// second is said in the tree's words too, at its result.
			name: "an agentId that cannot be a file name, named twice",
			lines: []string{mainPrompt, call("t1", in), result("t1", `,"toolUseResult":{"status":"completed","agentId":"../x"}`),
				call("t2", in), result("t2", `,"toolUseResult":{"status":"completed","agentId":"../x"}`)},
			status: StatusMissing,
			tree:   []string{`:3: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`},
			agents: []string{`:3: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`,
				`:5: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`},
		},
		{
			// As tokens - says it (its status is the one tokens' JSON
			// gives it: missing_agent_transcripts); the tree draws the
			// conversation without a word.
			name:   "standard input brings no agent transcript",
			lines:  []string{mainPrompt, call("t1", in), result("t1", names)},
			stdin:  true,
			status: StatusMissing, agents: []string{":3: " + notRead},
		},
		{
			name:   "standard input, an agentId that cannot be a file name",
			lines:  []string{mainPrompt, call("t1", in), result("t1", `,"toolUseResult":{"status":"completed","agentId":"../x"}`)},
			stdin:  true,
			status: StatusMissing,
			agents: []string{`:3: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`},
		},
		{
			// The tree says nothing of a call its result does not name:
			// agents says it, at the result's line all the same.
			name:   "only input.resume names the agent",
			lines:  []string{mainPrompt, call("t1", `{"description":"x","prompt":"more","resume":"zz8"}`), result("t1", `,"toolUseResult":{"status":"completed"}`)},
			status: StatusMissing,
			agents: []string{":3: the Agent/Task call resumes agent zz8, but no transcript agent-zz8.jsonl was found"},
		},
		{
			name:   "only input.resume names the agent, with an id that cannot be a file name",
			lines:  []string{mainPrompt, call("t1", `{"description":"x","prompt":"more","resume":"../y"}`), result("t1", `,"toolUseResult":{"status":"completed"}`)},
			status: StatusMissing,
			agents: []string{`:3: the Agent/Task call resumes agentId "../y", which cannot be a file name: its transcript was not looked up`},
		},
		{
			name:   "the result names no agent",
			lines:  []string{mainPrompt, call("t1", in), result("t1", `,"toolUseResult":{"status":"completed"}`)},
			status: StatusMissing,
			agents: []string{":3: Agent call t1 (completed): no transcript file or inline sidechain matches it"},
		},
		{
			name: "a call that failed before any agent ran: nothing is missing",
			lines: []string{mainPrompt, call("t1", in),
				`{"type":"user","uuid":"r-t1","parentUuid":"c-t1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"<tool_use_error>InputValidationError: prompt is missing</tool_use_error>"}]},"toolUseResult":"InputValidationError"}`},
			status: StatusFailed,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			proj := filepath.Join(root, "-proj")
			os.MkdirAll(proj, 0o755)
			main := filepath.Join(proj, sid+".jsonl")
			body := strings.Join(tc.lines, "\n") + "\n"
			if err := os.WriteFile(main, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
			s, err := f.Resolve(sid)
			if err != nil {
				t.Fatal(err)
			}
			name := main
			if tc.stdin {
				s, name = &session.Session{ID: sid, Path: session.StdinPath}, "<stdin>"
			}
			open := func(o func(*session.Finder, *session.Session, io.Reader, *diag.Reporter) (*tree.Tree, error)) (*tree.Tree, []string) {
				var buf bytes.Buffer
				tr, err := o(f, s, strings.NewReader(body), diag.New(&buf, true, false))
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { tr.Close() })
				var said []string
				for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
					if l != "" {
						said = append(said, strings.TrimPrefix(strings.TrimPrefix(l, "cctx: warning: "), name))
					}
				}
				return tr, said
			}
			_, treeSaid := open(tree.Open)
			if !slices.Equal(treeSaid, tc.tree) {
				t.Errorf("tree says %q, want %q", treeSaid, tc.tree)
			}
			quiet, agentsSaid := open(tree.OpenQuiet)
			if len(agentsSaid) != 0 {
				t.Errorf("the quiet tree says %q", agentsSaid)
			}
			res := Report(quiet, nil, nil)
			var got []string
			for _, w := range res.Warnings {
				got = append(got, strings.TrimPrefix(w.String(), name))
			}
			if !slices.Equal(got, tc.agents) {
				t.Errorf("agents says %q, want %q", got, tc.agents)
			}
			if len(res.Agents) == 0 {
				t.Fatal("no agent")
			}
			a := res.Agents[0]
			if a.Status != tc.status {
				t.Errorf("status %q, want %q", a.Status, tc.status)
			}
			// The rows' problems are the warnings, without their place.
			var msgs, problems []string
			for _, w := range res.Warnings {
				msgs = append(msgs, w.Msg)
			}
			for _, a := range res.Agents {
				problems = append(problems, a.Problems...)
			}
			if !slices.Equal(problems, msgs) {
				t.Errorf("problems %q, warnings %q", problems, msgs)
			}
		})
	}
}
