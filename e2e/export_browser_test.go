package e2e

// The pages cctx export writes, opened in a real browser (headless
// Chromium through the DevTools protocol): what a person sees and what the
// page does, read from the live DOM and the browser's own events.

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The crafted sessions of the export package.
var (
	exportDemo, _    = filepath.Abs("../internal/render/export/testdata/projects")
	exportHostile, _ = filepath.Abs("../internal/render/export/testdata/hostile")
)

// chromium finds the browser: CCTX_CHROMIUM, else chromium on PATH. These
// tests do not skip on their own: `make test` installs Chromium, and
// CCTX_NO_BROWSER=1 turns them off knowingly.
func chromium(t *testing.T) string {
	t.Helper()
	if os.Getenv("CCTX_NO_BROWSER") != "" {
		t.Skip("CCTX_NO_BROWSER is set: the browser tests of cctx export do not run")
	}
	if p := os.Getenv("CCTX_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium for the browser tests of cctx export: `make test` installs it (apt-get install -y chromium); " +
		"CCTX_CHROMIUM names a binary; CCTX_NO_BROWSER=1 skips these tests")
	return ""
}

// browser is one headless Chromium with what it reported.
type browser struct {
	ctx context.Context

	mu       sync.Mutex
	requests []string // every URL the page asked for
	dialogs  []string // alert, confirm, prompt
	console  []string // log entries (a Content-Security-Policy refusal is one)
	scripts  []string // scripts parsed with a URL (the page's own would have one)
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelB(); cancelA() })
	b := &browser{ctx: ctx}
	// Start the browser, then listen before anything is loaded.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	dialogs := make(chan struct{}, 16)
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, e.Request.URL)
		case *page.EventJavascriptDialogOpening:
			b.dialogs = append(b.dialogs, string(e.Type)+": "+e.Message)
			select {
			case dialogs <- struct{}{}:
			default:
			}
		case *log.EventEntryAdded:
			b.console = append(b.console, e.Entry.Text)
		case *debugger.EventScriptParsed:
			if e.URL != "" && !strings.HasPrefix(e.URL, "about:") {
				b.scripts = append(b.scripts, e.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	// A dialog blocks the page: it is dismissed from here, not from the
	// listener (which must not call the browser).
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-dialogs:
				chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}
		}
	}()
	for _, err := range []error{
		call(ctx, network.Enable, network.EnableParams{}),
		call(ctx, log.Enable, cdp.Empty{}),
		call(ctx, debugger.Enable, debugger.EnableParams{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func call[P, R any](ctx context.Context, cmd cdp.Command[P, R], p P) error {
	_, err := chromedp.Call(ctx, cmd, p)
	return err
}

// open loads a file and waits until it is loaded and settled.
func (b *browser) open(t *testing.T, path string) string {
	t.Helper()
	url := "file://" + path
	if err := chromedp.Do(b.ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("body")), chromedp.Sleep(300*time.Millisecond)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return url
}

// eval runs JavaScript in the page (through the protocol: the page's
// policy does not apply to it) and returns its result.
func eval[T any](t *testing.T, b *browser, js string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// clean reports what the page did that a page of cctx must never do:
// request anything but itself and data: images, open a dialog, run a
// script, have the policy refuse something.
func (b *browser) clean(t *testing.T, url string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.requests {
		if r != url && !strings.HasPrefix(r, "data:image/") {
			t.Errorf("the page requested %.120s", r)
		}
	}
	for _, d := range b.dialogs {
		t.Errorf("the page opened a dialog: %s", d)
	}
	for _, s := range b.scripts {
		t.Errorf("a script of the page ran: %s", s)
	}
	for _, c := range b.console {
		t.Errorf("the browser logged: %.200s", c)
	}
}

func (b *browser) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.requests, b.dialogs, b.console, b.scripts = nil, nil, nil, nil
}

// exportTo runs cctx export into dir/name and returns the file's path.
func exportTo(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	r := cctx(t, append([]string{"export", "-o", out}, args...)...)
	expect(t, r, 0, "cctx export")
	return out
}

// The harness sees what it is there to see: a page that runs a script and
// loads an image is caught on both counts.
func TestBrowserHarnessCatchesScriptsAndRequests(t *testing.T) {
	b := newBrowser(t)
	p := writeFile(t, t.TempDir(), "bad.html", `<!DOCTYPE html><body><script>alert("x")</script><img src="http://127.0.0.1:9/t.png"></body>`)
	b.open(t, p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dialogs) != 1 || len(b.scripts) != 1 {
		t.Errorf("dialogs %q, scripts %q: the harness does not see a script run", b.dialogs, b.scripts)
	}
	seen := false
	for _, r := range b.requests {
		seen = seen || strings.HasPrefix(r, "http://127.0.0.1:9/")
	}
	if !seen {
		t.Errorf("requests %q: the harness does not see an image load", b.requests)
	}
}

// pageFacts are read from the live DOM.
type pageFacts struct {
	Prompts     []string `json:"prompts"`
	PromptIDs   []string `json:"ids"`
	TOC         []string `json:"toc"`
	Tags        []string `json:"tags"`
	OnAttrs     []string `json:"onAttrs"`
	Links       []string `json:"links"`
	Images      []string `json:"images"`
	Styles      int      `json:"styles"`
	Scripts     int      `json:"scripts"`
	Text        string   `json:"text"`
	BodyDisplay string   `json:"bodyDisplay"`
	MainHeight  float64  `json:"mainHeight"`
}

const factsJS = `(() => {
  const all = Array.from(document.querySelectorAll('*'));
  return {
    prompts: Array.from(document.querySelectorAll('section.user')).filter(s => !s.closest('details')).map(s => s.innerText),
    ids: Array.from(document.querySelectorAll('section.user[id]')).map(s => s.id),
    toc: Array.from(document.querySelectorAll('nav.toc a')).map(a => a.getAttribute('href')),
    tags: Array.from(new Set(all.map(e => e.localName))).sort(),
    onAttrs: all.flatMap(e => Array.from(e.attributes).filter(a => /^on/i.test(a.name)).map(a => e.localName + ' ' + a.name)),
    links: Array.from(document.querySelectorAll('[href]')).map(e => e.getAttribute('href')),
    images: Array.from(document.querySelectorAll('img, image, [src]')).map(e => (e.getAttribute('src') || '').slice(0, 40)),
    styles: document.querySelectorAll('style, link[rel=stylesheet]').length,
    scripts: document.scripts.length,
    text: document.body.innerText,
    bodyDisplay: getComputedStyle(document.body).display,
    mainHeight: document.querySelector('main').getBoundingClientRect().height,
  };
})()`

// pageElements are the elements a page of cctx is made of.
var pageElements = " a blockquote body br code del details div em figcaption figure footer h1 h2 h3 h4 h5 h6 head header hr html input li main meta nav ol p pre section span strong style summary table tbody td th thead time title tr ul img "

// checkDOM checks what every page of cctx must satisfy.
func checkDOM(t *testing.T, f pageFacts) {
	t.Helper()
	for _, tag := range f.Tags {
		if !strings.Contains(pageElements, " "+tag+" ") {
			t.Errorf("element <%s> in the page", tag)
		}
	}
	for _, a := range f.OnAttrs {
		t.Errorf("an event handler attribute: %s", a)
	}
	for _, l := range f.Links {
		if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "http://") {
			t.Errorf("a link to %q", l)
		}
	}
	for _, src := range f.Images {
		if !strings.HasPrefix(src, "data:image/") {
			t.Errorf("an element loads %q", src)
		}
	}
	if f.Styles != 1 || f.Scripts != 0 {
		t.Errorf("%d style sheets, %d scripts: want the page's one style and no script", f.Styles, f.Scripts)
	}
	if f.BodyDisplay == "none" || f.MainHeight < 100 {
		t.Errorf("the page is hidden: body display %q, main %.0f px high", f.BodyDisplay, f.MainHeight)
	}
}

func TestExportPageInBrowser(t *testing.T) {
	b := newBrowser(t)
	dir := t.TempDir()
	path := exportTo(t, dir, "demo.html", "--dir", exportDemo, "7d3c", "--agents")
	url := b.open(t, path)
	f := eval[pageFacts](t, b, factsJS)
	checkDOM(t, f)

	// Every prompt, in order, each listed at the top.
	want := []string{
		"The weather CLI crashes when the API times out. Can you find out why and fix it?",
		"Here is the screenshot from the crash report a user sent. Does the fix cover it?",
		"Yes, switch them to the shared client, then commit.",
	}
	if len(f.Prompts) != len(want) {
		t.Fatalf("%d prompts shown, want %d: %q", len(f.Prompts), len(want), f.Prompts)
	}
	for i, w := range want {
		if !strings.Contains(f.Prompts[i], w) {
			t.Errorf("prompt %d reads %q, want %q", i+1, f.Prompts[i], w)
		}
		id := fmt.Sprintf("p%d", i+1)
		if i >= len(f.PromptIDs) || f.PromptIDs[i] != id || i >= len(f.TOC) || f.TOC[i] != "#"+id {
			t.Errorf("prompt %d: ids %q, contents %q", i+1, f.PromptIDs, f.TOC)
		}
	}
	// The screenshot in the second prompt is an image the browser decoded.
	imgWidth := eval[int](t, b, `document.querySelector('section#p2 img').naturalWidth`)
	if imgWidth != 96 {
		t.Errorf("the embedded image is %d px wide, want 96 (not decoded?)", imgWidth)
	}

	// A tool call opens on a click, and shows its input and result.
	const call = `document.querySelector('details.tool.err')`
	before := eval[bool](t, b, call+`.open`)
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`details.tool.err > summary`)), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	after := eval[bool](t, b, call+`.open`)
	shown := eval[bool](t, b, call+`.querySelector('.result pre').checkVisibility()`)
	bodyText := eval[string](t, b, call+`.querySelector('.tool-body').innerText`)
	if before || !after || !shown || !strings.Contains(bodyText, "--- FAIL: TestFetchTimeout") {
		t.Errorf("click on a failed call: open %v → %v, result visible %v, text %q", before, after, shown, bodyText)
	}
	// The subagent under its call: folded, and open on a click.
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`details.tool:has(details.agent) > summary`)),
		chromedp.Click(chromedp.CSS(`details.agent > summary`)), chromedp.Sleep(100*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	bodyText = eval[string](t, b, `document.querySelector('details.agent .agent-body').innerText`)
	if !strings.Contains(bodyText, "List every HTTP call in the repository") || !strings.Contains(bodyText, "haiku-4-5") {
		t.Errorf("the agent's conversation, opened: %q", bodyText)
	}
	// A link of the transcript cannot reach the page that opened it.
	if rel := eval[string](t, b, `document.querySelector('.md a[href^="https://pkg.go.dev"]').rel`); rel != "noopener noreferrer nofollow" {
		t.Errorf("link rel %q", rel)
	}
	b.clean(t, url)
}

