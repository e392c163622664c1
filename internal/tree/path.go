package tree

import (
	"slices"
	"sort"
)

func sortNodes(ns []*Node, less func(a, b *Node) bool) {
	sort.SliceStable(ns, func(i, j int) bool { return less(ns[i], ns[j]) })
}

// IsRealFork reports whether n's children start two or more branches: two
// typed prompts with different timestamps (a rewind or an edited prompt),
// or assistant replies with different message.id (a regenerated reply), or
// one of each. Children that are recording artifacts do not count: tool
// results of parallel calls, progress, hook attachments and system lines,
// assistant chunks of the parent's own response, local slash commands and
// interruption markers.
func IsRealFork(n *Node) bool {
	if len(n.Children()) < 2 {
		return false
	}
	starts := 0
	seenMsg := map[string]bool{}
	seenTime := map[int64]bool{}
	for _, c := range n.Children() {
		switch {
		case c.Agent() != n.Agent():
		case c.IsTypedPrompt():
			// Compaction replays write sibling prompts with one shared
			// timestamp: one branch, not a rewind.
			ts := c.Timestamp().UnixNano()
			if c.Timestamp().IsZero() || !seenTime[ts] {
				seenTime[ts] = true
				starts++
			}
		case c.Type == "assistant":
			id := c.MessageID
			if id != "" && n.Type == "assistant" && id == n.MessageID {
				continue
			}
			if id == "" || !seenMsg[id] {
				seenMsg[id] = true
				starts++
			}
		}
	}
	return starts >= 2
}

func (b *builder) markForks() {
	for _, n := range b.t.Nodes {
		n.Fork = IsRealFork(n)
	}
}

// isMainForLeaf is the TS SDK's notion of a main entry: not a sidechain,
// not a teammate's, not progress, not a fork_briefing attachment.
func isMainForLeaf(n *Node) bool {
	return n.IsMainConversation() && !n.Foreign && n.Type != "progress" && !(n.Type == "attachment" && n.Attachment() == "fork_briefing")
}

// selectLeaf picks the active leaf. TS SDK rule: take the main entries that
// have no main child, latest line first; from each, walk up to the first
// user or assistant entry, skipping nodes an earlier fruitless walk saw;
// the first hit wins. Python SDK fallback (no main candidate): from every
// entry nobody names as parent, walk up to the first user/assistant entry;
// prefer candidates that are not sidechain, team or meta, and take the
// latest line.
//
// An entry of a cut parent cycle (or one naming itself) is damage: it
// ends the conversation only when nothing else does. (What descends from
// it is conversation like any other.)
func (b *builder) selectLeaf() {
	t := b.t
	for _, cycles := range []bool{false, true} {
		if cycles && b.cyclic == nil {
			break
		}
		visited := map[*Node]bool{}
		for i := len(t.Nodes) - 1; i >= 0; i-- {
			n := t.Nodes[i]
			if !isMainForLeaf(n) || hasMainChild(n) {
				continue
			}
			for cur := n; cur != nil && !visited[cur]; cur = cur.Parent {
				visited[cur] = true
				if cur.IsConversation() {
					if !cycles && b.isCyclic(cur) {
						break // a second pass may take it
					}
					t.Leaf, t.LeafRule = cur, "ts"
					return
				}
			}
		}
	}
	var best, bestAny *Node
	seen := map[*Node]bool{}
	for _, n := range t.Nodes {
		if n.Agent() != nil && !n.Agent().Inline || len(n.Children()) > 0 {
			continue
		}
		walked := map[*Node]bool{}
		for cur := n; cur != nil && !walked[cur]; cur = cur.Parent {
			walked[cur] = true
			if !cur.IsConversation() {
				continue
			}
			if !seen[cur] {
				seen[cur] = true
				if bestAny == nil || cur.pos > bestAny.pos {
					bestAny = cur
				}
				if !cur.Sidechain && cur.TeamName() == "" && !cur.Meta && (best == nil || cur.pos > best.pos) {
					best = cur
				}
			}
			break
		}
	}
	if best == nil {
		best = bestAny
	}
	if best != nil {
		t.Leaf, t.LeafRule = best, "python"
	}
}

func hasMainChild(n *Node) bool {
	for _, c := range n.Children() {
		if isMainForLeaf(c) {
			return true
		}
	}
	return false
}

