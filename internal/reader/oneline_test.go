package reader

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// secretRunes are what a secret --redact masks is written with.
const secretRunes = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+@~=-"

// oneLineRune is OneLine as it was written first, a rune at a time: what
// OneLine must still give (a token the cut would split left out).
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
		if space && !emit(' ') {
			return strings.TrimRightFunc(b.String(), unicode.IsSpace) + "…"
		}
		if !emit(r) {
			out := []rune(b.String())
			if !space && strings.ContainsRune(secretRunes, r) { // a token cut: its part goes, its space stays ("key …")
				for len(out) > 0 && strings.ContainsRune(secretRunes, out[len(out)-1]) {
					out = out[:len(out)-1]
				}
				return string(out) + "…"
			}
			return strings.TrimRightFunc(string(out), unicode.IsSpace) + "…"
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

// A line cut at PromptRunes leaves out the token the cut splits (what a
// secret is written with), so that --redact, which no longer knows a part
// of one, has none to miss; a token the cut does not split stays.
func TestOneLineLeavesOutACutToken(t *testing.T) {
	key := "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123"
	for _, tc := range []struct{ in, want string }{
		{strings.Repeat("p", 190) + " key " + key, strings.Repeat("p", 190) + " key …"},
		{"/home/x/" + strings.Repeat("b", 185) + "/" + key, "/home/x/" + strings.Repeat("b", 185) + "/…"},
		{"mail " + strings.Repeat("q", 180) + " bob.jones.the.third@example.com", "mail " + strings.Repeat("q", 180) + " …"},
		{strings.Repeat("k", 250), "…"}, // one token, all of it cut
		{strings.Repeat("p", 195) + " " + "done and more", strings.Repeat("p", 195) + " done…"},
		{strings.Repeat("ü", 199) + "xyz", strings.Repeat("ü", 199) + "…"},
	} {
		if got := OneLine(tc.in); got != tc.want {
			t.Errorf("OneLine(%.30q…) = …%q, want …%q", tc.in, got[max(0, len(got)-30):], tc.want[max(0, len(tc.want)-30):])
		}
	}
}
