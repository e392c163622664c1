package render

import (
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/termsafe"
)

// Guard is the one way to stdout. Every byte cctx prints passes through
// it, and it lets through only text a terminal shows as text: printable
// characters, newlines and tabs, and the colour sequences of cctx's own
// Theme, known by the Theme's mark (none when colour is off). Anything else (ESC that starts any
// other sequence, C0 and C1 controls, DEL, NUL, bidirectional overrides)
// is shown as a visible escape (\x1b, \x9b, \u202e), and a run of bytes
// that are not UTF-8 as one replacement mark, as Safe shows them.
//
// Transcript strings are escaped where they are rendered (Safe); the
// guard is what makes a field someone forgot harmless anyway, so that
// safety does not depend on every view remembering every field. JSON
// output (already \u-escaped by JSON) passes through unchanged.
//
// A character or sequence split across two writes is held until it is
// whole; Flush writes what is held when the output ends.
type Guard struct {
	w       io.Writer
	json    bool   // JSON or JSONL: escaped as termsafe.JSON does
	mark    string // "\x1b[<mark>;": how the theme's colours start
	pending []byte
	out     []byte
	bad     bool // the last thing written was a bad-byte mark
}

// NewGuard guards w, letting through the colour sequences th writes (and
// no others).
func NewGuard(w io.Writer, th Theme) *Guard {
	g := &Guard{w: w}
	if th.mark != "" {
		g.mark = "\x1b[" + th.mark + ";"
	}
	return g
}

// NewJSONGuard guards w for JSON text (JSON, JSONL, raw transcript lines):
// DEL, C0, C1 and bidirectional controls become \u escapes and a bad byte
// run one \ufffd (termsafe.JSON), so the document means the same and no
// byte of it is obeyed by a terminal.
func NewJSONGuard(w io.Writer) *Guard { return &Guard{w: w, json: true} }

// maxSGR bounds the parameters of a Theme sequence after its mark ("1;31").
const maxSGR = 16

