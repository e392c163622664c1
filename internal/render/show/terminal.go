package show

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TermOptions shape the terminal view.
type TermOptions struct {
	Theme render.Theme
	// Width wraps text to this many cells; 0 does not wrap (a pipe: grep
	// and editors want one line per line).
	Width    int
	Thinking bool // show thinking text (hidden by default, with its length)
	Full     bool // show whole tool results, compaction summaries and diffs
	// ResultLines is how many lines of a tool result are shown; 0 means
	// DefaultResultLines.
	ResultLines int
	// Grep (show --grep) makes a folded tool result show its lines that
	// match, where its first lines do not: the match show was asked for.
	Grep *regexp.Regexp
}

// DefaultResultLines is how many lines of a tool result the terminal view
// shows before it counts the rest.
const DefaultResultLines = 6

// maxDiffLines is how many lines of an Edit diff are shown without --full.
const maxDiffLines = 24

// Terminal writes the terminal view, one item at a time.
type Terminal struct {
	w   *bufio.Writer
	o   TermOptions
	th  render.Theme
	doc *Doc // nil when following (no tree)

	lastMsg   map[int]string // per depth: message.id of the open assistant message
	lastDay   string
	calls     map[string]string // tool_use id → tool name, for results
	lastCall  map[int]string    // per depth: the last tool_use id rendered
	hasResult map[string]bool
	started   bool
	lastBlank bool
}

// NewTerminal starts a terminal view on w. doc may be nil (follow mode:
// entries arrive one by one and have no tree).
func NewTerminal(w io.Writer, doc *Doc, o TermOptions) *Terminal {
	if o.ResultLines <= 0 {
		o.ResultLines = DefaultResultLines
	}
	t := &Terminal{w: bufio.NewWriterSize(w, 64<<10), o: o, th: o.Theme, doc: doc,
		lastMsg: map[int]string{}, calls: map[string]string{}, lastCall: map[int]string{}}
	if doc != nil {
		t.hasResult = map[string]bool{}
		for _, it := range doc.Items {
			for _, id := range it.Node.ToolResults() {
				t.hasResult[id] = true
			}
		}
	}
	return t
}

// redacted is s as --redact shows it: the fields the view takes from the
// tree (models, an agent's sidecar), not from a line it reads redacted.
// Following, every field comes from a line read redacted.
func (t *Terminal) redacted(s string) string {
	if t.doc == nil {
		return s
	}
	return t.doc.redacted(s)
}

// Flush writes out what is buffered.
func (t *Terminal) Flush() error { return t.w.Flush() }

// RenderTerminal prints the header and every item of doc.
func RenderTerminal(w io.Writer, doc *Doc, src *tree.Source, o TermOptions) error {
	t := NewTerminal(w, doc, o)
	t.Header(doc.Header)
	var loose *tree.Agent // the agent no call spawned being shown
	for _, it := range doc.Items {
		if it.Loose && it.Depth == 1 && it.Node.Agent() != loose {
			if loose == nil {
				t.gap(0)
				t.printf("%s\n", t.th.Yellow("agents not linked to a tool call:"))
			}
			loose = it.Node.Agent()
			t.agentLink(loose, 0)
		}
		raw, err := src.Line(it.Node)
		if err != nil {
			return err
		}
		t.Item(it.Node.Entry(), it.Node, raw, it.Depth, it.For)
	}
	switch {
	case len(doc.Items) == 0 && doc.Loose > 0: // a session whose main transcript was deleted
		t.printf("%s\n", t.th.Dim(fmt.Sprintf("(nothing to show: --agents shows the conversations of its %s no call spawned)", plural(doc.Loose, "agent"))))
	case len(doc.Items) == 0:
		t.printf("%s\n", t.th.Dim("(nothing to show)"))
	}
	return t.Flush()
}

func (t *Terminal) printf(format string, args ...any) {
	fmt.Fprintf(t.w, format, args...)
	t.started, t.lastBlank = true, false
}

// gap separates messages with one empty line, never two.
func (t *Terminal) gap(depth int) {
	if t.started && !t.lastBlank {
		t.blank(depth)
	}
}

