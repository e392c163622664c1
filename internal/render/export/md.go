package export

import (
	"bytes"
	"html"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// This file turns transcript Markdown into HTML (for the page) and into
// Markdown that cannot open raw HTML (for the .md export), both with
// goldmark, a CommonMark parser, with raw HTML off.

// mdRenderer renders GitHub-flavoured Markdown (tables, strikethrough,
// task lists, bare links) to HTML. Raw HTML is not passed through: it is
// shown as the text it is. Links keep only http, https and mailto targets,
// with rel=noopener noreferrer; any other link is shown as its text and
// target, inert. Images are never loaded: they are shown as their alt
// text and address.
// Both are made when first used, not at every command's start-up.
var mdRenderer = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.Strikethrough, extension.Linkify, extension.TaskList,
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute))),
		goldmark.WithRendererOptions(
			ghtml.WithHardWraps(), // a newline in a reply is a line break, as on the terminal
			renderer.WithNodeRenderers(util.Prioritized(inert{}, 100)),
		),
	)
})

// mdParser parses only (the .md export rewrites the source, never renders).
var mdParser = sync.OnceValue(func() parser.Parser { return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser() })

// maxMarkdown is the longest text rendered as Markdown; a longer one (a
// pasted log) is shown as plain text.
const maxMarkdown = 64 << 10

// Markdown parsing is not linear in the depth of nested containers and
// brackets (40 KB of "- - - …" takes seconds): a text nested deeper than
// any reply does is shown as plain text.
const (
	maxContainers = 16 // list and quote markers opening one line
	maxBrackets   = 32 // nested [ ]
)

// tooComplex reports whether src is too long or too deeply nested to be
// parsed as Markdown.
func tooComplex(src string) bool {
	if len(src) > maxMarkdown {
		return true
	}
	depth := 0
	for _, ln := range strings.Split(src, "\n") {
		n := 0
		for i := 0; i < len(ln); {
			for i < len(ln) && (ln[i] == ' ' || ln[i] == '\t') {
				i++
			}
			j := i
			for j < len(ln) && j-i < 9 && ln[j] >= '0' && ln[j] <= '9' {
				j++
			}
			switch {
			case j > i && j < len(ln) && (ln[j] == '.' || ln[j] == ')'):
				i = j + 1
			case i < len(ln) && strings.IndexByte(">-*+", ln[i]) >= 0:
				i++
			default:
				i = len(ln)
				continue
			}
			if n++; n > maxContainers {
				return true
			}
		}
		for i := 0; i < len(ln); i++ {
			switch ln[i] {
			case '[':
				if depth++; depth > maxBrackets {
					return true
				}
			case ']':
				depth = max(0, depth-1)
			}
		}
	}
	return false
}

// markdownHTML renders text (clean already) to HTML. ok is false when the
// result is not made only of the elements and attributes goldmark writes
// for Markdown (checkHTML): the caller then shows the text plainly.
func markdownHTML(src string) (string, bool) {
	if tooComplex(src) {
		return "", false
	}
	var buf bytes.Buffer
	if err := mdRenderer().Convert([]byte(src), &buf); err != nil {
		return "", false
	}
	out := buf.String()
	if !checkHTML(out) {
		return "", false
	}
	return out, true
}

// inert renders the nodes whose default rendering could reach outside the
// page or pass raw HTML through.
type inert struct{}

func (inert) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindAutoLink, renderAutoLink)
	reg.Register(ast.KindImage, renderImage)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

// safeHref returns the link target when it is an http, https or mailto
// address, escaped for an attribute; ok is false otherwise (javascript:,
// data:, file:, relative paths, fragments), and the link is then inert.
func safeHref(dest []byte) (string, bool) {
	d := strings.TrimSpace(string(dest))
	low := strings.ToLower(d)
	if !(strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://") || strings.HasPrefix(low, "mailto:")) {
		return "", false
	}
	for _, r := range d {
		if r <= ' ' || r == 0x7f || unsafeRune(r) {
			return "", false
		}
	}
	return string(util.EscapeHTML(util.URLEscape([]byte(d), true))), true
}

const linkRel = `" rel="noopener noreferrer nofollow">`

func renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	href, ok := safeHref(n.Destination)
	switch {
	case entering && ok:
		_, _ = w.WriteString(`<a href="` + href + linkRel)
	case entering:
		_, _ = w.WriteString(`<span class="inert">`)
	case ok:
		_, _ = w.WriteString(`</a>`)
	default:
		_, _ = w.WriteString(`</span>`)
		if d := strings.TrimSpace(string(n.Destination)); d != "" {
			_, _ = w.WriteString(` <span class="url">(` + html.EscapeString(cutRunes(d, 200)) + `)</span>`)
		}
	}
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url, label := n.URL(source), html.EscapeString(string(n.Label(source)))
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	if href, ok := safeHref(url); ok {
		_, _ = w.WriteString(`<a href="` + href + linkRel + label + `</a>`)
	} else {
		_, _ = w.WriteString(label)
	}
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	_, _ = w.WriteString(`<span class="inert">[image: ` + html.EscapeString(plainText(n, source)) + `]</span>`)
	if d := strings.TrimSpace(string(n.Destination)); d != "" {
		_, _ = w.WriteString(` <span class="url">(` + html.EscapeString(cutRunes(d, 200)) + `)</span>`)
	}
	return ast.WalkSkipChildren, nil
}

