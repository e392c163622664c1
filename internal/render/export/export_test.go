package export

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// hostile is the string the hostile fixture puts in every field
// (testdata/hostile, written by a script: every string a transcript can
// carry into the export holds it).
const hostileSession = "0bad0bad"

// load builds show's model of a session under a projects dir.
func load(t testing.TB, dir, arg string, agents bool) (*show.Doc, *show.Source) {
	t.Helper()
	roots, err := session.Roots([]string{dir}, session.Env{Getenv: func(string) string { return "" }, Home: "/nonexistent"})
	if err != nil {
		t.Fatal(err)
	}
	f := session.NewFinder(roots, diag.Discard())
	s, err := f.Resolve(arg)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tree.Load(f, s, diag.Discard())
	if err != nil {
		t.Fatal(err)
	}
	src := &show.Source{}
	t.Cleanup(func() { src.Close() })
	doc, err := show.Build(tr, func() show.Report { return show.Report{} }, tokens.DefaultPrices(), src, show.Options{Agents: agents})
	if err != nil {
		t.Fatal(err)
	}
	return doc, src
}

// writeSession writes a crafted transcript and loads it.
func writeSession(t *testing.T, lines ...string) (*show.Doc, *show.Source) {
	t.Helper()
	return writeSessionIn(t, t.TempDir(), lines...)
}

func writeSessionIn(t testing.TB, tmp string, lines ...string) (*show.Doc, *show.Source) {
	t.Helper()
	dir := filepath.Join(tmp, "projects")
	p := filepath.Join(dir, "-tmp-p", "11111111-2222-3333-4444-555555555555.jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return load(t, dir, "11111111", false)
}

func export(t *testing.T, doc *show.Doc, src *show.Source, o Options) (string, Stats) {
	t.Helper()
	var b bytes.Buffer
	if o.Location == nil {
		o.Location = time.UTC
	}
	st, err := Render(&b, doc, src, o)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), st
}

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\ttext\nline", "plain\ttext\nline"},
		{"crlf\r\nline", "crlf\nline"},
		{"esc \x1b[31mred\x1b[0m", `esc \x1b[31mred\x1b[0m`},
		{"bell\a nul\x00 c1\u009b", `bell\x07 nul\x00 c1\x9b`},
		{"rtl \u202eevil\u202c \u2066x\u2069", `rtl \u202eevil\u202c \u2066x\u2069`},
		{"bad \xff byte", `bad \ufffd byte`},
		{"lone cr\rhere", `lone cr\x0dhere`},
		// Invisible characters, as show writes them (termsafe): a hidden
		// instruction in tag characters, a zero-width space.
		{"tag\U000e0069\U000e0067 zw\u200bsp", `tag\U000e0069\U000e0067 zw\u200bsp`},
		{"emoji 👩\u200d💻 kept", "emoji 👩\u200d💻 kept"},
	} {
		if got := clean(tc.in); got != tc.want {
			t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFencedIsLongerThanAnyBacktickRun(t *testing.T) {
	for _, body := range []string{"plain", "```\ncode\n```", "a ```` b", "`x`", strings.Repeat("`", 9)} {
		got := fenced(body, "text")
		fence := got[:strings.Index(got, "text")]
		if len(fence) <= longestRun(body, '`') || len(fence) < 3 {
			t.Errorf("fence %q for body %q", fence, body)
		}
		// Parsed, the block holds the body whole.
		src := []byte(got + "after\n")
		doc := mdParser().Parse(text.NewReader(src))
		cb, ok := doc.FirstChild().(*ast.FencedCodeBlock)
		if !ok {
			t.Fatalf("%q: not a code block", got)
		}
		var b strings.Builder
		for i := 0; i < cb.Lines().Len(); i++ {
			seg := cb.Lines().At(i)
			b.Write(seg.Value(src))
		}
		if strings.TrimSuffix(b.String(), "\n") != body {
			t.Errorf("block holds %q, want %q", b.String(), body)
		}
	}
}

// unsafeMD renders with raw HTML passed through: what a permissive
// renderer (or a page that trusts the Markdown) would show.
var unsafeMD = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(ghtml.WithUnsafe()))

// rawNodes lists the raw HTML and the images goldmark finds in s.
func rawNodes(s string) []string {
	src := []byte(s)
	doc := unsafeMD.Parser().Parse(text.NewReader(src))
	var out []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch r := n.(type) {
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < r.Segments.Len(); i++ {
				seg := r.Segments.At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, b.String())
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < r.Lines().Len(); i++ {
				seg := r.Lines().At(i)
				b.Write(seg.Value(src))
			}
			out = append(out, b.String())
		case *ast.Image:
			out = append(out, "image "+string(r.Destination))
		}
		return ast.WalkContinue, nil
	})
	return out
}

