package tree

import (
	"fmt"
	"testing"
)

func TestUUIDIndex(t *testing.T) {
	tests := []struct {
		name    string
		put     []string // uuids put in order
		get     string
		wantIdx int // index in put of the node found; -1 none
		wantOld []int
	}{
		{"empty", nil, "a", -1, nil},
		{"one", []string{"a"}, "a", 0, []int{-1}},
		{"missing", []string{"a", "b"}, "c", -1, []int{-1, -1}},
		{"empty uuid is never found", []string{"a"}, "", -1, []int{-1}},
		{"later wins", []string{"a", "b", "a"}, "a", 2, []int{-1, -1, 0}},
		{"grows past its size", seq(100), "u57", 57, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := newUUIDIndex(1)
			nodes := make([]*Node, len(tc.put))
			for i, u := range tc.put {
				nodes[i] = &Node{}
				nodes[i].UUID = u
				old := x.put(nodes[i])
				if tc.wantOld == nil {
					continue
				}
				want := (*Node)(nil)
				if w := tc.wantOld[i]; w >= 0 {
					want = nodes[w]
				}
				if old != want {
					t.Errorf("put %d (%s) replaced %v, want %v", i, u, old, want)
				}
			}
			got := x.get(tc.get)
			want := (*Node)(nil)
			if tc.wantIdx >= 0 {
				want = nodes[tc.wantIdx]
			}
			if got != want {
				t.Errorf("get(%q) = %p, want %p", tc.get, got, want)
			}
			if 2*x.n > len(x.slots) {
				t.Errorf("%d uuids in %d slots: more than half full", x.n, len(x.slots))
			}
		})
	}
	var nilIdx *uuidIndex
	if nilIdx.get("a") != nil {
		t.Error("a nil index found something")
	}
}

func seq(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("u%d", i)
	}
	return s
}

// TestMsgLines checks that the lines of one response are found in file
// order, keyed by file, sidechain flag and message.id.
func TestMsgLines(t *testing.T) {
	main, other := &File{Name: "main"}, &File{Name: "agent"}
	type line struct {
		file      *File
		sidechain bool
		typ, id   string
	}
	lines := []line{
		{main, false, "assistant", "m1"},  // 0
		{main, false, "user", "m1"},       // 1: not an assistant line
		{main, false, "assistant", "m2"},  // 2
		{main, false, "assistant", "m1"},  // 3
		{main, true, "assistant", "m1"},   // 4: a sidechain's
		{other, false, "assistant", "m1"}, // 5: another file's
		{main, false, "assistant", ""},    // 6: no id
		{main, false, "assistant", "m1"},  // 7
	}
	tr := &Tree{}
	for i, l := range lines {
		n := &Node{File: l.file, pos: int32(i)}
		n.Sidechain, n.Type, n.MessageID = l.sidechain, l.typ, l.id
		tr.Nodes = append(tr.Nodes, n)
	}
	b := &builder{t: tr}
	b.index()
	tests := []struct {
		of   int
		want []int
	}{
		{0, []int{0, 3, 7}},
		{3, []int{0, 3, 7}},
		{7, []int{0, 3, 7}},
		{2, []int{2}},
		{4, []int{4}},
		{5, []int{5}},
		{6, []int{6}},
	}
	for _, tc := range tests {
		var got []int
		for _, n := range tr.msgLines(nil, tr.Nodes[tc.of]) {
			got = append(got, int(n.pos))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("lines of the response of line %d: %v, want %v", tc.of, got, tc.want)
		}
	}
}
