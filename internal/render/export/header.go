package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
)

// header is the session summary, and the table of contents: the typed
// prompts of the main conversation, each read (redacted) for its first
// line.
func (w *walker) header() (*headerView, error) {
	h := w.doc.Header
	hv := &headerView{
		SessionID: w.str(h.SessionID), Project: w.str(h.Project), Path: w.str(h.Path), Branch: w.str(h.Branch),
		Prompts: h.Prompts, APICalls: h.Total.APICalls, Subagents: h.Subagents,
		Redacted: w.o.Redact != nil, Generator: clean(w.o.Generator),
	}
	if h.PromptsShown != h.Prompts { // the others are on branches the page does not show
		hv.PromptsOn = fmt.Sprintf(" (%d on this branch)", h.PromptsShown)
	}
	var models []string
	for _, m := range h.Models {
		models = append(models, w.str(render.ShortModel(m)))
	}
	hv.Models = strings.Join(models, ", ")
	if !h.Start.IsZero() {
		start, iso := w.fmtTime(h.Start, true)
		s, e := h.Start.In(w.o.Location), h.End.In(w.o.Location)
		end := e.Format("15:04")
		if e.Format("2006-01-02") != s.Format("2006-01-02") {
			end = e.Format("2006-01-02 15:04")
		}
		hv.Time = fmt.Sprintf("%s %s → %s (%s)", start[:16], s.Format("MST"), end, render.Duration(h.End.Sub(h.Start)))
		hv.StartISO = iso
		w.lastDay = "" // the first message says its day
	}
	t := h.Total
	hv.Tokens = render.Count(t.Tokens)
	hv.TokenParts = fmt.Sprintf("input %s · output %s · cache read %s · cache write %s",
		render.Count(t.Input), render.Count(t.Output), render.Count(t.CacheRead), render.Count(t.CacheCreation))
	switch {
	case t.APICalls == 0:
		hv.Cost = "$0"
	case t.CostKnown():
		hv.Cost = usd(t.Cost)
	default:
		hv.Cost = fmt.Sprintf("unknown (%s of a model without a price)", plural(int(t.UnpricedCalls), "API call"))
	}
	if leaves := len(w.doc.Tree.Leaves()); leaves > 1 {
		hv.Branches = fmt.Sprintf("%d, %s", leaves, whichBranch(h.Shown, h.OffActive))
	}
	n := 0
	for i, it := range w.items {
		if it.Depth != 0 || !it.Node.IsTypedPrompt() {
			continue
		}
		n++
		w.promptN[i] = n
		raw, err := w.read(it.Node)
		if err != nil {
			return nil, err
		}
		var texts []string
		for _, b := range reader.Blocks(raw) {
			if b.Type == "text" {
				texts = append(texts, b.Text)
			}
		}
		text, _ := reader.PromptOf(texts) // as ls titles it
		ts, _ := w.fmtTime(it.Node.Timestamp(), true)
		hv.TOC = append(hv.TOC, tocEntry{ID: fmt.Sprintf("p%d", n), N: n, Text: line(text, 120), Time: ts})
	}
	w.lastDay = ""
	switch {
	case strings.TrimSpace(w.o.Title) != "":
		hv.Title = w.one(w.red(w.o.Title), 120)
	case len(hv.TOC) > 0 && hv.TOC[0].Text != "":
		hv.Title = hv.TOC[0].Text
	default:
		hv.Title = "Session " + line(hv.SessionID, 40)
	}
	if len(hv.TOC) < tocMin {
		hv.TOC = nil
	}
	return hv, nil
}

// whichBranch says which branch is shown, as show's header does.
func whichBranch(shown string, offActive bool) string {
	short := shown
	if len(short) > 8 {
		short = short[:8]
	}
	switch {
	case shown == "":
		return "showing the active one"
	case offActive:
		return fmt.Sprintf("showing the one ending at %s (--leaf), not the active one", clean(short))
	}
	return fmt.Sprintf("showing the active one up to %s (--leaf)", clean(short))
}

// indentJSON indents a tool's input for reading; invalid JSON is kept as
// it is.
func indentJSON(in string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(in), "", "  "); err != nil {
		return in
	}
	return b.String()
}
