package export

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/tree"
)

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
	if it.Loose && it.Depth == lv.depth+1 {
		return w.looseAgent(lv, i)
	}
	raw, err := w.read(n)
	if err != nil {
		return err
	}
	switch {
	case n.Type == "assistant":
		if err := w.assistant(lv, n, raw); err != nil {
			return err
		}
	case n.IsUser(): // a user line, or a queued input's attachment line
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
		av.Time, av.TimeISO = w.fmtTime(n.Timestamp(), false)
		if n.Model() != "" {
			av.Model = w.str(render.ShortModel(n.Model()))
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
			if w.o.NoThinking {
				continue
			}
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
			w.out.block(w.one(b.Type, 80))
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
	pv.Time, pv.TimeISO = w.fmtTime(n.Timestamp(), false)
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
	if n.Queued != reader.NotQueued {
		pv.Label += " · queued" // typed (or notified) while the model worked, as show marks it
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

// looseAgent writes the conversation of an agent no call spawned (shown
// after the conversation with --agents: a session whose main transcript
// was deleted has only those) in its own block, as an agent under its
// call is.
func (w *walker) looseAgent(lv *level, i int) error {
	w.closeMsg(lv)
	a := w.items[i].Node.Agent()
	k := i
	for k < lv.to && w.items[k].Loose && (w.items[k].Depth > lv.depth+1 || w.items[k].Node.Agent() == a) {
		k++
	}
	w.out.openAgent(w.agentView(a, lv.depth+1))
	if err := w.seq(i, k, lv.depth+1); err != nil {
		return err
	}
	w.out.closeAgent()
	lv.next = k
	return nil
}

func (w *walker) compaction(lv *level, n *tree.Node) error {
	w.closeMsg(lv)
	label := "context compacted"
	if n.CompactTrigger() != "" {
		label += " (" + w.one(w.red(n.CompactTrigger()), 40) + ")"
	}
	if n.CompactPreTokens() > 0 {
		label += " · " + render.Count(n.CompactPreTokens()) + " tokens → summary"
	}
	if ts, _ := w.fmtTime(n.Timestamp(), false); ts != "" {
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
		a := w.items[j].Node.Agent()
		inline[a] = true
		w.out.openAgent(w.agentView(a, lv.depth+1))
		if err := w.seq(j, k, lv.depth+1); err != nil {
			return err
		}
		w.out.closeAgent()
		lv.next = k
	}
	for _, a := range n.Agents() {
		if !inline[a] {
			w.out.agentLink(w.agentView(a, lv.depth))
		}
	}
	return nil
}
