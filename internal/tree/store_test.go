package tree

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// kidNodes makes n nodes of one file, by position, sharing a store that is
// being built.
func kidNodes(n int) []*Node {
	f := &File{}
	k := newKidStore(n)
	f.kids = &k
	nodes := make([]*Node, n)
	for i := range nodes {
		nodes[i] = &Node{File: f, pos: int32(i)}
	}
	return nodes
}

// kidsOf says every node's children, "0:1,2 1:- …", positions in order.
func kidsOf(nodes []*Node) string {
	var b strings.Builder
	for _, n := range nodes {
		fmt.Fprintf(&b, "%d:", n.pos)
		ks := n.Children()
		if len(ks) == 0 {
			b.WriteString("-")
		}
		for i, c := range ks {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprint(&b, c.pos)
		}
		b.WriteString(" ")
	}
	return strings.TrimSpace(b.String())
}

// TestKidStore: while a tree is built a node's only child is kept in one
// array and two or more in a list; links are added, moved (reparent, in
// file order) and cut (removeNode, which edits a list in place). An only
// child's list ends where its slot does: appending to it leaves every
// node's children as they were. compact keeps them all, in order.
func TestKidStore(t *testing.T) {
	link := func(nodes []*Node, p, c int) {
		nodes[c].Parent = nodes[p]
		nodes[p].File.kids.add(nodes[p], nodes[c])
	}
	cut := func(nodes []*Node, c int) {
		n := nodes[c]
		n.Parent.setKids(removeNode(n.Parent.Children(), n))
		n.setParent(nil)
	}
	for _, tc := range []struct {
		name string
		do   func(nodes []*Node)
		want string
	}{
		{"none", func([]*Node) {}, "0:- 1:- 2:- 3:- 4:- 5:-"},
		{"only children", func(ns []*Node) { link(ns, 0, 1); link(ns, 1, 2); link(ns, 2, 3) }, "0:1 1:2 2:3 3:- 4:- 5:-"},
		{"a second and third child", func(ns []*Node) { link(ns, 0, 1); link(ns, 0, 2); link(ns, 0, 3) }, "0:1,2,3 1:- 2:- 3:- 4:- 5:-"},
		{"an append to an only child's list", func(ns []*Node) {
			link(ns, 0, 2)
			link(ns, 1, 3)
			_ = append(ns[0].Children(), ns[5])
		}, "0:2 1:3 2:- 3:- 4:- 5:-"},
		{"cut the only child", func(ns []*Node) { link(ns, 0, 1); link(ns, 1, 2); cut(ns, 1) }, "0:- 1:2 2:- 3:- 4:- 5:-"},
		{"cut one of two: one left", func(ns []*Node) { link(ns, 0, 1); link(ns, 0, 2); cut(ns, 1); link(ns, 0, 3) }, "0:2,3 1:- 2:- 3:- 4:- 5:-"},
		{"cut in place, then add", func(ns []*Node) {
			link(ns, 0, 1)
			link(ns, 0, 2)
			link(ns, 0, 3)
			held := slices.Clone(ns[0].Children())
			cut(ns, 1)
			link(ns, 0, 4)
			if got := ns[0].Children(); !slices.Equal(got, []*Node{ns[2], ns[3], ns[4]}) || len(held) != 3 {
				panic("children")
			}
		}, "0:2,3,4 1:- 2:- 3:- 4:- 5:-"},
		{"reparent under an only child's parent, in file order", func(ns []*Node) {
			link(ns, 0, 3)
			link(ns, 1, 2)
			link(ns, 1, 4)
			reparent(ns[2], ns[0])
		}, "0:2,3 1:4 2:- 3:- 4:- 5:-"},
		{"reparent next to a neighbour's only child", func(ns []*Node) {
			link(ns, 0, 3)
			link(ns, 1, 4) // only[1], right after only[0]
			link(ns, 2, 5)
			reparent(ns[5], ns[0])
		}, "0:3,5 1:4 2:- 3:- 4:- 5:-"},
		{"reparent to none", func(ns []*Node) { link(ns, 0, 1); reparent(ns[1], nil) }, "0:- 1:- 2:- 3:- 4:- 5:-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes := kidNodes(6)
			tc.do(nodes)
			if got := kidsOf(nodes); got != tc.want {
				t.Fatalf("while building: %s\nwant %s", got, tc.want)
			}
			for _, n := range nodes {
				// An only child's list is a slot of the array: an append
				// must not reach the next node's.
				if l := n.Children(); len(l) <= 1 && cap(l) != len(l) {
					t.Errorf("node %d: a list of %d children with room for %d: an append would write into the store", n.pos, len(l), cap(l))
				}
			}
			nodes[0].File.kids.compact(nodes)
			if got := kidsOf(nodes); got != tc.want {
				t.Fatalf("compacted: %s\nwant %s", got, tc.want)
			}
			for _, n := range nodes {
				if l := n.Children(); cap(l) != len(l) {
					t.Errorf("compacted: node %d: a list of %d children with room for %d", n.pos, len(l), cap(l))
				}
			}
		})
	}
}

// TestInternerStrings: a string the reader makes in the arena
// (interner.bytes) keeps its bytes when the reader's buffer is written
// over, is not copied again by str (owns), and a string of an earlier
// chunk or outside the arena is copied, not shared.
func TestInternerStrings(t *testing.T) {
	var in interner
	buf := []byte("0123456789abcdef")
	s := in.bytes(buf[:8])
	copy(buf, "XXXXXXXXXXXXXXXX")
	if s != "01234567" {
		t.Fatalf("bytes: %q after the buffer was overwritten", s)
	}
	if !in.owns(s) || in.str(s) != s || len(in.arena) != 8 {
		t.Errorf("str copied a string of the arena's chunk again (owns %v, arena %d bytes)", in.owns(s), len(in.arena))
	}
	heap := strings.Repeat("z", 8)
	if in.owns(heap) || in.owns("") {
		t.Error("owns: a string outside the arena")
	}
	if c := in.str(heap); c != heap || !in.owns(c) {
		t.Error("str: a short string is not copied into the arena")
	}
	long := make([]byte, maxArenaString+1)
	ls := in.bytes(long)
	long[0] = 'x'
	if ls[0] != 0 || in.owns(ls) {
		t.Error("bytes: a long string aliases the reader's buffer or the arena")
	}
	if in.bytes(nil) != "" {
		t.Error("bytes(nil)")
	}
	// Fill the first chunk: the next string starts another.
	for len(in.arena)+8 <= cap(in.arena) {
		in.str(heap)
	}
	n := in.str("abcdefgh")
	if in.owns(s) {
		t.Error("owns: a string of the previous chunk")
	}
	if s != "01234567" || n != "abcdefgh" {
		t.Errorf("strings changed by a new chunk: %q, %q", s, n)
	}
}

// TestNodeList: nodes come back in the order added, across the chunks.
func TestNodeList(t *testing.T) {
	for _, n := range []int{0, 1, 8, 9, 24, 25, 1000, 20000} {
		var l nodeList
		nodes := make([]Node, n)
		for i := range nodes {
			l.add(&nodes[i])
		}
		i := 0
		for got := range l.all() {
			if i >= n || got != &nodes[i] {
				t.Fatalf("%d nodes: node %d out of order", n, i)
			}
			i++
		}
		if i != n || l.n != n {
			t.Errorf("%d nodes: %d yielded, n = %d", n, i, l.n)
		}
		for range l.all() {
			break // a stop is honoured
		}
	}
}