// Header prints the session summary.
func (t *Terminal) Header(h Header) {
	th := t.th
	row := func(label, value string) {
		if value != "" {
			t.printf("%s %s\n", th.Dim(fmt.Sprintf("%-8s", label)), value)
		}
	}
	if id := clean(h.SessionID); t.o.Width > 0 && 9+width(id) > t.o.Width-1 {
		t.printf("%s\n", th.Bold(id)) // the id whole, to be copied, where the label leaves no room
	} else {
		row("session", th.Bold(id))
	}
	if a := session.AgentFileID(h.Path); a != "" { // a file given by its path: one subagent's conversation
		sid := h.SessionID
		if len(sid) > 8 {
			sid = sid[:8]
		}
		label := "agent"
		for _, l := range render.FitParts([]string{clean(a), th.Dim("a subagent's transcript")}, th.Dim(" · "), t.textWidth(0, 9), 0) {
			row(label, l)
			label = ""
		}
		for _, l := range render.FitParts([]string{"cctx show " + clean(sid) + " --agents", th.Dim("shows it under its call")}, " ", t.textWidth(0, 9), 0) {
			row("", l)
		}
	}
	if h.Title != "" { // as ls shows it: the session ls named is seen to be this one
		title := clean(t.redacted(h.Title))
		if w := t.textWidth(0, 9); w > 0 {
			title = cutWidth(title, w)
		}
		row("title", th.Bold(title))
	}
	proj := []string{clean(h.Project)}
	if w := t.textWidth(0, 9); w > 0 {
		proj[0] = render.CutLeft(proj[0], w) // a path's telling end kept
	}
	if h.Branch != "" {
		proj = append(proj, th.Dim("branch ")+clean(h.Branch))
	}
	label := "project"
	for _, l := range render.FitParts(proj, th.Dim(" · "), t.textWidth(0, 9), 0) {
		row(label, l) // a second line under the first, without the label
		label = ""
	}
	var models []string
	for _, m := range h.Models {
		models = append(models, clean(render.ShortModel(t.redacted(m))))
	}
	row("models", strings.Join(models, ", "))
	if !h.Start.IsZero() {
		end := h.End.Local().Format("15:04")
		if h.End.Local().Format("2006-01-02") != h.Start.Local().Format("2006-01-02") {
			end = h.End.Local().Format("2006-01-02 15:04")
		}
		label := "time"
		for _, l := range render.FitParts([]string{h.Start.Local().Format("2006-01-02 15:04") + " → " + end, "(" + render.Duration(h.End.Sub(h.Start)) + ")"}, " ", t.textWidth(0, 9), 0) {
			row(label, l)
			label = ""
		}
	}
	prompts := plural(h.Prompts, "prompt")
	if h.PromptsShown != h.Prompts {
		prompts += fmt.Sprintf(" (%d shown)", h.PromptsShown) // the others on other branches, or before --tail
	}
	act := []string{prompts, plural(int(h.Total.APICalls), "API call")}
	if h.Subagents > 0 {
		act = append(act, plural(h.Subagents, "subagent"))
	}
	tok := render.Count(h.Total.Tokens) + " tokens"
	if h.Total.CostKnown() && h.Total.APICalls > 0 {
		tok += " · " + usd(h.Total.Cost)
	} else if h.Total.APICalls > 0 {
		tok += " · cost unknown"
	}
	act = append(act, tok)
	if n := h.Total.OutputUnderstated; n > 0 {
		act = append(act, th.Yellow(fmt.Sprintf("output understated on %s", plural(int(n), "call"))))
	}
	label = "usage"
	for _, l := range render.FitParts(act, " · ", t.textWidth(0, 9), 0) {
		row(label, l)
		label = ""
	}
	if h.Continues != "" {
		row("history", "starts in another file: the first entry continues "+clean(render.Short(h.Continues))+" (a resumed or continued session)")
	}
	if t.doc != nil {
		if leaves := len(t.doc.Tree.Leaves()); leaves > 1 {
			row("branches", fmt.Sprintf("%d, %s", leaves, whichBranch(h)))
		}
	}
	t.blank(0)
}

// whichBranch says which branch is shown: the active one unless --leaf
// chose an entry off the active path. It is decided from --leaf, not from
// the shown items: the last item can be a subagent's line (--agents) or
// nothing at all (--grep without a match).
func whichBranch(h Header) string {
	switch {
	case h.Shown == "":
		return "showing the active one (--leaf UUID for another)"
	case h.OffActive:
		return fmt.Sprintf("showing the one ending at %s (--leaf), not the active one", clean(render.Short(h.Shown)))
	}
	return fmt.Sprintf("showing the active one up to %s (--leaf)", clean(render.Short(h.Shown)))
}

