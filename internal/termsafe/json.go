package termsafe

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON makes JSON text safe to print anywhere: DEL, the C1 controls
// (U+0080–U+009F, which some terminals obey as escape sequences), the
// bidirectional controls (which reorder what is displayed) and U+2028 and
// U+2029 (line breaks to some readers) become \u escapes, as encoding/json
// already writes ESC and the other C0 controls (and so does a raw C0
// control other than whitespace, which only a line that is not quite JSON
// holds, and which lenient parsers read in a string). A run of bytes that are not
// UTF-8 becomes one \ufffd, and so does a run of \ufffd escapes (what
// encoding/json writes for each bad byte of a Go string): one replacement
// mark for each bad sequence, as String shows it. A backslash JSON has no
// escape for (\w, \u12G4: a line that is not quite JSON, which lenient
// parsers read as the backslash itself) becomes \\.
//
// These characters can only stand inside strings in valid JSON, so the
// document means the same; only its bytes change. b is returned as is when
// there is nothing to change.
func JSON(b []byte) []byte {
	i := nextJSON(b, 0)
	if i < 0 {
		return b
	}
	var out []byte // nil until something changes
	last := 0
	for i >= 0 {
		c := b[i]
		switch {
		case c == '\\' && !escapeAt(b, i):
			// A backslash JSON has no escape for (\w, \u12G4, or last):
			// a lenient reader takes it as itself, and so does \\.
			out = appendCopy(out, b, last, i)
			out = append(out, '\\', '\\')
			last = i + 1
			i = nextJSON(b, last)
			continue
		case c == '\\':
			// A run of \ufffd escapes (the backslash is an escape's: nextJSON
			// only stops at those and at backslashes JSON has no escape for).
			j := i + len(escFFFD)
			for bytes.HasPrefix(b[j:], escFFFD) {
				j += len(escFFFD)
			}
			if j-i == len(escFFFD) {
				i = nextJSON(b, j)
				continue
			}
			out = appendCopy(out, b, last, i)
			out = append(out, escFFFD...)
			last = j
			i = nextJSON(b, j)
			continue
		case c < utf8.RuneSelf: // DEL, or a C0 control valid JSON has only as an escape
			out = appendCopy(out, b, last, i)
			out = appendEscape(out, rune(c))
			last = i + 1
			i = nextJSON(b, last)
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			j := i + 1
			for j < len(b) && b[j] >= utf8.RuneSelf {
				if r, n := utf8.DecodeRune(b[j:]); r != utf8.RuneError || n > 1 {
					break
				}
				j++
			}
			for bytes.HasPrefix(b[j:], escFFFD) {
				j += len(escFFFD)
			}
			out = appendCopy(out, b, last, i)
			if n := len(out) - len(escFFFD); n < 0 || !bytes.Equal(out[n:], escFFFD) || escapedAt(out, n) {
				out = append(out, escFFFD...) // unless a mark is just before
			}
			last = j
			i = nextJSON(b, j)
		case jsonEscaped(r):
			out = appendCopy(out, b, last, i)
			out = appendEscape(out, r)
			last = i + n
			i = nextJSON(b, last)
		default:
			i = nextJSON(b, i+n)
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

var escFFFD = []byte(`\ufffd`)

// appendCopy appends b[last:i] to out, made with room for all of b on the
// first change.
func appendCopy(out, b []byte, last, i int) []byte {
	if out == nil {
		out = make([]byte, 0, len(b)+32)
	}
	return append(out, b[last:i]...)
}

// jsonEscaped reports the characters JSON writes as \u escapes (besides
// the C0 controls and DEL, which JSON looks at byte by byte).
func jsonEscaped(r rune) bool {
	return (r >= 0x80 && r < 0xa0) || bidi(r) || hidden(r)
}

// appendEscape writes r as JSON's \u escape: a pair of them (UTF-16
// surrogates) past the BMP, as a tag character is.
func appendEscape(out []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	if r > 0xffff {
		hi, lo := utf16.EncodeRune(r)
		return appendEscape(appendEscape(out, hi), lo)
	}
	return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// nextJSON returns the index of the next byte at or after i that JSON may
// have to change: DEL, a C0 control other than JSON's whitespace (only
// in a line that is not valid JSON), a non-ASCII byte, a backslash JSON
// has no escape for, or the backslash of a \ufffd escape followed by
// another one; -1 when there is none. ASCII text is
// skipped eight bytes at a time.
func nextJSON(b []byte, i int) int {
	for i < len(b) {
		// Four words a test, then the word that stopped them.
		for i+32 <= len(b) {
			w := b[i : i+32 : i+32]
			if stopsJSON(binary.LittleEndian.Uint64(w))|stopsJSON(binary.LittleEndian.Uint64(w[8:]))|
				stopsJSON(binary.LittleEndian.Uint64(w[16:]))|stopsJSON(binary.LittleEndian.Uint64(w[24:])) != 0 {
				break
			}
			i += 32
		}
		for i+8 <= len(b) {
			if stopsJSON(binary.LittleEndian.Uint64(b[i:])) != 0 {
				break
			}
			i += 8
		}
		// The word that stopped the loop, byte by byte.
		for end := min(i+8, len(b)); i < end; i++ {
			c := b[i]
			if c >= 0x7f || c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
				return i
			}
			if c == '\\' {
				if !escapeAt(b, i) {
					return i
				}
				if bytes.HasPrefix(b[i:], escFFFD) && !escapedAt(b, i) && bytes.HasPrefix(b[i+len(escFFFD):], escFFFD) {
					return i
				}
				i++ // the escaped byte is not looked at
				if i < len(b) && b[i] >= 0x7f {
					return i
				}
				continue
			}
		}
	}
	return -1
}

// escapeAt reports whether the backslash at b[i] starts an escape JSON
// has: \" \\ \/ \b \f \n \r \t, or \u and four hex digits. An escape cut
// short by the end of b may be one: b can be a piece of a longer text
// (a writer's buffer), whose next piece goes on with it.
func escapeAt(b []byte, i int) bool {
	if i+1 >= len(b) {
		return true
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		for _, c := range b[i+2 : min(i+6, len(b))] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
		return true
	}
	return false
}

// escapedAt reports whether the backslash at b[i] is itself escaped (it
// follows an odd run of backslashes).
func escapedAt(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

const (
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
	dels        = 0x7f * ones
	backslashes = '\\' * ones
)

// stopsJSON flags (with the byte's high bit) the bytes of x that nextJSON
// must look at: a byte >= 0x80, 0x7f, a backslash, or a C0 control (and,
// by a borrow, perhaps some byte above one).
func stopsJSON(x uint64) uint64 {
	return (x | hasZero(x^dels) | hasZero(x^backslashes) | hasLess(x, 0x20)) & highs
}

// hasLess flags (with the byte's high bit) the bytes of x below n (n <=
// 0x80); the lowest flag is exact.
func hasLess(x uint64, n byte) uint64 { return (x - uint64(n)*ones) &^ x & highs }

// hasZero flags (with the byte's high bit) the zero bytes of x; the lowest
// flag is exact, a borrow may add false ones above it.
func hasZero(x uint64) uint64 { return (x - ones) &^ x & highs }
