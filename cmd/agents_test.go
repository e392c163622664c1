package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
)

// The sessions the issue names: six Agent calls with <session>/subagents/
// transcripts (claude-code-log worktrees), flat 2.0.x agent files, inline
// 1.0.x sidechains (claude-code-viewer), compaction agents (spotter), and a
// call whose transcript is not in the corpus (claude-reliability).
var agentsCorpus = []struct{ folder, session, name string }{
	{"claude-code-log", "ef958aa1", "worktrees"},
	{"claude-code-log", "cb2e607c", "flat-coderabbit"},
	{"claude-code-log", "a7da6a22", "flat-deep-manifest"},
	{"kfischer-claude-history", "b3edadab", "flat-kfischer"},
	{"claude-code-viewer", "5c0375b4", "inline-5c0375b4"},
	{"claude-code-viewer", "fe5e1c67", "inline-fe5e1c67"},
	{"spotter", "ae4a77f8", "acompact-4te"},
	{"spotter", "8463c716", "acompact-fum"},
	{"codemie", "e9fb405b", "codemie"},
	{"claude-reliability", "c7d3d95c", "missing-transcript"},
}

func TestAgentsOnTheRealCorpus(t *testing.T) {
	base := realCorpus(t)
	for _, c := range agentsCorpus {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(base, c.folder)
			tsv := run(t, false, nil, "agents", "--dir", dir, c.session)
			if tsv.code != 0 {
				t.Fatalf("exit %d, stderr %q", tsv.code, tsv.errOut)
			}
			js := run(t, false, nil, "agents", "--json", "--dir", dir, c.session)
			if js.code != 0 {
				t.Fatalf("--json: exit %d, stderr %q", js.code, js.errOut)
			}
			var doc render.AgentsJSON
			if err := json.Unmarshal([]byte(js.out), &doc); err != nil {
				t.Fatal(err)
			}
			// Prompts are long and already checked by the unit tests:
			// the golden keeps their first line.
			for i := range doc.Agents {
				doc.Agents[i].Prompt = firstLineOf(doc.Agents[i].Prompt)
			}
			pretty, _ := json.MarshalIndent(doc, "", "  ")
			clean := func(s string) string { return strings.ReplaceAll(s, base, "$CORPUS") }
			golden(t, "agents/"+c.name+".tsv", clean(tsv.out))
			golden(t, "agents/"+c.name+".json", clean(string(pretty))+"\n")
			golden(t, "agents/"+c.name+".stderr", clean(tsv.errOut))
		})
	}
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// The six agents of the claude-code-log worktrees session, as a newcomer
// sees them in a terminal (sample copy in testdata/projects).
func TestAgentsTerminal(t *testing.T) {
	r := run(t, true, map[string]string{"NO_COLOR": "1"}, "agents", "--dir", samples, "ef958aa1")
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
	}
	golden(t, "agents/"+"terminal-worktrees.txt", r.out+"--- stderr\n"+r.errOut)
	for _, id := range []string{"a4ca7529859c158c2", "a52886dc180afb356", "ab1e6e141221a29ab", "a36efb2a1231c41e2", "aef063ba534d73153", "a6aa8ad077d9ea083"} {
		if !strings.Contains(r.out, id) {
			t.Errorf("agent %s missing", id)
		}
	}
	v := run(t, true, map[string]string{"NO_COLOR": "1"}, "agents", "-v", "--dir", samples, "ef958aa1")
	if !strings.Contains(v.out, "PROMPT") || !strings.Contains(v.out, "You are **alice**") || !strings.Contains(v.out, "agent-a4ca7529859c158c2.jsonl") {
		t.Errorf("-v lacks prompt or path:\n%s", v.out)
	}
	if !strings.Contains(v.errOut, "cctx: note:") || !strings.Contains(v.errOut, "partial output count") {
		t.Errorf("-v lacks the note about a36efb2a1231c41e2's partial usage:\n%s", v.errOut)
	}
}