// blank prints an empty line; inside a subagent it keeps the bar.
func (t *Terminal) blank(depth int) {
	t.printf("%s\n", strings.TrimRight(strings.Repeat("  "+t.th.Dim("│")+" ", depth), " "))
	t.lastBlank = true
}

// indent is the prefix of a line at depth: subagent conversations sit
// behind a bar.
func (t *Terminal) indent(depth int) string {
	return strings.Repeat("  "+t.th.Dim("│")+" ", depth)
}

// textWidth is the width left for text at depth with extra cells of
// prefix, one column to spare as tables keep it (a line as wide as the
// terminal is wrapped on some, Windows' console, and leaves an empty line
// after it); 0 when not wrapping.
func (t *Terminal) textWidth(depth, extra int) int {
	if t.o.Width <= 0 {
		return 0
	}
	return max(t.o.Width-1-4*depth-extra, 20)
}

// fit is a line of the view's own (a note, not transcript text) cut to
// what the terminal leaves after extra columns at depth; whole in a pipe.
func (t *Terminal) fit(s string, depth, extra int) string {
	if t.o.Width <= 0 {
		return s
	}
	return cutWidth(s, max(t.o.Width-1-4*depth-extra, 10))
}

// pipeCut is how wide a cut line (a tool result, a summary) may be when
// the output is not a terminal and has no width: wide enough for grep,
// short enough that a minified file does not flood the output.
const pipeCut = 160

// cutAt is the width lines are cut to (not wrapped) at depth.
func (t *Terminal) cutAt(depth, extra int) int {
	if w := t.textWidth(depth, extra); w > 0 {
		return w
	}
	return pipeCut
}

func (t *Terminal) when(ts time.Time) string {
	if ts.IsZero() {
		return ""
	}
	l := ts.Local()
	day := l.Format("2006-01-02")
	if day != t.lastDay {
		t.lastDay = day
		return l.Format("2006-01-02 15:04:05")
	}
	return l.Format("15:04:05")
}

// Item prints one entry. n is the tree node (nil when following); raw is
// the line; forID is the call a result answers.
func (t *Terminal) Item(e reader.Entry, n *tree.Node, raw []byte, depth int, forID string) {
	switch {
	case e.IsUser(): // a user line, or a queued input's attachment line
		t.user(e, n, raw, depth, forID)
	case e.Type == "assistant":
		t.assistant(e, n, raw, depth)
	case e.Type == "system":
		if e.Subtype == "compact_boundary" {
			t.compaction(e, n, depth)
			return
		}
		li := reader.ReadLineInfo(raw)
		t.note(depth, "system", e.Subtype, li.Content)
	default:
		li := reader.ReadLineInfo(raw)
		t.note(depth, e.Type, li.Kind, li.Name+" "+li.Content)
	}
}

// note is a dim one-liner for lines shown only with --all.
func (t *Terminal) note(depth int, kind, sub, text string) {
	label := kind
	if sub != "" {
		label += "/" + sub
	}
	text = strings.TrimSpace(strings.ReplaceAll(text, "\n", " "))
	line := "· " + label
	if text != "" {
		line += ": " + text
	}
	line = clean(line)
	if !t.o.Full {
		line = cutWidth(line, t.cutAt(depth, 2))
	}
	t.printf("%s  %s\n", t.indent(depth), t.th.Dim(line))
}

func (t *Terminal) compaction(e reader.Entry, n *tree.Node, depth int) {
	t.lastMsg = map[int]string{}
	parts := []string{"context compacted"}
	if e.CompactTrigger != "" {
		parts[0] += " (" + clean(e.CompactTrigger) + ")"
	}
	if e.CompactPreTokens > 0 {
		parts = append(parts, render.Count(e.CompactPreTokens)+" tokens → summary")
	}
	if ts := t.when(e.Timestamp); ts != "" {
		parts = append(parts, ts)
	}
	total := 72
	if t.o.Width > 0 {
		total = max(t.o.Width-1-4*depth, 20) // a column short of the edge, as every line
	}
	// On a narrow terminal the time goes first, then the tokens: the
	// divider stays one line (a pipe keeps it whole).
	label := " " + strings.Join(parts, " · ") + " "
	for t.o.Width > 0 && len(parts) > 1 && width(label)+8 > total {
		parts = parts[:len(parts)-1]
		label = " " + strings.Join(parts, " · ") + " "
	}
	if t.o.Width > 0 && width(label)+8 > total {
		label = " " + render.Cut(strings.TrimSpace(label), total-10) + " "
	}
	fill := max(total-width(label)-4, 4)
	t.gap(depth)
	t.printf("%s%s\n", t.indent(depth), t.th.Yellow("────"+label+strings.Repeat("─", fill)))
	if n != nil {
		for _, a := range n.Agents() {
			t.agentLink(a, depth)
		}
	}
}