// hostileDir is the hostile fixture, with a subagent whose file name is
// hostile too (file names reach the page as agent ids).
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(exportHostile, "-tmp-hostile", "0bad0bad-0000-4000-8000-000000000001.jsonl")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, `-tmp-"><img src=x onerror=alert(20)>`)
	writeFile(t, proj, "0bad0bad-0000-4000-8000-000000000001.jsonl", string(b))
	id := `x"><svg onload=alert(21)>`
	writeFile(t, proj, filepath.Join("0bad0bad-0000-4000-8000-000000000001", "subagents", "agent-"+id+".jsonl"), lines(
		`{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"sessionId":"0bad0bad-0000-4000-8000-000000000001","agentId":"x","timestamp":"2026-03-03T10:05:00Z","message":{"role":"user","content":"AGENT-PROMPT <script>alert(22)</script>"}}`,
		`{"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"sessionId":"0bad0bad-0000-4000-8000-000000000001","agentId":"x","timestamp":"2026-03-03T10:05:01Z","message":{"id":"ms","role":"assistant","model":"m","content":[{"type":"text","text":"AGENT-REPLY <img src=x onerror=alert(23)>"}]}}`))
	writeFile(t, proj, filepath.Join("0bad0bad-0000-4000-8000-000000000001", "subagents", "agent-"+id+".meta.json"),
		`{"toolUseId":"t5","agentType":"<b onmouseover=alert(24)>"}`)
	return dir
}

