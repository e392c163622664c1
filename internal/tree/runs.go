package tree

import "slices"

// Layout is the conversation as cctx tree draws it: linear stretches of
// entries collapsed into runs, split at real forks and compaction
// junctions, with the recording artifacts (parallel tool results, progress
// and hook lines) folded into the run they interrupt.
//
// A node's display children are its Children plus the compaction
// boundaries whose history ends at it (the conversation goes on there).
// At an artifact fork the run continues through one child: the active
// one, else the one whose subtree reaches furthest in the file.
type Layout struct {
	t *Tree
	// By node position (Node.Pos): maps keyed by node cost a third of the
	// time to draw a session of 200 000 lines.
	//
	// kids holds only the nodes whose display children are not their
	// Children (the ends of a history a compaction continues): a slice
	// per node cost 24 bytes a node.
	kids  map[*Node][]*Node
	reach []int32 // latest file position in the subtree
	// mark and gen are Run's visited set: a node is marked in the current
	// run when mark[pos] == gen, so a run costs nothing to clear.
	mark []uint32
	gen  uint32
}

// Layout computes the display children and reach of every node.
func (t *Tree) Layout() *Layout {
	n := len(t.Nodes)
	l := &Layout{t: t, kids: map[*Node][]*Node{}, reach: make([]int32, n)}
	for _, n := range t.Roots {
		if lp := t.historyEnd(n); lp != nil {
			// Clip: the junction must not write into the tree's Children.
			l.kids[lp] = append(slices.Clip(l.children(lp)), n)
		}
	}
	// Reach by a reversed preorder: children before parents.
	order := make([]*Node, 0, n)
	seen := make([]bool, n)
	stack := append([]*Node(nil), t.Roots...)
	for _, a := range t.Agents {
		stack = append(stack, a.Roots...)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n.pos] {
			continue
		}
		seen[n.pos] = true
		order = append(order, n)
		stack = append(stack, l.children(n)...)
	}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		r := int32(n.pos)
		for _, k := range l.children(n) {
			r = max(r, l.reach[k.pos])
		}
		l.reach[n.pos] = r
	}
	return l
}

// historyEnd is the entry a compaction boundary's junction hangs from:
// its logical parent, the last entry before the compaction. A partial
// compaction moves the messages it kept (its preservedSegment) to after
// the summary, and the logical parent is often the last of them: it is
// then below the boundary, and a junction hung from it would close a loop
// that no drawing reaches. The history then ends where the kept messages
// were taken from: the first entry up the line-named parents that is not
// below the boundary.
// It is nil when there is none to hang from: the kept messages go back to
// the session's first entry, the walk meets a parent cycle, or the entry
// is an agent's; the boundary is then drawn as a start (Starts).
func (t *Tree) historyEnd(boundary *Node) *Node {
	lp := boundary.LogicalParent()
	for steps := 0; lp != nil && t.below(lp, boundary); steps++ {
		if steps > len(t.Nodes) {
			return nil // the parents the lines name form a cycle
		}
		lp = lp.uuidParent()
	}
	if lp != nil && lp.Agent() != nil {
		return nil
	}
	return lp
}

// below reports whether n is boundary or under it, by the model's parents.
func (t *Tree) below(n, boundary *Node) bool {
	for cur, steps := n, 0; cur != nil && steps <= len(t.Nodes); cur, steps = cur.Parent, steps+1 {
		if cur == boundary {
			return true
		}
	}
	return false
}

// children are n's display children (see Children).
func (l *Layout) children(n *Node) []*Node {
	if ks, ok := l.kids[n]; ok {
		return ks
	}
	return n.Children()
}

// Children are n's display children: its children and the compaction
// boundaries that continue after it.
func (l *Layout) Children(n *Node) []*Node { return l.children(n) }

// Continue picks the child a run continues through at an artifact fork:
// the active one, else the one whose subtree reaches furthest in the file.
func (l *Layout) Continue(ks []*Node) *Node {
	var best *Node
	for _, k := range ks {
		switch {
		case best == nil:
			best = k
		case k.Active != best.Active:
			if k.Active {
				best = k
			}
		case l.reach[k.pos] > l.reach[best.pos]:
			best = k
		}
	}
	return best
}

// Branches splits the display children of a real fork into the starts of
// its branches (typed prompts, replies with a new message.id) and the
// artifacts beside them.
func (l *Layout) Branches(n *Node) (starts, rest []*Node) {
	seen := map[string]bool{}
	for _, k := range l.children(n) {
		switch {
		case k.IsTypedPrompt():
			starts = append(starts, k)
		case k.Type == "assistant" && !(n.Type == "assistant" && k.MessageID != "" && k.MessageID == n.MessageID) && (k.MessageID == "" || !seen[k.MessageID]):
			seen[k.MessageID] = true
			starts = append(starts, k)
		default:
			rest = append(rest, k)
		}
	}
	return starts, rest
}

// Run is a collapsed stretch of the conversation.
type Run struct {
	Nodes []*Node // the chain and the side nodes folded into it
	End   *Node   // last node of the chain
	Next  *Node   // the compaction junction that follows, if any
}

// Active reports whether the run has a node on the active path.
func (r Run) Active() bool {
	for _, n := range r.Nodes {
		if n.Active {
			return true
		}
	}
	return false
}

