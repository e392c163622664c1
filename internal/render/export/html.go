package export

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"html/template"
	"strings"
	"sync"
)

//go:embed style.css
var styleCSS string

//go:embed page.html.tmpl
var pageTemplate string

// csp forbids every load and every script: the page's own style sheet is
// allowed by its hash, images only as data: URLs. Nothing a transcript
// holds can make the page fetch or run anything, even if it got past the
// escaping.
var csp = "default-src 'none'; img-src data:; style-src 'sha256-" + hashCSS(styleCSS) +
	"'; base-uri 'none'; form-action 'none'"

func hashCSS(s string) string {
	sum := sha256.Sum256([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// page holds the templates. html/template escapes every value for the
// context it lands in (text, attribute, URL); only goldmark's output
// (checked by checkHTML), the style sheet and the policy are trusted.
// Parsed when first used: at start-up it cost every command a millisecond.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"css": func() template.CSS { return template.CSS(styleCSS) },
	}).Parse(strings.Replace(pageTemplate, "{{csp}}", csp, 1))) // the policy as written, not entity-escaped
})

// htmlSink writes the page, one template per view.
type htmlSink struct {
	w       *bufio.Writer
	e       error
	gen     string
	redacts bool
}

func newHTMLSink(w *bufio.Writer) *htmlSink { return &htmlSink{w: w} }

func (s *htmlSink) exec(name string, data any) {
	if s.e != nil {
		return
	}
	if err := page().ExecuteTemplate(s.w, name, data); err != nil {
		s.e = err
	}
}

func (s *htmlSink) err() error {
	if s.e != nil {
		return s.e
	}
	// bufio.Writer keeps its first write error.
	if _, err := s.w.Write(nil); err != nil {
		return err
	}
	return nil
}

func (s *htmlSink) begin(h *headerView) {
	s.gen, s.redacts = h.Generator, h.Redacted
	s.exec("begin", h)
}

func (s *htmlSink) prompt(p *promptView)           { s.exec("prompt", p) }
func (s *htmlSink) note(n *noteView)               { s.exec("note", n) }
func (s *htmlSink) openAssistant(a *assistantView) { s.exec("open-assistant", a) }
func (s *htmlSink) closeAssistant()                { s.exec("close-assistant", nil) }
func (s *htmlSink) thinking(t *thinkingView)       { s.exec("thinking", t) }
func (s *htmlSink) openTool(t *toolView)           { s.exec("open-tool", t) }
func (s *htmlSink) result(r *resultView)           { s.exec("result", r) }
func (s *htmlSink) closeTool()                     { s.exec("close-tool", nil) }
func (s *htmlSink) openAgent(a *agentView)         { s.exec("open-agent", a) }
func (s *htmlSink) closeAgent()                    { s.exec("close-agent", nil) }
func (s *htmlSink) agentLink(a *agentView)         { s.exec("agent-link", a) }
func (s *htmlSink) compaction(c *compactionView)   { s.exec("compaction", c) }
func (s *htmlSink) image(i *imageView)             { s.exec("image", i) }
func (s *htmlSink) block(typ string)               { s.exec("block", typ) }

// text renders a reply's Markdown; text goldmark's output would not pass
// checkHTML is shown as plain text.
func (s *htmlSink) text(t *textView) {
	html, ok := markdownHTML(t.Text)
	data := struct {
		HTML template.HTML
		Text string
		Cut  string
	}{Text: t.Text, Cut: t.Cut}
	if ok {
		data.HTML = template.HTML(html) // goldmark, raw HTML off, checked
	}
	s.exec("text", data)
}

func (s *htmlSink) summary(v *summaryView) {
	html, ok := markdownHTML(v.Text)
	data := struct {
		HTML             template.HTML
		Text, Cut, Chars string
	}{Text: v.Text, Cut: v.Cut, Chars: v.Chars}
	if ok {
		data.HTML = template.HTML(html) // goldmark, raw HTML off, checked
	}
	s.exec("summary", data)
}

func (s *htmlSink) end(empty bool) {
	s.exec("end", struct {
		Empty     bool
		Generator string
		Redacted  bool
	}{empty, s.gen, s.redacts})
}
