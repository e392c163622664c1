package session

import (
	"encoding/binary"
	"math/bits"

	"github.com/cctx-dev/cctx/internal/reader"
)

// The end of a line, read backwards. Claude Code writes most of a line's
// envelope after its message: an assistant line ends with its request id,
// type, uuid and time, and from 2.1.x every conversation line ends with
// its cwd, session, version and branch. A listing that needs only those
// of most lines reads them back from the line's closing brace, and leaves
// the message (the bulk of the line) unread.

// lineEnd is what the members at the end of a line's object hold, read
// back from its closing brace (readLineEnd): the raw value of the last
// "type", "gitBranch" and "version" members whose value is a string, and
// of the last "timestamp" member. Read so, they are what a parse of the
// whole line takes (a parse takes the last of a repeated key, and one of
// these strings only when it is a string), when the line is well-formed;
// a line that is not, a parse leaves out altogether.
type lineEnd struct {
	typ, ts, branch, version []byte // raw values; nil: not read
	// all: every member of the object was read, so that a value not read
	// is not there.
	all bool
}

// Which members readLineEnd looks for.
const (
	endType = 1 << iota
	endTime
	endBranch
	endVersion
)

// maxEndMembers is the most members readLineEnd reads.
const maxEndMembers = 32

// readLineEnd reads the members at the end of the object on a line
// (trimmed of white space) back from its closing brace until it has read
// those of want, or every member (at most maxEndMembers). It stops, ok
// false, at anything no well-formed object holds there. Each value is
// read back over without being parsed (openQuote, openBracket): what it
// finds is what a parse finds when the line is well-formed, and a line
// that is not changes nothing a caller takes from it.
func readLineEnd(l []byte, want int) (f lineEnd, ok bool) {
	if len(l) < 2 || l[0] != '{' || l[len(l)-1] != '}' {
		return f, false
	}
	i := backSpace(l, len(l)-2)
	if i == 0 { // {}
		f.all = true
		return f, true
	}
	for range maxEndMembers {
		if i <= 0 {
			return f, false
		}
		// The value ends at l[i].
		ve := i + 1
		vs := i
		switch l[i] {
		case '"':
			vs = openQuote(l, i)
		case '}', ']':
			vs = openBracket(l, i)
		default: // a number or a literal
			for vs > 0 && !endSep(l[vs-1]) {
				vs--
			}
		}
		if vs <= 0 {
			return f, false
		}
		j := backSpace(l, vs-1)
		if j <= 0 || l[j] != ':' {
			return f, false
		}
		if j = backSpace(l, j-1); j <= 0 || l[j] != '"' {
			return f, false
		}
		ks := openQuote(l, j)
		if ks <= 0 {
			return f, false
		}
		v, str := l[vs:ve], l[vs] == '"'
		switch string(l[ks+1 : j]) {
		case "type":
			if f.typ == nil && str {
				f.typ = v
			}
		case "timestamp":
			if f.ts == nil {
				f.ts = v
			}
		case "gitBranch":
			if f.branch == nil && str {
				f.branch = v
			}
		case "version":
			if f.version == nil && str {
				f.version = v
			}
		}
		if f.has(want) {
			return f, true
		}
		switch j = backSpace(l, ks-1); {
		case j == 0: // the object's opening brace
			f.all = true
			return f, true
		case j < 0 || l[j] != ',':
			return f, false
		}
		i = backSpace(l, j-1)
	}
	return f, false
}

// has reports whether the members of want were read.
func (f *lineEnd) has(want int) bool {
	return (want&endType == 0 || f.typ != nil) && (want&endTime == 0 || f.ts != nil) &&
		(want&endBranch == 0 || f.branch != nil) && (want&endVersion == 0 || f.version != nil)
}

// known reports whether the values of want are known: read, or not there.
func (f *lineEnd) known(want int) bool { return f.all || f.has(want) }

// entry is what a parse of the whole line would read of the values
// found, parsed as a parse reads them (a line of these members alone, put
// together in buf); ok false when they are not values a parse reads.
func (f *lineEnd) entry(buf *[]byte) (reader.Entry, bool) {
	b := append((*buf)[:0], '{')
	for _, m := range [...]struct {
		key string
		v   []byte
	}{{`"type":`, f.typ}, {`"timestamp":`, f.ts}, {`"gitBranch":`, f.branch}, {`"version":`, f.version}} {
		if m.v == nil {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(append(b, m.key...), m.v...)
	}
	b = append(b, '}')
	*buf = b
	return reader.ParseEnvelopeOnly(b)
}

// openQuote is the index of the quote that opens the string whose closing
// quote is l[q] (-1: none). A quote inside a string has an odd number of
// backslashes before it; the opening one, none.
func openQuote(l []byte, q int) int {
	const lo = 0
	for j := q - 1; j >= lo; j-- {
		// Eight bytes at a time: the last quote among l[j-7:j+1].
		for j-7 >= lo {
			x := binary.LittleEndian.Uint64(l[j-7:]) ^ quoteBytes
			// Each zero byte of x flagged in its high bit, exactly (no
			// carry crosses a byte).
			m := ^(((x & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f) | x) & 0x8080808080808080
			if m != 0 {
				j -= 7 - (63-bits.LeadingZeros64(m))/8
				break
			}
			j -= 8
		}
		if j < lo || l[j] != '"' {
			continue
		}
		k := j
		for k > 0 && l[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		j = k
	}
	return -1
}

const quoteBytes = '"' * 0x0101010101010101

// openBracket is the index of the bracket that opens the object or array
// whose closing bracket is l[i] (-1: none), read back over the strings
// in it as openQuote reads them: in a well-formed value, a quote met
// going back outside a string closes one, and a bracket in a string is
// passed with it.
func openBracket(l []byte, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch l[j] {
		case '"':
			if j = openQuote(l, j); j < 0 {
				return -1
			}
		case '}', ']':
			depth++
		case '{', '[':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// backSpace is the index of the last byte at or before i that is not
// JSON white space (-1: none).
func backSpace(l []byte, i int) int {
	for i >= 0 && (l[i] == ' ' || l[i] == '\t' || l[i] == '\r' || l[i] == '\n') {
		i--
	}
	return i
}

// endSep reports whether c ends a number or literal read backwards.
func endSep(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', '{', '}', '[', ']', '"':
		return true
	}
	return false
}
