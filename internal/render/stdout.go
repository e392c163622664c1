package render

import "io"

// Stdout is a command's standard output: every byte through a Guard,
// which lets through only text and cctx's own colours (whatever a view
// forgot to escape, no terminal obeys it), or for JSON text through its
// JSON mode; with a redactor every line is redacted first.
type Stdout struct {
	w          io.Writer
	theme      Theme
	redact     func([]byte) []byte
	text, json io.Writer
	flushes    []func() error // of the writers, in the order they must run
}

// NewStdout guards w with theme's colours; redact (nil: none) redacts
// every line.
func NewStdout(w io.Writer, theme Theme, redact func([]byte) []byte) *Stdout {
	return &Stdout{w: w, theme: theme, redact: redact}
}

// Text is stdout for text.
func (s *Stdout) Text() io.Writer {
	if s.text == nil {
		s.text = s.guard(false)
	}
	return s.text
}

// JSON is stdout for JSON text (--json, JSONL, raw transcript lines),
// escaped as JSON does.
func (s *Stdout) JSON() io.Writer {
	if s.json == nil {
		s.json = s.guard(true)
	}
	return s.json
}

func (s *Stdout) guard(json bool) io.Writer {
	g := NewGuard(s.w, s.theme)
	if json {
		g = NewJSONGuard(s.w)
	}
	s.flushes = append(s.flushes, g.Flush)
	if s.redact == nil {
		return g
	}
	rl := NewRedactLines(g, s.redact)
	s.flushes = append([]func() error{rl.Flush}, s.flushes...)
	return rl
}

// Flush writes what the writers still hold (a line being redacted, a
// character cut at the end).
func (s *Stdout) Flush() {
	for _, fl := range s.flushes {
		fl()
	}
}
