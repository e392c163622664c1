package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TreeOptions choose what cctx tree draws.
type TreeOptions struct {
	Full   bool // every entry on its own line, not collapsed runs
	Agents bool // subagents under the tool calls that spawned them
}

// Tree draws a session's DAG for people: collapsed runs (or every entry
// with Full), real forks as branches, compactions as junctions, subagents
// under their call, and what could not be placed at the end.
func Tree(w io.Writer, t *tree.Tree, o Options, to TreeOptions) error {
	v := &treeView{t: t, lay: t.Layout(), o: to, ro: o, th: o.Theme, w: w}
	for _, n := range t.Nodes {
		if !n.Timestamp().IsZero() {
			v.day = n.Timestamp().Local()
			break
		}
	}
	return v.render()
}

// treeView draws one tree.
type treeView struct {
	t   *tree.Tree
	lay *tree.Layout
	o   TreeOptions
	ro  Options
	th  Theme
	w   io.Writer
	err error
	day time.Time // the session's first day, for short times
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
	counts := []string{Plural(t.MainEntries(), "entry", "entries"), Plural(len(t.Leaves()), "leaf", "leaves"),
		Plural(len(t.MainForks()), "fork", "forks"), Plural(t.Compactions(), "compaction", "compactions"),
		Plural(t.Subagents(), "subagent", "subagents")}
	head, width := "session "+t.SessionID, 0
	if v.ro.TTY && v.ro.Width > 0 {
		width = v.ro.Width - 1
	}
	if line := head + "  " + strings.Join(counts, " · "); width == 0 || Width(line) <= width {
		v.printf("%s  %s\n", th.Bold(head), th.Dim(strings.Join(counts, " · ")))
	} else { // the counts under the id, wrapped, on a narrow terminal
		if Width(head) > width {
			head = t.SessionID // the id whole, to be copied
		}
		v.printf("%s\n", th.Bold(head))
		for _, l := range FitParts(counts, " · ", width-2, 0) {
			v.printf("  %s\n", th.Dim(l))
		}
	}
	for _, start := range t.Starts() {
		v.draw(item{n: start})
	}
	v.trailer()
	return v.err
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
		if cur == v.t.Continues && !cur.Foreign {
			v.printf("%s%s\n", head, th.Dim("⋯ continues "+ShortSafe(cur.ParentUUID)+", which is in another file: the history starts there (a resumed or continued session)"))
			head = prefix
		}
		r := v.lay.Run(cur)
		switch {
		case foreign(r.Nodes):
			// Lines of the session this one continued: context, not a branch.
			v.printf("%s%s\n", head, th.Dim(fmt.Sprintf("⋯ %s carried over from session %s", Plural(len(r.Nodes), "entry", "entries"), ShortSafe(r.Nodes[0].SessionID()))))
		default:
			active := r.Active()
			mark := th.Green("●")
			if !active {
				mark = "○"
			}
			// The mark takes one column, or two where East Asian widths
			// apply; runText counts it as one.
			text := v.runText(r, Width(head)+Width("●")-1)
			if !active {
				text = th.Dim(text)
			}
			v.printf("%s%s %s\n", head, mark, text)
		}
		head = prefix
		if v.o.Agents {
			for _, n := range r.Nodes {
				for _, a := range n.Agents() {
					more = append(more, item{agent: a, head: prefix + "  ↳ ", prefix: prefix + "    "})
				}
			}
		}
		switch {
		case r.End.Fork:
			starts, _ := v.lay.Branches(r.End)
			for i, b := range starts {
				h, p := prefix+"├─ ", prefix+"│  "
				if i == len(starts)-1 {
					h, p = prefix+"└─ ", prefix+"   "
				}
				more = append(more, item{n: b, head: h, prefix: p})
			}
			return more
		case r.Next != nil:
			if len(more) > 0 {
				// Agents of this run print before the junction.
				return append(more, item{n: r.Next, head: prefix, prefix: prefix})
			}
			cur = r.Next
		default:
			return more
		}
	}
	return more
}

// foreign reports whether every node of a run is a leading line of
// another session (tree.Node.Foreign).
func foreign(nodes []*tree.Node) bool {
	for _, n := range nodes {
		if !n.Foreign {
			return false
		}
	}
	return len(nodes) > 0
}

func junctionText(n *tree.Node) string {
	s := "⋯ compacted"
	if n.CompactTrigger() != "" {
		s += " (" + Safe(n.CompactTrigger()) + ")"
	}
	if n.CompactPreTokens() > 0 {
		s += " · " + Count(n.CompactPreTokens()) + " tokens before"
	}
	if !n.Timestamp().IsZero() {
		s += " · " + n.Timestamp().Local().Format("2006-01-02 15:04")
	}
	switch {
	case n.LogicalParent() == nil && n.LogicalParentUUID() != "":
		s += " · history before it not found"
	case n.Bridged:
		s += " · the entry it names was never written: the history goes on from the line before it"
	}
	return s
}

