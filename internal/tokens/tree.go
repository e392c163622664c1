package tokens

import (
	"sort"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TreeUsage is the usage of one session counted from its tree.
type TreeUsage struct {
	Total     Total
	Responses []Response // a timeline: sorted by time
	// MainPath is the path the counter recorded for the main file
	// (Response.File of its lines).
	MainPath string
}

// CountTree totals the usage of a session from its tree, exactly as
// `cctx tokens` counts one session (the same rule, the files in the same
// order, responses as a timeline), so that show's header, tree's runs and
// the agents report equal its report. It feeds the counter the envelopes
// the tree already holds (its nodes and the lines it dropped) instead of
// reading every file again. sessionID names the session ("" takes the
// tree's); mainPath is the path to record for the main file ("" takes
// its own: standard input is spooled to a temporary file).
func CountTree(t *tree.Tree, sessionID, mainPath string, prices *Prices) TreeUsage {
	if sessionID == "" {
		sessionID = t.SessionID
	}
	if mainPath == "" && t.Main != nil {
		mainPath = t.Main.Path
	}
	c := NewCounter()
	n := 0 // at most one response an assistant line
	for _, nd := range t.Nodes {
		if nd.Type == "assistant" {
			n++
		}
	}
	for _, fl := range t.Files {
		n += len(fl.Dropped)
	}
	c.Grow(n)
	var cur *tree.File
	var cf *File
	t.Entries(func(fl *tree.File, e *reader.Entry) {
		if fl != cur {
			src := Source{SessionID: sessionID, Path: fl.Path}
			if fl == t.Main {
				src.Path = mainPath
			}
			if fl.Agent != nil {
				src.AgentID = fl.Agent.ID
			}
			cur, cf = fl, c.File(src)
		}
		cf.Add(e)
	})
	rs := c.Responses()
	// cctx tokens lists a session's responses as a timeline.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Time.Before(rs[j].Time) })
	return TreeUsage{Total: Sum(rs, prices), Responses: rs, MainPath: mainPath}
}

// NodesTokens is the total tokens of the API responses of some nodes, each
// response once (the largest usage of its lines), as cctx tokens counts.
func NodesTokens(nodes []*tree.Node) int64 {
	c := NewCounter()
	f := c.File(Source{})
	for _, n := range nodes {
		f.Add(&n.Entry)
	}
	return Sum(c.Responses(), nil).Tokens
}
