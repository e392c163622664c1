package reader

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// oneLineRune is OneLine as it was written first, a rune at a time: what
// OneLine must still give (a word the cut would split left out).
func oneLineRune(s string) string {
	var b strings.Builder
	n := 0
	emit := func(r rune) bool {
		if n == PromptRunes {
			return false
		}
		b.WriteRune(r)
		n++
		return true
	}
	space, bad := false, false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		wasBad := bad
		bad = r == utf8.RuneError && size == 1
		switch {
		case bad && wasBad:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space && !emit(' ') || !emit(r) {
			out := b.String()
			if !space { // a word cut: its part goes, back to the space before it
				if k := strings.LastIndex(out, " "); k > 0 {
					return out[:k+1] + "…"
				}
			}
			return strings.TrimRightFunc(out, unicode.IsSpace) + "…"
		}
		space = false
	}
	return b.String()
}

// OneLine's byte-at-a-time path for ASCII gives what the rune-at-a-time
// one gave, on text mixing ASCII, white space of both kinds, runes of
// every length, bad bytes and controls, short and past PromptRunes.
func TestOneLineAsRuneAtATime(t *testing.T) {
	pieces := []string{"a", "Z", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\u0085", "\u00a0", "\u2028", "\u3000",
		"é", "世", "😀", "\x1b[31m", "\x00", "\x7f", "\xff", "\xc3", "\xe4\xb8", "\ufffd", "…", "/", "x"}
	for _, c := range []string{"", " ", "a", " a ", "\xff\xff", strings.Repeat("a", PromptRunes), strings.Repeat("a", PromptRunes+1),
		strings.Repeat("é", PromptRunes+1), strings.Repeat("a ", PromptRunes), strings.Repeat("a", PromptRunes-1) + "   b"} {
		if got, want := OneLine(c), oneLineRune(c); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", c, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(300); n > 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := OneLine(s), oneLineRune(s); got != want {
			t.Fatalf("OneLine(%q) = %q, want %q", s, got, want)
		}
	}
}