// user prints a user line: a typed prompt with its header, a tool result
// under its call, a compaction summary collapsed, or local command output.
func (t *Terminal) user(e reader.Entry, n *tree.Node, raw []byte, depth int, forID string) {
	th := t.th
	blocks := reader.Blocks(raw)
	if e.CompactSummary {
		text := ""
		for _, b := range blocks {
			if b.Type == "text" {
				text += b.Text
			}
		}
		if t.o.Full {
			t.printf("%s  %s\n", t.indent(depth), th.Dim("summary of the conversation before the compaction:"))
			for _, l := range markdown(text, t.textWidth(depth, 4), th) {
				t.printf("%s    %s\n", t.indent(depth), l)
			}
		} else {
			t.printf("%s  %s\n", t.indent(depth), th.Dim(fmt.Sprintf("▸ summary of the earlier conversation: %s chars (--full shows it)", render.Thousands(int64(len(text))))))
		}
		t.blank(depth)
		return
	}
	first := true
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			t.result(b, depth, forID)
		case "text":
			if t.userText(e, b.Text, depth, first) {
				first = false
			}
		case "image", "document":
			if first {
				t.userHeader(e, depth)
				first = false
			}
			t.printf("%s  %s\n", t.indent(depth), th.Magenta(placeholder(b)))
		}
	}
	if !first {
		t.blank(depth)
	}
}

func (t *Terminal) userHeader(e reader.Entry, depth int) {
	t.gap(depth)
	t.lastMsg[depth] = ""
	label := "❯ user"
	if e.Meta {
		label = "❯ user (meta)"
	} else if depth > 0 {
		label = "❯ prompt"
	}
	parts := []string{t.th.Bold(t.th.Cyan(label))}
	if ts := t.when(e.Timestamp); ts != "" {
		parts = append(parts, t.th.Dim(ts))
	}
	if e.Queued != reader.NotQueued {
		// Typed (or notified) while the model worked, delivered in the
		// middle of its turn.
		parts = append(parts, t.th.Dim("queued"))
	}
	t.printf("%s%s\n", t.indent(depth), strings.Join(parts, t.th.Dim(" · ")))
}

var (
	commandNameRe = regexp.MustCompile(`(?s)<command-name>(.*?)</command-name>`)
	commandArgsRe = regexp.MustCompile(`(?s)<command-args>(.*?)</command-args>`)
	localOutRe    = regexp.MustCompile(`(?s)^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>(.*?)</(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>`)
	bashInputRe   = regexp.MustCompile(`(?s)^\s*<bash-input>(.*?)</bash-input>`)
)

// userText prints a text block of a user line and reports whether it
// printed a header. Local command records are shown the way the person
// typed them; interruption markers as a short note.
func (t *Terminal) userText(e reader.Entry, text string, depth int, first bool) bool {
	th := t.th
	trimmed := strings.TrimSpace(text)
	switch {
	case trimmed == "":
		return false
	case strings.HasPrefix(trimmed, "[Request interrupted by user"):
		t.printf("%s  %s\n", t.indent(depth), th.Yellow("⏹ "+clean(trimmed)))
		return false
	case localOutRe.MatchString(trimmed):
		m := localOutRe.FindStringSubmatch(trimmed)
		out := strings.TrimSpace(m[2])
		if out == "" {
			return false
		}
		t.block(depth, "  ⎿ ", lines(out), false, t.o.ResultLines, 0)
		return false
	}
	if first {
		t.userHeader(e, depth)
	}
	switch {
	case commandNameRe.MatchString(trimmed):
		cmd := strings.TrimSpace(commandNameRe.FindStringSubmatch(trimmed)[1])
		if m := commandArgsRe.FindStringSubmatch(trimmed); m != nil && strings.TrimSpace(m[1]) != "" {
			cmd += " " + strings.TrimSpace(m[1])
		}
		for _, l := range wrapLines(lines(cmd), t.textWidth(depth, 2)) {
			t.printf("%s  %s\n", t.indent(depth), th.Bold(l))
		}
	case bashInputRe.MatchString(trimmed):
		cmd := bashInputRe.FindStringSubmatch(trimmed)[1]
		for _, l := range wrapLines(lines("! "+cmd), t.textWidth(depth, 2)) {
			t.printf("%s  %s\n", t.indent(depth), th.Bold(l))
		}
	default:
		for _, l := range markdown(trimmed, t.textWidth(depth, 2), th) {
			t.printf("%s  %s\n", t.indent(depth), l)
		}
	}
	return true
}

