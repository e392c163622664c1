package reader

import (
	"bytes"
	"io"
)

// A line longer than holdBytes is not put together while it streams by:
// the reader measures it, and reads it again from the file once its end is
// found (compactLine for a counter, the whole line otherwise). A line over
// the limit is then dropped having cost holdBytes, not the limit.
// A variable: tests lower it.
var holdBytes = 8 << 20

// A counter (Options.Want) gets a long line with its long strings cut to
// their first keepHead and last keepTail bytes: the envelope (usage, ids,
// the kind of each content block, the start of a prompt and the end a
// context tag is looked for at) reads the same, and memory stays that of
// the line's structure, never that of the tool output or image it holds.
const (
	keepHead = 4 << 10
	keepTail = 4 << 10
)

// compactLine reads the n bytes at off in ra (a line, its newline
// included when it has one) with every string longer than
// keepHead+keepTail bytes cut to its first keepHead and last keepTail
// bytes, never inside an escape. It returns the line and how many bytes
// were cut; ok is false when it cannot keep its promise (a NUL byte in the
// line: a crash's residue, which the reader must see; a result that is
// itself longer than holdBytes; a read error): then the line is read whole.
func compactLine(ra io.ReaderAt, off int64, n int) (line []byte, cut int, ok bool) {
	var c compactor
	block := make([]byte, min(n, 1<<20))
	for done := 0; done < n; {
		b := block[:min(len(block), n-done)]
		if _, err := ra.ReadAt(b, off+int64(done)); err != nil {
			return nil, 0, false
		}
		done += len(b)
		if bytes.IndexByte(b, 0) >= 0 {
			return nil, 0, false
		}
		c.write(b)
		if len(c.out) > holdBytes {
			return nil, 0, false
		}
	}
	if c.eliding { // a string that does not end: keep its tail as it is
		c.out = append(c.out, c.tail...)
	}
	return c.out, c.cut, true
}

type compactor struct {
	out     []byte
	inStr   bool
	start   int  // where the current string's content starts in out
	kept    int  // bytes of the current string's head written
	escape  int  // bytes of an escape still to copy in the head (-1: just after the backslash)
	eliding bool // past the head of a long string, looking for its end
	bs      int  // backslashes just before the current position while eliding
	tail    []byte
	whole   bool // tail holds all that was elided (nothing dropped yet)
	cut     int
}

func (c *compactor) write(b []byte) {
	for i := 0; i < len(b); {
		switch {
		case !c.inStr:
			j := bytes.IndexByte(b[i:], '"')
			if j < 0 {
				c.out = append(c.out, b[i:]...)
				return
			}
			c.out = append(c.out, b[i:i+j+1]...)
			i += j + 1
			c.inStr, c.kept, c.escape, c.start = true, 0, 0, len(c.out)
		case !c.eliding:
			i = c.head(b, i)
		default:
			i = c.elide(b, i)
		}
	}
}

// head copies a string's bytes, escapes whole, up to its end or keepHead
// bytes; then the string's middle is elided.
func (c *compactor) head(b []byte, i int) int {
	for ; i < len(b); i++ {
		ch := b[i]
		c.out = append(c.out, ch)
		switch {
		case c.escape == -1:
			c.escape = 0
			if ch == 'u' {
				c.escape = 4
			}
		case c.escape > 0:
			c.escape--
		case ch == '\\':
			c.escape = -1
		case ch == '"':
			c.inStr = false
			return i + 1
		}
		if c.kept++; c.kept >= keepHead && c.escape == 0 {
			// Leading space is no head: the start of a prompt is read
			// past it (textHead). Only its first bytes are kept.
			if in := c.out[c.start:]; len(skipJSONSpace(in)) == 0 {
				k := spaceUnits(in, 64)
				c.cut += len(in) - k
				c.out = c.out[:c.start+k]
				c.kept = k
				continue
			}
			c.eliding, c.bs, c.tail, c.whole = true, 0, c.tail[:0], true
			return i + 1
		}
	}
	return i
}

// elide finds the end of a long string, keeping the bytes before it in
// tail.
func (c *compactor) elide(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			c.keepTail(b[i:])
			c.bs = trailingBackslashes(b[i:], c.bs)
			return len(b)
		}
		q := i + j
		if trailingBackslashes(b[i:q], c.bs)%2 == 1 { // an escaped quote
			c.keepTail(b[i : q+1])
			c.bs = 0
			i = q + 1
			continue
		}
		c.keepTail(b[i:q])
		t := c.tail
		if !c.whole {
			t = t[len(t)-keepTail:]
			t = t[safeStart(t):]
		}
		c.cut += len(c.tail) - len(t)
		c.out = append(append(c.out, t...), '"')
		c.inStr, c.eliding = false, false
		return q + 1
	}
}

// keepTail adds s to the elided bytes: tail keeps the last 2*keepTail.
func (c *compactor) keepTail(s []byte) {
	if len(c.tail)+len(s) <= 2*keepTail {
		c.tail = append(c.tail, s...)
		return
	}
	c.whole = false
	if len(s) >= 2*keepTail {
		c.cut += len(c.tail) + len(s) - 2*keepTail
		c.tail = append(c.tail[:0], s[len(s)-2*keepTail:]...)
		return
	}
	drop := len(c.tail) + len(s) - 2*keepTail
	c.cut += drop
	c.tail = append(c.tail[:copy(c.tail, c.tail[drop:])], s...)
}

// trailingBackslashes counts the backslashes that end s, with carry more
// before it when s is nothing but backslashes.
func trailingBackslashes(s []byte, carry int) int {
	n := 0
	for k := len(s) - 1; k >= 0 && s[k] == '\\'; k-- {
		n++
	}
	if n == len(s) {
		n += carry
	}
	return n
}

// safeStart is where a string's kept end may start: the first byte with
// no backslash among the six before it, so it cannot be inside an escape
// (\uXXXX is the longest). len(t) (no tail) when there is none.
func safeStart(t []byte) int {
	clear := 0 // bytes without a backslash just before i
	for i, ch := range t {
		if clear >= 6 {
			return i
		}
		if ch == '\\' {
			clear = 0
		} else {
			clear++
		}
	}
	return len(t)
}

// spaceUnits is the length of the start of s, made of whitespace (raw or
// escaped, as skipJSONSpace reads it), that is at least n bytes long and
// ends between two of them.
func spaceUnits(s []byte, n int) int {
	k := 0
	for k < n && k < len(s) {
		if s[k] == '\\' {
			k += 2
		} else {
			k++
		}
	}
	return min(k, len(s))
}
