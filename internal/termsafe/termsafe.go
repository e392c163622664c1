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

// Unsafe reports a character a terminal would obey, that reorders what
// it shows, or that it shows as nothing: C0 and C1 controls, DEL,
// bidirectional controls, and the invisible characters text can be hidden
// in (hidden).
func Unsafe(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r >= 0xad && (bidi(r) || hidden(r))
}

// AppendRune appends r, or its visible escape when it is Unsafe: \x1b for
// a C0 or C1 control or DEL, \u202e for a bidirectional control or an
// invisible character (\U000e0041 past the BMP).
func AppendRune(out []byte, r rune) []byte {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return fmt.Appendf(out, `\x%02x`, r)
	case r > 0xffff && hidden(r):
		return fmt.Appendf(out, `\U%08x`, r)
	case bidi(r) || hidden(r):
		return fmt.Appendf(out, `\u%04x`, r)
	}
	return utf8.AppendRune(out, r)
}

// hidden reports the characters a terminal shows as nothing, or as a
// blank that is no space, in which a word or a whole instruction can be
// hidden from the person reading: the tag characters (U+E0000–E007F,
// which spell ASCII invisibly), zero-width space, word joiner and the
// invisible operators, the BOM, the soft hyphen, the line and paragraph
// separators, the interlinear annotation marks, and the Hangul fillers.
// The zero-width joiner and non-joiner are kept: emoji and scripts need
// them, and they hide nothing on their own.
func hidden(r rune) bool {
	switch {
	case r == 0x00ad, r == 0x115f, r == 0x1160, r == 0x180e, r == 0x200b, r == 0x2028, r == 0x2029, r == 0x3164, r == 0xfeff, r == 0xffa0:
		return true
	case r >= 0x2060 && r <= 0x2064, r >= 0xfff9 && r <= 0xfffb, r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// bidi reports the invisible controls that reorder displayed text.
func bidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}
