package reader

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A small JSON scanner for the hot path. Most bytes of a transcript are
// long strings (tool output, file contents, text); gjson walks them a byte
// at a time, twice (once to validate, once to skip). The scanner jumps from
// quote to quote with bytes.IndexByte, which the runtime vectorises, and
// validates structure (braces, brackets, commas, colons, literals, numbers,
// string ends) while it skips, so a line is read once.
//
// It is lenient where leniency loses nothing: escapes inside strings are
// not checked and control characters other than NUL are accepted in
// strings (Claude Code never writes them; a reader that never rejects a
// line for its shape should not reject one for a stray tab). NUL is
// refused: zero-filled runs are what a crash leaves in a file. Iteration
// keeps an explicit depth counter, never recursion, so 100 000 nested
// arrays cost no stack.

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index just past the string whose opening quote is
// at i, or -1 if it does not end. NUL bytes are not looked for here: the
// entry points (parseEnvelope, Valid) refuse a line holding one, in one
// vectorised pass over it, which is cheaper than a test in every word of
// every string.
func skipString(b []byte, i int) int {
	// Most strings are short (keys, ids, numbers as text): eight bytes at
	// a time, looking for a quote or a backslash in one word, beats a call
	// into IndexByte for each of them. Past shortString bytes the string
	// is long (a file, a tool result) and IndexByte's vector loop takes
	// over.
	j := i + 1
	for stop := min(j+shortString, len(b)-7); j < stop; {
		x := binary.LittleEndian.Uint64(b[j:])
		m := hasZero(x^quotes) | hasZero(x^backslashes)
		if m == 0 {
			j += 8
			continue
		}
		// The lowest flagged byte is exact (higher ones may be false).
		j += bits.TrailingZeros64(m) / 8
		if b[j] == '"' {
			return j + 1
		}
		j += 2 // a backslash and the byte it escapes
	}
	for j < len(b) && j < i+1+shortString {
		switch b[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
		j++
	}
	if j >= len(b) {
		return -1
	}
	// A long string: jump from quote to quote. Bytes before j are
	// resolved, so only backslashes from j on can escape a quote.
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		// An escaped quote has an odd number of backslashes before it.
		n := 0
		for p := q - 1; p >= j && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// hasNUL reports whether a line holds a NUL byte: never valid JSON outside
// a string, refused inside one (zero-filled runs are what a crash leaves).
func hasNUL(b []byte) bool { return bytes.IndexByte(b, 0) >= 0 }

// shortString is how many bytes of a string skipString reads a word at a
// time before it jumps with IndexByte.
const shortString = 64

const (
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
	quotes      = '"' * ones
	backslashes = '\\' * ones
)

// hasZero flags (with the byte's high bit) the zero bytes of x; the lowest
// flag is exact, a borrow may add false ones above it.
func hasZero(x uint64) uint64 { return (x - ones) &^ x & highs }

// skipValue returns the index just past the JSON value that starts at i
// (after whitespace), or -1 if it is not a complete, well-formed value.
func skipValue(b []byte, i int) int {
	i = skipSpace(b, i)
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		return skipContainer(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return skipNumber(b, i)
	}
	return -1
}

func literal(b []byte, i int, word string) int {
	if len(b)-i >= len(word) && string(b[i:i+len(word)]) == word {
		return i + len(word)
	}
	return -1
}

func skipNumber(b []byte, i int) int {
	start := i
	digits := false
	for i < len(b) {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E':
		default:
			if !digits {
				return -1
			}
			return i
		}
		i++
	}
	if !digits || i == start {
		return -1
	}
	return i
}

// skipContainer skips the object or array at i, iteratively. The stack of
// open containers is a byte slice, so depth costs one byte a level.
func skipContainer(b []byte, i int) int {
	var room [32]byte // most values nest only a few levels: no allocation
	stack := room[:0]
	// expectValue: the next token must be a value (after '[' or ',' or ':').
	// inObject/afterKey track what an object expects next.
	const (
		wantKeyOrEnd   = iota // after '{'
		wantKey               // after ',' in an object
		wantValueOrEnd        // after '['
		wantValue             // after ':' or ',' in an array
		wantCommaOrEnd        // after a value
	)
	state := 0
	open := func(c byte) {
		stack = append(stack, c)
		if c == '{' {
			state = wantKeyOrEnd
		} else {
			state = wantValueOrEnd
		}
	}
	open(b[i])
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return -1
		}
		c := b[i]
		top := stack[len(stack)-1]
		switch state {
		case wantKeyOrEnd, wantKey:
			if c == '}' && state == wantKeyOrEnd {
				goto closeIt
			}
			if c != '"' {
				return -1
			}
			if i = skipString(b, i); i < 0 {
				return -1
			}
			i = skipSpace(b, i)
			if i >= len(b) || b[i] != ':' {
				return -1
			}
			i++
			state = wantValue
			continue
		case wantValueOrEnd, wantValue:
			if c == ']' && state == wantValueOrEnd {
				goto closeIt
			}
			if c == '{' || c == '[' {
				open(c)
				i++
				continue
			}
			if i = skipValue(b, i); i < 0 {
				return -1
			}
			state = wantCommaOrEnd
			continue
		case wantCommaOrEnd:
			switch {
			case c == ',' && top == '{':
				state = wantKey
				i++
				continue
			case c == ',':
				state = wantValue
				i++
				continue
			case c == '}' && top == '{', c == ']' && top == '[':
				goto closeIt
			}
			return -1
		}
	closeIt:
		if (c == '}') != (top == '{') {
			return -1
		}
		stack = stack[:len(stack)-1]
		i++
		if len(stack) == 0 {
			return i
		}
		state = wantCommaOrEnd
	}
}

