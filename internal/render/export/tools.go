package export

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

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
		a := w.items[j].Node.Agent()
		k := j + 1
		for k < lv.to && (w.items[k].Depth > d+1 || (w.items[k].Depth == d+1 && w.items[k].Node.Agent() == a)) {
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
	for _, a := range n.Agents() {
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
	in := reader.ParseToolInput(b.Input)
	summary := show.ToolSummary(b.Name, b.Input)
	if desc := in.Description; b.Name == "Bash" && desc != "" && !strings.Contains(in.Command, "\n") {
		summary = desc // what the command is for; the command is shown below
	}
	tv := &toolView{Depth: depth, Name: w.one(b.Name, 80), Summary: w.one(summary, 300)}
	setInput := func(kind, lang, text string) {
		kept, cut := cutText(text, w.o.MaxText)
		tv.Kind, tv.Lang, tv.Input, tv.InputCut = kind, lang, w.txt(kept), cut
	}
	switch b.Name {
	case "Bash":
		setInput("code", "bash", in.Command)
	case "Edit", "MultiEdit":
		tv.Kind, tv.Lang = "diff", "diff"
		budget := w.o.MaxText
		for _, ed := range in.Edits {
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
		setInput("code", "", in.Content)
	case "TodoWrite":
		tv.Kind = "todos"
		for _, td := range in.Todos {
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
		setInput("text", "", in.Prompt)
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
		av.ToolUses += len(n.ToolUses())
	}
	tot := w.doc.AgentTotal(a.ID)
	av.APICalls, av.Tokens = tot.APICalls, render.Count(tot.Tokens)
	return av
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