// assistant prints an assistant line. Lines of one response (message.id)
// share one header.
func (t *Terminal) assistant(e reader.Entry, n *tree.Node, raw []byte, depth int) {
	th := t.th
	if e.MessageID == "" || t.lastMsg[depth] != e.MessageID {
		t.gap(depth)
		t.lastMsg[depth] = e.MessageID
		parts := []string{th.Bold(th.Magenta("● assistant"))}
		if ts := t.when(e.Timestamp); ts != "" {
			parts = append(parts, th.Dim(ts))
		}
		if e.Model != "" {
			parts = append(parts, th.Dim(clean(render.ShortModel(t.redacted(e.Model)))))
		}
		if n != nil && t.doc != nil {
			if r := t.doc.Usage(n); r != nil {
				parts = append(parts, th.Dim(usageText(r, t.doc.Prices)))
			}
		}
		for _, l := range render.FitParts(parts, th.Dim(" · "), t.textWidth(depth, 1), 2) {
			t.printf("%s%s\n", t.indent(depth), l)
		}
	}
	for _, b := range reader.Blocks(raw) {
		switch b.Type {
		case "text":
			text := strings.Trim(b.Text, "\n")
			if strings.TrimSpace(text) == "" {
				continue
			}
			style := func(s string) string { return s }
			if e.APIError || e.Synthetic() {
				style = th.Yellow
			}
			for _, l := range markdown(text, t.textWidth(depth, 2), th) {
				t.printf("%s  %s\n", t.indent(depth), style(l))
			}
		case "thinking", "redacted_thinking":
			t.thinking(b, depth)
		case "tool_use", "server_tool_use":
			t.toolUse(b, n, depth)
		case "image", "document":
			t.printf("%s  %s\n", t.indent(depth), th.Magenta(placeholder(b)))
		default:
			// Server tool results and blocks of newer API versions.
			t.printf("%s  %s\n", t.indent(depth), th.Dim("["+clean(b.Type)+"]"))
		}
	}
}

func (t *Terminal) thinking(b reader.Block, depth int) {
	th := t.th
	if b.Type == "redacted_thinking" {
		t.printf("%s  %s\n", t.indent(depth), th.Dim("∴ thinking (redacted by the API)"))
		return
	}
	text := strings.TrimSpace(b.Text)
	if !t.o.Thinking || text == "" {
		what := "empty: only its signature was kept"
		if text != "" {
			what = render.Thousands(int64(len([]rune(text)))) + " chars, --thinking shows it"
		}
		t.printf("%s  %s\n", t.indent(depth), th.Dim(t.fit("∴ thinking ("+what+")", depth, 2)))
		return
	}
	t.printf("%s  %s\n", t.indent(depth), th.Dim("∴ thinking"))
	for _, l := range wrapLines(lines(text), t.textWidth(depth, 4)) {
		t.printf("%s    %s\n", t.indent(depth), th.Dim(l))
	}
}

func wrapLines(ls []string, w int) []string {
	if w <= 0 {
		return ls
	}
	var out []string
	for _, l := range ls {
		out = append(out, wrapText(l, w)...)
	}
	return out
}