// PathTo returns the conversation that ends at n, root to n:
//
//  1. the parentUuid chain of n (cycle-guarded);
//  2. when the chain starts at a compact_boundary, the history before it,
//     from its logicalParentUuid up (by the parents the lines name, so the
//     messages a partial compaction kept are not walked twice), and so on
//     across every earlier compaction;
//  3. the recording artifacts repaired: for every assistant line on the
//     path, the other lines of its message.id (same file, same sidechain
//     flag) and the user lines answering any of their tool_use ids (by
//     tool_use_id or sourceToolAssistantUUID) are inserted after the last
//     line of that response on the path, by timestamp then file order.
//
// No node appears twice. Works for agent nodes too (within their file).
func (t *Tree) PathTo(n *Node) []*Node {
	if n == nil {
		return nil
	}
	// Sets of nodes are slices by position: a path of a long session has
	// 100 000 nodes, and maps keyed by node were most of the time here.
	seen := make([]bool, len(t.Nodes))
	// Sized from the chain's length (bounded: a chain is never longer
	// than the tree), where growing it step by step allocated four times
	// the path of a long session.
	size := 0
	for cur := n; cur != nil && size <= len(t.Nodes); cur = cur.Parent {
		size++
	}
	rev := make([]*Node, 0, size)
	for cur := n; cur != nil && !seen[cur.pos]; cur = cur.Parent {
		seen[cur.pos] = true
		rev = append(rev, cur)
	}
	guard := map[*Node]bool{}
	walked := make([]int32, len(t.Nodes)) // the hop that walked a node, 0 none
	for hop := int32(1); ; hop++ {
		top := rev[len(rev)-1]
		if top.LogicalParent() == nil || guard[top] {
			break
		}
		guard[top] = true
		added := false
		for cur := top.LogicalParent(); cur != nil && walked[cur.pos] != hop; cur = cur.uuidParent() {
			walked[cur.pos] = hop
			if !seen[cur.pos] {
				seen[cur.pos] = true
				rev = append(rev, cur)
				added = true
			}
		}
		if !added {
			break
		}
	}
	slices.Reverse(rev)
	return t.repair(rev, seen)
}

// repair inserts the missing lines of each response and the missing tool
// results (see PathTo). on is the set of nodes on path, by position; it is
// updated.
func (t *Tree) repair(path []*Node, on []bool) []*Node {
	index := make([]int32, len(t.Nodes)) // position on path + 1; 0: not on it
	for i, n := range path {
		index[n.pos] = int32(i) + 1
	}
	after := map[int][]*Node{}
	done := t.NewNodeSet() // responses done, by their first line
	var members []*Node
	for i, n := range path {
		if n.Type != "assistant" {
			continue
		}
		if n.MessageID == "" {
			members = append(members[:0], n)
		} else {
			first := t.msgs.first(n) // looked up once: half of repair's time was these lookups
			if done.Has(first) {
				continue
			}
			done.Add(first)
			members = t.msgLinesFrom(members[:0], first)
		}
		last := i
		var extra []*Node
		for _, m := range members {
			if j := int(index[m.pos]) - 1; j >= 0 {
				if j > last {
					last = j
				}
			} else if !on[m.pos] {
				on[m.pos] = true
				extra = append(extra, m)
			}
		}
		for _, m := range members {
			add := func(r *Node) {
				if !on[r.pos] && r.File == m.File && r.Sidechain == m.Sidechain {
					on[r.pos] = true
					extra = append(extra, r)
				}
			}
			for _, tu := range m.ToolUses() {
				for _, r := range t.results[tu.ID] {
					add(r)
				}
			}
			for _, r := range t.bySource[m] {
				add(r)
			}
		}
		if len(extra) > 0 {
			sortNodes(extra, func(a, b *Node) bool {
				if !a.Timestamp().Equal(b.Timestamp()) && !a.Timestamp().IsZero() && !b.Timestamp().IsZero() {
					return a.Timestamp().Before(b.Timestamp())
				}
				return a.pos < b.pos
			})
			after[last] = append(after[last], extra...)
		}
	}
	if len(after) == 0 {
		return path
	}
	out := make([]*Node, 0, len(path)+len(after))
	for i, n := range path {
		out = append(out, n)
		out = append(out, after[i]...)
	}
	return out
}