// A call without its transcript: its row is marked "!", and the lines
// under the table say what the mark means and that the row is not one of
// the subagents counted; the ones without a mark say neither.
func TestAgentsTerminalMissingTranscript(t *testing.T) {
	r := run(t, true, map[string]string{"NO_COLOR": "1"}, "agents", "--dir", samples, "c7d3d95c")
	for _, want := range []string{"missing_transcript !", "also: 1 call without a transcript\n", "! a problem, said on stderr\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("no %q in\n%s", want, r.out)
		}
	}
	if !strings.Contains(r.errOut, "no transcript agent-ab81802.jsonl was found") {
		t.Errorf("the problem is not said on stderr: %q", r.errOut)
	}
	// At 40 columns STATUS is left out, and with it the mark: no line
	// explains a mark that is not there.
	io, _, out, _ := TestIO()
	io.SetStdoutTTY(true)
	io.SetWidth(40)
	Run([]string{"agents", "--dir", samples, "c7d3d95c", "--color", "never"}, io, session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}, time.Now)
	if strings.Contains(out.String(), "!") || !strings.Contains(out.String(), "STATUS") {
		t.Errorf("at 40 columns:\n%s", out.String())
	}
	if ok := run(t, true, map[string]string{"NO_COLOR": "1"}, "agents", "--dir", samples, "ef958aa1"); strings.Contains(ok.out, "!") {
		t.Errorf("a mark or its line without a problem:\n%s", ok.out)
	}
}

func TestAgentsArguments(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no session", []string{"agents"}, ExitUsage, "needs <session>"},
		{"two sessions", []string{"agents", "a", "b"}, ExitUsage, "takes <session> only"},
		{"unknown session", []string{"agents", "--dir", samples, "ffffffff"}, ExitUsage, "no such session"},
		{"short prefix", []string{"agents", "--dir", samples, "ef9"}, ExitUsage, "at least 4"},
		{"bad pricing file", []string{"agents", "--dir", samples, "--pricing", "/nonexistent.json", "ef958aa1"}, ExitUsage, "--pricing"},
		{"session without agents", []string{"agents", "--dir", samples, "55604662"}, ExitOK, ""},
		{"--strict fails on a missing transcript", []string{"agents", "--strict", "--dir", samples, "c7d3d95c"}, ExitError, "no transcript agent-ab81802.jsonl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, false, nil, tc.args...)
			if r.code != tc.code || !strings.Contains(r.errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d with %q", r.code, r.errOut, tc.code, tc.stderr)
			}
		})
	}
}

// A transcript on stdin has no agent files, but its inline sidechains are
// agents.
func TestAgentsFromStdin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "sample-project", "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	io, in, out, errOut := TestIO()
	in.Write(b)
	code := Run([]string{"agents", "--json", "-"}, io, session.Env{Getenv: func(string) string { return "" }}, time.Now)
	var doc render.AgentsJSON
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v, stderr %q", code, err, errOut)
	}
	if doc.SessionID != "5c0375b4-57a5-4f26-b12d-d022ee4e51b7" || len(doc.Agents) != 3 || doc.Agents[1].AgentID == nil || *doc.Agents[1].AgentID != "sidechain-6340ddef" {
		t.Errorf("session %q, agents %+v", doc.SessionID, doc.Agents)
	}
}