// plainText is the text of a node's inline children.
func plainText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(source))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// renderRawHTML shows inline HTML from the transcript as the text it is.
func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows an HTML block from the transcript as the text it
// is, its lines kept.
func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString(`<div class="raw">`)
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
		return ast.WalkContinue, nil
	}
	if n.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkContinue, nil
}

// The elements and attributes goldmark writes for Markdown with the
// renderers above. checkHTML admits nothing else, whatever goldmark does
// with a text it was not tested on.
var (
	tagRe      = regexp.MustCompile(`^<(/?)([a-z][a-z0-9]*)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*/?>`)
	attrRe     = regexp.MustCompile(`([a-z-]+)(?:="([^"]*)")?`)
	allowedTag = map[string]string{ // tag → its allowed attributes
		"p": "", "br": "", "hr": "", "em": "", "strong": "", "del": "", "blockquote": "",
		"h1": "", "h2": "", "h3": "", "h4": "", "h5": "", "h6": "",
		"ul": "", "ol": " start ", "li": "", "pre": "", "code": " class ",
		"table": "", "thead": "", "tbody": "", "tr": "", "th": " align ", "td": " align ",
		"a": " href rel ", "span": " class ", "div": " class ",
		"input": " checked disabled type ",
	}
)

// checkHTML reports whether every tag of s is one goldmark writes for
// Markdown, with only its attributes: links to http, https or mailto only,
// inputs only disabled checkboxes.
func checkHTML(s string) bool {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		m := tagRe.FindStringSubmatch(s[i:])
		if m == nil {
			return false
		}
		attrs, ok := allowedTag[m[2]]
		if !ok {
			return false
		}
		if m[1] == "" {
			for _, a := range attrRe.FindAllStringSubmatch(m[3], -1) {
				name, val := a[1], html.UnescapeString(a[2])
				if !strings.Contains(attrs, " "+name+" ") {
					return false
				}
				switch {
				case name == "href" && !strings.HasPrefix(val, "http://") && !strings.HasPrefix(val, "https://") && !strings.HasPrefix(val, "mailto:"):
					return false
				case name == "type" && val != "checkbox":
					return false
				}
			}
			if m[2] == "input" && !strings.Contains(m[3], "disabled") {
				return false
			}
		}
		next := strings.IndexByte(s[i+len(m[0]):], '<')
		if next < 0 {
			break
		}
		i += len(m[0]) + next
	}
	return true
}

// safeMarkdown rewrites transcript Markdown (clean already) for the .md
// export so that it cannot open raw HTML or load an image wherever it is
// pasted: every "<" outside code is written &lt;, every "![" outside code
// \![ (a link, not fetched). Code spans and blocks keep their text. As an
// escape can change where code spans begin and end, the text is parsed
// again until no "<" is left outside code (a few rounds; after that every
// "<" is escaped). ok is false when the text leaves a block open that
// would swallow what follows it (an unclosed code fence), or when it is
// too long or nested to parse (tooComplex): the caller then writes it as a
// code block.
func safeMarkdown(src string) (string, bool) {
	if tooComplex(src) {
		return "", false
	}
	out := src
	for round := 0; ; round++ {
		code := codeRanges(out)
		esc, changed := escapeOutside(out, code, round >= 8)
		out = esc
		if !changed {
			break
		}
	}
	return out, closed(out)
}

// codeRanges lists the byte ranges of s that goldmark reads as code: the
// text of code spans and the lines of code blocks.
func codeRanges(s string) [][2]int {
	src := []byte(s)
	doc := mdParser().Parse(text.NewReader(src))
	var r [][2]int
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := n.(type) {
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					r = append(r, [2]int{tx.Segment.Start, tx.Segment.Stop})
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			lines := c.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				r = append(r, [2]int{seg.Start, seg.Stop})
			}
		}
		return ast.WalkContinue, nil
	})
	return r
}

// escapeOutside escapes "<" and "![" outside the given ranges (all of them
// when everywhere is set) and reports whether it changed anything.
func escapeOutside(s string, code [][2]int, everywhere bool) (string, bool) {
	if everywhere {
		code = nil
	}
	sort.Slice(code, func(i, j int) bool { return code[i][0] < code[j][0] })
	k := 0 // the first range that does not end before i
	inCode := func(i int) bool {
		for k < len(code) && code[k][1] <= i {
			k++
		}
		return k < len(code) && code[k][0] <= i
	}
	var b strings.Builder
	changed := false
	last := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '<' && !inCode(i):
			b.WriteString(s[last:i])
			b.WriteString("&lt;")
			last, changed = i+1, true
		case s[i] == '!' && i+1 < len(s) && s[i+1] == '[' && !escapedAt(s, i) && !inCode(i):
			b.WriteString(s[last:i])
			b.WriteString(`\!`)
			last, changed = i+1, true
		}
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// escapedAt reports whether s[i] follows an odd number of backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// sentinel is a paragraph put after a text to see whether the text ends
// every block it opens.
const sentinel = "cctx-end-of-text-0f7c"

// closed reports whether s, followed by a blank line and a paragraph, lets
// that paragraph be a paragraph of its own at the top level.
func closed(s string) bool {
	src := []byte(s + "\n\n" + sentinel + "\n")
	doc := mdParser().Parse(text.NewReader(src))
	last := doc.LastChild()
	p, ok := last.(*ast.Paragraph)
	if !ok || p.Lines().Len() != 1 {
		return false
	}
	seg := p.Lines().At(0)
	return strings.TrimSpace(string(seg.Value(src))) == sentinel
}
