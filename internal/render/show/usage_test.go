package show

import (
	"iter"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"

	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TestAttachUsage checks which shown line gets which response: by
// (message.id, requestId), the last such response; a line without
// requestId by its message.id's first response; a line without
// message.id by the file and line the counter kept; each response once,
// on its first shown line. Responses of lines not shown still count in
// the agent totals.
func TestAttachUsage(t *testing.T) {
	f := &tree.File{Path: "/s.jsonl"}
	line := func(typ, mid, rid string, at int) *tree.Node {
		return tree.NewNode(f, reader.Entry{Type: typ, MessageID: mid, RequestID: rid, Line: at})
	}
	resp := func(mid, rid string, at int, agent string) tokens.Response {
		return tokens.Response{MessageID: mid, RequestID: rid, File: "/s.jsonl", Line: at, AgentID: agent}
	}
	tests := []struct {
		name  string
		items []*tree.Node
		resps []tokens.Response
		want  []int // per item: index in resps of its usage, -1 none
	}{
		{"by id and request", []*tree.Node{line("assistant", "m1", "r1", 1)},
			[]tokens.Response{resp("m1", "r0", 1, ""), resp("m1", "r1", 1, "")}, []int{1}},
		{"the last of one id and request",
			[]*tree.Node{line("assistant", "m1", "r1", 1)},
			[]tokens.Response{resp("m1", "r1", 1, ""), resp("m1", "r1", 2, "")}, []int{1}},
		{"no request: the first of the id",
			[]*tree.Node{line("assistant", "m1", "", 3)},
			[]tokens.Response{resp("m1", "ra", 1, ""), resp("m1", "rb", 2, "")}, []int{0}},
		{"no id: by file and line",
			[]*tree.Node{line("assistant", "", "", 2)},
			[]tokens.Response{resp("", "", 1, ""), resp("", "", 2, ""), resp("", "", 3, "")}, []int{1}},
		{"once, on the first shown line",
			[]*tree.Node{line("assistant", "m1", "r1", 1), line("assistant", "m1", "r1", 2)},
			[]tokens.Response{resp("m1", "r1", 2, "")}, []int{0, -1}},
		{"once, found by id and request and by id alone",
			[]*tree.Node{line("assistant", "m1", "r1", 1), line("assistant", "m1", "", 2)},
			[]tokens.Response{resp("m1", "r1", 1, ""), resp("m2", "r2", 3, "")}, []int{0, -1}},
		{"user lines get none",
			[]*tree.Node{line("user", "m1", "r1", 1)},
			[]tokens.Response{resp("m1", "r1", 1, "")}, []int{-1}},
		{"no response for the line",
			[]*tree.Node{line("assistant", "m2", "r2", 5)},
			[]tokens.Response{resp("m1", "r1", 1, "")}, []int{-1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := &Doc{usage: map[*tree.Node]*tokens.Response{}, agentTotals: map[string]tokens.Total{}}
			for _, n := range tc.items {
				d.Items = append(d.Items, Item{Node: n})
			}
			d.attachUsage(Report{Responses: ptrs(tc.resps)})
			for i, n := range tc.items {
				got := d.Usage(n)
				var want *tokens.Response
				if tc.want[i] >= 0 {
					want = &tc.resps[tc.want[i]]
				}
				if (got == nil) != (want == nil) || got != nil && *got != *want {
					t.Errorf("item %d: usage %+v, want %+v", i, got, want)
				}
			}
		})
	}
	// Every response counts in its agent's total, shown or not.
	d := &Doc{usage: map[*tree.Node]*tokens.Response{}, agentTotals: map[string]tokens.Total{}}
	d.attachUsage(Report{Responses: ptrs([]tokens.Response{resp("m1", "r1", 1, "a1"), resp("m2", "r2", 2, "a1"), resp("m3", "r3", 3, "")})})
	if got := d.AgentTotal("a1").APICalls; got != 2 {
		t.Errorf("agent a1 total: %d API calls, want 2", got)
	}
}

// ptrs yields the responses of a list as tokens.TreeUsage.All does: into
// one value, overwritten at each step (what attachUsage keeps, it copies).
func ptrs(rs []tokens.Response) iter.Seq[*tokens.Response] {
	return func(yield func(*tokens.Response) bool) {
		var r tokens.Response
		for i := range rs {
			r = rs[i]
			if !yield(&r) {
				return
			}
		}
	}
}