// toolUse prints a call's one-line summary, then what the call carries
// that a person reads (an Edit's diff, a Write's start, a todo list), then
// the subagents it spawned.
func (t *Terminal) toolUse(b reader.Block, n *tree.Node, depth int) {
	th := t.th
	t.calls[b.ID] = b.Name
	t.lastCall[depth] = b.ID
	in := reader.ParseToolInput(b.Input)
	summary := clean(toolSummary(b.Name, b.Input, in))
	head := "▸ " + clean(b.Name)
	if room := t.o.Width - 1 - 4*depth - 2; t.o.Width > 0 && !t.o.Full && width(head)+1+20 > room {
		// A long name (an MCP tool's) is cut before its summary goes
		// under 20 columns; a line narrower than both has the name alone.
		if w := max(room-21, min(room, 14)); strings.HasPrefix(b.Name, "mcp__") {
			head = "▸ " + render.CutLeft(clean(b.Name), w-2) // mcp__<server>__<tool>: the tool is at the end
		} else {
			head = cutWidth(head, w)
		}
		if summary != "" && room-width(head)-1 < 8 {
			summary = ""
		}
	}
	line := th.Bold(th.Green(head))
	if summary != "" {
		if !t.o.Full {
			summary = cutWidth(summary, max(8, t.cutAt(depth, 2+width(head)+1)))
			if t.o.Width > 0 {
				summary = cutWidth(summary, t.o.Width-1-4*depth-2-width(head)-1)
			}
		}
		line += " " + summary
	}
	t.printf("%s  %s\n", t.indent(depth), line)
	switch b.Name {
	case "Edit", "MultiEdit":
		for _, ed := range in.Edits {
			t.diff(lineDiff(ed.Old, ed.New), depth)
		}
	case "Write":
		var dl []diffLine
		for _, l := range splitKeep(in.Content) {
			dl = append(dl, diffLine{'+', l})
		}
		t.diff(dl, depth)
	case "TodoWrite":
		for _, td := range in.Todos {
			mark := "☐"
			switch td.Status {
			case "completed":
				mark = "☑"
			case "in_progress":
				mark = "◐"
			}
			t.printf("%s    %s %s\n", t.indent(depth), mark, cutWidth(clean(firstLine(td.Content)), t.cutAt(depth, 6)))
		}
	}
	if n != nil {
		for _, a := range n.Agents() {
			if a.ToolUseID == b.ID {
				t.agentLink(a, depth)
			}
		}
	}
	if t.hasResult != nil && !t.hasResult[b.ID] && b.Type == "tool_use" {
		t.printf("%s    %s\n", t.indent(depth), th.Dim("⎿ (no result recorded)"))
	}
}

// diff prints diff lines, long unchanged runs folded, at most
// maxDiffLines without --full.
func (t *Terminal) diff(dl []diffLine, depth int) {
	th := t.th
	const context = 2
	keep := make([]bool, len(dl))
	for i, d := range dl {
		if d.op != ' ' {
			for j := max(0, i-context); j <= min(len(dl)-1, i+context); j++ {
				keep[j] = true
			}
		}
	}
	var out []string
	for i := 0; i < len(dl); {
		if !keep[i] {
			j := i
			for j < len(dl) && !keep[j] {
				j++
			}
			out = append(out, th.Dim(fmt.Sprintf("  ⋯ %s unchanged", plural(j-i, "line"))))
			i = j
			continue
		}
		d := dl[i]
		text := clean(d.text)
		if !t.o.Full {
			text = cutWidth(text, t.cutAt(depth, 6))
		}
		switch d.op {
		case '-':
			out = append(out, th.Red("- "+text))
		case '+':
			out = append(out, th.Green("+ "+text))
		default:
			out = append(out, th.Dim("  "+text))
		}
		i++
	}
	if !t.o.Full && len(out) > maxDiffLines {
		more := len(out) - maxDiffLines
		out = append(out[:maxDiffLines], th.Dim(fmt.Sprintf("… %s more (--full shows all)", plural(more, "line"))))
	}
	for _, l := range out {
		t.printf("%s    %s\n", t.indent(depth), l)
	}
}

// agentLink is the one-line link to a subagent under its call.
func (t *Terminal) agentLink(a *tree.Agent, depth int) {
	th := t.th
	parts := []string{"↳ agent " + clean(a.ID)}
	if a.Type != "" {
		parts[0] += " (" + clean(t.redacted(a.Type)) + ")"
	}
	if a.Description != "" {
		parts = append(parts, strings.TrimSpace(clean(firstLine(t.redacted(a.Description)))))
	}
	uses := 0
	for _, n := range a.Nodes {
		uses += len(n.ToolUses())
	}
	parts = append(parts, plural(uses, "tool use"))
	if t.doc != nil {
		tot := t.doc.AgentTotal(a.ID)
		parts = append(parts, plural(int(tot.APICalls), "API call"), render.Count(tot.Tokens)+" tokens")
	}
	for _, l := range render.FitParts(parts, " · ", t.textWidth(depth, 5), 2) {
		t.printf("%s    %s\n", t.indent(depth), th.Cyan(l))
	}
}

