package search

import (
	"bytes"
	"io"
)

// run is a stretch of whole candidate lines of a file: bytes [start, end),
// end just past a newline or at the end of the file, and the number of its
// first line.
type run struct {
	start, end int64
	line       int
}

// giveUpAfter is how far a scan reads before it may give up (a variable:
// tests make it small).
var giveUpAfter int64 = 64 << 10

// windowBytes is how much of a file the scanner reads at a time.
//
// The scan keeps its last window when it stops, so that a file no longer
// than a window is read once, and so is the first window of a file where
// the scan gave up.
const windowBytes = 1 << 20

// scanner finds the candidate lines of a file from its raw bytes, a window
// at a time, never holding a line: memory is one window whatever the file
// and its lines. Between windows it keeps the last few bytes (enough for
// the longest string it looks for), so that a piece or an escape cut by a
// window's end is found in the next.
type scanner struct {
	pre    *prefilter
	buf    []byte
	window int

	base     int64 // file offset of buf[0]
	carry    int   // bytes at the start of buf kept from the window before
	nlBefore int   // newlines before buf[carry]
	lastNL   int64 // offset of the last newline before buf[carry]; -1: none
	done     int64 // candidates before this offset are handled

	open      bool // a candidate line goes on past the window
	openStart int64
	openLine  int

	next []int // per source: the next occurrence found in this window (-1: look again)
	runs []run
	// giveUp stops the scan when most of what it read is candidates.
	giveUp  bool
	gaveUp  bool
	covered int64 // bytes of candidate lines found

	last   []byte // the last window read (with the bytes carried into it)
	lastAt int64  // its offset in the file
}

func newScanner(pre *prefilter, window int) *scanner {
	return &scanner{pre: pre, window: window, buf: make([]byte, window+pre.maxLen), lastNL: -1}
}

// scan reads r to its end and returns the runs of candidate lines and the
// number of bytes read.
func (s *scanner) scan(r io.Reader) ([]run, int64, error) {
	s.base, s.carry, s.nlBefore, s.lastNL, s.done, s.open, s.runs, s.covered, s.gaveUp = 0, 0, 0, -1, 0, false, nil, 0, false
	sources := len(s.pre.finders) + len(s.pre.variants) + 1
	if cap(s.next) < sources {
		s.next = make([]int, sources)
	}
	s.next = s.next[:sources]
	for {
		n, err := io.ReadFull(r, s.buf[s.carry:s.carry+s.window])
		w := s.buf[:s.carry+n]
		s.last, s.lastAt = w, s.base
		if n > 0 {
			s.window1(w)
		}
		end := s.base + int64(len(w))
		if s.gaveUp {
			return s.runs, end, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			if s.open {
				s.add(s.openStart, end, s.openLine)
			}
			return s.runs, end, nil
		}
		if err != nil {
			return s.runs, end, err
		}
		s.carryOn(w)
	}
}

// lastBytes are the bytes of the file from offset at to end (end < 0: to
// the end of the last window) that the last window read still holds: the
// start of what the runs read again.
func (s *scanner) lastBytes(at, end int64) []byte {
	if at < s.lastAt || at > s.lastAt+int64(len(s.last)) {
		return nil
	}
	b := s.last[at-s.lastAt:]
	if end >= 0 && end-at < int64(len(b)) {
		b = b[:end-at]
	}
	return b
}

// window1 handles one window w (the carried bytes, then new ones) and
// keeps its last bytes for the next.
func (s *scanner) window1(w []byte) {
	fresh := s.carry // w[fresh:] is new
	pos := max(0, int(s.done-s.base))
	counted, lines := fresh, 0 // newlines in w[fresh:counted] are in lines
	if s.open {
		k := bytes.IndexByte(w[fresh:], '\n')
		if k < 0 {
			pos = len(w)
		} else {
			pos = fresh + k + 1
			s.add(s.openStart, s.base+int64(pos), s.openLine)
			s.open, s.done = false, s.base+int64(pos)
		}
	}
	for i := range s.next {
		s.next[i] = -1
	}
	for pos < len(w) {
		p := s.candidate(w, pos)
		if p < 0 {
			break
		}
		// The line holding p starts past the last newline before it: in
		// this window, or in one before (then no newline lies between it
		// and the new bytes: it is the line after the nlBefore-th).
		start, line := s.lastNL+1, s.nlBefore+1
		if q := lastNewline(w[:p]); q >= 0 {
			start = s.base + int64(q) + 1
			if q+1 > fresh {
				lines += bytes.Count(w[counted:q+1], nl)
				counted = q + 1
				line = s.nlBefore + lines + 1
			}
		}
		e := bytes.IndexByte(w[p:], '\n')
		if e < 0 {
			s.open, s.openStart, s.openLine = true, start, line
			break
		}
		pos = p + e + 1
		s.done = s.base + int64(pos)
		s.add(start, s.done, line)
		// Most lines are candidates (a literal on every line): the scan
		// is not worth its time; the rest of the file is read whole
		// (each line is still tested before it is decoded).
		if s.giveUp && s.done >= giveUpAfter && s.covered > s.done/2 {
			s.add(s.done, -1, line+1)
			s.gaveUp = true
			return
		}
	}
	lines += bytes.Count(w[counted:], nl)
	s.nlBefore += lines
	if q := lastNewline(w[fresh:]); q >= 0 {
		s.lastNL = s.base + int64(fresh+q)
	}
}

// carryOn keeps the last bytes of window w for the next one.
func (s *scanner) carryOn(w []byte) {
	keep := min(len(w), s.pre.maxLen)
	copy(s.buf, w[len(w)-keep:])
	s.base += int64(len(w) - keep)
	s.carry = keep
}

var nl = []byte{'\n'}

// lastNewline is bytes.LastIndexByte(b, '\n') at the speed of IndexByte:
// LastIndexByte reads a byte at a time, and a line may run for megabytes.
func lastNewline(b []byte) int {
	for end := len(b); end > 0; {
		start := max(0, end-4096)
		if i := bytes.IndexByte(b[start:end], '\n'); i >= 0 {
			j := start + i
			for {
				k := bytes.IndexByte(b[j+1:end], '\n')
				if k < 0 {
					return j
				}
				j += k + 1
			}
		}
		end = start
	}
	return -1
}

// candidate is the first offset at or after pos where w holds a piece, a
// variant or a relevant escape, or -1.
func (s *scanner) candidate(w []byte, pos int) int {
	best := -1
	k := 0
	consider := func(find func([]byte) int) {
		c := s.next[k]
		if c != len(w) && c < pos {
			if c = find(w[pos:]); c >= 0 {
				c += pos
			} else {
				c = len(w)
			}
			s.next[k] = c
		}
		k++
		if c < len(w) && (best < 0 || c < best) {
			best = c
		}
	}
	for _, f := range s.pre.finders {
		consider(f.index)
	}
	for _, f := range s.pre.variants {
		consider(f.index)
	}
	consider(func(b []byte) int { return s.pre.nextEscape(b, 0) })
	return best
}

// add records the candidate line [start, end), joined to the run before
// when it follows it. end < 0: to the end of the file.
func (s *scanner) add(start, end int64, line int) {
	s.covered += end - start
	if n := len(s.runs); n > 0 && s.runs[n-1].end == start {
		s.runs[n-1].end = end
		return
	}
	s.runs = append(s.runs, run{start: start, end: end, line: line})
}
