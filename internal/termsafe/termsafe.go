// Package termsafe makes text from transcripts harmless on a terminal.
//
// Transcripts hold whatever the model and its tools printed, and file
// names hold whatever a folder was called: escape sequences there could
// retitle a window, clear the screen or forge output, and bidirectional
// overrides could show text in another order than it is stored ("Trojan
// Source"). Every string cctx prints that came from a file goes through
// String first, on stdout and stderr alike.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String shows control characters, escape sequences and bidirectional
// controls as visible escapes (\x1b, \n, \u202e) instead of letting a
// terminal interpret them, and a run of bytes that are not UTF-8 as one
// replacement mark (U+FFFD). Clean text is returned unchanged.
func String(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				clean = false
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if Unsafe(r) || r == utf8.RuneError && n == 1 {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	bad := false // the last rune written was a bad byte's mark
	var scratch [16]byte
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r == utf8.RuneError && n == 1 {
			if !bad {
				b.WriteRune(utf8.RuneError)
			}
			bad = true
			continue
		}
		bad = false
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.Write(AppendRune(scratch[:0], r))
		}
	}
	return b.String()
}

// Unsafe reports a character a terminal would obey or that reorders what
// it shows: C0 and C1 controls, DEL, bidirectional controls.
func Unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || bidi(r)
}

// AppendRune appends r, or its visible escape when it is Unsafe: \x1b for
// a C0 or C1 control or DEL, \u202e for a bidirectional control.
func AppendRune(out []byte, r rune) []byte {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return fmt.Appendf(out, `\x%02x`, r)
	case bidi(r):
		return fmt.Appendf(out, `\u%04x`, r)
	}
	return utf8.AppendRune(out, r)
}

// bidi reports the invisible controls that reorder displayed text.
func bidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
