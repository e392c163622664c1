package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TreeOptions are the flags of cctx tree.
type TreeOptions struct {
	F       *Factory
	Session string
	Full    bool
	Agents  bool
}

// NewCmdTree builds `cctx tree`. runF replaces the run function in tests.
func NewCmdTree(f *Factory, runF func(*TreeOptions) error) *cobra.Command {
	o := &TreeOptions{F: f}
	c := &cobra.Command{
		Use:   "tree <session>",
		Short: "Show the branches, compactions and subagents of a session",
		Long: `Show the shape of a session: its uuid DAG as a compact tree.

Linear runs of entries are collapsed to one line with their count, time,
tokens and first prompt. Real forks (a rewind, an edited prompt, a
regenerated reply) show each branch; the active branch (the one the session
ends on) is marked with ●, abandoned ones with ○ and dimmed. Recording
artifacts (parallel tool results, progress and hook lines, chunks of one
response) are not forks and stay folded into their run. Compactions show as
junctions with their trigger and the tokens before them; subagents hang
under the run holding the tool call that spawned them. Islands (entries whose
parent is missing) and cycles are listed at the end.

--full shows every entry on its own line. --json prints a flat list of nodes.`,
		Example: `  cctx tree latest
  cctx tree b3ed --full
  cctx tree b3ed --agents=false
  cctx tree b3ed --json | jq -r '.nodes[] | select(.fork) | .uuid'`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			if runF != nil {
				return runF(o)
			}
			return treeRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.Full, "full", false, "show every entry, not collapsed runs")
	fl.BoolVar(&o.Agents, "agents", true, "show subagents under the tool calls that spawned them")
	return c
}

func treeRun(o *TreeOptions) error {
	f := o.F
	finder, err := f.Finder()
	if err != nil {
		return err
	}
	s, err := finder.Resolve(o.Session)
	if err != nil {
		return err
	}
	var t *tree.Tree
	if s.Path == session.StdinPath {
		t, err = tree.Read(f.IO.In, "<stdin>", f.Report()) // the command's streams, as show reads them
	} else {
		t, err = tree.Load(finder, s, f.Report())
	}
	if err != nil {
		return err
	}
	if t.SessionID == "" {
		t.SessionID = s.ID
	}
	if f.Globals.JSON {
		err = render.JSON(f.IO.Out, treeJSON(t, o.Agents), f.Render())
	} else {
		err = newTreeView(t, o, f.Render(), f.IO.Out).render()
	}
	if err != nil {
		return err
	}
	return unreadableFiles(f)
}

// treeJSONDoc is the --json document: a flat list of nodes.
type treeJSONDoc struct {
	SchemaVersion int            `json:"schema_version"`
	SessionID     string         `json:"session_id"`
	ActiveLeaf    *string        `json:"active_leaf"`
	Roots         []string       `json:"roots"`
	Leaves        []string       `json:"leaves"`
	Nodes         []treeJSONNode `json:"nodes"`
	Warnings      []string       `json:"warnings"`
}