// members walks the object whose '{' is at b[i] and returns the index just
// past its '}', or -1 if it is malformed. For each member it calls fn with
// the key and the index where the value starts; fn either parses the value
// itself and returns the index just past it, or returns -1 to have it
// skipped. Descending this way reads each byte of a nested value once.
func members(b []byte, i int, fn func(key []byte, vs int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		ks := i
		if i = skipString(b, i); i < 0 {
			return -1
		}
		key := b[ks+1 : i-1]
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return -1
		}
		vs := skipSpace(b, i+1)
		switch i = fn(key, vs); i {
		case -1:
			i = skipValue(b, vs)
		case stopped:
			return stopped
		}
		if i < 0 {
			return -1
		}
		if i = skipSpace(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// stopped is what a members callback returns to end the walk early (the
// rest of the object is then neither read nor validated).
const stopped = -2

// eachMember calls fn for each key and raw value of the object b (which
// must begin with '{' after whitespace), validating as it goes. fn may
// return false to stop early. It reports whether the object was
// well-formed as far as it was read and, when read to its end, that only
// whitespace follows it.
func eachMember(b []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(b, 0)
	early := false
	end := members(b, i, func(key []byte, vs int) int {
		ve := skipValue(b, vs)
		if ve < 0 {
			return -1
		}
		if !fn(key, b[vs:ve]) {
			early = true
			return stopped
		}
		return ve
	})
	if early {
		return true
	}
	return end >= 0 && skipSpace(b, end) == len(b)
}

// elements walks the array whose '[' is at b[i] and returns the index just
// past its ']', or -1 if it is malformed. For each element it calls fn
// with the index where the element starts; fn either parses it and returns
// the index just past it, or returns -1 to have it skipped (as members).
func elements(b []byte, i int, fn func(vs int) int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		vs := skipSpace(b, i)
		if vs >= len(b) {
			return -1
		}
		if i = fn(vs); i == -1 {
			i = skipValue(b, vs)
		}
		if i < 0 {
			return -1
		}
		if i = skipSpace(b, i); i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}

// eachElement calls fn for each raw element of the array b.
func eachElement(b []byte, fn func(val []byte)) bool {
	return elements(b, skipSpace(b, 0), func(vs int) int {
		ve := skipValue(b, vs)
		if ve >= 0 {
			fn(b[vs:ve])
		}
		return ve
	}) >= 0
}