func TestSafeMarkdown(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" : only the properties are checked
		ok       bool
	}{
		{"<script>alert(1)</script>", "&lt;script>alert(1)&lt;/script>", true},
		{"`<b>` stays code, <b> does not", "`<b>` stays code, &lt;b> does not", true},
		{"```html\n<div>\n```", "```html\n<div>\n```", true},
		{"    <indented code>", "    <indented code>", true},
		{"![pixel](https://example.com/t.png)", `\![pixel](https://example.com/t.png)`, true},
		{`\![already](x) and \\![image](y)`, `\![already](x) and \\\![image](y)`, true},
		{"<!-- a comment --> <?php ?> <![CDATA[x]]>", "&lt;!-- a comment --> &lt;?php ?> &lt;\\![CDATA[x]]>", true},
		{"<https://example.com> autolink", "&lt;https://example.com> autolink", true},
		// An escape moves a code span: the "<b>" it exposed is escaped in
		// the next round.
		{"<a title=\"`\"> and `<b>` then", "", true},
		{"`` ` `` <i>x</i> ` <u>", "", true},
		// An unclosed fence would swallow what follows.
		{"```go\nfunc main() {", "", false},
		{"> quote\n```\nopen", "", false},
	} {
		got, ok := safeMarkdown(tc.in)
		if ok != tc.ok {
			t.Errorf("safeMarkdown(%q): ok %v, want %v", tc.in, ok, tc.ok)
		}
		if tc.want != "" && got != tc.want {
			t.Errorf("safeMarkdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if raw := rawNodes(got); len(raw) > 0 {
			t.Errorf("safeMarkdown(%q) = %q still has raw HTML or images: %q", tc.in, got, raw)
		}
	}
}

func FuzzSafeMarkdown(f *testing.F) {
	for _, s := range []string{"<b>x</b>", "`a` <i> `b`", "<a title=\"`\"> `<b>`", "![x](y) `![a](b)`", "```\n<x>\n```\n<y>", "``<``>`` <z>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := safeMarkdown(clean(s))
		if !ok {
			return // written as a code block by the caller
		}
		if raw := rawNodes(got); len(raw) > 0 {
			t.Errorf("safeMarkdown(%q) = %q has raw HTML or images: %q", s, got, raw)
		}
	})
}

func TestMarkdownHTMLIsInert(t *testing.T) {
	for _, tc := range []struct {
		in       string
		has, not []string
	}{
		{"[x](javascript:alert(1))", []string{`<span class="inert">x</span>`, `(javascript:alert(1))`}, []string{"<a "}},
		{"[x](JaVaScRiPt:alert(1)) [y](data:text/html,hi) [z](/etc/passwd) [w](#p1)", nil, []string{"<a "}},
		{"[docs](https://go.dev/doc)", []string{`<a href="https://go.dev/doc" rel="noopener noreferrer nofollow">docs</a>`}, nil},
		{"see https://go.dev and <mailto:a@b.c>", []string{`<a href="https://go.dev" rel="noopener noreferrer nofollow">`}, nil},
		{"![alt](https://example.com/t.png)", []string{"[image: alt]"}, []string{"<img"}},
		{"<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script"}},
		{"<div onclick=\"x()\">\nblock\n</div>", []string{`<div class="raw">&lt;div onclick=`}, []string{"<div onclick"}},
		{"| a | b |\n|:--|--:|\n| 1 | 2 |", []string{`<th align="left">a</th>`, "<td align=\"right\">2</td>"}, []string{"style="}},
		{"- [x] done\n- [ ] not", []string{`<input checked="" disabled="" type="checkbox">`}, nil},
	} {
		got, ok := markdownHTML(tc.in)
		if !ok {
			t.Errorf("%q: rejected", tc.in)
			continue
		}
		for _, h := range tc.has {
			if !strings.Contains(got, h) {
				t.Errorf("%q: %q lacks %q", tc.in, got, h)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%q: %q has %q", tc.in, got, n)
			}
		}
	}
}