func (g *Guard) Write(p []byte) (int, error) {
	data := p
	if len(g.pending) > 0 {
		data = append(g.pending, p...)
		g.pending = nil
	}
	if g.json {
		if k := max(incompleteTail(data), incompleteEscape(data)); k > 0 {
			g.pending = append([]byte(nil), data[len(data)-k:]...)
			data = data[:len(data)-k]
		}
		if _, err := g.w.Write(termsafe.JSON(data)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if out, clean := g.filter(data, false); clean {
		if len(out) > 0 {
			if _, err := g.w.Write(out); err != nil {
				return 0, err
			}
		}
	} else if _, err := g.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held (a character or sequence never completed), as
// escapes.
func (g *Guard) Flush() error {
	if len(g.pending) == 0 {
		return nil
	}
	data := g.pending
	g.pending = nil
	if g.json {
		_, err := g.w.Write(termsafe.JSON(data))
		return err
	}
	out, _ := g.filter(data, true)
	_, err := g.w.Write(out)
	return err
}

// Own writes a control sequence of cctx's own (a live view moving the
// cursor back over its last frame) past the guard. Only constant strings
// from render belong here, never anything read.
func (g *Guard) Own(seq string) error {
	if err := g.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(g.w, seq)
	return err
}

// ownWriter is a writer that can pass one of cctx's own control
// sequences on (Guard, and what stands before one: RedactLines).
type ownWriter interface{ Own(seq string) error }

// WriteOwn writes one of cctx's own control sequences to w: past the
// guard when w is one (or stands before one).
func WriteOwn(w io.Writer, seq string) error {
	if g, ok := w.(ownWriter); ok {
		return g.Own(seq)
	}
	_, err := io.WriteString(w, seq)
	return err
}

// filter returns data as it may be written; clean reports that it is data
// itself. A character or sequence cut at the end is held in g.pending
// unless final.
func (g *Guard) filter(data []byte, final bool) (out []byte, clean bool) {
	i := cleanPrefix(data)
	if i == len(data) {
		if i > 0 {
			g.bad = false
		}
		return data, true
	}
	out = append(g.out[:0], data[:i]...)
	if i > 0 {
		g.bad = false
	}
	for i < len(data) {
		c := data[i]
		switch {
		case plain(c):
			out = append(out, c)
			i++
			g.bad = false
			continue
		case c == 0x1b:
			n, params, whole := g.ownSGR(data[i:])
			if !whole && !final {
				g.pending = append(g.pending[:0], data[i:]...)
				i = len(data)
				continue
			}
			if n == 0 {
				n = 1
				out = termsafe.AppendRune(out, 0x1b)
			} else { // the theme's: without its mark
				out = append(append(append(out, "\x1b["...), params...), 'm')
			}
			i += n
			g.bad = false
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			if !final && !utf8.FullRune(data[i:]) {
				g.pending = append(g.pending[:0], data[i:]...)
				i = len(data)
				continue
			}
			if !g.bad {
				out = utf8.AppendRune(out, utf8.RuneError)
			}
			g.bad = true
			i++
			continue
		}
		if termsafe.Unsafe(r) {
			out = termsafe.AppendRune(out, r)
		} else {
			out = append(out, data[i:i+n]...)
		}
		i += n
		g.bad = false
	}
	g.out = out[:0]
	return out, false
}

// cleanPrefix is the length of the start of data that is written as it is.
func cleanPrefix(data []byte) int {
	i := 0
	for i < len(data) {
		if c := data[i]; c < utf8.RuneSelf {
			if !plain(c) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 || termsafe.Unsafe(r) {
			return i
		}
		i += n
	}
	return i
}

// plain reports an ASCII byte shown as itself: printable, newline, tab.
func plain(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' }

// ownSGR is the length of the Theme sequence data starts with and its
// parameters after the mark (n is 0 when it is not one); whole is false
// when data ends before it can tell.
func (g *Guard) ownSGR(data []byte) (n int, params []byte, whole bool) {
	if g.mark == "" {
		return 0, nil, true
	}
	k := min(len(data), len(g.mark))
	if string(data[:k]) != g.mark[:k] {
		return 0, nil, true
	}
	if k < len(g.mark) {
		return 0, nil, false
	}
	for j := k; j < len(data); j++ {
		switch c := data[j]; {
		case c == 'm':
			return j + 1, data[k:j], true
		case (c >= '0' && c <= '9' || c == ';') && j-k < maxSGR:
		default:
			return 0, nil, true
		}
	}
	return 0, nil, false
}

// incompleteTail is the number of bytes at the end of b that start a UTF-8
// character not yet whole (0 when there is none).
// incompleteEscape is how many bytes at the end of b are an escape not
// yet whole (a backslash, or \u and fewer than four hex digits), held
// until the next write: termsafe.JSON tells an escape JSON has from one it
// lacks, and must see each whole, from its backslash. (A run of
// backslashes starts where an escape may: the byte before it, no
// backslash, ends any escape.)
func incompleteEscape(b []byte) int {
	from := max(0, len(b)-5)
	p := bytes.LastIndexByte(b[from:], '\\')
	if p < 0 {
		return 0
	}
	p += from
	run := 0 // the backslashes ending at p: an odd run's last starts an escape
	for j := p; j >= 0 && b[j] == '\\'; j-- {
		run++
	}
	if run%2 == 0 {
		return 0
	}
	if rest := b[p+1:]; len(rest) == 0 || rest[0] == 'u' && len(rest) < 5 && allHex(rest[1:]) {
		return len(b) - p
	}
	return 0
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !isHexDigit(c) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if c >= 0xc0 { // a lead byte: is its character whole?
			if utf8.FullRune(b[len(b)-k:]) {
				return 0
			}
			return k
		}
	}
	return 0
}