// A model without a price in the main conversation is named, as tokens
// names it, even when no subagent uses it.
func TestAgentsWarnsAboutAnUnpricedMainModel(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "-p"), 0o755)
	os.WriteFile(filepath.Join(dir, "-p", "11111111-1111-4111-8111-111111111111.jsonl"), []byte(
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`+"\n"+
			`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","model":"mystery-model","content":[],"usage":{"input_tokens":1,"output_tokens":2}}}`+"\n"), 0o644)
	r := run(t, false, nil, "agents", "--dir", dir, "1111")
	if r.code != 0 || !strings.Contains(r.errOut, "no price for model(s) mystery-model") {
		t.Errorf("exit %d stderr %q", r.code, r.errOut)
	}
}

// An agent whose transcript is missing has usage that is not known: "–"
// on a terminal, not 0; the total row of rows that are not all subagents
// is "total", not "0 subagents".
func TestAgentsUnknownUsage(t *testing.T) {
	r := run(t, true, nil, "agents", "c7d3d95c", "--dir", samples, "--color", "never")
	var row, foot string
	for _, l := range strings.Split(r.out, "\n") {
		switch {
		case strings.HasPrefix(l, "ab81802"):
			row = l
		case strings.HasPrefix(l, "total"), strings.Contains(l, "subagent"):
			foot = l
		}
	}
	if n := strings.Count(" "+row+" ", " – "); n != 3 || strings.Contains(row, "$0.00") {
		t.Errorf("the missing agent's row: %q", row)
	}
	if !strings.HasPrefix(foot, "total ") {
		t.Errorf("the total row: %q\n%s", foot, r.out)
	}
}

// --by agent-type counts runs from transcripts: the agents without one are
// not among them, and stderr says how many, in a pipe too.
func TestAgentTypeSaysWhatItCannotCount(t *testing.T) {
	r := run(t, false, nil, "tokens", "--by", "agent-type", "--dir", samples)
	if r.code != 0 || !strings.Contains(r.errOut, "cctx: 1 agent without a transcript is not among the runs") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
	if r := run(t, false, nil, "tokens", "--by", "model", "--dir", samples); strings.Contains(r.errOut, "among the runs") {
		t.Errorf("--by model: %q", r.errOut)
	}
}

// A resumed session replays the call of an agent that ran in the session
// it resumed: the agent's transcript is there, not among this session's
// files, so its usage here is unknown (empty in a pipe, – on a terminal),
// not 0; and so is the total of agents whose usage none is known.
func TestAgentsOfAResumedSessionHaveNoUsageHere(t *testing.T) {
	const orig, resumed = "b3edadab-bca0-4054-9b41-f7ffa6941260", "22222222-0000-4000-8000-00000000000a"
	dir := filepath.Join(t.TempDir(), "-Users-user-project")
	os.MkdirAll(dir, 0o755)
	src := filepath.Join(samples, "-Users-user-project")
	for _, name := range []string{orig + ".jsonl", "agent-a434715.jsonl"} {
		b, _ := os.ReadFile(filepath.Join(src, name))
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	b, _ := os.ReadFile(filepath.Join(src, orig+".jsonl"))
	os.WriteFile(filepath.Join(dir, resumed+".jsonl"), []byte(strings.ReplaceAll(string(b), orig, resumed)), 0o644)
	r := run(t, false, nil, "agents", "--dir", filepath.Dir(dir), resumed)
	var row []string
	for _, l := range strings.Split(r.out, "\n") {
		if strings.HasPrefix(l, "a434715\t") {
			row = strings.Split(l, "\t")
		}
	}
	if r.code != 0 || len(row) < 11 || row[7] != "completed" || row[8] != "" || row[9] != "" || row[10] != "" {
		t.Errorf("exit %d, row %q\n%s%s", r.code, row, r.out, r.errOut)
	}
	tty := run(t, true, nil, "agents", "--dir", filepath.Dir(dir), resumed)
	if !regexp.MustCompile(`(?m)^total\s+–\s+–\s+–`).MatchString(tty.out) {
		t.Errorf("the total of agents with no usage known:\n%s", tty.out)
	}
	// JSON says it too (its status is completed, its total zeros), and
	// the session that ran it knows it.
	for _, tt := range []struct {
		id    string
		known bool
	}{{resumed, false}, {orig, true}} {
		js := run(t, false, nil, "agents", "--json", "--dir", filepath.Dir(dir), tt.id)
		var doc render.AgentsJSON
		if err := json.Unmarshal([]byte(js.out), &doc); err != nil || len(doc.Agents) != 1 {
			t.Fatalf("%s: %v, %d agents\n%s", tt.id, err, len(doc.Agents), js.out)
		}
		if a := doc.Agents[0]; a.UsageKnown != tt.known || a.Status != "completed" || (a.Total.APICalls > 0) != tt.known {
			t.Errorf("%s: usage_known %v status %q api_calls %d, want usage_known %v", tt.id, a.UsageKnown, a.Status, a.Total.APICalls, tt.known)
		}
	}
}