type treeJSONNode struct {
	UUID              string   `json:"uuid"`
	ParentUUID        *string  `json:"parent_uuid"`
	LogicalParentUUID *string  `json:"logical_parent_uuid"`
	Type              string   `json:"type"`
	Subtype           *string  `json:"subtype"`
	Timestamp         *string  `json:"timestamp"`
	AgentID           *string  `json:"agent_id"`
	MessageID         *string  `json:"message_id"`
	Children          []string `json:"children"`
	Active            bool     `json:"active"`
	Fork              bool     `json:"fork"`
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// treeJSON flattens the model. A subagent's root names the node that
// spawned it as parent_uuid, and is listed among that node's children, so
// the flat list links agents under their tool call; an agent nothing links
// is a root.
func treeJSON(t *tree.Tree, agents bool) treeJSONDoc {
	doc := treeJSONDoc{SchemaVersion: 1, SessionID: t.SessionID, Roots: []string{}, Leaves: []string{}, Nodes: []treeJSONNode{}, Warnings: []string{}}
	if t.Leaf != nil {
		doc.ActiveLeaf = &t.Leaf.UUID
	}
	for _, n := range t.Roots {
		doc.Roots = append(doc.Roots, n.UUID)
	}
	for _, n := range t.Leaves() {
		doc.Leaves = append(doc.Leaves, n.UUID)
	}
	agentRoot := map[*tree.Node]*tree.Agent{}
	if agents {
		for _, a := range t.Agents {
			for _, r := range a.Roots {
				agentRoot[r] = a
				if a.Spawn == nil {
					doc.Roots = append(doc.Roots, r.UUID)
				}
			}
		}
	}
	for _, n := range t.Nodes {
		if n.Agent != nil && !agents {
			continue
		}
		jn := treeJSONNode{
			UUID: n.UUID, Type: n.Type, Subtype: strPtr(n.Subtype),
			MessageID: strPtr(n.MessageID), Children: []string{}, Active: n.Active, Fork: n.Fork,
		}
		if n.Parent != nil {
			jn.ParentUUID = &n.Parent.UUID
		} else if a := agentRoot[n]; a != nil && a.Spawn != nil {
			jn.ParentUUID = &a.Spawn.UUID
		}
		if n.LogicalParent != nil {
			jn.LogicalParentUUID = &n.LogicalParent.UUID
		} else {
			jn.LogicalParentUUID = strPtr(n.LogicalParentUUID)
		}
		jn.Timestamp = render.JSONTimeOrNull(n.Timestamp)
		if n.Agent != nil {
			jn.AgentID = &n.Agent.ID
		}
		for _, c := range n.Children {
			jn.Children = append(jn.Children, c.UUID)
		}
		if agents {
			for _, a := range n.Agents {
				for _, r := range a.Roots {
					jn.Children = append(jn.Children, r.UUID)
				}
			}
		}
		doc.Nodes = append(doc.Nodes, jn)
	}
	for _, w := range t.Warnings {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	return doc
}

// treeView draws the tree for people.
type treeView struct {
	t   *tree.Tree
	o   *TreeOptions
	ro  render.Options
	th  render.Theme
	w   io.Writer
	err error
	// By node position (Node.Pos): maps keyed by node cost a third of the
	// time to draw a session of 200 000 lines.
	kids  [][]*tree.Node // display children: Children plus compaction junctions
	reach []int          // latest file position in the subtree
	day   time.Time      // the session's first day, for short times
}

func newTreeView(t *tree.Tree, o *TreeOptions, ro render.Options, w io.Writer) *treeView {
	n := len(t.Nodes)
	v := &treeView{t: t, o: o, ro: ro, th: ro.Theme, w: w,
		kids: make([][]*tree.Node, n), reach: make([]int, n)}
	for _, n := range t.Nodes {
		v.kids[n.Pos()] = n.Children
	}
	for _, n := range t.Roots {
		if lp := n.LogicalParent; lp != nil && lp.Agent == nil {
			// Clip: the junction must not write into the tree's Children.
			v.kids[lp.Pos()] = append(slices.Clip(v.kids[lp.Pos()]), n)
		}
	}
	// Reach by a reversed preorder: children before parents.
	var order []*tree.Node
	seen := make([]bool, n)
	stack := append([]*tree.Node(nil), t.Roots...)
	for _, a := range t.Agents {
		stack = append(stack, a.Roots...)
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n.Pos()] {
			continue
		}
		seen[n.Pos()] = true
		order = append(order, n)
		stack = append(stack, v.kids[n.Pos()]...)
	}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i].Pos()
		v.reach[n] = n
		for _, k := range v.kids[n] {
			v.reach[n] = max(v.reach[n], v.reach[k.Pos()])
		}
	}
	for _, n := range t.Nodes {
		if !n.Timestamp.IsZero() {
			v.day = n.Timestamp.Local()
			break
		}
	}
	return v
}

func (v *treeView) printf(format string, args ...any) {
	if v.err == nil {
		_, v.err = fmt.Fprintf(v.w, format, args...)
	}
}

// item is a piece of the tree still to draw: a run starting at n (or an
// agent), its first line after head, later lines after prefix.
type item struct {
	n            *tree.Node
	agent        *tree.Agent
	head, prefix string
}

func (v *treeView) render() error {
	t, th := v.t, v.th
	var nAgents, nCompactions int
	for _, a := range t.Agents {
		if !a.Compaction {
			nAgents++
		}
	}
	for _, n := range t.Nodes {
		if n.IsCompactBoundary() && n.Agent == nil {
			nCompactions++
		}
	}
	entries := 0
	for _, n := range t.Nodes {
		if n.Agent == nil {
			entries++
		}
	}
	v.printf("%s  %s\n", th.Bold("session "+t.SessionID), th.Dim(strings.Join([]string{
		plural(entries, "entry", "entries"), plural(len(t.Leaves()), "leaf", "leaves"),
		plural(len(v.mainForks()), "fork", "forks"), plural(nCompactions, "compaction", "compactions"),
		plural(nAgents, "agent", "agents")}, " · ")))

	var top []item
	for _, r := range t.Roots {
		if r.LogicalParent != nil || v.isIslandOrCycle(r) {
			continue
		}
		top = append(top, item{n: r})
	}
	for i := len(top) - 1; i >= 0; i-- {
		v.draw(top[i])
	}
	v.trailer()
	return v.err
}

