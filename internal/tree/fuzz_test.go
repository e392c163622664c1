package tree

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzMaxInput bounds what one fuzz input may be: the builder is linear, so
// a larger input only slows the fuzzer down without reaching new code.
const fuzzMaxInput = 256 << 10

// fuzzTimeout is how long one input may take before it counts as a hang.
// Inputs are at most fuzzMaxInput bytes; a correct build takes milliseconds.
const fuzzTimeout = 10 * time.Second

// FuzzTree builds the tree of arbitrary bytes. Whatever the input, Read
// must not panic or hang, and the model must hold together (checkTree).
func FuzzTree(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil && len(b) <= fuzzMaxInput {
			f.Add(b)
		}
	}
	for _, lines := range shapeSeeds() {
		f.Add([]byte(strings.Join(lines, "\n") + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > fuzzMaxInput {
			return
		}
		buildChecked(t, data)
	})
}

// FuzzTreeGraph explores graph shapes, which random bytes rarely reach as
// valid JSON: each 4-byte group of the input is one line whose uuid,
// parent, logical parent, type, message.id and tool ids come from small
// alphabets, so the fuzzer builds cycles, forks, duplicate uuids,
// compaction chains, inline sidechains and tool-result repairs at will.
func FuzzTreeGraph(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 1, 0, 1, 0, 2, 1, 2, 0, 3, 2, 3, 0})
	f.Add([]byte{1, 2, 0, 0, 2, 1, 1, 0})             // a 2-cycle
	f.Add([]byte{1, 0, 0, 0, 1, 0, 1, 0, 1, 0, 2, 0}) // duplicate uuids
	f.Add([]byte{1, 0, 0, 0, 2, 1, 1, 0, 3, 0, 4, 1, 4, 3, 0, 0, 5, 3, 0, 2})
	f.Add([]byte{1, 0, 0, 8, 2, 1, 1, 8, 3, 0, 0, 8, 4, 3, 1, 8, 5, 1, 5, 0}) // sidechains
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4*4096 {
			return
		}
		buildChecked(t, []byte(graphLines(data)))
	})
}

