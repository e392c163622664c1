package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/cctx-dev/cctx/internal/render"
)

func TestTreeGolden(t *testing.T) {
	tests := []struct {
		golden  string
		corpus  bool // in testdata/corpus, not testdata/projects
		dir     string
		session string
		args    []string
	}{
		// The rewind session: one fork with three branches, three leaves.
		{"rewind.txt", false, "", "b3edadab", nil},
		{"rewind-full.txt", false, "", "b3edadab", []string{"--full"}},
		{"rewind-noagents.txt", false, "", "b3edadab", []string{"--agents=false"}},
		{"rewind.json", false, "", "b3edadab", []string{"--json"}},
		// Six Agent calls in two parallel rounds, each agent under its call.
		{"worktrees.txt", false, "", "ef958aa1", nil},
		// An edited prompt (a real fork) among progress artifacts.
		{"ideas.txt", false, "", "03eb5929", nil},
		// Inline sidechains of a 1.0.108 session.
		{"inline-sidechains.txt", false, "", "5c0375b4", nil},
		// The compacted spotter sessions: auto and manual junctions.
		{"spotter-auto.txt", true, "spotter", "8463c716", nil},
		{"spotter-manual.txt", true, "spotter", "ae4a77f8", nil},
		{"slash-commands.txt", true, "claude-code-log", "0d3a8e6f", nil},
		// Prompts after an IDE selection, and a 2.0.x warm-up agent.
		{"ide-selection.txt", true, "claude-code-log", "cb2e607c", nil},
		// An empty main file and a warm-up agent that got no reply.
		{"warmup-no-reply.txt", true, "kfischer-claude-history", "0f13eeba", nil},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			dir := samples
			if tc.corpus {
				dir = filepath.Join(realCorpus(t), tc.dir)
			}
			r := run(t, false, nil, append([]string{"tree", "--dir", dir, tc.session}, tc.args...)...)
			if r.code != 0 || r.errOut != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
			}
			golden(t, "tree/"+tc.golden, r.out)
		})
	}
}

func TestTreeJSON(t *testing.T) {
	r := run(t, false, nil, "tree", "--dir", samples, "--json", "ef958aa1")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc struct {
		SchemaVersion int      `json:"schema_version"`
		SessionID     string   `json:"session_id"`
		ActiveLeaf    string   `json:"active_leaf"`
		Roots         []string `json:"roots"`
		Leaves        []string `json:"leaves"`
		Nodes         []struct {
			UUID       string   `json:"uuid"`
			ParentUUID *string  `json:"parent_uuid"`
			Type       string   `json:"type"`
			AgentID    *string  `json:"agent_id"`
			Children   []string `json:"children"`
			Active     bool     `json:"active"`
			Fork       bool     `json:"fork"`
		} `json:"nodes"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != 1 || doc.SessionID != "ef958aa1-0e93-49f0-bb71-150f63befcd1" || len(doc.Roots) != 1 || len(doc.Leaves) != 1 || doc.ActiveLeaf != doc.Leaves[0] {
		t.Errorf("header: %+v %v %v %s", doc.SchemaVersion, doc.Roots, doc.Leaves, doc.ActiveLeaf)
	}
	byUUID := map[string]int{}
	for i, n := range doc.Nodes {
		byUUID[n.UUID] = i
	}
	agentRoots := map[string]bool{}
	for _, n := range doc.Nodes {
		if n.Fork {
			t.Errorf("%s marked fork: the session has only artifact forks", n.UUID)
		}
		if n.ParentUUID == nil {
			continue
		}
		p, ok := byUUID[*n.ParentUUID]
		if !ok {
			t.Errorf("%s: parent %s not in nodes", n.UUID, *n.ParentUUID)
			continue
		}
		if !strings.Contains(strings.Join(doc.Nodes[p].Children, " "), n.UUID) {
			t.Errorf("%s is not among its parent's children", n.UUID)
		}
		if n.AgentID != nil && doc.Nodes[p].AgentID == nil {
			agentRoots[*n.AgentID] = true
			if doc.Nodes[p].Type != "assistant" {
				t.Errorf("agent %s hangs under a %s", *n.AgentID, doc.Nodes[p].Type)
			}
		}
	}
	if len(agentRoots) != 6 {
		t.Errorf("%d agents linked under a tool call, want 6: %v", len(agentRoots), agentRoots)
	}
}

// Islands, cycles and unlinked agents are listed after the tree; the
// warnings go to stderr and into --json.
func TestTreeIslandsAndCycles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "0b3c2a1d-0000-4000-8000-000000000001.jsonl")
	lines := []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"hello"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","timestamp":"2026-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}]}}`,
		// An inline sidechain whose parent is lost (a lost parent in the
		// main conversation is bridged, see TestTreeBridgesALostLine).
		`{"type":"user","uuid":"o1","parentUuid":"gone-0000","isSidechain":true,"timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"orphan prompt"}}`,
		`{"type":"user","uuid":"x1","parentUuid":"x2","timestamp":"2026-01-01T10:00:03Z","message":{"role":"user","content":"loop"}}`,
		`{"type":"assistant","uuid":"x2","parentUuid":"x1","timestamp":"2026-01-01T10:00:04Z","message":{"id":"m2","role":"assistant","content":[]}}`,
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, false, nil, "tree", p)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	for _, want := range []string{
		"islands (parent not in the file):\n  line 3 · o1 · 1 entry · parent gone-000 missing · in agent sidechain-o1  \"orphan prompt\"",
		"cycles (parentUuid link cut):\n  line 4 · x1 · 2 entries in the cycle · link to x2 cut",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.out)
		}
	}
	for _, want := range []string{"island", "parentUuid cycle of 2 entries"} {
		if !strings.Contains(r.errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.errOut)
		}
	}
	if r := run(t, false, nil, "tree", "--strict", p); r.code != ExitError {
		t.Errorf("--strict with warnings: exit %d", r.code)
	}
	j := run(t, false, nil, "tree", "--json", p)
	if !strings.Contains(j.out, `"warnings":["`) || !strings.Contains(j.out, `parentUuid cycle`) {
		t.Errorf("--json lacks the warnings: %s", j.out)
	}
}

