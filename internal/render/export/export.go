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
	"io"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render/show"
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
	// Title is the session's title as ls shows it (session.Session.Title);
	// "" titles it by its first prompt.
	Title string
	// Redact, when set, rewrites every line read and every other string
	// written (paths, names, the title): redact.Redactor.Bytes.
	Redact func([]byte) []byte
	// Location is the time zone of the times shown; nil: UTC.
	// NoThinking leaves the model's thinking out (export --no-thinking).
	NoThinking bool
	Location   *time.Location
	MaxText    int    // 0: DefaultMaxText
	MaxImage   int    // 0: DefaultMaxImage
	Generator  string // what wrote the file ("cctx 1.2.0"), in its footer
}

// Stats is what an export did.
type Stats struct {
	// Secrets, Emails and Users are how many secrets, email addresses and
	// other users' names (in home directories) redaction replaced in the
	// text written.
	Secrets, Emails, Users int
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
		for _, id := range it.Node.ToolResults() {
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
		w.stats.Emails += strings.Count(s, redact.EmailMask)
		w.stats.Users += strings.Count(s, redact.UserMask)
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