// graphLines turns each 4-byte group into one transcript line:
// byte 0: uuid (1 of 16), byte 1: parentUuid (0 = null, else 1 of 16),
// byte 2: low 3 bits the kind, high bits the message.id / tool id,
// byte 3: flags (sidechain, logical parent, timestamp, meta).
func graphLines(data []byte) string {
	var b strings.Builder
	for i := 0; i+4 <= len(data); i += 4 {
		id := fmt.Sprintf("n%d", data[i]%16)
		parent := `null`
		if p := data[i+1] % 17; p > 0 {
			parent = fmt.Sprintf(`"n%d"`, p-1)
		}
		kind, sel, flags := data[i+2]%8, data[i+2]/8%4, data[i+3]
		common := fmt.Sprintf(`"uuid":"%s","parentUuid":%s,"sessionId":"s","timestamp":"2026-01-01T10:00:%02dZ"`, id, parent, int(flags/16)%60)
		if flags&1 != 0 {
			common += `,"isSidechain":true`
		}
		if flags&8 != 0 {
			common += `,"isMeta":true`
		}
		switch kind {
		case 0, 1: // a typed prompt
			fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":"prompt %d"}}`, common, sel)
		case 2: // an assistant chunk with a tool call
			fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"m","content":[{"type":"tool_use","id":"t%d","name":"Task","input":{"prompt":"prompt %d"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`, common, sel, sel, sel)
		case 3: // an assistant text chunk
			fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}]}}`, common, sel)
		case 4: // a tool result, optionally naming its assistant line
			fmt.Fprintf(&b, `{"type":"user",%s,"sourceToolAssistantUUID":"n%d","toolUseResult":{"agentId":"a%d"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"done"}]}}`, common, sel, sel, sel)
		case 5: // a compaction boundary
			logical := ""
			if flags&2 != 0 {
				logical = fmt.Sprintf(`,"logicalParentUuid":"n%d"`, (int(flags)/4)%16)
			}
			seg := ""
			if flags&4 != 0 {
				seg = fmt.Sprintf(`,"preservedSegment":{"headUuid":"n%d","anchorUuid":"n%d","tailUuid":"n%d"}`, sel, (sel+1)%16, (sel+2)%16)
			} else if sel > 1 {
				seg = fmt.Sprintf(`,"preservedMessages":{"anchorUuid":"n%d","uuids":["n%d","n%d"]}`, sel, (sel+3)%16, (sel+5)%16)
			}
			fmt.Fprintf(&b, `{"type":"system","subtype":"compact_boundary",%s%s,"compactMetadata":{"trigger":"auto","preTokens":10%s}}`, common, logical, seg)
		case 6: // a compaction summary
			fmt.Fprintf(&b, `{"type":"user",%s,"isCompactSummary":true,"message":{"role":"user","content":"This session is being continued"}}`, common)
		case 7: // progress of an agent
			fmt.Fprintf(&b, `{"type":"progress",%s,"parentToolUseID":"t%d","data":{"type":"agent_progress","agentId":"a%d"}}`, common, sel, sel)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// shapeSeeds are crafted transcripts for the odd shapes of the model.
func shapeSeeds() [][]string {
	return [][]string{
		{user("x1", "x2", "loop", 0), asst("x2", "x1", "m0", 1), user("u1", "", "hello", 2), asst("a1", "u1", "m1", 3)},
		{user("u1", "u1", "self", 0)},
		{user("u1", "", "a", 0), user("u1", "", "b", 1), asst("a1", "u1", "m1", 2)},
		{user("u1", "gone", "island", 0), asst("a1", "u1", "m1", 1)},
		{user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1), boundary("b", "a1", 2, ""), summary("s", "b", 2), user("u2", "s", "next", 3)},
		{boundary("b1", "b2", 0, ""), boundary("b2", "b1", 1, "")},
		{user("u1", "", "h", 0), asst("a1", "u1", "m1", 1), boundary("b", "a1", 2, `"preservedSegment":{"headUuid":"b","anchorUuid":"b","tailUuid":"b"}`)},
		{user("u1", "", "h", 0), asst("a1", "u1", "m1", 1), boundary("b", "a1", 2, `"preservedMessages":{"anchorUuid":"u1","uuids":["a1","u1"]}`)},
		// A parent cycle whose entries a partial compaction moves below its
		// boundary: the walk to the junction's entry must end.
		{user("x1", "x2", "a", 0), asst("x2", "x1", "m1", 1), boundary("b", "x2", 2, `"preservedSegment":{"headUuid":"x1","anchorUuid":"s","tailUuid":"x2"}`), summary("s", "b", 2), user("u3", "s", "next", 3)},
		{user("u1", "", "h", 0), asst("a1", "u1", "m1", 1, "t1"), asst("a2", "a1", "m1", 2, "t2"), result("r2", "a2", "t2", 3), result("r1", "a1", "t1", 4), asst("a3", "r1", "m1", 5)},
		{`{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"message":{"role":"user","content":"task"}}`,
			`{"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"message":{"id":"m9","content":[]}}`},
		{`{"type":"user","uuid":null,"parentUuid":{"x":1},"message":null}`, `{"uuid":"","parentUuid":""}`, `{"uuid":7}`},
	}
}

// buildChecked runs Read with a time limit and checks the model.
func buildChecked(t *testing.T, data []byte) {
	t.Helper()
	type result struct {
		tr  *Tree
		err error
	}
	done := make(chan result, 1)
	go func() {
		tr, err := Read(bytes.NewReader(data), "fuzz.jsonl", nil)
		if err == nil {
			drawnRuns(tr) // the drawing's walk must end too
		}
		done <- result{tr, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(fuzzTimeout):
		t.Fatalf("Read did not finish in %v on %d bytes", fuzzTimeout, len(data))
	}
	if res.err != nil {
		t.Fatalf("Read of in-memory bytes failed: %v", res.err)
	}
	checkTree(t, res.tr)
}

// checkTree checks the invariants every tree must have, whatever its input:
//   - Nodes are distinct, Pos is the index, and no uuid is kept twice in a file;
//   - Parent/Children agree: each node with a parent is among its parent's
//     children exactly once, and only such nodes are children;
//   - no parent cycle is left: from the parentless nodes, walking Children
//     reaches every node exactly once;
//   - ActivePath has no duplicates, holds the leaf, and is exactly the set
//     of nodes marked Active;
//   - Leaves are distinct nodes of the tree; Roots are parentless main nodes.
func checkTree(t fataler, tr *Tree) {
	t.Helper()
	if tr == nil {
		t.Fatalf("nil tree without an error")
	}
	in := make(map[*Node]bool, len(tr.Nodes))
	perFile := map[*File]map[string]bool{}
	for i, n := range tr.Nodes {
		if in[n] {
			t.Fatalf("node %q listed twice in Nodes", n.UUID)
		}
		in[n] = true
		if n.Pos() != i {
			t.Fatalf("node %q: Pos %d at index %d", n.UUID, n.Pos(), i)
		}
		if n.UUID == "" {
			t.Fatalf("node at line %d has no uuid", n.Line)
		}
		if perFile[n.File] == nil {
			perFile[n.File] = map[string]bool{}
		}
		if perFile[n.File][n.UUID] {
			t.Fatalf("uuid %q kept twice in %s", n.UUID, n.File.Name)
		}
		perFile[n.File][n.UUID] = true
	}
	childOf := map[*Node]int{}
	for _, n := range tr.Nodes {
		for _, c := range n.Children() {
			if !in[c] {
				t.Fatalf("child %q of %q is not in Nodes", c.UUID, n.UUID)
			}
			if c.Parent != n {
				t.Fatalf("child %q of %q has another parent", c.UUID, n.UUID)
			}
			childOf[c]++
		}
	}
	for _, n := range tr.Nodes {
		want := 0
		if n.Parent != nil {
			want = 1
			if !in[n.Parent] {
				t.Fatalf("parent of %q is not in Nodes", n.UUID)
			}
		}
		if childOf[n] != want {
			t.Fatalf("node %q is a child %d times, want %d", n.UUID, childOf[n], want)
		}
	}
	// Walk down from every parentless node: each node exactly once means
	// there is no cycle left and no node is shared by two parents.
	seen := make(map[*Node]bool, len(tr.Nodes))
	var stack []*Node
	for _, n := range tr.Nodes {
		if n.Parent == nil {
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			t.Fatalf("node %q reached twice", n.UUID)
		}
		seen[n] = true
		stack = append(stack, n.Children()...)
	}
	if len(seen) != len(tr.Nodes) {
		t.Fatalf("%d of %d nodes reachable from the roots: a parent cycle was left", len(seen), len(tr.Nodes))
	}

	path := tr.ActivePath()
	onPath := map[*Node]bool{}
	for _, n := range path {
		if onPath[n] {
			t.Fatalf("ActivePath holds %q twice", n.UUID)
		}
		if !in[n] {
			t.Fatalf("ActivePath node %q is not in Nodes", n.UUID)
		}
		onPath[n] = true
	}
	active := 0
	for _, n := range tr.Nodes {
		if n.Active {
			active++
			if !onPath[n] {
				t.Fatalf("node %q is Active but not on ActivePath", n.UUID)
			}
		}
	}
	if active != len(path) {
		t.Fatalf("%d Active nodes, ActivePath has %d", active, len(path))
	}
	if (tr.Leaf == nil) != (len(path) == 0) {
		t.Fatalf("leaf %v with an ActivePath of %d", tr.Leaf != nil, len(path))
	}
	if tr.Leaf != nil && !onPath[tr.Leaf] {
		t.Fatalf("leaf %q is not on ActivePath", tr.Leaf.UUID)
	}
	ctx := tr.Context()
	if len(ctx) > len(path) || len(path) > 0 && ctx[len(ctx)-1] != path[len(path)-1] {
		t.Fatalf("Context is not a suffix of ActivePath")
	}
	leaves := map[*Node]bool{}
	for _, l := range tr.Leaves() {
		if leaves[l] || !in[l] {
			t.Fatalf("leaf %q listed twice or not in Nodes", l.UUID)
		}
		leaves[l] = true
	}
	if tr.Leaf != nil && !leaves[tr.Leaf] {
		t.Fatalf("active leaf %q is not among Leaves", tr.Leaf.UUID)
	}
	for _, r := range tr.Roots {
		if r.Parent != nil || r.Agent() != nil || !in[r] {
			t.Fatalf("root %q has a parent or belongs to an agent", r.UUID)
		}
	}
	for _, a := range tr.Agents {
		for _, n := range a.Nodes {
			if n.Agent() != a {
				t.Fatalf("node %q of agent %q belongs to %v", n.UUID, a.ID, n.Agent)
			}
		}
	}
}

// fataler is the part of testing.T that checkTree uses, so that a test can
// check the checker.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// fakeT records a failure and stops the check, as t.Fatalf would.
type fakeT struct{ failed bool }

type stopCheck struct{}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	panic(stopCheck{})
}

// TestCheckTreeCatchesBrokenModels makes sure the invariant checker is not
// vacuous: a tree with a node under two parents, or a duplicate on the
// active path, must fail it.
func TestCheckTreeCatchesBrokenModels(t *testing.T) {
	tr, _ := build(t, user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1), user("u2", "a1", "more", 2))
	checkTree(t, tr) // the intact tree passes
	breakers := map[string]func(*Tree){
		"child twice":       func(tr *Tree) { setChildren(tr.Nodes[0], append(tr.Nodes[0].Children(), tr.Nodes[1])) },
		"duplicate on path": func(tr *Tree) { tr.active = append(tr.active, tr.active[0]) },
		"cycle": func(tr *Tree) {
			tr.Nodes[0].Parent = tr.Nodes[2]
			setChildren(tr.Nodes[2], append(tr.Nodes[2].Children(), tr.Nodes[0]))
		},
		"active flag lost": func(tr *Tree) { tr.Nodes[0].Active = false },
	}
	for name, brk := range breakers {
		t.Run(name, func(t *testing.T) {
			c := *tr
			nodes := make([]*Node, len(tr.Nodes))
			for i, n := range tr.Nodes {
				cp := *n
				nodes[i] = &cp
			}
			remap := func(n *Node) *Node {
				if n == nil {
					return nil
				}
				return nodes[n.pos]
			}
			for _, n := range nodes {
				n.Parent = remap(n.Parent)
				ch := make([]*Node, len(n.Children()))
				for i, x := range n.Children() {
					ch[i] = remap(x)
				}
				setChildren(n, ch)
			}
			c.Nodes = nodes
			c.active = nil
			for _, n := range tr.active {
				c.active = append(c.active, remap(n))
			}
			c.leaves = nil
			for _, n := range tr.leaves {
				c.leaves = append(c.leaves, remap(n))
			}
			c.Leaf = remap(tr.Leaf)
			c.Roots = nil
			for _, n := range tr.Roots {
				c.Roots = append(c.Roots, remap(n))
			}
			brk(&c)
			ft := &fakeT{}
			func() {
				defer func() {
					if r := recover(); r != nil && r != (stopCheck{}) {
						panic(r)
					}
				}()
				checkTree(ft, &c)
			}()
			if !ft.failed {
				t.Errorf("checkTree accepted a tree with %s", name)
			}
		})
	}
}

// setChildren replaces the children of a built tree's node, to break a
// model on purpose.
func setChildren(n *Node, kids []*Node) {
	k := n.File.kids
	n.kidAt, n.kidN = int32(len(k.all)), int32(len(kids))
	k.all = append(k.all, kids...)
}