// findLeaves lists the ends of real branches: the active leaf, then every
// other conversation end (a main entry without a main child, walked up to
// its first user/assistant line) not already covered by the repaired path
// of a later leaf, and whose branch starts at a real fork (or at a root of
// its own). Covering walks stop at covered nodes, so the whole search is
// linear in the size of the tree.
func (b *builder) findLeaves() {
	t := b.t
	// Sets of nodes by position: a map of every node cost more to grow
	// than the walk itself on a large session.
	covered := t.NewNodeSet()
	for _, n := range t.active {
		covered.Add(n)
	}
	var leaves []*Node
	if t.Leaf != nil {
		leaves = append(leaves, t.Leaf)
	}
	// walked: the chains already walked up. A walk stops there, not at a
	// node merely covered as a sibling line of a response: the walk must
	// go on above it (a split response's first line is its parent).
	walked := t.NewNodeSet()
	for _, n := range t.active {
		walked.Add(n)
	}
	var members []*Node
	cover := func(n *Node) {
		for cur := n; cur != nil && !walked.Has(cur); cur = cur.Parent {
			walked.Add(cur)
			covered.Add(cur)
			if cur.Type != "assistant" {
				continue
			}
			members = t.msgLines(members[:0], cur)
			for _, m := range members {
				covered.Add(m)
				for _, tu := range m.ToolUses() {
					for _, r := range t.results[tu.ID] {
						covered.Add(r)
					}
				}
				for _, r := range t.bySource[m] {
					covered.Add(r)
				}
			}
		}
	}
	visited := t.NewNodeSet()
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		if !isMainForLeaf(n) || hasMainChild(n) {
			continue
		}
		var cand *Node
		for cur := n; cur != nil && !visited.Has(cur); cur = cur.Parent {
			visited.Add(cur)
			if cur.IsConversation() {
				cand = cur
				break
			}
		}
		if cand == nil || covered.Has(cand) || cand != t.Leaf && b.isCyclic(cand) {
			continue // an entry of a cut cycle is listed with the cycles
		}
		if realBranchEnd(cand, covered) {
			leaves = append(leaves, cand)
		}
		cover(cand)
	}
	sortNodes(leaves, func(a, b *Node) bool { return a.pos < b.pos })
	t.leaves = leaves
}

// realBranchEnd reports whether the chain above n reaches a real fork
// through a branch start (a typed prompt or a reply), or a root: the end of
// a /doctor record under an artifact fork is not a branch.
//
// A node with several children that is not a real fork is climbed past
// when the child the walk came from is a chunk of that node's own response
// or a tool result: parallel tool calls split a branch into such artifacts,
// and the branch still starts at the real fork above (decided there). It
// is not climbed past when another leaf's branch already covers it: then n
// hangs under an artifact of a counted branch, not under a fork of its own.
func realBranchEnd(n *Node, covered NodeSet) bool {
	seen := map[*Node]bool{}
	prev := n
	for cur := n.Parent; cur != nil && !seen[cur]; cur = cur.Parent {
		seen[cur] = true
		switch {
		case cur.Fork:
			return prev.IsTypedPrompt() || prev.Type == "assistant"
		case covered.Has(cur):
			return false
		case len(cur.Children()) >= 2 && !isArtifactChild(cur, prev):
			return false
		}
		prev = cur
	}
	return true
}

// isArtifactChild reports whether c is, under p, a recording artifact that
// continues p's branch: another chunk of p's response, or a tool result.
func isArtifactChild(p, c *Node) bool {
	if len(c.ToolResults()) > 0 {
		return true
	}
	return c.Type == "assistant" && p.Type == "assistant" && c.MessageID != "" && c.MessageID == p.MessageID
}

// NodeSet is a set of a tree's nodes by their position in Tree.Nodes:
// one allocation, where a map of a long path costs more to fill than the
// walk over it.
type NodeSet []bool

// NewNodeSet returns an empty set for the nodes of t.
func (t *Tree) NewNodeSet() NodeSet { return make(NodeSet, len(t.Nodes)) }

// Has reports whether n is in the set.
func (s NodeSet) Has(n *Node) bool { return int(n.pos) < len(s) && s[n.pos] }

// Add adds n; a node that is not in Tree.Nodes (none should be) is left
// out rather than grown for.
func (s NodeSet) Add(n *Node) {
	if int(n.pos) < len(s) {
		s[n.pos] = true
	}
}