func TestExportHostileSessionInBrowser(t *testing.T) {
	dir := hostileDir(t)
	out := t.TempDir()
	path := exportTo(t, out, "hostile.html", "--dir", dir, "0bad", "--agents")
	// The same page without its Content-Security-Policy: the escaping
	// alone must hold.
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(page, []byte(`<meta http-equiv="Content-Security-Policy"`))
	if i < 0 {
		t.Fatal("no policy in the page")
	}
	j := i + bytes.IndexByte(page[i:], '\n')
	bare := writeFile(t, out, "hostile-no-csp.html", string(page[:i])+string(page[j+1:]))

	for _, p := range []string{path, bare} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b := newBrowser(t)
			url := b.open(t, p)
			// Open every <details>, as a reader would, then look again.
			n := eval[int](t, b, `(() => { const d = document.querySelectorAll('details'); d.forEach(e => e.open = true); return d.length })()`)
			chromedp.Do(b.ctx, chromedp.Sleep(300*time.Millisecond))
			f := eval[pageFacts](t, b, factsJS)
			checkDOM(t, f)
			for _, want := range []string{
				`PROMPT-ONE <script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">j</a></style><style>*{display:none}</style>\x1b[31mRED\x1b[0m \u202eevil\u202c <iframe src="https://example.com/"></iframe>`,
				"THINK <script>", "RESULT <script>", "ERR <script>", "SUMMARY <script>", "AGENT-PROMPT <script>alert(22)</script>",
				"AGENT-REPLY <img src=x onerror=alert(23)>", `agent x"><svg onload=alert(21)> (<b onmouseover=alert(24)>)`,
				"click (javascript:alert(4))",
			} {
				if !strings.Contains(f.Text, want) {
					t.Errorf("the page does not show %q literally", want)
				}
			}
			if n < 8 {
				t.Errorf("%d <details>", n)
			}
			b.clean(t, url)
		})
	}
}

