// Package export writes one conversation of the model in internal/tree as a
// file to share: a self-contained HTML page (no script, no request to any
// network, light and dark, printable) or GitHub-flavoured Markdown.
//
// It shows what `cctx show` shows: the entries show.Build selects, in its
// order, grouped the same way (the lines of one API response under one
// heading, tool results under their call, subagents under the call that
// spawned them). Content is read line by line through show.Source and
// dropped once written, so memory follows the number of entries, never
// their bytes; long tool results and large images are cut with a note.
//
// Text from a transcript is hostile. Every string is made visible first
// (control characters, escape sequences and bidi controls as escapes), then
// escaped for its format: html/template for the page, and for Markdown, "<"
// outside code as &lt; and fences longer than any backtick run inside.
package export

import (
	"bufio"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Format is an export format.
type Format string

// The formats.
const (
	HTML     Format = "html"
	Markdown Format = "md"
)

// Size caps.
const (
	// DefaultMaxText is how many bytes of one tool input, tool result,
	// thinking or text block are kept.
	DefaultMaxText = 100 << 10
	// DefaultMaxImage is the largest image (base64 bytes) embedded in a
	// page.
	DefaultMaxImage = 2 << 20
)

// Options shape an export.
type Options struct {
	Format Format
	// Title is the session's title as ls shows it (a custom or AI title);
	// "" titles it by its first prompt.
	Title string
	// Redact, when set, rewrites every line read and every other string
	// written (paths, names, the title): redact.Redactor.Bytes.
	Redact func([]byte) []byte
	// Location is the time zone of the times shown; nil: UTC.
	Location  *time.Location
	MaxText   int    // 0: DefaultMaxText
	MaxImage  int    // 0: DefaultMaxImage
	Generator string // what wrote the file ("cctx 1.2.0"), in its footer
}

// Stats is what an export did.
type Stats struct {
	// Secrets is how many secrets redaction replaced in the lines written
	// (each line counted once).
	Secrets int
	// Items is how many entries were written.
	Items int
}

// tocMin is the number of prompts from which a page gets a table of
// contents.
const tocMin = 3

// Render writes doc in o.Format to w.
func Render(w io.Writer, doc *show.Doc, src *show.Source, o Options) (Stats, error) {
	if o.MaxText <= 0 {
		o.MaxText = DefaultMaxText
	}
	if o.MaxImage <= 0 {
		o.MaxImage = DefaultMaxImage
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var out sink
	switch o.Format {
	case HTML:
		out = newHTMLSink(bw)
	case Markdown:
		out = newMarkdownSink(bw)
	default:
		return Stats{}, fmt.Errorf("unknown export format %q", o.Format)
	}
	wk := &walker{doc: doc, src: src, o: o, out: out, items: doc.Items,
		calls: map[string]string{}, hasResult: map[string]bool{}, promptN: map[int]int{}}
	for _, it := range doc.Items {
		for _, id := range it.Node.ToolResults {
			wk.hasResult[id] = true
		}
	}
	h, err := wk.header()
	if err != nil {
		return wk.stats, err
	}
	out.begin(h)
	if err := wk.seq(0, len(doc.Items), 0); err != nil {
		return wk.stats, err
	}
	out.end(len(doc.Items) == 0)
	if err := out.err(); err != nil {
		return wk.stats, err
	}
	wk.stats.Items = len(doc.Items)
	return wk.stats, bw.Flush()
}

type walker struct {
	doc   *show.Doc
	src   *show.Source
	o     Options
	out   sink
	items []show.Item

	calls     map[string]string // tool_use id → tool name
	hasResult map[string]bool   // tool_use ids answered by a shown line
	promptN   map[int]int       // item index → prompt number
	lastDay   string
	stats     Stats
}

// level is the state of one run of items at one depth: the main
// conversation or one subagent's.
type level struct {
	depth int
	to    int    // the end of the run (exclusive)
	next  int    // the next item to write
	open  bool   // an assistant message is open
	msg   string // its message.id
	// pending are results read with another call's (one user line
	// answering several calls), kept until their call is written; those
	// left when the message ends are written on their own.
	pending map[string]*resultView
	order   []string // pending ids in the order read
}

// read reads an entry's line, redacted.
func (w *walker) read(n *tree.Node) ([]byte, error) {
	raw, err := w.src.Line(n)
	if err != nil || w.o.Redact == nil {
		return raw, err
	}
	return w.o.Redact(raw), nil
}

// txt is transcript text about to be written: clean, and its redaction
// marks counted. Secrets are counted where they are written, not in the
// lines read: a line holds a tool's output twice (the result and
// toolUseResult) and fields never shown (signatures).
func (w *walker) txt(s string) string {
	if w.o.Redact != nil {
		w.stats.Secrets += strings.Count(s, redact.Mask)
	}
	return clean(s)
}

// one is one line of transcript text about to be written (see line).
func (w *walker) one(s string, n int) string { return w.txt(line(s, n)) }

// red redacts a string of the model (not read from a line, so not
// redacted yet).
func (w *walker) red(s string) string {
	if w.o.Redact == nil {
		return s
	}
	return string(w.o.Redact([]byte(s)))
}

// str is a string of the model about to be written: redacted, clean and
// counted.
func (w *walker) str(s string) string { return w.txt(w.red(s)) }

func (w *walker) fmtTime(t time.Time, full bool) (string, string) {
	if t.IsZero() {
		return "", ""
	}
	l := t.In(w.o.Location)
	iso := l.Format(time.RFC3339)
	day := l.Format("2006-01-02")
	if full || day != w.lastDay {
		w.lastDay = day
		return l.Format("2006-01-02 15:04:05"), iso
	}
	return l.Format("15:04:05"), iso
}

// seq writes items[from:to], the run of one conversation at depth.
func (w *walker) seq(from, to, depth int) error {
	lv := &level{depth: depth, to: to}
	for i := from; i < to; {
		lv.next = i + 1
		if err := w.item(lv, i); err != nil {
			return err
		}
		if err := w.out.err(); err != nil {
			return err
		}
		i = lv.next
	}
	w.closeMsg(lv)
	return nil
}

func (w *walker) closeMsg(lv *level) {
	for _, id := range lv.order {
		if r, ok := lv.pending[id]; ok {
			w.orphan(lv, id, r)
		}
	}
	lv.pending, lv.order = nil, nil
	if lv.open {
		w.out.closeAssistant()
		lv.open, lv.msg = false, ""
	}
}

func (w *walker) item(lv *level, i int) error {
	it := w.items[i]
	n := it.Node
	raw, err := w.read(n)
	if err != nil {
		return err
	}
	switch {
	case n.Type == "assistant":
		if err := w.assistant(lv, n, raw); err != nil {
			return err
		}
	case n.Type == "user":
		w.user(lv, i, n, raw)
	case n.IsCompactBoundary():
		if err := w.compaction(lv, n); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) assistant(lv *level, n *tree.Node, raw []byte) error {
	if !lv.open || n.MessageID == "" || lv.msg != n.MessageID {
		w.closeMsg(lv)
		av := &assistantView{Depth: lv.depth, Warn: n.APIError || n.Synthetic()}
		av.Time, av.TimeISO = w.fmtTime(n.Timestamp, false)
		if n.Model != "" {
			av.Model = w.str(render.ShortModel(n.Model))
		}
		if r := w.doc.Usage(n); r != nil {
			av.Usage = usageText(r, w.doc.Prices)
		}
		w.out.openAssistant(av)
		lv.open, lv.msg = true, n.MessageID
	}
	for _, b := range reader.Blocks(raw) {
		switch b.Type {
		case "text":
			t := strings.Trim(b.Text, "\n")
			if strings.TrimSpace(t) == "" {
				continue
			}
			kept, cut := cutText(t, w.o.MaxText)
			w.out.text(&textView{Text: w.txt(kept), Cut: cut})
		case "thinking", "redacted_thinking":
			t := strings.TrimSpace(b.Text)
			kept, cut := cutText(t, w.o.MaxText)
			w.out.thinking(&thinkingView{Text: w.txt(kept), Cut: cut, Chars: render.Thousands(int64(len([]rune(t)))), Redacted: b.Type == "redacted_thinking"})
		case "tool_use", "server_tool_use":
			if err := w.tool(lv, n, b); err != nil {
				return err
			}
		case "image", "document":
			w.out.image(w.image(b))
		default:
			w.out.block(w.txt(b.Type))
		}
	}
	return nil
}

var (
	commandNameRe = regexp.MustCompile(`(?s)<command-name>(.*?)</command-name>`)
	commandArgsRe = regexp.MustCompile(`(?s)<command-args>(.*?)</command-args>`)
	localOutRe    = regexp.MustCompile(`(?s)^\s*<(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>(.*?)</(local-command-stdout|local-command-stderr|bash-stdout|bash-stderr)>`)
	bashInputRe   = regexp.MustCompile(`(?s)^\s*<bash-input>(.*?)</bash-input>`)
)

// userText sorts a user text block as show does: a command as typed, an
// interruption or command output as a note, text Claude Code or an IDE
// added (an opened file, a selection, a reminder) as context, else the
// prompt's text.
func userText(text string) (command, note, output, context, prompt string) {
	t := strings.TrimSpace(text)
	switch {
	case t == "":
	case strings.HasPrefix(t, "[Request interrupted by user"):
		note = t
	case localOutRe.MatchString(t):
		output = strings.TrimSpace(localOutRe.FindStringSubmatch(t)[2])
	case commandNameRe.MatchString(t):
		command = strings.TrimSpace(commandNameRe.FindStringSubmatch(t)[1])
		if m := commandArgsRe.FindStringSubmatch(t); m != nil && strings.TrimSpace(m[1]) != "" {
			command += " " + strings.TrimSpace(m[1])
		}
	case bashInputRe.MatchString(t):
		command = "! " + bashInputRe.FindStringSubmatch(t)[1]
	case reader.ClassifyText(t) == reader.TextContext:
		context = t
	default:
		prompt = t
	}
	return
}

func (w *walker) user(lv *level, i int, n *tree.Node, raw []byte) {
	blocks := reader.Blocks(raw)
	if n.CompactSummary {
		var text strings.Builder
		for _, b := range blocks {
			if b.Type == "text" {
				text.WriteString(b.Text)
			}
		}
		t := strings.TrimSpace(text.String())
		kept, cut := cutText(t, w.o.MaxText)
		w.closeMsg(lv)
		w.out.summary(&summaryView{Depth: lv.depth, Text: w.txt(kept), Cut: cut, Chars: render.Thousands(int64(len([]rune(t))))})
		return
	}
	pv := &promptView{Depth: lv.depth}
	var texts []string
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			w.orphan(lv, b.ToolUseID, w.result(b))
		case "text":
			command, note, output, context, prompt := userText(b.Text)
			switch {
			case context != "":
				kept, _ := cutText(context, 2000)
				pv.Context = append(pv.Context, w.txt(kept))
			case note != "":
				w.out.note(&noteView{Depth: lv.depth, Kind: "interrupt", Text: w.one("⏹ "+note, 300)})
			case output != "":
				kept, cut := cutText(output, w.o.MaxText)
				w.out.note(&noteView{Depth: lv.depth, Kind: "output", Text: w.txt(kept), Cut: cut, Output: true})
			case command != "":
				pv.Command = w.txt(command)
			case prompt != "":
				texts = append(texts, prompt)
			}
		case "image", "document":
			pv.Images = append(pv.Images, w.image(b))
		}
	}
	if pv.Command == "" && len(texts) == 0 && len(pv.Images) == 0 && len(pv.Context) == 0 {
		return
	}
	kept, cut := cutText(strings.Join(texts, "\n\n"), w.o.MaxText)
	pv.Text, pv.Cut = w.txt(kept), cut
	pv.Time, pv.TimeISO = w.fmtTime(n.Timestamp, false)
	switch {
	case w.promptN[i] > 0:
		pv.N = w.promptN[i]
		pv.ID = fmt.Sprintf("p%d", pv.N)
		pv.Label = fmt.Sprintf("Prompt %d", pv.N)
	case n.Meta:
		pv.Label = "user (meta)"
	case lv.depth > 0:
		pv.Label = "prompt"
	default:
		pv.Label = "user"
	}
	w.closeMsg(lv)
	w.out.prompt(pv)
}

// orphan writes a result whose call is not right above it.
func (w *walker) orphan(lv *level, id string, r *resultView) {
	name := w.calls[id]
	if name == "" {
		name = "unknown call"
	}
	tv := &toolView{Depth: lv.depth, Name: "result of " + name, Orphan: true, Lines: r.Lines, Status: "ok"}
	if r.Error {
		tv.Status = "error"
	}
	w.out.openTool(tv)
	w.out.result(r)
	w.out.closeTool()
}

// result reads a tool_result block: its text cut, its images, whether it
// failed.
func (w *walker) result(b reader.Block) *resultView {
	r := &resultView{Error: b.IsError}
	var texts []string
	for _, c := range reader.ResultBlocks(b.Content) {
		switch c.Type {
		case "text":
			texts = append(texts, c.Text)
		case "image", "document":
			r.Images = append(r.Images, w.image(c))
		}
	}
	t := strings.Trim(strings.Join(texts, "\n"), "\n")
	r.Lines = countLines(t)
	kept, cut := cutText(t, w.o.MaxText)
	r.Text, r.Cut = w.txt(kept), cut
	return r
}

// tool writes a tool call with what belongs under it: the subagents it
// spawned (their items follow the call's line in doc.Items) and its
// result (the user line after them), consumed from the run.
func (w *walker) tool(lv *level, n *tree.Node, b reader.Block) error {
	w.calls[b.ID] = b.Name
	d := lv.depth
	// The subagents' items: deeper, right after the line.
	type span struct {
		agent    *tree.Agent
		from, to int
	}
	var agents []span
	j := lv.next
	for j < lv.to && w.items[j].Depth == d+1 && w.items[j].For == b.ID {
		a := w.items[j].Node.Agent
		k := j + 1
		for k < lv.to && (w.items[k].Depth > d+1 || (w.items[k].Depth == d+1 && w.items[k].Node.Agent == a)) {
			k++
		}
		agents = append(agents, span{a, j, k})
		j = k
	}
	// Then the result lines: the same depth, answering this call.
	var results []*resultView
	var extra []string
	for j < lv.to && w.items[j].Depth == d && w.items[j].For == b.ID && w.items[j].Node.Type == "user" {
		raw, err := w.read(w.items[j].Node)
		if err != nil {
			return err
		}
		for _, rb := range reader.Blocks(raw) {
			switch {
			case rb.Type == "tool_result" && rb.ToolUseID == b.ID:
				results = append(results, w.result(rb))
			case rb.Type == "tool_result":
				if lv.pending == nil {
					lv.pending = map[string]*resultView{}
				}
				lv.pending[rb.ToolUseID] = w.result(rb)
				lv.order = append(lv.order, rb.ToolUseID)
			case rb.Type == "text":
				if t := strings.TrimSpace(rb.Text); t != "" {
					extra = append(extra, w.one(t, 300))
				}
			}
		}
		j++
	}
	lv.next = j
	if r, ok := lv.pending[b.ID]; ok && len(results) == 0 {
		results = append(results, r)
		delete(lv.pending, b.ID)
	}
	tv := w.toolView(b, d)
	switch {
	case len(results) > 0:
		tv.Status, tv.Lines = "ok", results[0].Lines
		for _, r := range results {
			if r.Error {
				tv.Status = "error"
			}
		}
	case !w.hasResult[b.ID] && b.Type == "tool_use":
		tv.Status = "none"
	}
	w.out.openTool(tv)
	inline := map[*tree.Agent]bool{}
	for _, s := range agents {
		inline[s.agent] = true
		w.out.openAgent(w.agentView(s.agent, d+1))
		if err := w.seq(s.from, s.to, d+1); err != nil {
			return err
		}
		w.out.closeAgent()
	}
	for _, a := range n.Agents {
		if a.ToolUseID == b.ID && !inline[a] {
			w.out.agentLink(w.agentView(a, d))
		}
	}
	if len(results) > 0 {
		results[len(results)-1].Extra = extra
	}
	for _, r := range results {
		w.out.result(r)
	}
	w.out.closeTool()
	return nil
}

// toolView is a call's summary and the input a person reads: a command, a
// diff, a file's content, a todo list, a prompt, else the input as JSON.
func (w *walker) toolView(b reader.Block, depth int) *toolView {
	s := func(k string) string { return reader.InputString(b.Input, k) }
	summary := show.ToolSummary(b.Name, b.Input)
	if desc := s("description"); b.Name == "Bash" && desc != "" && !strings.Contains(s("command"), "\n") {
		summary = desc // what the command is for; the command is shown below
	}
	tv := &toolView{Depth: depth, Name: w.one(b.Name, 80), Summary: w.one(summary, 300)}
	setInput := func(kind, lang, text string) {
		kept, cut := cutText(text, w.o.MaxText)
		tv.Kind, tv.Lang, tv.Input, tv.InputCut = kind, lang, w.txt(kept), cut
	}
	switch b.Name {
	case "Bash":
		setInput("code", "bash", s("command"))
	case "Edit", "MultiEdit":
		tv.Kind, tv.Lang = "diff", "diff"
		budget := w.o.MaxText
		for _, ed := range reader.InputEdits(b.Input) {
			old, _ := cutText(ed.Old, budget/2)
			nw, _ := cutText(ed.New, budget/2)
			for _, dl := range show.LineDiff(old, nw) {
				l := diffLine{Class: "ctx", Text: "  " + dl.Text}
				switch dl.Op {
				case '-':
					l = diffLine{Class: "del", Text: "- " + dl.Text}
				case '+':
					l = diffLine{Class: "add", Text: "+ " + dl.Text}
				}
				l.Text = w.txt(strings.TrimSuffix(l.Text, "\r"))
				tv.Diff = append(tv.Diff, l)
			}
			if budget -= len(old) + len(nw); budget <= 0 {
				tv.InputCut = "cut here: the export keeps " + render.Bytes(int64(w.o.MaxText)) + " of each call"
				break
			}
		}
	case "Write":
		setInput("code", "", s("content"))
	case "TodoWrite":
		tv.Kind = "todos"
		for _, td := range reader.InputTodos(b.Input) {
			mark := "☐"
			switch td.Status {
			case "completed":
				mark = "☑"
			case "in_progress":
				mark = "◐"
			}
			tv.Todos = append(tv.Todos, todoView{Mark: mark, Status: w.one(td.Status, 40), Text: w.one(td.Content, 500)})
		}
	case "Task", "Agent":
		setInput("text", "", s("prompt"))
	case "Read", "Glob", "Grep", "LS", "WebFetch", "WebSearch", "NotebookRead", "BashOutput", "KillShell", "KillBash":
		// The summary says it all.
	default:
		if in := strings.TrimSpace(b.Input); in != "" && in != "{}" {
			setInput("json", "json", indentJSON(in))
		}
	}
	return tv
}

func (w *walker) agentView(a *tree.Agent, depth int) *agentView {
	av := &agentView{Depth: depth, ID: w.one(w.red(a.ID), 100), Type: w.one(w.red(a.Type), 100), Description: w.one(w.red(a.Description), 300)}
	for _, n := range a.Nodes {
		av.ToolUses += len(n.ToolUses)
	}
	tot := w.doc.AgentTotal(a.ID)
	av.APICalls, av.Tokens = tot.APICalls, render.Count(tot.Tokens)
	return av
}

func (w *walker) compaction(lv *level, n *tree.Node) error {
	w.closeMsg(lv)
	label := "context compacted"
	if n.CompactTrigger != "" {
		label += " (" + w.one(w.red(n.CompactTrigger), 40) + ")"
	}
	if n.CompactPreTokens > 0 {
		label += " · " + render.Count(n.CompactPreTokens) + " tokens → summary"
	}
	if ts, _ := w.fmtTime(n.Timestamp, false); ts != "" {
		label += " · " + ts
	}
	w.out.compaction(&compactionView{Depth: lv.depth, Label: label})
	// The compaction agent's conversation (--agents) follows, deeper.
	j := lv.next
	k := j
	for k < lv.to && w.items[k].Depth > lv.depth {
		k++
	}
	inline := map[*tree.Agent]bool{}
	if k > j {
		a := w.items[j].Node.Agent
		inline[a] = true
		w.out.openAgent(w.agentView(a, lv.depth+1))
		if err := w.seq(j, k, lv.depth+1); err != nil {
			return err
		}
		w.out.closeAgent()
		lv.next = k
	}
	for _, a := range n.Agents {
		if !inline[a] {
			w.out.agentLink(w.agentView(a, lv.depth))
		}
	}
	return nil
}

// image is an image or document block: embedded when it is a picture a
// page may show (PNG, JPEG, GIF, WebP) in base64 under the size cap.
func (w *walker) image(b reader.Block) *imageView {
	iv := &imageView{Kind: b.Type, MediaType: w.one(b.MediaType, 60)}
	if iv.MediaType == "" {
		iv.MediaType = "unknown type"
	}
	if b.DataBytes > 0 {
		iv.Size = render.Bytes(int64(b.DataBytes) * 3 / 4)
	}
	mt, data, ok := reader.ImageData(b.Raw)
	switch {
	case b.Type != "image":
		iv.Note = "a document: not embedded"
	case !ok:
		iv.Note = "not embedded: no base64 data in the transcript"
	case mt != "image/png" && mt != "image/jpeg" && mt != "image/gif" && mt != "image/webp":
		iv.Note = "not embedded: not a PNG, JPEG, GIF or WebP image"
	case len(data) > w.o.MaxImage:
		iv.Note = "not embedded: over the " + render.Bytes(int64(w.o.MaxImage)*3/4) + " cap of the export"
	case !isBase64(data):
		iv.Note = "not embedded: its data is not base64"
	default:
		iv.Data = data
		iv.URL = template.URL("data:" + mt + ";base64," + data) // mt and data checked above
	}
	return iv
}

func isBase64(s string) bool {
	if len(s) == 0 || len(s)%4 != 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

// usageText is one response's usage, as show prints it beside the model.
func usageText(r *tokens.Response, p *tokens.Prices) string {
	u := r.Usage
	s := fmt.Sprintf("%s ctx · %s out", render.Count(u.Context()), render.Count(u.Output))
	if c, ok := p.Cost(r); ok && p != nil {
		s += " · " + usd(c)
	}
	return s
}