func (v *treeView) mainForks() []*tree.Node {
	var out []*tree.Node
	for _, n := range v.t.Forks() {
		if n.Agent == nil {
			out = append(out, n)
		}
	}
	return out
}

func (v *treeView) isIslandOrCycle(n *tree.Node) bool {
	for _, is := range v.t.Islands {
		if is.Root == n {
			return true
		}
	}
	for _, c := range v.t.Cycles {
		if c.Node == n {
			return true
		}
	}
	return false
}

// draw prints one item and everything below it, with an explicit stack:
// a deep or wide tree cannot exhaust the Go stack.
func (v *treeView) draw(start item) {
	stack := []item{start}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var more []item
		switch {
		case it.agent != nil:
			more = v.drawAgent(it)
		case v.o.Full:
			more = v.drawFull(it)
		default:
			more = v.drawRuns(it)
		}
		for i := len(more) - 1; i >= 0; i-- {
			stack = append(stack, more[i])
		}
	}
}

// cont picks the child a run continues through at an artifact fork: the
// active one, else the one whose subtree reaches furthest in the file.
func (v *treeView) cont(ks []*tree.Node) *tree.Node {
	var best *tree.Node
	for _, k := range ks {
		switch {
		case best == nil:
			best = k
		case k.Active != best.Active:
			if k.Active {
				best = k
			}
		case v.reach[k.Pos()] > v.reach[best.Pos()]:
			best = k
		}
	}
	return best
}

