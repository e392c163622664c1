package tokens

import (
	"path/filepath"
	"reflect"
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
