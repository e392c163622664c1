package tokens

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/tree"
)

// ntLine writes a line for TestNodesTokens: an assistant line with usage
// (in input tokens, out output tokens) when out > 0, else a user line.
func ntLine(uuid, parent, mid, rid string, in, out int, extra string) string {
	par := "null"
	if parent != "" {
		par = fmt.Sprintf("%q", parent)
	}
	if out == 0 {
		return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%s,"sessionId":"s",%s"message":{"role":"user","content":"hi"}}`, uuid, par, extra)
	}
	id, req := "", ""
	if mid != "" {
		id = fmt.Sprintf(`"id":%q,`, mid)
	}
	if rid != "" {
		req = fmt.Sprintf(`"requestId":%q,`, rid)
	}
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%s,"sessionId":"s",%s%s"timestamp":"2026-01-01T00:00:00Z","message":{%s"model":"claude-sonnet-4-5","role":"assistant","content":[],"usage":{"input_tokens":%d,"output_tokens":%d}}}`,
		uuid, par, extra, req, id, in, out)
}

// nodesTokensByCounter is what NodesTokens sums, the way it was computed
// before: every response built by a Counter.
func nodesTokensByCounter(nodes []*tree.Node) int64 {
	c := NewCounter()
	f := c.File(Source{})
	for _, n := range nodes {
		e := n.Entry()
		f.Add(&e)
	}
	return Sum(c.Responses(), nil).Tokens
}