// branches splits a real fork's children into branch starts and artifacts.
func branches(n *tree.Node, ks []*tree.Node) (starts, rest []*tree.Node) {
	seen := map[string]bool{}
	for _, k := range ks {
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

// run is a collapsed stretch of the conversation.
type treeSeg struct {
	nodes []*tree.Node // chain and folded side nodes
	end   *tree.Node   // last node of the chain
	next  *tree.Node   // compaction junction that follows, if any
}

// collect follows the chain from start through artifact forks until a
// real fork, a compaction junction or the end, folding side subtrees.
func (v *treeView) collect(start *tree.Node) treeSeg {
	var r treeSeg
	fold := func(n *tree.Node) {
		stack := []*tree.Node{n}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			r.nodes = append(r.nodes, c)
			stack = append(stack, v.kids[c.Pos()]...)
		}
	}
	seen := map[*tree.Node]bool{}
	for cur := start; cur != nil && !seen[cur]; {
		seen[cur] = true
		r.nodes = append(r.nodes, cur)
		r.end = cur
		ks := v.kids[cur.Pos()]
		if len(ks) == 0 {
			break
		}
		if cur.Fork {
			_, rest := branches(cur, ks)
			for _, k := range rest {
				fold(k)
			}
			break
		}
		c := v.cont(ks)
		for _, k := range ks {
			if k != c {
				fold(k)
			}
		}
		if c.IsCompactBoundary() && c.Parent == nil {
			r.next = c
			break
		}
		cur = c
	}
	return r
}

func (v *treeView) drawRuns(it item) []item {
	th := v.th
	head, prefix := it.head, it.prefix
	cur := it.n
	var more []item
	for cur != nil {
		if cur.IsCompactBoundary() {
			v.printf("%s%s\n", head, th.Yellow(junctionText(cur)))
			head = prefix
		}
		r := v.collect(cur)
		active := false
		for _, n := range r.nodes {
			active = active || n.Active
		}
		mark := th.Green("●")
		if !active {
			mark = "○"
		}
		// The mark takes one column, or two where East Asian widths apply;
		// runText counts it as one.
		text := v.runText(r, render.Width(head)+render.Width("●")-1)
		if !active {
			text = th.Dim(text)
		}
		v.printf("%s%s %s\n", head, mark, text)
		head = prefix
		if v.o.Agents {
			for _, n := range r.nodes {
				for _, a := range n.Agents {
					more = append(more, item{agent: a, head: prefix + "  ↳ ", prefix: prefix + "    "})
				}
			}
		}
		switch {
		case r.end.Fork:
			starts, _ := branches(r.end, v.kids[r.end.Pos()])
			for i, b := range starts {
				h, p := prefix+"├─ ", prefix+"│  "
				if i == len(starts)-1 {
					h, p = prefix+"└─ ", prefix+"   "
				}
				more = append(more, item{n: b, head: h, prefix: p})
			}
			return more
		case r.next != nil:
			if len(more) > 0 {
				// Agents of this run print before the junction.
				return append(more, item{n: r.next, head: prefix, prefix: prefix})
			}
			cur = r.next
		default:
			return more
		}
	}
	return more
}

func junctionText(n *tree.Node) string {
	s := "⋯ compacted"
	if n.CompactTrigger != "" {
		s += " (" + n.CompactTrigger + ")"
	}
	if n.CompactPreTokens > 0 {
		s += " · " + render.Count(n.CompactPreTokens) + " tokens before"
	}
	if !n.Timestamp.IsZero() {
		s += " · " + n.Timestamp.Local().Format("2006-01-02 15:04")
	}
	if n.LogicalParent == nil && n.LogicalParentUUID != "" {
		s += " · history before it not found"
	}
	return s
}

func (v *treeView) runText(r treeSeg, indent int) string {
	var first, last time.Time
	for _, n := range r.nodes {
		if n.Timestamp.IsZero() {
			continue
		}
		if first.IsZero() || n.Timestamp.Before(first) {
			first = n.Timestamp
		}
		if n.Timestamp.After(last) {
			last = n.Timestamp
		}
	}
	parts := []string{plural(len(r.nodes), "entry", "entries")}
	if !first.IsZero() {
		tm := v.clock(first)
		if l := v.clock(last); l != tm {
			tm += "–" + l
		}
		parts = append(parts, tm)
	}
	if tok := sumTokens(r.nodes); tok > 0 {
		parts = append(parts, render.Count(tok)+" tok")
	}
	s := strings.Join(parts, " · ")
	suffix := ""
	if r.end.Fork {
		starts, _ := branches(r.end, v.kids[r.end.Pos()])
		suffix = fmt.Sprintf("  ⑂ %d branches", len(starts))
	}
	if l := promptLabel(r.nodes); l != "" {
		s += "  " + v.quote(l, indent+2+render.Width(s)+4+render.Width(suffix))
	} else {
		s += "  " + noPromptLabel(r.nodes)
	}
	return s + suffix
}

// clock formats a time of the session: the time of day, with the date when
// it is not the session's first day.
func (v *treeView) clock(t time.Time) string {
	l := t.Local()
	if l.Year() == v.day.Year() && l.YearDay() == v.day.YearDay() {
		return l.Format("15:04")
	}
	return l.Format("01-02 15:04")
}

// quote prints a prompt: made safe, on one line, cut to the width left.
func (v *treeView) quote(s string, used int) string {
	s = strings.Join(strings.Fields(render.Safe(strings.ReplaceAll(s, "\n", " "))), " ")
	width := 100
	if v.ro.TTY {
		width = v.ro.Width - used
	}
	if width < 20 {
		width = 20
	}
	return `"` + render.Cut(s, width) + `"`
}

// promptLabel is the first typed prompt of a run as ls titles a session
// (reader.PromptOf: IDE selections, reminders and notifications skipped,
// a slash command as "/name args"); else the first local command or bash
// input of the run; "" when it has neither.
func promptLabel(nodes []*tree.Node) string {
	fallback := ""
	for _, n := range nodes {
		switch {
		case n.IsTypedPrompt():
			return n.Label
		case fallback == "" && n.Type == "user" && !n.Meta && !n.CompactSummary && len(n.ToolResults) == 0:
			fallback = n.Label // a local command or bash input, if any
		}
	}
	return fallback
}

// noPromptLabel says what a run without a typed prompt starts with,
// rather than quote text Claude Code wrote (a task notification, a
// compaction summary) as if it had been typed.
func noPromptLabel(nodes []*tree.Node) string {
	switch {
	case len(nodes) == 0:
		return ""
	case nodes[0].Type == "assistant":
		return "(reply " + render.Safe(shortID(nodes[0].MessageID)) + ")"
	case nodes[0].IsCompactBoundary():
		return "(no typed prompt: continues after the compaction)"
	}
	return "(no typed prompt)"
}

func shortID(s string) string {
	if len(s) > 12 {
		return "…" + s[len(s)-8:]
	}
	return s
}

// sumTokens totals the nodes' API responses with the rule of cctx tokens
// (one count per response, the largest usage of its lines).
func sumTokens(nodes []*tree.Node) int64 {
	c := tokens.NewCounter()
	f := c.File(tokens.Source{})
	for _, n := range nodes {
		f.Add(&n.Entry)
	}
	return tokens.Sum(c.Responses(), nil).Tokens
}

func toolCalls(nodes []*tree.Node) int {
	c := 0
	for _, n := range nodes {
		c += len(n.ToolUses)
	}
	return c
}

func (v *treeView) agentText(a *tree.Agent, indent int) string {
	parts := []string{"agent " + render.Safe(a.ID)}
	if a.Type != "" {
		parts = append(parts, render.Safe(a.Type))
	}
	head := strings.Join(parts, " · ")
	var rest []string
	rest = append(rest, plural(toolCalls(a.Nodes), "tool call", "tool calls"))
	if tok := sumTokens(a.Nodes); tok > 0 {
		rest = append(rest, render.Count(tok)+" tok")
	}
	rest = append(rest, plural(len(a.Nodes), "entry", "entries"))
	tail := " · " + strings.Join(rest, " · ")
	switch {
	case a.Warmup && (a.Leaf == nil || a.Leaf.Type != "assistant"):
		tail += " · no reply" // as cctx agents says it: status no_reply
	case a.Spawn == nil && !a.Warmup:
		tail += " · not linked to a tool call"
	}
	s := head
	if a.Description != "" {
		// At most 60 columns, and what the terminal leaves of its width.
		width := 60
		if v.ro.TTY {
			width = min(width, v.ro.Width-indent-render.Width(head)-render.Width(tail)-3)
		}
		s += ` "` + render.Cut(render.Safe(a.Description), max(width, 10)) + `"`
	}
	return s + tail
}

func (v *treeView) drawAgent(it item) []item {
	a := it.agent
	v.printf("%s%s\n", it.head, v.th.Cyan(v.agentText(a, render.Width(it.head))))
	var more []item
	if v.o.Full {
		for i, r := range a.Roots {
			h, p := it.prefix+"├─ ", it.prefix+"│  "
			if i == len(a.Roots)-1 {
				h, p = it.prefix, it.prefix
			}
			more = append(more, item{n: r, head: h, prefix: p})
		}
		return more
	}
	for _, n := range a.Nodes {
		for _, sub := range n.Agents {
			more = append(more, item{agent: sub, head: it.prefix + "↳ ", prefix: it.prefix + "  "})
		}
	}
	return more
}

// drawFull prints every entry of a chain; side children (artifacts) are
// nested before the chain continues, and real forks nest every branch.
func (v *treeView) drawFull(it item) []item {
	head, prefix := it.head, it.prefix
	seen := map[*tree.Node]bool{}
	for cur := it.n; cur != nil && !seen[cur]; {
		seen[cur] = true
		v.printf("%s%s\n", head, v.entryText(cur))
		head = prefix
		var more []item
		if v.o.Agents {
			for _, a := range cur.Agents {
				more = append(more, item{agent: a, head: prefix + "├─ ↳ ", prefix: prefix + "│    "})
			}
		}
		ks := v.kids[cur.Pos()]
		if len(ks) == 0 {
			return more
		}
		if cur.Fork {
			for i, k := range ks {
				h, p := prefix+"├─ ", prefix+"│  "
				if i == len(ks)-1 {
					h, p = prefix+"└─ ", prefix+"   "
				}
				more = append(more, item{n: k, head: h, prefix: p})
			}
			return more
		}
		c := v.cont(ks)
		for _, k := range ks {
			if k != c {
				more = append(more, item{n: k, head: prefix + "├─ ", prefix: prefix + "│  "})
			}
		}
		if len(more) > 0 {
			return append(more, item{n: c, head: prefix, prefix: prefix})
		}
		cur = c
	}
	return nil
}

func (v *treeView) entryText(n *tree.Node) string {
	th := v.th
	mark := " "
	switch {
	case n.Agent != nil:
	case n.Active:
		mark = th.Green("●")
	default:
		mark = "○"
	}
	ts := "     "
	if !n.Timestamp.IsZero() {
		ts = n.Timestamp.Local().Format("15:04")
	}
	desc := entryDesc(v.t, n)
	if n.Fork {
		desc += "  ⑂ fork"
	}
	s := fmt.Sprintf("%s %s  %s", shortUUID(n.UUID), ts, desc)
	if n.IsCompactBoundary() {
		return mark + " " + th.Yellow(s+"  "+junctionText(n))
	}
	if n.Agent == nil && !n.Active {
		s = th.Dim(s)
	}
	return mark + " " + s
}

func entryDesc(t *tree.Tree, n *tree.Node) string {
	typ := n.Type
	if n.Subtype != "" {
		typ += "/" + n.Subtype
	} else if n.Attachment != "" {
		typ += "/" + n.Attachment
	}
	switch {
	case n.Type == "user" && len(n.ToolResults) > 0:
		var names []string
		for _, id := range n.ToolResults {
			name := "?"
			if tu := t.ToolUseNode(id); tu != nil {
				for _, f := range tu.ToolUses {
					if f.ID == id {
						name = f.Name
					}
				}
			}
			names = append(names, name)
		}
		s := typ + " tool_result " + strings.Join(names, ", ")
		if n.ResultError {
			s += " (error)"
		}
		return s
	case n.Type == "user" && n.Prompt != "":
		p := strings.Join(strings.Fields(render.Safe(strings.ReplaceAll(n.Prompt, "\n", " "))), " ")
		if n.CompactSummary {
			typ += " (compaction summary)"
		}
		return typ + ` "` + render.Cut(p, 60) + `"`
	case n.Type == "assistant":
		var parts []string
		if n.Content&reader.HasThinking != 0 {
			parts = append(parts, "thinking")
		}
		if n.Content&reader.HasText != 0 {
			parts = append(parts, "text")
		}
		for _, f := range n.ToolUses {
			parts = append(parts, "tool_use "+f.Name)
		}
		return typ + " " + strings.Join(parts, ", ")
	}
	return typ
}

// trailer lists what could not be placed.
func (v *treeView) trailer() {
	t, th := v.t, v.th
	if len(t.Islands) > 0 {
		v.printf("%s\n", th.Yellow("islands (parent not in the file):"))
		for _, is := range t.Islands {
			label := promptLabel([]*tree.Node{is.Root})
			s := fmt.Sprintf("  line %d · %s · %s · parent %s missing", is.Root.Line, shortUUID(is.Root.UUID), plural(is.Size, "entry", "entries"), shortUUID(is.Missing))
			if is.Root.Agent != nil {
				s += " · in agent " + render.Safe(is.Root.Agent.ID)
			}
			if label != "" {
				s += "  " + v.quote(label, len(s)+4)
			}
			v.printf("%s\n", s)
		}
	}
	if len(t.Cycles) > 0 {
		v.printf("%s\n", th.Yellow("cycles (parentUuid link cut):"))
		for _, c := range t.Cycles {
			v.printf("  line %d · %s · %s in the cycle · link to %s cut\n", c.Node.Line, shortUUID(c.Node.UUID), plural(c.Members, "entry", "entries"), shortUUID(c.Parent))
		}
	}
	if v.o.Agents {
		// Warm-ups are started by Claude Code, not by a tool call: listed
		// as what they are, not among the agents that failed to link.
		var warmups, unlinked []*tree.Agent
		for _, a := range t.Agents {
			switch {
			case a.Warmup:
				warmups = append(warmups, a)
			case a.Spawn == nil:
				unlinked = append(unlinked, a)
			}
		}
		if len(warmups) > 0 {
			v.printf("%s\n", th.Dim("warm-up agents (started by Claude Code to warm its cache, not by a tool call):"))
			for _, a := range warmups {
				v.printf("  %s\n", v.agentText(a, 2))
			}
		}
		if len(unlinked) > 0 {
			v.printf("%s\n", th.Yellow("agents not linked to a tool call:"))
			for _, a := range unlinked {
				label := ""
				if len(a.Roots) > 0 {
					label = promptLabel(a.Roots[:1])
				}
				reserve := 0 // room for the quoted prompt after the description
				if label != "" {
					reserve = min(render.Width(label), 40) + 4
				}
				s := "  " + v.agentText(a, 2+reserve)
				if label != "" {
					s += "  " + v.quote(label, render.Width(s)+4)
				}
				v.printf("%s\n", s)
			}
		}
	}
}

// shortUUID is the first 8 characters of a uuid, made safe to print: a
// uuid is file content and may hold escape sequences.
func shortUUID(u string) string {
	if len(u) > 8 {
		u = u[:8]
	}
	return render.Safe(u)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