// result prints a tool result under its call: a few lines and a count of
// the rest (all with --full), in red when the tool failed.
func (t *Terminal) result(b reader.Block, depth int, forID string) {
	id := b.ToolUseID
	name := t.calls[id]
	label := ""
	if forID == "" || (t.lastCall[depth] != id && name != "") {
		// Not right under its call: say which call it answers.
		if name == "" {
			name = "result of an unknown call"
		}
		label = clean(name) + ": "
	}
	text := strings.Trim(b.Text, "\n")
	limit := t.o.ResultLines
	if !b.IsError && (name == "Edit" || name == "MultiEdit" || name == "Write") {
		limit = 1 // the diff above says it all
	}
	// Only the lines shown are cut and cleaned: a result can be megabytes.
	var ls []string
	hidden := 0
	if strings.TrimSpace(text) != "" {
		switch {
		case t.o.Full:
			ls = lines(text)
		case t.o.Grep != nil && t.o.Grep.MatchString(text):
			ls, hidden = matchingLines(text, t.o.Grep, limit)
		default:
			ls, hidden = headLines(text, limit)
		}
	}
	for _, img := range reader.ResultImages(b.Content) {
		if hidden > 0 {
			hidden++
		} else {
			ls = append(ls, placeholder(img))
		}
	}
	if len(ls) == 0 {
		ls = []string{"(no output)"}
	}
	if b.IsError {
		// Marked in words too: without colour red says nothing.
		ls[0] = "✗ " + ls[0]
	}
	if label != "" {
		ls[0] = label + ls[0]
	}
	t.block(depth, "    ⎿ ", ls, b.IsError, limit, hidden)
}

// matchingLines is what a folded result shows under show --grep: its
// first limit lines when one of them matches, else the first limit lines
// that match (a match past the fold was not seen); and how many more.
func matchingLines(text string, re *regexp.Regexp, limit int) (ls []string, hidden int) {
	all := lines(text)
	for _, l := range all[:min(limit, len(all))] {
		if re.MatchString(l) {
			return all[:min(limit, len(all))], max(0, len(all)-limit)
		}
	}
	for _, l := range all {
		if re.MatchString(l) && len(ls) < limit {
			ls = append(ls, l)
		}
	}
	return ls, len(all) - len(ls)
}

// block prints lines behind a "⎿" gutter: cut to the width (wrapped with
// --full), the first limit only unless --full, red for errors. hidden
// counts lines after ls that were not even split off.
func (t *Terminal) block(depth int, gutter string, ls []string, isErr bool, limit, hidden int) {
	th := t.th
	cont := strings.Repeat(" ", width(gutter))
	var out []string
	more := hidden
	if t.o.Full {
		out = wrapLines(ls, t.textWidth(depth, width(gutter)))
	} else {
		if len(ls) > limit {
			more += len(ls) - limit
			ls = ls[:limit]
		}
		for _, l := range ls {
			out = append(out, cutWidth(l, t.cutAt(depth, width(gutter))))
		}
	}
	for i, l := range out {
		g := cont
		if i == 0 {
			g = gutter
		}
		if isErr {
			l = th.Red(l)
		} else {
			l = th.Dim(l)
		}
		t.printf("%s%s%s\n", t.indent(depth), th.Dim(g), l)
	}
	if more > 0 {
		t.printf("%s%s%s\n", t.indent(depth), cont, th.Dim(t.fit(fmt.Sprintf("… %s more (--full shows all)", plural(more, "line")), depth, width(cont))))
	}
}

func placeholder(b reader.Block) string {
	typ := b.MediaType
	if typ == "" {
		typ = "unknown type"
	}
	size := ""
	if b.DataBytes > 0 {
		size = ", " + render.Bytes(int64(b.DataBytes)*3/4)
	}
	return "[" + b.Type + " " + clean(typ) + size + "]"
}

func usd(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 0.01:
		return "<$0.01"
	}
	return fmt.Sprintf("$%.2f", v)
}

// usageText is one response's usage for the message header: the context
// the model saw (input and cache), what it wrote, and the cost.
func usageText(r *tokens.Response, p *tokens.Prices) string {
	u := r.Usage
	s := fmt.Sprintf("%s ctx · %s out", render.Count(u.Context()), render.Count(u.Output))
	if c, ok := p.Cost(r); ok && p != nil {
		s += " · " + usd(c)
	}
	return s
}
