package export

import (
	"bufio"
	"fmt"
	"html"
	"strings"
)

// mdSink writes GitHub-flavoured Markdown, fit to paste into a pull
// request or an issue. Replies and prompts stay Markdown (safeMarkdown:
// "<" outside code written &lt;, images made links); tool inputs, results,
// thinking and command output are fenced code blocks with a fence longer
// than any backtick run inside; results, thinking and subagents fold in
// <details>, whose summaries are escaped HTML of one line. Every other
// string from the transcript is escaped inline text (escInline).
type mdSink struct {
	w   *bufio.Writer
	gen string
	red bool
}

func newMarkdownSink(w *bufio.Writer) *mdSink { return &mdSink{w: w} }

func (s *mdSink) err() error {
	_, err := s.w.Write(nil)
	return err
}

func (s *mdSink) printf(format string, args ...any) { fmt.Fprintf(s.w, format, args...) }

// escInline escapes transcript text for a line of Markdown: the characters
// that open inline constructs (code, emphasis, links, images, HTML,
// entities, tables, strikethrough, math) are backslash-escaped, newlines
// become spaces.
func escInline(t string) string {
	t = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(t)
	var b strings.Builder
	for _, r := range t {
		if strings.ContainsRune("\\`*_[]<>!&|~$#{}", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// escSummary is one line of text inside a <details> summary: raw HTML
// there, so HTML-escaped.
func escSummary(t string) string {
	return html.EscapeString(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(t))
}

// fenced is a code block whose fence is longer than any run of backticks
// in body, so body cannot close it.
func fenced(body, lang string) string {
	f := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	return f + lang + "\n" + body + f + "\n\n"
}

// markdown writes transcript Markdown; text that would leave a block open
// is written as a code block instead.
func (s *mdSink) markdown(t string, quote bool) {
	out, ok := safeMarkdown(t)
	if !ok {
		out = strings.TrimSuffix(fenced(t, "text"), "\n\n")
	}
	if quote {
		out = "> " + strings.ReplaceAll(out, "\n", "\n> ")
	}
	s.printf("%s\n\n", out)
}

func (s *mdSink) cut(c string) {
	if c != "" {
		s.printf("*%s*\n\n", escInline(c))
	}
}

func (s *mdSink) begin(h *headerView) {
	s.gen, s.red = h.Generator, h.Redacted
	s.printf("# %s\n\n", escInline(h.Title))
	s.printf("| | |\n|---|---|\n")
	row := func(k, v string) {
		if v != "" {
			s.printf("| **%s** | %s |\n", k, v)
		}
	}
	row("Session", escInline(h.SessionID))
	row("Project", escInline(h.Project))
	row("Branch", escInline(h.Branch))
	row("Models", escInline(h.Models))
	row("Time", escInline(h.Time))
	act := fmt.Sprintf("%s%s · %s", plural(h.Prompts, "prompt"), h.PromptsOn, plural(int(h.APICalls), "API call"))
	if h.Subagents > 0 {
		act += " · " + plural(h.Subagents, "subagent")
	}
	row("Activity", act)
	row("Tokens", escInline(h.Tokens+" ("+h.TokenParts+")"))
	row("Cost", escInline(h.Cost))
	row("Branches", escInline(h.Branches))
	redacted := "secrets and the home path redacted"
	if !h.Redacted {
		redacted = "not redacted"
	}
	s.printf("\n*Exported by %s · %s.*\n\n", escInline(h.Generator), redacted)
}

// heading is a message's heading: a level-3 heading in the main
// conversation, a bold line inside a subagent (in <details>).
func (s *mdSink) heading(depth int, text string) {
	if depth == 0 {
		s.printf("### %s\n\n", text)
	} else {
		s.printf("**%s**\n\n", text)
	}
}

func (s *mdSink) prompt(p *promptView) {
	head := "❯ " + escInline(p.Label)
	if p.Time != "" {
		head += " · " + escInline(p.Time)
	}
	s.heading(p.Depth, head)
	for _, c := range p.Context {
		s.printf("> *%s*\n>\n", escInline(line(c, 300)))
	}
	if p.Command != "" {
		s.printf("> **%s**\n\n", escInline(p.Command))
	}
	if p.Text != "" {
		s.markdown(p.Text, true)
	}
	s.cut(p.Cut)
	for _, im := range p.Images {
		s.image(im)
	}
}

func (s *mdSink) note(n *noteView) {
	if n.Output {
		s.printf("%s", fenced(n.Text, "text"))
		s.cut(n.Cut)
		return
	}
	s.printf("*%s*\n\n", escInline(n.Text))
}

func (s *mdSink) openAssistant(a *assistantView) {
	parts := []string{"● assistant"}
	for _, p := range []string{a.Time, a.Model, a.Usage} {
		if p != "" {
			parts = append(parts, escInline(p))
		}
	}
	s.heading(a.Depth, strings.Join(parts, " · "))
}

func (s *mdSink) closeAssistant() {}

func (s *mdSink) text(t *textView) {
	s.markdown(t.Text, false)
	s.cut(t.Cut)
}

func (s *mdSink) thinking(t *thinkingView) {
	switch {
	case t.Redacted:
		s.printf("*∴ thinking (redacted by the API)*\n\n")
	case t.Text == "":
		s.printf("*∴ thinking (empty: only its signature was kept)*\n\n")
	default:
		s.printf("<details><summary>∴ Thinking · %s chars</summary>\n\n%s", escSummary(t.Chars), fenced(t.Text, "text"))
		s.cut(t.Cut)
		s.printf("</details>\n\n")
	}
}

func (s *mdSink) openTool(t *toolView) {
	head := "**" + escInline(t.Name) + "**"
	if !t.Orphan {
		head = "**▸ " + escInline(t.Name) + "**"
	}
	if t.Summary != "" {
		head += " " + escInline(t.Summary)
	}
	switch t.Status {
	case "error":
		head += " · ✗ error"
	case "none":
		head += " · *no result recorded*"
	}
	s.printf("%s\n\n", head)
	switch t.Kind {
	case "diff":
		var b strings.Builder
		for _, d := range t.Diff {
			b.WriteString(d.Text)
			b.WriteByte('\n')
		}
		s.printf("%s", fenced(b.String(), "diff"))
	case "todos":
		for _, td := range t.Todos {
			s.printf("- %s %s\n", td.Mark, escInline(td.Text))
		}
		s.printf("\n")
	case "text":
		s.printf("%s", fenced(t.Input, "text"))
	case "code", "json":
		s.printf("%s", fenced(t.Input, t.Lang))
	}
	s.cut(t.InputCut)
}

func (s *mdSink) result(r *resultView) {
	label := "Result"
	if r.Error {
		label = "✗ Error"
	}
	if r.Lines > 0 {
		label += " · " + plural(r.Lines, "line")
	}
	s.printf("<details><summary>%s</summary>\n\n", escSummary(label))
	switch {
	case r.Text != "":
		s.printf("%s", fenced(r.Text, "text"))
	case len(r.Images) == 0:
		s.printf("*(no output)*\n\n")
	}
	s.cut(r.Cut)
	for _, im := range r.Images {
		s.image(im)
	}
	for _, e := range r.Extra {
		s.printf("*%s*\n\n", escInline(e))
	}
	s.printf("</details>\n\n")
}

func (s *mdSink) closeTool() {}

func agentLine(a *agentView) string {
	t := "↳ agent " + a.ID
	if a.Type != "" {
		t += " (" + a.Type + ")"
	}
	if a.Description != "" {
		t += " · " + a.Description
	}
	return t + fmt.Sprintf(" · %s · %s · %s tokens", plural(a.ToolUses, "tool use"), plural(int(a.APICalls), "API call"), a.Tokens)
}

func (s *mdSink) openAgent(a *agentView) {
	s.printf("<details><summary>%s</summary>\n\n", escSummary(agentLine(a)))
}

func (s *mdSink) closeAgent() { s.printf("</details>\n\n") }

func (s *mdSink) agentLink(a *agentView) { s.printf("*%s*\n\n", escInline(agentLine(a))) }

func (s *mdSink) compaction(c *compactionView) {
	s.printf("---\n\n**%s**\n\n", escInline(c.Label))
}

func (s *mdSink) summary(v *summaryView) {
	s.printf("<details><summary>Summary of the earlier conversation · %s chars</summary>\n\n", escSummary(v.Chars))
	s.markdown(v.Text, false)
	s.cut(v.Cut)
	s.printf("</details>\n\n")
}

func (s *mdSink) image(i *imageView) {
	t := "[" + i.Kind + " " + i.MediaType
	if i.Size != "" {
		t += ", " + i.Size
	}
	t += "]"
	if i.Data != "" {
		t += " (embedded in the HTML export only)"
	} else if i.Note != "" {
		t += " " + i.Note
	}
	s.printf("*%s*\n\n", escInline(t))
}

func (s *mdSink) block(typ string) { s.printf("*%s*\n\n", escInline("["+typ+"]")) }

func (s *mdSink) end(empty bool) {
	if empty {
		s.printf("*(nothing to show)*\n\n")
	}
}