func TestCheckHTML(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"<p>a <strong>b</strong> <code class=\"language-go\">c</code></p>\n", true},
		{`<a href="https://x.y" rel="noopener noreferrer nofollow">x</a>`, true},
		{`<a href="javascript:alert(1)">x</a>`, false},
		{`<a href="&#106;avascript:alert(1)">x</a>`, false},
		{`<img src="x">`, false},
		{`<script>x</script>`, false},
		{`<p style="color:red">x</p>`, false},
		{`<p onclick="x">x</p>`, false},
		{`<input type="text">`, false},
		{`<input type="checkbox">`, false},
		{`<!-- raw HTML omitted -->`, false},
		{`a < b`, false},
	} {
		if got := checkHTML(tc.in); got != tc.ok {
			t.Errorf("checkHTML(%q) = %v, want %v", tc.in, got, tc.ok)
		}
	}
}

// tagScan lists the tags of an HTML page (its text is escaped, so every
// "<" opens a tag), the content of <style> skipped.
var tagName = regexp.MustCompile(`^<(/?)([a-zA-Z][a-zA-Z0-9-]*|!DOCTYPE)`)
var attrScan = regexp.MustCompile(`\s([a-zA-Z-]+)(?:="([^"]*)")?`)

type tag struct {
	name  string
	attrs map[string]string
}

func tags(t *testing.T, page string) []tag {
	t.Helper()
	var out []tag
	for i := 0; i < len(page); {
		j := strings.IndexByte(page[i:], '<')
		if j < 0 {
			break
		}
		i += j
		m := tagName.FindStringSubmatch(page[i:])
		if m == nil {
			t.Fatalf("a '<' that opens no tag at %d: %.80q", i, page[i:])
		}
		end := strings.IndexByte(page[i:], '>')
		if end < 0 {
			t.Fatalf("unclosed tag at %d", i)
		}
		body := page[i+len(m[0]) : i+end]
		if m[1] == "" {
			tg := tag{name: strings.ToLower(m[2]), attrs: map[string]string{}}
			for _, a := range attrScan.FindAllStringSubmatch(body, -1) {
				tg.attrs[strings.ToLower(a[1])] = a[2]
			}
			out = append(out, tg)
			if tg.name == "style" {
				k := strings.Index(page[i:], "</style>")
				i += k
				continue
			}
		}
		i += end + 1
	}
	return out
}

// pageTags are the elements the page is made of.
var pageTags = " !doctype html head meta title style body header h1 h2 h3 h4 h5 h6 table thead tbody tr th td code nav details summary ol ul li a span main section div time p pre figure img figcaption em strong del blockquote hr br input footer "

