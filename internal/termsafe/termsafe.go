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

// String shows control characters, escape sequences, invalid UTF-8 and
// bidirectional controls as visible escapes (\x1b, \n, \u202e) instead of
// letting a terminal interpret them. Clean text is returned unchanged.
func String(s string) string {
	clean := true
	for _, r := range s {
		if unsafe(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case bidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError || bidi(r)
}

// bidi reports the invisible controls that reorder displayed text.
func bidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