// Run follows the chain from start through artifact forks until a real
// fork, a compaction junction or the end, folding side subtrees.
func (l *Layout) Run(start *Node) Run {
	// Walked twice, to count and then to fill a list of the exact size: a
	// list grown by appends allocated five times its final size on a
	// million-entry chain (Go grows a large slice by a quarter), garbage
	// that raised the peak of tree (issue 23.3).
	size := 0
	l.walkRun(start, func(*Node) { size++ })
	r := Run{Nodes: make([]*Node, 0, size)}
	r.End, r.Next = l.walkRun(start, func(n *Node) { r.Nodes = append(r.Nodes, n) })
	return r
}

// walkRun visits the nodes of the run from start in Run's order and
// returns the run's End and Next.
func (l *Layout) walkRun(start *Node, visit func(*Node)) (end, next *Node) {
	var stack []*Node
	fold := func(n *Node) {
		stack = append(stack[:0], n)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			visit(c)
			stack = append(stack, l.children(c)...)
		}
	}
	if l.gen++; l.gen == 0 { // wrapped: clear the marks once
		clear(l.mark)
		l.gen = 1
	}
	if l.mark == nil {
		l.mark = make([]uint32, len(l.t.Nodes))
	}
	for cur := start; cur != nil && l.mark[cur.pos] != l.gen; {
		l.mark[cur.pos] = l.gen
		visit(cur)
		end = cur
		ks := l.children(cur)
		if len(ks) == 0 {
			break
		}
		if cur.Fork {
			_, rest := l.Branches(cur)
			for _, k := range rest {
				fold(k)
			}
			break
		}
		c := l.Continue(ks)
		for _, k := range ks {
			if k != c {
				fold(k)
			}
		}
		if c.IsCompactBoundary() && c.Parent == nil {
			next = c
			break
		}
		cur = c
	}
	return end, next
}

// Starts are the main conversation's roots a drawing starts from: every
// root but the compaction boundaries that continue a history (drawn as
// junctions), and islands and cut cycles (listed apart) unless the
// session's active path starts there: the conversation is drawn whole
// wherever it starts.
func (t *Tree) Starts() []*Node {
	var out []*Node
	for _, r := range t.Roots {
		if t.historyEnd(r) != nil || t.IsIslandOrCycle(r) && !r.Active {
			continue
		}
		out = append(out, r)
	}
	return out
}

// IsIslandOrCycle reports whether n is the root of an island or the node
// whose link closed a parent cycle.
func (t *Tree) IsIslandOrCycle(n *Node) bool {
	for _, is := range t.Islands {
		if is.Root == n {
			return true
		}
	}
	for _, c := range t.Cycles {
		if c.Node == n {
			return true
		}
	}
	return false
}

// MainForks are the real forks of the main conversation (not of agents).
func (t *Tree) MainForks() []*Node {
	var out []*Node
	for _, n := range t.Forks() {
		if n.Agent() == nil {
			out = append(out, n)
		}
	}
	return out
}

// MainEntries is the number of nodes of the main conversation's file.
func (t *Tree) MainEntries() int {
	n := 0
	for _, nd := range t.Nodes {
		if nd.Agent() == nil {
			n++
		}
	}
	return n
}

// Compactions is the number of compaction boundaries of the main file.
func (t *Tree) Compactions() int {
	n := 0
	for _, nd := range t.Nodes {
		if nd.IsCompactBoundary() && nd.Agent() == nil {
			n++
		}
	}
	return n
}

// PromptLabel is the first typed prompt of a stretch of nodes as ls titles
// a session (reader.PromptOf: IDE selections, reminders and notifications
// skipped, a slash command as "/name args"); else its first local command
// or bash input; "" when it has neither.
func PromptLabel(nodes []*Node) string {
	fallback := ""
	for _, n := range nodes {
		switch {
		case n.IsTypedPrompt():
			return n.Label()
		case fallback == "" && n.Type == "user" && !n.Meta && !n.CompactSummary && len(n.ToolResults()) == 0:
			fallback = n.Label() // a local command or bash input, if any
		}
	}
	return fallback
}

// ToolCalls is the number of tool_use blocks of the nodes.
func ToolCalls(nodes []*Node) int {
	c := 0
	for _, n := range nodes {
		c += len(n.ToolUses())
	}
	return c
}

// ToolName is the name of the tool call id answered by a result, "" when
// the call is not in the session.
func (t *Tree) ToolName(id string) string {
	if tu := t.ToolUseNode(id); tu != nil {
		for _, f := range tu.ToolUses() {
			if f.ID == id {
				return f.Name
			}
		}
	}
	return ""
}

// NoReply reports whether a warm-up agent got no reply (its last
// conversation line is not the model's): Claude Code does not wait for one.
func (a *Agent) NoReply() bool { return a.Warmup && (a.Leaf == nil || a.Leaf.Type != "assistant") }

// Prompts is the number of prompts a person typed in the main
// conversation, on every branch (reader.Entry.IsTypedPrompt): what ls -l
// counts, and show's header, whatever part of the session it shows.
func (t *Tree) Prompts() int {
	n := 0
	for _, nd := range t.Nodes {
		if nd.Agent() == nil && !nd.Sidechain && nd.IsTypedPrompt() {
			n++
		}
	}
	return n
}

// Subagents is how many subagents the session ran whose transcript is
// there: agent files and inline sidechains, not compaction agents
// (session.Subagents counts the same on disk, for ls).
func (t *Tree) Subagents() int {
	n := 0
	for _, a := range t.Agents {
		if !a.Compaction {
			n++
		}
	}
	return n
}
