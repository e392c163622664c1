package show

import (
	"strings"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/render"
)

// tabWidth is how far a tab in transcript text advances: tabs are expanded
// so that render.Safe does not show them as \t in code and tool output.
const tabWidth = 4

// clean makes one line of transcript text safe for a terminal: tabs
// expanded, a trailing CR dropped, every other control character and
// escape sequence shown visibly (render.Safe). The line must not contain
// a newline (callers split first).
func clean(line string) string {
	line = strings.TrimSuffix(line, "\r")
	if strings.IndexByte(line, '\t') >= 0 {
		var b strings.Builder
		col := 0
		for _, r := range line {
			if r == '\t' {
				n := tabWidth - col%tabWidth
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
		line = b.String()
	}
	return render.Safe(line)
}

// lines splits text into lines, each cleaned.
func lines(text string) []string {
	raw := strings.Split(text, "\n")
	out := make([]string, len(raw))
	for i, l := range raw {
		out[i] = clean(l)
	}
	return out
}

// headLines is lines(text) for the first n lines only, with the number of
// lines left out: the rest of the text is counted, not split or cleaned.
func headLines(text string, n int) ([]string, int) {
	var out []string
	for len(out) < n {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return append(out, clean(text)), 0
		}
		out = append(out, clean(text[:i]))
		text = text[i+1:]
	}
	return out, strings.Count(text, "\n") + 1
}

// width is the display width of s (s holds no escape sequences): one
// measure for every view (render.Width).
func width(s string) int { return render.Width(s) }

// runeWidth is the display width of r (render.RuneWidth).
func runeWidth(r rune) int { return render.RuneWidth(r) }

// fits reports whether s is at most w cells wide; it stops reading s as
// soon as it is wider (a tool result can be megabytes, cut to a line).
func fits(s string, w int) bool {
	n := 0
	for _, r := range s {
		if n += runeWidth(r); n > w {
			return false
		}
	}
	return true
}

// cutWidth shortens s to at most w cells, ending in "…".
func cutWidth(s string, w int) string {
	if w <= 0 || fits(s, w) {
		return s
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		rw := runeWidth(r)
		if n+rw > w-1 {
			break
		}
		b.WriteRune(r)
		n += rw
	}
	return b.String() + "…"
}

// span is a run of text with one inline style.
type span struct {
	text  string
	style byte // 0 plain, 'b' bold, 'c' code
}

// wrapSpans breaks spans into lines no wider than w cells, at spaces; a
// word longer than a line is split. w <= 0: one line.
func wrapSpans(spans []span, w int) [][]span {
	if w <= 0 {
		return [][]span{spans}
	}
	type word struct {
		parts []span
		width int
		space bool // preceded by a space
	}
	var words []word
	cur := word{}
	flush := func(space bool) {
		if len(cur.parts) > 0 {
			words = append(words, cur)
		}
		cur = word{space: space}
	}
	for _, sp := range spans {
		start := 0
		for i, r := range sp.text {
			if r == ' ' {
				if i > start {
					cur.parts = append(cur.parts, span{sp.text[start:i], sp.style})
					cur.width += width(sp.text[start:i])
				}
				flush(true)
				start = i + 1
			}
		}
		if start < len(sp.text) {
			cur.parts = append(cur.parts, span{sp.text[start:], sp.style})
			cur.width += width(sp.text[start:])
		}
	}
	flush(false)

	var out [][]span
	var line []span
	lw := 0
	for _, wd := range words {
		need := wd.width
		if lw > 0 {
			need++
		}
		if lw > 0 && lw+need > w {
			out = append(out, line)
			line, lw = nil, 0
		}
		if lw > 0 {
			line = append(line, span{" ", 0})
			lw++
		}
		// A word longer than the line is split across lines.
		for _, p := range wd.parts {
			text := p.text
			for lw+width(text) > w && lw < w {
				head, rest := splitWidth(text, w-lw)
				if head == "" {
					break
				}
				line = append(line, span{head, p.style})
				out = append(out, line)
				line, lw = nil, 0
				text = rest
			}
			if text != "" {
				line = append(line, span{text, p.style})
				lw += width(text)
			}
		}
	}
	if len(line) > 0 || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// splitWidth splits s after at most w cells (at least one rune).
func splitWidth(s string, w int) (string, string) {
	n := 0
	for i, r := range s {
		rw := runeWidth(r)
		if n+rw > w && i > 0 {
			return s[:i], s[i:]
		}
		n += rw
	}
	return s, ""
}

// wrapText wraps plain text to w cells.
func wrapText(s string, w int) []string {
	var out []string
	for _, l := range wrapSpans([]span{{s, 0}}, w) {
		var b strings.Builder
		for _, sp := range l {
			b.WriteString(sp.text)
		}
		out = append(out, b.String())
	}
	return out
}

// inline splits a line of Markdown into spans: `code` and **bold**. With
// keep, the markers stay in the text (plain output loses nothing).
func inline(s string, keep bool) []span {
	var out []span
	var plain strings.Builder
	emit := func(text string, style byte) {
		if plain.Len() > 0 {
			out = append(out, span{plain.String(), 0})
			plain.Reset()
		}
		out = append(out, span{text, style})
	}
	for i := 0; i < len(s); {
		switch {
		case s[i] == '`':
			if j := strings.IndexByte(s[i+1:], '`'); j > 0 {
				code := s[i+1 : i+1+j]
				if keep {
					code = "`" + code + "`"
				}
				emit(code, 'c')
				i += j + 2
				continue
			}
		case strings.HasPrefix(s[i:], "**"):
			if j := strings.Index(s[i+2:], "**"); j > 0 {
				bold := s[i+2 : i+2+j]
				if keep {
					bold = "**" + bold + "**"
				}
				emit(bold, 'b')
				i += j + 4
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		plain.WriteRune(r)
		i += size
	}
	if plain.Len() > 0 {
		out = append(out, span{plain.String(), 0})
	}
	return out
}