// A screenshot of the page at 1280×800, light and dark: not blank, and the
// colour scheme followed. The PNGs are kept; the log says where.
func TestExportScreenshot(t *testing.T) {
	b := newBrowser(t)
	path := exportTo(t, t.TempDir(), "demo.html", "--dir", exportDemo, "7d3c")
	keep, err := os.MkdirTemp("", "cctx-export-screenshot-")
	if err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		err := chromedp.Do(b.ctx,
			chromedp.EmulateViewport(1280, 800),
			chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
				return err
			}),
			chromedp.Navigate("file://"+path), chromedp.WaitReady(chromedp.CSS("body")))
		if err != nil {
			t.Fatal(err)
		}
		buf, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		shot := filepath.Join(keep, "export-"+scheme+".png")
		if err := os.WriteFile(shot, buf, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot (%s): %s", scheme, shot)
		img, err := png.Decode(bytes.NewReader(buf))
		if err != nil {
			t.Fatal(err)
		}
		if bd := img.Bounds(); bd.Dx() != 1280 || bd.Dy() != 800 {
			t.Errorf("%s: screenshot %v, want 1280×800", scheme, bd)
		}
		colours, bg, ink := inspect(img)
		if colours < 32 || ink < 0.02 {
			t.Errorf("%s: the screenshot looks blank: %d colours, %.1f%% of pixels not background", scheme, colours, ink*100)
		}
		if dark := bg < 80; dark != (scheme == "dark") {
			t.Errorf("%s: background luminance %d", scheme, bg)
		}
	}
}

// inspect counts an image's colours, its background's luminance (the top
// left pixel) and the share of pixels that differ from it.
func inspect(img image.Image) (colours, bg int, ink float64) {
	seen := map[[3]uint32]bool{}
	bd := img.Bounds()
	r0, g0, b0, _ := img.At(bd.Min.X+2, bd.Min.Y+2).RGBA()
	bg = int((299*r0 + 587*g0 + 114*b0) / 1000 >> 8)
	other := 0
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			if r != r0 || g != g0 || b != b0 {
				other++
			}
		}
	}
	return len(seen), bg, float64(other) / float64(bd.Dx()*bd.Dy())
}

// Printed, the page shows folded content (tool results, thinking) and
// makes a PDF.
func TestExportPrints(t *testing.T) {
	b := newBrowser(t)
	path := exportTo(t, t.TempDir(), "demo.html", "--dir", exportDemo, "7d3c")
	visible := `document.querySelector('details.tool .result pre').checkVisibility()`
	b.open(t, path)
	screen := eval[bool](t, b, visible)
	if err := call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	print := eval[bool](t, b, visible)
	pdf, err := chromedp.Run(b.ctx, chromedp.PrintToPDF())
	if err != nil {
		t.Fatal(err)
	}
	if screen || !print {
		t.Errorf("a folded call's result visible on screen %v, printed %v: want hidden, then shown", screen, print)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF")) || len(pdf) < 10000 {
		t.Errorf("the PDF is %d bytes", len(pdf))
	}
}