func TestHostileHTML(t *testing.T) {
	doc, src := load(t, "testdata/hostile", hostileSession, true)
	page, _ := export(t, doc, src, Options{Format: HTML, Title: "TITLE <script>alert(0)</script>", Generator: "cctx <b>test</b>"})
	styles := 0
	for _, tg := range tags(t, page) {
		if !strings.Contains(pageTags, " "+tg.name+" ") {
			t.Errorf("element <%s> in the page", tg.name)
		}
		for k, v := range tg.attrs {
			switch {
			case strings.HasPrefix(k, "on"):
				t.Errorf("<%s %s=%q>", tg.name, k, v)
			case k == "style" || k == "srcdoc" || k == "formaction":
				t.Errorf("<%s %s=%q>", tg.name, k, v)
			case k == "href" && !strings.HasPrefix(v, "#") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "http://"):
				t.Errorf("<a href=%q>", v)
			case k == "src" && !strings.HasPrefix(v, "data:image/"):
				t.Errorf("<%s src=%q>", tg.name, v)
			}
		}
		if tg.name == "style" {
			styles++
		}
		if tg.name == "img" {
			t.Errorf("an image embedded from the hostile session: %v", tg.attrs)
		}
	}
	if styles != 1 {
		t.Errorf("%d <style> elements, want the page's one", styles)
	}
	for _, want := range []string{
		"PROMPT-ONE &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;",
		`&lt;/style&gt;&lt;style&gt;*{display:none}&lt;/style&gt;\x1b[31mRED\x1b[0m \u202eevil\u202c`,
		"TITLE &lt;script&gt;alert(0)&lt;/script&gt;",
		"THINK &lt;script&gt;", "RESULT &lt;script&gt;", "ERR &lt;script&gt;", "AGENT-RESULT &lt;script&gt;",
		"SUMMARY &lt;script&gt;", "PROMPT-THREE &lt;script&gt;", "OUT &lt;script&gt;", "ARGS &lt;script&gt;",
		"TOOL&lt;script&gt;", "OLD &lt;script&gt;", "NEW &lt;script&gt;", "TODO &lt;script&gt;", "DESC &lt;script&gt;",
		"/tmp/&lt;script&gt;", "context compacted (&lt;script&gt;", "cctx &lt;b&gt;test&lt;/b&gt;",
		`[image image/png&#34; onerror=&#34;alert(9)`, "not embedded",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show %q literally", want)
		}
	}
	for _, bad := range []string{"\x1b", "\u202e", "<script", "<iframe", "javascript:alert(3)\"", "onerror=\"alert"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// The Markdown export introduces only its own raw HTML (<details>,
// <summary> with escaped text, </details>), and no image, whatever the
// transcript holds.
func TestHostileMarkdown(t *testing.T) {
	doc, src := load(t, "testdata/hostile", hostileSession, true)
	md, _ := export(t, doc, src, Options{Format: Markdown, Title: "TITLE <script>alert(0)</script>", Generator: "cctx"})
	ours := regexp.MustCompile(`^(<details><summary>[^<>]*</summary>\n|</details>\n)$`)
	for _, raw := range rawNodes(md) {
		if !ours.MatchString(raw) {
			t.Errorf("raw HTML or an image from the transcript: %q", raw)
		}
	}
	// Rendered with raw HTML off, as the issue asks: only Markdown's own
	// elements.
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	mdTags := " p br hr em strong del blockquote h1 h2 h3 h4 h5 h6 ul ol li pre code table thead tbody tr th td a input "
	html := strings.ReplaceAll(b.String(), "<!-- raw HTML omitted -->", "")
	for _, tg := range tags(t, html) {
		if !strings.Contains(mdTags, " "+tg.name+" ") {
			t.Errorf("element <%s> in the rendered Markdown", tg.name)
		}
		// goldmark empties a javascript: or data: target; the page renderer
		// makes such a link inert.
		if h, ok := tg.attrs["href"]; ok && h != "" && !strings.HasPrefix(h, "http") {
			t.Errorf("a link to %q", h)
		}
	}
	for _, want := range []string{"PROMPT-ONE &lt;script&gt;alert(1)&lt;/script&gt;", `\x1b[31mRED`, `\u202eevil`} {
		if !strings.Contains(html, want) {
			t.Errorf("the rendered Markdown does not show %q", want)
		}
	}
	for _, bad := range []string{"\x1b", "\u202e"} {
		if strings.Contains(md, bad) {
			t.Errorf("the Markdown holds %q", bad)
		}
	}
}

func TestPromptsInOrderAndTOC(t *testing.T) {
	doc, src := load(t, "testdata/projects", "7d3c", false)
	page, _ := export(t, doc, src, Options{Format: HTML})
	prompts := []string{
		"The weather CLI crashes when the API times out.",
		"Here is the screenshot from the crash report",
		"Yes, switch them to the shared client, then commit.",
	}
	toc := strings.Index(page, `<nav class="toc"`)
	main := strings.Index(page, "<main>")
	if toc < 0 || toc > main {
		t.Fatalf("no table of contents before <main>")
	}
	at := main
	for i, p := range prompts {
		id := `id="p` + string(rune('1'+i)) + `"`
		j := strings.Index(page[at:], id)
		if j < 0 {
			t.Fatalf("prompt %d (%s) missing or out of order", i+1, id)
		}
		at += j
		if k := strings.Index(page[at:], p); k < 0 || k > 400 {
			t.Errorf("prompt %d does not read %q", i+1, p)
		}
		if !strings.Contains(page[toc:main], `href="#p`+string(rune('1'+i))+`"`) {
			t.Errorf("prompt %d not in the table of contents", i+1)
		}
	}
	// The screenshot embedded, the compaction and its summary shown, the
	// IDE's context apart from what was typed.
	for _, want := range []string{`<div class="context">&lt;ide_opened_file&gt;The user opened the file /home/alice/src/weather/cmd/geo.go`,
		`<li><a href="#p3">Yes, switch them to the shared client, then commit.</a>`, `<img src="data:image/png;base64,iVBOR`, `class="compaction"`, "context compacted (manual) · 48.2k tokens → summary",
		"Summary of the earlier conversation", `<details class="thinking">`, `<pre class="block diff"><span class="del">`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestAgentsNestUnderTheirCall(t *testing.T) {
	doc, src := load(t, "testdata/projects", "7d3c", true)
	page, _ := export(t, doc, src, Options{Format: HTML})
	call := strings.Index(page, `<span class="name">Task</span>`)
	inner := strings.Index(page, "haiku-4-5") // the agent's own reply
	result := strings.Index(page, "Found 2 calls without a timeout:\n- cmd/geo.go:18")
	if call < 0 || inner < 0 || result < 0 || !(call < inner && inner < result) {
		t.Fatalf("call %d, agent's reply %d, result %d", call, inner, result)
	}
	// How many <details> are open at i, counted from the call's.
	depth := func(i int) int {
		return strings.Count(page[call-40:i], "<details") - strings.Count(page[call-40:i], "</details>")
	}
	if d := depth(inner); d != 2 {
		t.Errorf("the agent's reply is %d <details> deep under the call, want 2 (the call's, the agent's)", d)
	}
	if d := depth(result); d != 1 {
		t.Errorf("the call's result is %d <details> deep, want 1 (the call's, after the agent's)", d)
	}
	// Without --agents: a link line under the call.
	doc, src = load(t, "testdata/projects", "7d3c", false)
	page, _ = export(t, doc, src, Options{Format: HTML})
	if strings.Contains(page, `<details class="agent">`) || !strings.Contains(page, `<p class="agent-link">↳ agent a1b2c3d (Explore)`) {
		t.Errorf("without --agents the agent is not a link")
	}
}

func TestCaps(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 300))
	big := strings.Repeat("line of output\n", 2000)
	doc, src := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+png+`"}}]}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cat big"}}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+strings.ReplaceAll(big, "\n", `\n`)+`"}]}}`,
	)
	page, _ := export(t, doc, src, Options{Format: HTML, MaxText: 1000, MaxImage: 4000})
	if !strings.Contains(page, `<img src="data:image/png;base64,`+png[:20]) {
		t.Errorf("the image under the cap is not embedded")
	}
	if n := strings.Count(page, "line of output"); n > 80 {
		t.Errorf("%d lines of a 2,000-line result kept with a 1 KB cap", n)
	}
	if !strings.Contains(page, "cut here: 28.3 KiB more in 1,934 lines (the export keeps 1000 B of each)") {
		t.Errorf("no note where the result was cut")
	}
	page, _ = export(t, doc, src, Options{Format: HTML, MaxImage: 1000})
	if strings.Contains(page, "<img") || !strings.Contains(page, "not embedded: over the 750 B cap of the export") {
		t.Errorf("an image over the cap was embedded or not explained")
	}
}

