// Package termcheck is for tests: it finds in cctx's output what a
// terminal would obey, so that the tests of every layer (cmd's fuzzing,
// the end-to-end runs) hold output to one definition of "inert".
package termcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// themeSGR matches the colour sequences cctx's theme writes, as its guard
// writes them (bold, faint, reset, foreground colours), so that a content
// sequence such as ESC[41m (background), ESC[5m (blink) or ESC[7m
// (reverse) is still caught.
var themeSGR = regexp.MustCompile("\x1b\\[(?:(?:0|1|2|22|3[0-9]|39|9[0-7]);?)*m")

// StripColour removes the theme's colour sequences from s.
func StripColour(s string) string { return themeSGR.ReplaceAllString(s, "") }

// Foreign lists what in out a terminal would obey or that reorders what
// it shows: C0 controls but newline and tab, DEL, C1 controls, the bidi
// controls, bytes that are not UTF-8. With colour, the theme's colour
// sequences are allowed, and a theme colour just before "RED" (a
// transcript's "\x1b[31mRED" passed through) is listed too.
func Foreign(out string, colour bool) []string {
	var found []string
	if colour {
		if i := strings.Index(out, "\x1b[31mRED"); i >= 0 {
			found = append(found, fmt.Sprintf("a transcript's colour in %q", out[max(0, i-30):min(len(out), i+30)]))
		}
		out = StripColour(out)
	}
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		bidi := r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
		if r == utf8.RuneError && n == 1 || r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || bidi {
			found = append(found, fmt.Sprintf("%U in %q", r, out[max(0, i-40):min(len(out), i+40)]))
		}
		i += n
	}
	return found
}