func loadLines(t *testing.T, lines []string) *tree.Tree {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := tree.LoadQuiet(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestNodesTokens: each response once, the largest line, a main line
// over a sidechain replay, requestId splitting a message.id, runs of
// anonymous lines; and the same sum as a Counter's on every testdata
// session.
func TestNodesTokens(t *testing.T) {
	side := `"isSidechain":true,`
	syn := `"isApiErrorMessage":true,`
	cases := []struct {
		name  string
		lines []string
		want  int64
	}{
		{"none", []string{ntLine("u1", "", "", "", 0, 0, "")}, 0},
		{"one", []string{ntLine("a1", "", "m1", "r1", 10, 5, "")}, 15},
		{"chunks of one response: the largest", []string{
			ntLine("a1", "", "m1", "r1", 10, 1, ""), ntLine("a2", "a1", "m1", "r1", 10, 9, ""), ntLine("a3", "a2", "m1", "r1", 10, 4, "")}, 19},
		{"two responses", []string{
			ntLine("a1", "", "m1", "r1", 10, 1, ""), ntLine("a2", "a1", "m2", "r2", 20, 2, "")}, 33},
		{"another requestId is another response", []string{
			ntLine("a1", "", "m1", "r1", 10, 1, ""), ntLine("a2", "a1", "m1", "r2", 20, 2, "")}, 33},
		{"no requestId joins the first", []string{
			ntLine("a1", "", "m1", "r1", 10, 1, ""), ntLine("a2", "a1", "m1", "r2", 20, 2, ""), ntLine("a3", "a2", "m1", "", 40, 2, "")}, 64},
		{"a first without requestId takes one", []string{
			ntLine("a1", "", "m1", "", 10, 1, ""), ntLine("a2", "a1", "m1", "r1", 20, 2, ""), ntLine("a3", "a2", "m1", "r2", 40, 2, "")}, 64},
		{"main copy wins over a larger replay", []string{
			ntLine("a1", "", "m1", "r1", 100, 1, side), ntLine("a2", "", "m1", "r1", 10, 1, "")}, 11},
		{"a replay adds nothing", []string{
			ntLine("a1", "", "m1", "r1", 10, 1, ""), ntLine("a2", "", "m1", "r1", 100, 1, side)}, 11},
		{"anonymous: equal usage in a row is one", []string{
			ntLine("a1", "", "", "", 10, 1, ""), ntLine("a2", "a1", "", "", 10, 1, ""), ntLine("a3", "a2", "", "", 10, 1, "")}, 11},
		{"anonymous: an id line ends the run", []string{
			ntLine("a1", "", "", "", 10, 1, ""), ntLine("a2", "a1", "m1", "", 3, 1, ""), ntLine("a3", "a2", "", "", 10, 1, "")}, 26},
		{"anonymous: other usage is another", []string{
			ntLine("a1", "", "", "", 10, 1, ""), ntLine("a2", "a1", "", "", 10, 2, "")}, 23},
		{"synthetic lines do not count", []string{
			strings.Replace(ntLine("a1", "", "m1", "", 10, 1, syn), "claude-sonnet-4-5", "<synthetic>", 1)}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := loadLines(t, c.lines)
			if got := NodesTokens(tr.Nodes); got != c.want {
				t.Errorf("NodesTokens = %d, want %d", got, c.want)
			}
			if got := nodesTokensByCounter(tr.Nodes); got != c.want {
				t.Errorf("the counter's sum = %d, want %d (the case is wrong)", got, c.want)
			}
		})
	}
	paths, _ := filepath.Glob("../../testdata/*/*.jsonl")
	more, _ := filepath.Glob("../../testdata/*/*/*.jsonl")
	paths = append(paths, more...)
	if len(paths) < 10 {
		t.Fatalf("%d testdata sessions", len(paths))
	}
	compared := 0
	for _, p := range paths {
		tr, err := tree.LoadQuiet(p, nil, nil)
		if err != nil {
			continue
		}
		for _, a := range append([]*tree.Agent{nil}, tr.Agents...) {
			nodes := tr.Nodes
			if a != nil {
				nodes = a.Nodes
			}
			if got, want := NodesTokens(nodes), nodesTokensByCounter(nodes); got != want {
				t.Errorf("%s (agent %v): NodesTokens = %d, a counter's sum %d", p, a != nil, got, want)
			}
			compared++
		}
	}
	t.Logf("%d sessions and agents compared", compared)
}

// TestNodesTokensFilter: the filter that finds the message ids on more
// than one line may take an id on one line for a shared one (a false
// positive): that only tables it, and the sum stays the counter's. Random
// sessions of ids on one line and on several (split by requestId, replayed
// in a sidechain, anonymous runs between them), summed with the filter at
// its size and at 64 bits, where nearly every id collides with another.
func TestNodesTokensFilter(t *testing.T) {
	for _, bits := range []uint64{filterBitsPerID, 0} {
		for seed := range uint64(40) {
			rng := rand.New(rand.NewPCG(seed, bits))
			ids := 5 + rng.IntN(200)
			var lines []string
			parent := ""
			for i := range 2 * ids {
				uuid := fmt.Sprintf("u%d", i)
				mid, rid, extra := fmt.Sprintf("m%d", rng.IntN(ids)), "", ""
				switch rng.IntN(8) {
				case 0:
					mid = "" // anonymous
				case 1:
					mid = fmt.Sprintf("once%d", i) // on this line only
				}
				if rng.IntN(3) > 0 {
					rid = fmt.Sprintf("r%d", rng.IntN(3))
				}
				if rng.IntN(6) == 0 {
					extra = `"isSidechain":true,`
				}
				out := 1 + rng.IntN(4)
				if rng.IntN(10) == 0 {
					out = 0 // a user line
				}
				lines = append(lines, ntLine(uuid, parent, mid, rid, 10*(1+rng.IntN(3)), out, extra))
				parent = uuid
			}
			tr := loadLines(t, lines)
			func() {
				defer func(old uint64) { filterBitsPerID = old }(filterBitsPerID)
				filterBitsPerID = bits
				if got, want := NodesTokens(tr.Nodes), nodesTokensByCounter(tr.Nodes); got != want {
					t.Errorf("%d bits an id, seed %d: NodesTokens = %d, a counter's sum %d", bits, seed, got, want)
				}
			}()
		}
	}
}