// Secrets are counted where they are written: a result's secret once
// (not again in toolUseResult), a thinking signature not at all.
func TestRedactionCountsWhatIsWritten(t *testing.T) {
	key := "sk-ant-api03-" + strings.Repeat("AbCdEfGh", 5)
	sig := strings.Repeat("Zx9Qw2Er7Ty", 20)
	doc, src := writeSession(t,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"hm","signature":"`+sig+`"}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"s","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"env"}}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"s","toolUseResult":{"stdout":"KEY=`+key+`"},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"KEY=`+key+`"}]}}`,
	)
	for _, f := range []Format{HTML, Markdown} {
		out, st := export(t, doc, src, Options{Format: f, Redact: redact.New("/home/u").Bytes})
		if st.Secrets != 1 {
			t.Errorf("%s: %d secrets counted, want 1", f, st.Secrets)
		}
		if strings.Contains(out, key[14:]) {
			t.Errorf("%s: the key is in the export", f)
		}
	}
}

// A guard that the export streams: 1,000 results of 64 KiB each export
// with each result cut, and the page stays small.
func TestLargeSessionStaysSmall(t *testing.T) {
	lines := []string{`{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"go"}}`}
	big := strings.Repeat("x", 64<<10)
	prev := "u0"
	for i := 1; i <= 1000; i++ {
		n := fmt.Sprintf("%04d", i)
		a, u := "a"+n, "u"+n
		lines = append(lines,
			`{"type":"assistant","uuid":"`+a+`","parentUuid":"`+prev+`","sessionId":"s","message":{"id":"m`+n+`","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t`+n+`","name":"Read","input":{"file_path":"/f"}}]}}`,
			`{"type":"user","uuid":"`+u+`","parentUuid":"`+a+`","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t`+n+`","content":"`+big+`"}]}}`)
		prev = u
	}
	doc, src := writeSession(t, lines...)
	page, st := export(t, doc, src, Options{Format: HTML, MaxText: 1 << 10})
	if st.Items != 2001 || len(page) > 4<<20 {
		t.Errorf("%d items, %d bytes", st.Items, len(page))
	}
	if n := strings.Count(page, `<details class="tool">`); n != 1000 {
		t.Errorf("%d tool calls written, want 1000", n)
	}
}