func TestTreeTerminal(t *testing.T) {
	r := run(t, true, nil, "tree", "--color=always", "--dir", samples, "b3edadab")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	lines := strings.Split(r.out, "\n")
	var abandoned, active int
	for _, l := range lines {
		if strings.Contains(l, "○") && strings.Contains(l, "\x1b[2m") {
			abandoned++
		}
		if strings.Contains(l, "●") && !strings.Contains(l, "\x1b[2m") {
			active++
		}
	}
	if abandoned != 2 || active != 2 {
		t.Errorf("want 2 dimmed abandoned branches and 2 active runs, got %d and %d:\n%s", abandoned, active, r.out)
	}
}

// An agent's line counts tool calls, and says so: "calls" alone reads as
// API calls, which is what cctx agents' CALLS column counts.
func TestTreeAgentLineCountsToolCalls(t *testing.T) {
	r := run(t, false, nil, "tree", "--dir", samples, "b3edadab")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	if want := `"Add content to test file" · 2 tool calls · `; !strings.Contains(r.out, want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.out)
	}
}

func TestTreeUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"tree"},
		{"tree", "a", "b"},
		{"tree", "--dir", samples, "zzzzzzzz"},
		{"tree", "--bogus", "b3edadab"},
	} {
		if r := run(t, false, nil, args...); r.code != ExitUsage || r.out != "" {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.out)
		}
	}
}

// Where East Asian widths apply (a CJK locale, RUNEWIDTH_EASTASIAN=1) the
// tree's marks, box lines and ellipses take two columns; its lines, cut to
// the terminal, must still fit it.
func TestTreeFitsTheTerminalWithEastAsianWidths(t *testing.T) {
	twwidth.SetEastAsian(true)
	defer twwidth.SetEastAsian(false)
	for _, id := range []string{"b3edadab", "ef958aa1", "c7d3d95c"} {
		r := run(t, true, nil, "tree", "--dir", samples, "--color", "never", id)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", id, r.code, r.errOut)
		}
		for _, l := range strings.Split(strings.TrimRight(r.out, "\n"), "\n") {
			if w := render.Width(l); w > 120 {
				t.Errorf("%s: %d columns, terminal 120: %s", id, w, l)
			}
		}
	}
}

// An agent no tool call spawned is listed with its description and its
// first prompt; the line is cut to the terminal, in either width mode.
func TestUnlinkedAgentLinesFitTheTerminal(t *testing.T) {
	p := writeSession(t, craftedSession[:2]...)
	sub := filepath.Join(filepath.Dir(p), "11111111-2222-3333-4444-555555555555", "subagents")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "agent-a1.jsonl"), []byte(`{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"agentId":"a1","sessionId":"s1","timestamp":"2026-01-02T10:00:05Z","message":{"role":"user","content":"`+strings.Repeat("survey every module and report ", 8)+`"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "agent-a1.meta.json"), []byte(`{"agentType":"general-purpose","description":"`+strings.Repeat("a long description ", 8)+`"}`), 0o644)
	for _, ea := range []bool{false, true} {
		twwidth.SetEastAsian(ea)
		r := run(t, true, nil, "tree", "--color", "never", p)
		twwidth.SetEastAsian(false)
		if !strings.Contains(r.out, "agents not linked to a tool call:") {
			t.Fatalf("no unlinked agent:\n%s", r.out)
		}
		for _, l := range strings.Split(strings.TrimRight(r.out, "\n"), "\n") {
			if w := render.Width(l); w > 120 {
				t.Errorf("east asian %v: %d columns, terminal 120: %s", ea, w, l)
			}
		}
	}
}