func (v *treeView) runText(r tree.Run, indent int) string {
	var first, last time.Time
	for _, n := range r.Nodes {
		if n.Timestamp().IsZero() {
			continue
		}
		if first.IsZero() || n.Timestamp().Before(first) {
			first = n.Timestamp()
		}
		if n.Timestamp().After(last) {
			last = n.Timestamp()
		}
	}
	count := Plural(len(r.Nodes), "entry", "entries")
	span := ""
	if !first.IsZero() {
		span = v.clock(first)
		if l := v.clock(last); l != span {
			fl, ll := first.Local(), last.Local()
			if fl.YearDay() != ll.YearDay() || fl.Year() != ll.Year() {
				span = fl.Format("01-02 15:04") // a run over two days says both
			}
			span += "–" + l
		}
	}
	tok := ""
	if n := tokens.NodesTokens(r.Nodes); n > 0 {
		tok = Count(n) + " tok"
	}
	suffix := ""
	if r.End.Fork {
		starts, _ := v.lay.Branches(r.End)
		suffix = fmt.Sprintf("  ⑂ %d branches", len(starts))
	}
	label := tree.PromptLabel(r.Nodes)
	// On a terminal the line fits: the tokens, then the times, are left
	// out before the prompt is cut below 8 columns, and then the prompt.
	text := func(parts ...string) string {
		var kept []string
		for _, p := range parts {
			if p != "" {
				kept = append(kept, p)
			}
		}
		return strings.Join(kept, " · ")
	}
	s := text(count, span, tok)
	if v.ro.TTY && label != "" {
		room := func(s string) int { return v.ro.Width - 1 - (indent + 2 + Width(s) + 4 + Width(suffix)) }
		for _, try := range []string{text(count, span), count} {
			if room(s) >= 8 {
				break
			}
			s = try
		}
		if room(s) < 8 {
			label = ""
		}
	}
	switch {
	case label != "":
		s += "  " + v.quote(label, indent+2+Width(s)+4+Width(suffix))
	case tree.PromptLabel(r.Nodes) == "":
		s += "  " + noPromptLabel(r.Nodes)
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
	s = OneLine(v.ro.Redacted(s))
	width := 100
	if v.ro.TTY {
		width = v.ro.Width - 1 - used // one column to spare
	}
	return `"` + Cut(s, max(width, 8)) + `"`
}

// OneLine is transcript text made safe and put on one line, its runs of
// white space as one space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(Safe(strings.ReplaceAll(s, "\n", " "))), " ")
}

// noPromptLabel says what a run without a typed prompt starts with,
// rather than quote text Claude Code wrote (a task notification, a
// compaction summary) as if it had been typed.
func noPromptLabel(nodes []*tree.Node) string {
	switch {
	case len(nodes) == 0:
		return ""
	case nodes[0].Type == "assistant":
		return "(reply " + Safe(ShortTail(nodes[0].MessageID)) + ")"
	case nodes[0].IsCompactBoundary():
		return "(no typed prompt: continues after the compaction)"
	}
	return "(no typed prompt)"
}

func (v *treeView) agentText(a *tree.Agent, indent int) string {
	parts := []string{"agent " + Safe(a.ID)}
	if a.Type != "" {
		parts = append(parts, Safe(a.Type))
	}
	head := strings.Join(parts, " · ")
	calls, tok, entries := Plural(tree.ToolCalls(a.Nodes), "tool call", "tool calls"), "", Plural(len(a.Nodes), "entry", "entries")
	if n := tokens.NodesTokens(a.Nodes); n > 0 {
		tok = Count(n) + " tok"
	}
	var mark string
	switch {
	case a.NoReply():
		mark = " · no reply" // as cctx agents says it: status no_reply
	case a.Spawn == nil && !a.Warmup:
		mark = " · not linked to a tool call"
	}
	room := 1 << 30 // what the terminal leaves of its width (one column to spare)
	if v.ro.TTY && v.ro.Width > 0 {
		room = v.ro.Width - 1 - indent - Width(head) - Width(mark)
		if room < 0 && a.Type != "" { // the narrowest: the id alone
			head = "agent " + Safe(a.ID)
			room = v.ro.Width - 1 - indent - Width(head) - Width(mark)
		}
	}
	// A narrow terminal: the counts go before the line passes the width,
	// the least telling first (entries, then tool calls), then all.
	var rest []string
	for _, set := range [][]string{{calls, tok, entries}, {calls, tok}, {tok}, {calls}, nil} {
		rest = slices.DeleteFunc(slices.Clone(set), func(s string) bool { return s == "" })
		if len(rest) > 0 && 3*len(rest)+Width(strings.Join(rest, "")) <= room {
			break
		}
	}
	tail := mark
	if len(rest) > 0 {
		tail = " · " + strings.Join(rest, " · ") + mark
	}
	s := head
	if a.Description != "" {
		// At most 60 columns, and what the line leaves; none when that is
		// too little to tell anything.
		if width := min(60, room-Width(tail)+Width(mark)-3); width >= 12 {
			s += ` "` + Cut(Safe(v.ro.Redacted(a.Description)), width) + `"`
		}
	}
	return s + tail
}

