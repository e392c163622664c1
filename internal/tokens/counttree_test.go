package tokens

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/tree"
)

// TestCountTreeSkip: CountTree feeds the counter only assistant and
// sidechain lines; every other line changes no count and no agent's name
// (File.Add), so the responses, their agents and the total are those of
// a counter fed every line. Inline sidechains that start with a user line
// (which names the agent), and every testdata session.
func TestCountTreeSkip(t *testing.T) {
	side := `"isSidechain":true,`
	trees := map[string]*tree.Tree{
		"inline sidechain from a user line": loadLines(t, []string{
			ntLine("u1", "", "", "", 0, 0, ""),
			ntLine("a1", "u1", "m1", "r1", 10, 1, ""),
			ntLine("s1", "a1", "", "", 0, 0, side),
			ntLine("s2", "s1", "m2", "r2", 20, 2, side),
			ntLine("s3", "s2", "", "", 0, 0, side),
			ntLine("s4", "s3", "", "", 30, 3, side),
			ntLine("u2", "a1", "", "", 0, 0, ""),
			ntLine("a2", "u2", "", "", 40, 4, ""),
			ntLine("a3", "a2", "", "", 40, 4, ""),
		}),
	}
	paths, _ := filepath.Glob("../../testdata/*/*.jsonl")
	more, _ := filepath.Glob("../../testdata/*/*/*.jsonl")
	for _, p := range append(paths, more...) {
		if tr, err := tree.LoadQuiet(p, nil, nil); err == nil {
			trees[p] = tr
		}
	}
	if len(trees) < 10 {
		t.Fatalf("%d sessions", len(trees))
	}
	prices := DefaultPrices()
	for name, tr := range trees {
		got, want := CountTree(tr, "", "", prices), countTree(tr, "", "", prices, nil)
		if !reflect.DeepEqual(got.Responses(), want.Responses()) || !reflect.DeepEqual(got.Total, want.Total) {
			t.Errorf("%s: the counter fed assistant and sidechain lines differs from one fed every line:\n%+v\n%+v", name, got.Responses(), want.Responses())
		}
	}
	// The case names an inline agent from its user line.
	agents := map[string]bool{}
	for _, r := range CountTree(trees["inline sidechain from a user line"], "", "", prices).Responses() {
		agents[r.AgentID] = true
	}
	if len(agents) != 2 {
		t.Errorf("agents %v, want the main one and the sidechain's", agents)
	}
}

// TestCountTreeTimeline: the responses as a timeline, sorted by time and
// stably (responses at one time in the order first seen; a line without
// a timestamp first), each yielded by All into one value that Responses
// copies; the total is their sum.
func TestCountTreeTimeline(t *testing.T) {
	at := func(line, ts string) string {
		if ts == "" {
			return strings.Replace(line, `"timestamp":"2026-01-01T00:00:00Z",`, "", 1)
		}
		return strings.Replace(line, "2026-01-01T00:00:00Z", ts, 1)
	}
	tr := loadLines(t, []string{
		at(ntLine("a1", "", "m1", "r1", 10, 1, ""), "2026-01-01T00:00:03Z"),
		at(ntLine("a2", "a1", "m2", "r2", 10, 2, ""), "2026-01-01T00:00:01Z"),
		at(ntLine("a3", "a2", "m3", "r3", 10, 3, ""), "2026-01-01T00:00:03Z"),
		at(ntLine("a4", "a3", "m4", "r4", 10, 4, ""), "2026-01-01T00:00:01Z"),
		at(ntLine("a5", "a4", "m5", "r5", 10, 5, ""), ""),
		at(ntLine("a6", "a5", "m1", "r1", 10, 6, ""), "2026-01-01T00:00:03Z"), // m1's second line: not a response of its own
	})
	u := CountTree(tr, "", "", nil)
	var got []string
	for _, r := range u.Responses() {
		got = append(got, r.MessageID)
	}
	if want := "m5 m2 m4 m1 m3"; strings.Join(got, " ") != want {
		t.Errorf("timeline %q, want %q", strings.Join(got, " "), want)
	}
	if s := Sum(u.Responses(), nil); !reflect.DeepEqual(s, u.Total) {
		t.Errorf("total %+v, the sum of the responses %+v", u.Total, s)
	}
	var ptrs []*Response
	for r := range u.All() {
		ptrs = append(ptrs, r)
	}
	if len(ptrs) != 5 || ptrs[0] != ptrs[4] || ptrs[0].MessageID != "m3" {
		t.Errorf("All yields %d responses into one value, the last m3 (got %v)", len(ptrs), ptrs)
	}
}

// TestCountTreeModels: the models of a session, most tokens first (a tie
// by name), without the synthetic placeholder of client-side messages.
func TestCountTreeModels(t *testing.T) {
	line := func(uuid, parent, mid, model string, out int) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%q,"sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"id":%q,"model":%q,"role":"assistant","content":[],"usage":{"input_tokens":0,"output_tokens":%d}}}`, uuid, parent, mid, model, out)
	}
	tr := loadLines(t, []string{
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}`,
		line("a1", "u1", "m1", "claude-opus-4-5", 10),
		line("a2", "a1", "m2", "claude-haiku-4-5", 30),
		line("a3", "a2", "m3", "claude-sonnet-4-5", 25),
		line("a4", "a3", "m4", "<synthetic>", 100),
		line("a5", "a4", "m5", "claude-opus-4-5", 15),
	})
	got := CountTree(tr, "", "", DefaultPrices()).Models
	if want := []string{"claude-haiku-4-5", "claude-opus-4-5", "claude-sonnet-4-5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("models %q, want %q", got, want)
	}
}
