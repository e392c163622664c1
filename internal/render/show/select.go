package show

import (
	"iter"
	"regexp"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Options choose what part of the conversation is shown. Every output
// format (terminal, JSON, raw) shows the same entries in the same order.
type Options struct {
	Leaf         *tree.Node // show the path to this entry; nil: the active leaf
	SinceCompact bool       // only what follows the last compact boundary
	All          bool       // also meta, hook, system, attachment and progress lines
	Agents       bool       // subagent conversations inline under their call
	Tail         int        // only the last N turns (0: all)
	Grep         *regexp.Regexp
	// Title is the session's title as ls shows it ("" for none), said
	// above the rest, so that the session ls named is seen to be the one.
	Title string
	// Warn, when set, is told (with Agents) of the agents a transcript on
	// standard input names, whose transcripts it cannot bring: shown
	// without them, that is said, as tokens - says it.
	Warn func(format string, args ...any)
}

// maxAgentDepth bounds how deep subagents nest inline (agents spawning
// agents). Real sessions nest two or three levels.
const maxAgentDepth = 16

// Item is one displayed entry.
type Item struct {
	Node  *tree.Node
	Depth int    // 0: the main conversation; n: an agent n levels down
	For   string // the tool_use id whose result (or agent) this is; "" otherwise
	Turn  int    // turn number at depth 0 (a turn starts at a typed prompt or a compaction)
	// Loose: of an agent no call spawned, shown after the conversation
	// (--agents), or of an agent under it.
	Loose bool
}

// Header is the session summary printed above the conversation.
type Header struct {
	SessionID string
	Title     string
	Path      string
	Project   string
	Branch    string
	Models    []string
	Start     time.Time
	End       time.Time
	Prompts   int // typed prompts of the session, every branch (as ls -l counts)
	// PromptsShown are the typed prompts among the shown entries: fewer
	// than Prompts when a branch, --since-compact, --tail or --grep leaves
	// some out.
	PromptsShown int
	// Continues is the parent, not in the file, that the session's first
	// entry names: its history starts in another file (resumed).
	Continues string
	Subagents int
	Leaf      string
	// Shown is the entry --leaf chose (its uuid), "" for the active leaf;
	// OffActive is set when that entry is not on the active path, so
	// another branch than the active one is shown.
	Shown     string
	OffActive bool
	// Total is the whole session's usage, deduplicated exactly as
	// `cctx tokens` counts it (every branch, every subagent).
	Total tokens.Total
}

// Doc is a conversation ready to print.
type Doc struct {
	Tree   *tree.Tree
	Header Header
	Items  []Item
	Prices *tokens.Prices

	// NoCompaction is set when SinceCompact found no compaction on the
	// path: everything is shown.
	NoCompaction bool
	// Loose is how many agents no call spawned were left out (--agents
	// shows them after the conversation).
	Loose int

	usage       map[*tree.Node]*tokens.Response
	agentTotals map[string]tokens.Total
	redact      func(string) string // --redact, for the fields that are not lines
}

// redacted is s as --redact shows it.
func (d *Doc) redacted(s string) string {
	if d.redact == nil {
		return s
	}
	return d.redact(s)
}

// Usage returns the response whose usage the node represents, or nil: a
// response's usage is shown once, on the first displayed line of it.
func (d *Doc) Usage(n *tree.Node) *tokens.Response { return d.usage[n] }

// AgentTotal is the deduplicated usage of one agent's responses.
func (d *Doc) AgentTotal(id string) tokens.Total { return d.agentTotals[id] }

// Report is what the token counter found for the session.
type Report struct {
	Total tokens.Total
	// Responses yields the session's responses as a timeline, each into
	// one value the next overwrites (tokens.TreeUsage.All); nil for none.
	Responses iter.Seq[*tokens.Response]
	Models    []string // by tokens, largest first
	// FileKey maps a tree file to the path the counter read it at
	// (Response.File); nil: File.Path.
	FileKey func(*tree.File) string
}

// Build selects the entries to show and attaches usage to them. report is
// called once the entries are selected, so that a caller may count the
// usage meanwhile. src is needed only for --grep (it reads content); it may
// be nil otherwise.
func Build(t *tree.Tree, report func() Report, prices *tokens.Prices, src *tree.Source, o Options) (*Doc, error) {
	d := &Doc{Tree: t, Prices: prices, usage: map[*tree.Node]*tokens.Response{}, agentTotals: map[string]tokens.Total{}}
	var path []*tree.Node
	if o.Leaf != nil {
		path = t.PathTo(o.Leaf)
	} else {
		path = t.ActivePath()
	}
	if o.SinceCompact {
		d.NoCompaction = true
		for i := len(path) - 1; i >= 0; i-- {
			if path[i].IsCompactBoundary() && path[i].Agent() == nil {
				path = path[i:]
				d.NoCompaction = false
				break
			}
		}
	}
	// The main path's items, most of the time one per entry on it: sized
	// once, where growing a slice of a million items allocated four times
	// its size.
	s := &selector{t: t, o: o, items: make([]Item, 0, len(path)), shown: map[*tree.Agent]bool{}}
	s.emit(path, 0, "", map[*tree.Agent]bool{})
	// With --agents, the agents no call spawned follow the conversation:
	// a session whose main transcript was deleted has only those, and
	// showed nothing.
	showLoose := o.Agents && o.Leaf == nil && !o.SinceCompact
	for _, a := range t.Agents {
		switch {
		case a.Spawn != nil || a.Warmup || a.Compaction || s.shown[a]:
		case !showLoose:
			d.Loose++ // said when nothing else is shown
		default:
			from := len(s.items)
			s.emit(agentPath(t, a), 1, "", map[*tree.Agent]bool{a: true})
			for i := from; i < len(s.items); i++ {
				s.items[i].Loose = true
			}
		}
	}
	d.Items = s.items
	numberTurns(d.Items)
	if o.Grep != nil {
		items, err := grepTurns(d.Items, src, o.Grep)
		if err != nil {
			return nil, err
		}
		d.Items = items
	}
	if o.Tail > 0 {
		d.Items = tailTurns(d.Items, o.Tail)
	}
	rep := report()
	d.attachUsage(rep)
	d.Header = header(t, rep, path, d.Items)
	d.Header.Title = o.Title
	if o.Leaf != nil {
		d.Header.Shown, d.Header.OffActive = o.Leaf.UUID, !o.Leaf.Active
	}
	return d, nil
}

type selector struct {
	t     *tree.Tree
	o     Options
	items []Item
	shown map[*tree.Agent]bool // the agents emitted under their call
}

// marks is a set of nodes: the nodes of a path, or those emitted.
type marks struct {
	byPos tree.NodeSet        // for the main path, long
	set   map[*tree.Node]bool // for a subagent's path, short
}

func newMarks(t *tree.Tree, pathLen, depth int) marks {
	if depth == 0 {
		return marks{byPos: t.NewNodeSet()}
	}
	return marks{set: make(map[*tree.Node]bool, pathLen)}
}

func (m marks) has(n *tree.Node) bool {
	if m.byPos != nil {
		return m.byPos.Has(n)
	}
	return m.set[n]
}

func (m marks) add(n *tree.Node) {
	if m.byPos != nil {
		m.byPos.Add(n)
	} else {
		m.set[n] = true
	}
}

// emit appends the visible entries of path. Tool results follow the line
// that made the call, after the subagent the call spawned (--agents).
func (s *selector) emit(path []*tree.Node, depth int, forID string, active map[*tree.Agent]bool) {
	on, done := newMarks(s.t, len(path), depth), newMarks(s.t, len(path), depth)
	for _, n := range path {
		on.add(n)
	}
	for _, n := range path {
		if done.has(n) {
			continue
		}
		done.add(n)
		if !s.visible(n) {
			continue
		}
		s.items = append(s.items, Item{Node: n, Depth: depth, For: forID})
		for _, tu := range n.ToolUses() {
			if s.o.Agents && depth < maxAgentDepth {
				for _, a := range n.Agents() {
					if a.ToolUseID != tu.ID || active[a] {
						continue
					}
					active[a], s.shown[a] = true, true
					s.emit(agentPath(s.t, a), depth+1, tu.ID, active)
					delete(active, a)
				}
			}
			for _, r := range s.t.ResultNodes(tu.ID) {
				if on.has(r) && !done.has(r) {
					done.add(r)
					s.items = append(s.items, Item{Node: r, Depth: depth, For: tu.ID})
				}
			}
		}
		if n.IsCompactBoundary() && s.o.Agents && depth < maxAgentDepth {
			for _, a := range n.Agents() {
				if !active[a] {
					active[a], s.shown[a] = true, true
					s.emit(agentPath(s.t, a), depth+1, "", active)
					delete(active, a)
				}
			}
		}
	}
}

// agentPath is the conversation of a subagent: the path to its leaf (the
// SDK rule: the last user/assistant line in file order), else every line.
func agentPath(t *tree.Tree, a *tree.Agent) []*tree.Node {
	if a.Leaf != nil {
		return t.PathTo(a.Leaf)
	}
	return a.Nodes
}

// visible says whether a line is shown (tree.Visible).
func (s *selector) visible(n *tree.Node) bool { return n.Visible(s.o.All) }

// numberTurns numbers the turns of the main conversation: a turn starts at
// a typed prompt or at a compaction boundary; agent lines belong to the
// turn of their call.
func numberTurns(items []Item) {
	turn := 0
	for i := range items {
		n := items[i].Node
		if items[i].Depth == 0 && (n.IsTypedPrompt() || n.IsCompactBoundary()) && i > 0 {
			turn++
		}
		items[i].Turn = turn
	}
}

func tailTurns(items []Item, n int) []Item {
	if len(items) == 0 {
		return items
	}
	last := items[len(items)-1].Turn
	for i, it := range items {
		if it.Turn > last-n {
			return items[i:]
		}
	}
	return items
}

// grepTurns keeps the turns in which any line's text matches re.
func grepTurns(items []Item, src *tree.Source, re *regexp.Regexp) ([]Item, error) {
	match := map[int]bool{}
	for _, it := range items {
		if match[it.Turn] {
			continue
		}
		raw, err := src.Line(it.Node)
		if err != nil {
			return nil, err
		}
		if re.MatchString(reader.SearchText(raw)) {
			match[it.Turn] = true
		}
	}
	var out []Item
	for _, it := range items {
		if match[it.Turn] {
			out = append(out, it)
		}
	}
	return out, nil
}

// attachUsage gives each response's usage to the first displayed line of
// that response. Lines without message.id are matched by the file and line
// whose usage the counter kept.
//
// The lookups are keyed by what the shown lines need, not by every
// response of the session: show --tail 1 of a long session looks up a few
// responses, not a million.
func (d *Doc) attachUsage(rep Report) {
	fileKey := rep.FileKey
	if fileKey == nil {
		fileKey = func(f *tree.File) string { return f.Path }
	}
	type lineKey struct {
		file string
		line int
	}
	// What the shown lines look for: a response by (message.id,
	// requestId), the first response of a message.id (a line without
	// requestId), or by file and line (a line without message.id).
	byID := map[[2]string]*tokens.Response{}
	byMID := map[string]*tokens.Response{}
	byLine := map[lineKey]*tokens.Response{}
	for _, it := range d.Items {
		n := it.Node
		switch {
		case n.Type != "assistant":
		case n.MessageID != "":
			byID[[2]string{n.MessageID, n.RequestID()}] = nil
			if n.RequestID() == "" {
				byMID[n.MessageID] = nil
			}
		default:
			byLine[lineKey{fileKey(n.File), n.Line}] = nil
		}
	}
	if rep.Responses == nil {
		rep.Responses = func(func(*tokens.Response) bool) {}
	}
	// r is overwritten by the next response: the maps keep copies, in one
	// list sized by the keys looked for (a copy each allocated on its own
	// was half a million allocations for a whole long session).
	copies := make([]tokens.Response, 0, len(byID)+len(byMID)+len(byLine))
	for r := range rep.Responses {
		var kept *tokens.Response
		keep := func() *tokens.Response {
			if kept == nil {
				copies = append(copies, *r)
				kept = &copies[len(copies)-1]
			}
			return kept
		}
		if r.MessageID != "" {
			k := [2]string{r.MessageID, r.RequestID}
			if _, ok := byID[k]; ok {
				byID[k] = keep() // the last one, as a map of every response kept
			}
			if v, ok := byMID[r.MessageID]; ok && v == nil {
				byMID[r.MessageID] = keep()
			}
		}
		if k := (lineKey{r.File, r.Line}); len(byLine) > 0 {
			if _, ok := byLine[k]; ok {
				byLine[k] = keep()
			}
		}
		t := d.agentTotals[r.AgentID]
		t.Add(r, d.Prices)
		d.agentTotals[r.AgentID] = t
	}
	shown := map[*tokens.Response]bool{}
	for _, it := range d.Items {
		n := it.Node
		if n.Type != "assistant" {
			continue
		}
		var r *tokens.Response
		if n.MessageID != "" {
			// A line without requestId belongs to its message.id's response.
			if r = byID[[2]string{n.MessageID, n.RequestID()}]; r == nil && n.RequestID() == "" {
				r = byMID[n.MessageID]
			}
		} else {
			r = byLine[lineKey{fileKey(n.File), n.Line}]
		}
		if r != nil && !shown[r] {
			shown[r] = true
			d.usage[n] = r
		}
	}
}

func header(t *tree.Tree, rep Report, path []*tree.Node, items []Item) Header {
	h := Header{SessionID: t.SessionID, Total: rep.Total, Models: rep.Models}
	if t.Main != nil {
		// The start and project ls and tokens give: the first timestamp
		// and cwd of the main file, in line order (not the earliest time
		// of any line, nor a subagent's).
		h.Path, h.Start, h.Project = t.Main.Path, t.Main.Started, t.Main.CWD
		h.End = h.Start
	}
	if t.Leaf != nil {
		h.Leaf = t.Leaf.UUID
	}
	for _, n := range t.Nodes {
		if n.Timestamp().After(h.End) {
			h.End = n.Timestamp()
		}
	}
	for _, n := range path {
		if n.GitBranch() != "" {
			h.Branch = n.GitBranch()
		}
	}
	h.Prompts = t.Prompts()
	for _, it := range items {
		if it.Depth == 0 && it.Node.Agent() == nil && !it.Node.Sidechain && it.Node.IsTypedPrompt() {
			h.PromptsShown++
		}
	}
	if c := t.Continues; c != nil {
		h.Continues = c.ParentUUID
	}
	h.Subagents = t.Subagents()
	return h
}