func (v *treeView) drawAgent(it item) []item {
	a := it.agent
	v.printf("%s%s\n", it.head, v.th.Cyan(v.agentText(a, Width(it.head))))
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
		for _, sub := range n.Agents() {
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
		v.printf("%s%s\n", head, v.entryText(cur, Width(head)))
		head = prefix
		var more []item
		if v.o.Agents {
			for _, a := range cur.Agents() {
				more = append(more, item{agent: a, head: prefix + "├─ ↳ ", prefix: prefix + "│    "})
			}
		}
		ks := v.lay.Children(cur)
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
		c := v.lay.Continue(ks)
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

// entryText is an entry's line after a prefix of used cells: a prompt's
// quote is cut to what the terminal leaves of its width (60 at most).
func (v *treeView) entryText(n *tree.Node, used int) string {
	th := v.th
	mark := " "
	active := n.Active || v.t.Trails(n)
	switch {
	case n.Agent() != nil:
	case active:
		mark = th.Green("●")
	default:
		mark = "○"
	}
	ts := "     "
	if !n.Timestamp().IsZero() {
		ts = n.Timestamp().Local().Format("15:04")
	}
	room := 60
	if v.ro.TTY && v.ro.Width > 0 { // mark, id, time and their gaps: 2+8+1+5+2; the type and quotes, about 8
		room = min(room, max(v.ro.Width-1-used-26, 8))
	}
	desc := entryDesc(v.t, n, v.ro.Redacted, room)
	fork := ""
	if n.Fork {
		fork = "  ⑂ fork"
	}
	if v.ro.TTY && v.ro.Width > 0 { // a tool's name, a type, cut last: the line fits
		desc = Cut(desc, max(v.ro.Width-1-used-18-Width(fork), 1))
	}
	desc += fork
	s := fmt.Sprintf("%s %s  %s", ShortSafe(n.UUID), ts, desc)
	if n.IsCompactBoundary() {
		return mark + " " + th.Yellow(s+"  "+junctionText(n))
	}
	if n.Agent() == nil && !active {
		s = th.Dim(s)
	}
	return mark + " " + s
}

func entryDesc(t *tree.Tree, n *tree.Node, redact func(string) string, room int) string {
	typ := n.Type
	if n.Subtype != "" {
		typ += "/" + n.Subtype
	} else if n.Attachment() != "" {
		typ += "/" + n.Attachment()
	}
	typ = Safe(typ)
	switch {
	case n.Type == "user" && len(n.ToolResults()) > 0:
		var names []string
		for _, id := range n.ToolResults() {
			name := t.ToolName(id)
			if name == "" {
				name = "?"
			}
			names = append(names, Safe(name))
		}
		s := typ + " tool_result " + strings.Join(names, ", ")
		if n.ResultError {
			s += " (error)"
		}
		return s
	case n.IsUser() && n.Prompt() != "": // a user line, or a queued input's attachment line
		if n.CompactSummary {
			typ += " (compaction summary)"
		}
		return typ + ` "` + Cut(OneLine(redact(n.Prompt())), room) + `"`
	case n.Type == "assistant":
		var parts []string
		if n.Content&reader.HasThinking != 0 {
			parts = append(parts, "thinking")
		}
		if n.Content&reader.HasText != 0 {
			parts = append(parts, "text")
		}
		for _, f := range n.ToolUses() {
			parts = append(parts, "tool_use "+Safe(f.Name))
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
			label := tree.PromptLabel([]*tree.Node{is.Root})
			s := fmt.Sprintf("  line %d · %s · %s · parent %s missing", is.Root.Line, ShortSafe(is.Root.UUID), Plural(is.Size, "entry", "entries"), ShortSafe(is.Missing))
			if is.Root.Agent() != nil {
				s += " · in agent " + Safe(is.Root.Agent().ID)
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
			v.printf("  line %d · %s · %s in the cycle · link to %s cut\n", c.Node.Line, ShortSafe(c.Node.UUID), Plural(c.Members, "entry", "entries"), ShortSafe(c.Parent))
		}
	}
	if !v.o.Agents {
		return
	}
	// Warm-ups are started by Claude Code, not by a tool call: listed as
	// what they are, not among the agents that failed to link.
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
				label = tree.PromptLabel(a.Roots[:1])
			}
			reserve := 0 // room for the quoted prompt after the description
			if label != "" {
				reserve = min(Width(label), 40) + 4
			}
			s := "  " + v.agentText(a, 2+reserve)
			if label != "" {
				s += "  " + v.quote(label, Width(s)+4)
			}
			v.printf("%s\n", s)
		}
	}
}
