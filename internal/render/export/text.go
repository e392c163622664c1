package export

import (
	"fmt"
	"github.com/cctx-dev/cctx/internal/termsafe"
	"strings"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/render"
)

// clean makes transcript text safe to show literally in a page or a
// Markdown file: CRLF becomes LF, and every other control character, escape
// sequence, bidirectional control and invalid byte is written as a visible
// escape (\x1b, \u202e, \ufffd), as show does on a terminal. Newlines and
// tabs stay. Clean text is returned unchanged.
func clean(s string) string {
	dirty := false
	for _, r := range s {
		if r != '\n' && r != '\t' && unsafeRune(r) {
			dirty = true
			break
		}
	}
	if !dirty {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the LF follows.
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case termsafe.Unsafe(r):
			b.Write(termsafe.AppendRune(nil, r)) // \x1b, \u202e, \U000e0041: as show writes them
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// unsafeRune is what clean escapes: termsafe's rule (controls, bidi and
// invisible characters), one home for it, and a bad byte.
func unsafeRune(r rune) bool { return r == utf8.RuneError || termsafe.Unsafe(r) }

// line is one line of transcript text (a label, a summary): clean, its
// newlines and tabs as spaces, at most n runes.
func line(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " …"
	}
	s = strings.ReplaceAll(clean(s), "\t", " ")
	return cutRunes(s, n)
}

// cutRunes shortens s to at most n runes, ending in "…".
func cutRunes(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for j := range s {
		if k == n-1 {
			i = j
			break
		}
		k++
	}
	return s[:i] + "…"
}

// cutText keeps the first max bytes of s (at a line end when one is near,
// never inside a character) and says what was left out: "" when nothing.
// Only the kept part is later cleaned and escaped: a result can be
// megabytes.
func cutText(s string, max int) (string, string) {
	if max <= 0 || len(s) <= max {
		return s, ""
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	if nl := strings.LastIndexByte(s[:i], '\n'); nl > i-i/8 {
		i = nl + 1
	}
	rest := s[i:]
	lines := strings.Count(rest, "\n")
	if !strings.HasSuffix(rest, "\n") {
		lines++
	}
	return s[:i], fmt.Sprintf("cut here: %s more in %s (the export keeps %s of each)",
		render.Bytes(int64(len(rest))), plural(lines, "line"), render.Bytes(int64(max)))
}

// countLines counts the lines of s (a last line without a newline counts).
func countLines(s string) int {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%s %ss", render.Thousands(int64(n)), word)
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

func usd(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 0.01:
		return "<$0.01"
	}
	return fmt.Sprintf("$%.2f", v)
}
