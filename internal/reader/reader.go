// Package reader streams the entries of a Claude Code JSONL transcript.
//
// It is the only package that knows the transcript's field names. It reads
// line by line with a bounded buffer (never the whole file), extracts a small
// envelope of each line with gjson, and leaves the rest of the line alone:
// unknown entry types and fields pass through, and content blocks are parsed
// only when a caller asks for them.
package reader

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"unsafe"

	"github.com/tidwall/gjson"
)

// SplitCrashResidue splits a line that holds a NUL byte at its last one. A
// run of NUL bytes is what a crash leaves where a write was lost, and
// Claude Code appends its next line right after it: that line (rest, space
// trimmed) is read if it is an object, what comes before it (cut bytes)
// is not. cut is 0 for a line without NUL.
func SplitCrashResidue(line []byte) (cut int, rest []byte) {
	// IndexByte first: it is vectorised, LastIndexByte is a byte loop, and
	// nearly every line has no NUL at all.
	if bytes.IndexByte(line, 0) < 0 {
		return 0, line
	}
	z := bytes.LastIndexByte(line, 0)
	return z + 1, trimSpace(line[z+1:])
}

// utf16Line is the Detail of a CrashResidue line written in UTF-16 (a
// file that starts so is refused whole: ErrUTF16).
const utf16Line = "utf16"

// MaxLineBytes is the longest line the reader accepts. Real transcripts hold
// lines of tens of MB (base64 screenshots, huge tool results); a line longer
// than this is reported and skipped, never a crash.
const MaxLineBytes = 256 << 20

// readBufferBytes is the size of the bufio buffer. Lines that fit in it are
// handed out without a copy.
const readBufferBytes = 1 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ErrUTF16 ends the reading of a transcript saved as UTF-16 (Windows
// PowerShell 5 writes `>` and Out-File so): every line of it would be
// skipped as damage.
var ErrUTF16 = errors.New("the file is UTF-16 (as Windows PowerShell 5 writes with > or Out-File), not UTF-8 as Claude Code writes it: not read; save it again as UTF-8 (Get-Content IN | Set-Content -Encoding utf8 OUT)")

// IsUTF16 reports whether a file that starts with head is UTF-16: its
// byte order mark, either way round, or, without one, a first line that
// starts as a JSON object's does in UTF-16: `{"` is `{\0"\0` little-endian,
// `\0{\0"` big-endian, which no UTF-8 line starts with (a crash's NUL run
// before a line is NULs, then `{"`). Four bytes of head are needed for a
// file without a BOM.
func IsUTF16(head []byte) bool {
	switch {
	case len(head) >= 2 && (head[0] == 0xFF && head[1] == 0xFE || head[0] == 0xFE && head[1] == 0xFF):
		return true
	case len(head) >= 4 && head[0] == '{' && head[1] == 0 && head[2] == '"' && head[3] == 0:
		return true
	}
	return len(head) >= 4 && head[0] == 0 && head[1] == '{' && head[2] == 0 && head[3] == '"'
}

// IssueKind says why a line was skipped.
type IssueKind int

const (
	// Malformed: the line is not valid JSON.
	Malformed IssueKind = iota
	// NotObject: valid JSON, but not an object.
	NotObject
	// TooLong: longer than the reader's line limit.
	TooLong
	// TruncatedTail: the last line has no newline and does not parse: the
	// session is most likely still being written.
	TruncatedTail
	// ImplausibleCount: the line is kept, but a token count in its usage
	// is beyond any real request (MaxTokenCount) and is read as 0.
	ImplausibleCount
	// OddValue: the line is kept, but a value in it is not what Claude
	// Code writes (a uuid that is not a string, a timestamp that is not a
	// time, an assistant usage that is not an object, a negative count):
	// Issue.Detail says which and what was done with it.
	OddValue
	// CrashResidue: bytes up to a run of NUL bytes (what a crash leaves
	// where a write was lost) are skipped; a line written after them, on
	// the same line of the file, is still read.
	CrashResidue
	// UnlinkedAgent: an Agent/Task result names an agent (Detail: its
	// id) whose transcript is not among the session's files: that
	// agent's tokens are not counted. Raised by a counter, which knows the
	// session's files (internal/tokens), not by the reader.
	UnlinkedAgent
	// UnreadAgent: the same, on standard input, which brings no subagent
	// transcript with it (raised by a counter too).
	UnreadAgent
)

// Issue describes a line the reader skipped.
type Issue struct {
	File string
	Line int
	Kind IssueKind
	Size int // bytes in the line (CrashResidue: the bytes skipped)
	// Detail says what was odd (OddValue).
	Detail string
	// Limit is the line limit a TooLong line went over; 0: MaxLineBytes.
	Limit int
}

func (i Issue) Error() string {
	return fmt.Sprintf("%s:%d: %s", i.File, i.Line, i.Message())
}

// Message is the issue without its location.
func (i Issue) Message() string {
	switch i.Kind {
	case Malformed:
		return fmt.Sprintf("skipped malformed line (%s of invalid JSON)", humanBytes(i.Size))
	case NotObject:
		return "skipped line: JSON value is not an object"
	case TooLong:
		limit := i.Limit
		if limit == 0 {
			limit = MaxLineBytes
		}
		return fmt.Sprintf("skipped line of %s: longer than the %s limit", humanBytes(i.Size), humanBytes(limit))
	case ImplausibleCount:
		return fmt.Sprintf("a token count in this line's usage is over %d: read as 0", int64(MaxTokenCount))
	case TruncatedTail:
		return fmt.Sprintf("last line is incomplete (%s, no newline): the session may still be written", humanBytes(i.Size))
	case OddValue:
		return i.Detail
	case CrashResidue:
		if i.Detail == utf16Line {
			return fmt.Sprintf("skipped a line of %s in UTF-16 (a NUL every other byte: appended by another program, such as PowerShell's >>, not by Claude Code)", humanBytes(i.Size))
		}
		return fmt.Sprintf("skipped %s ending in NUL bytes (what a crash leaves); what follows them is read", humanBytes(i.Size))
	case UnlinkedAgent:
		return UnlinkedAgentText(i.Detail) + ": its tokens are not counted"
	case UnreadAgent:
		return UnreadAgentText(i.Detail) + ": its tokens are not counted (name the session, not -, to count them)"
	}
	return "skipped line"
}

// The words of one fact, said alike by every command: an Agent/Task
// result names an agent whose transcript is not among the session's files.
// The tree warns with them (tree, show; agents repeats the tree's warning)
// and a count adds what they mean for its totals (Issue.Message). Each is
// located at the result's line, the one that names the agent.

// UnlinkedAgentText: the result names agent id, whose agent-<id>.jsonl is
// not among the session's files.
func UnlinkedAgentText(id string) string {
	return fmt.Sprintf("the Agent/Task result names agent %s, but no transcript agent-%s.jsonl was found", id, id)
}

// UnreadAgentText: the same on standard input, which brings no subagent
// transcript with it.
func UnreadAgentText(id string) string {
	return fmt.Sprintf("the Agent/Task result names agent %s, whose transcript is not read from standard input", id)
}

// UnsafeAgentText: the result names an agentId that could not be a file
// name (quoted: session.QuoteAgentID), so no transcript was looked up.
func UnsafeAgentText(quoted string) string {
	return "the Agent/Task result names agentId " + quoted + ", which cannot be a file name: its transcript was not looked up"
}

// Options tune a Reader.
type Options struct {
	// Name is the file name used in issues ("<stdin>" for standard input).
	Name string
	// KeepRaw keeps a copy of every line in Entry.Raw, for commands that
	// print or parse content. Without it, memory does not depend on line size.
	KeepRaw bool
	// Facts reads each line's TreeFacts (Entry.Facts) in the same walk as
	// its envelope, for the conversation model: one pass over the line
	// instead of two (ExtractTreeFacts gives the same facts from a raw line).
	Facts bool
	// MaxLineBytes overrides MaxLineBytes (tests use a small limit).
	MaxLineBytes int
	// OnIssue receives each skipped line. Nil ignores them.
	OnIssue func(Issue)
	// Stdin is what Open reads for "-" (default os.Stdin): commands pass
	// their own streams, so tests can feed it.
	Stdin io.Reader
	// Want, when set, picks the lines worth parsing from their raw bytes
	// (a substring test). Other lines are only checked for the shape of an
	// object ({…}), not validated or parsed: a counter that needs one line
	// in five reads at close to the speed of the disk. A line longer than
	// the read buffer (1 MiB) is shown to Want by its first megabyte and,
	// when turned down, never put together in memory: Want must answer
	// true when the start of a line is not enough to decide. A wanted line
	// longer than 8 MiB, read from a file, reaches the caller with its
	// long strings cut to their first and last 4 KiB (compactLine; not
	// with KeepRaw): what a counter reads of it is the same, Entry.Size
	// is still its size in the file.
	Want func(line []byte) bool
	// WantHead, when set, is Want for the start of a line longer than the
	// read buffer (its first MiB): whether to put the line together at
	// all, which may have to be answered otherwise than for a whole line
	// (a test of what a line holds anywhere cannot be made on its start).
	// The line put together then goes to Want.
	WantHead func(head []byte) bool
	// EnvelopeOnly reads no line's message (ParseEnvelopeOnly): for a
	// caller that needs only the envelope's fields.
	EnvelopeOnly bool
	// Count reads of a line what a token counter needs: the message's
	// content is checked and skipped (Entry.Content and TextHead stay
	// empty), and UUID and ParentUUID are read only on a line of an
	// inline sidechain (isSidechain without agentId), where they name
	// the chain. Which lines are skipped, and the issues said, are those
	// of a full read.
	Count bool
}

// Reader streams entries from one transcript.
type Reader struct {
	br     *bufio.Reader
	opts   Options
	max    int
	line   int   // number of the line last read (1-based)
	offset int64 // byte offset of the next line
	// done and doneLines: the offset just past the last line read whole
	// (newline included), and the lines up to there (Done).
	done      int64
	doneLines int
	buf       []byte
	err       error
	skipped   int
	utf16     bool // the last line skipped was UTF-16: a lone NUL next is its newline's second byte
	pooled    bool
	eof       bool
	strs      lineStrings
	midFile   bool // the first line read is not the file's first (OpenRange)
	facts     factsPass
	drained   int // bytes of the current line drained before a crash's NUL run (readLine)
	// ra reads a line longer than holdBytes again once its end is found
	// (the file; nil when the input cannot be read at an offset, a pipe);
	// raBase is the file offset of the reader's offset 0.
	ra     io.ReaderAt
	raBase int64
	cut    int // bytes compactLine cut from the current line
	// file is the plain file OpenRange opened (nil otherwise), open
	// until its closer is called.
	file *os.File
}

// File is the file the reader reads, when OpenRange opened a plain
// (uncompressed) file; nil otherwise. It stays open until the closer
// OpenRange returned is called: what a caller learns of it (its status,
// bytes at an offset) is of the very file read, whatever took its path
// since.
func (r *Reader) File() *os.File { return r.file }

// New reads a transcript from r.
func New(r io.Reader, o Options) *Reader {
	max := o.MaxLineBytes
	if max <= 0 {
		max = MaxLineBytes
	}
	rd := &Reader{opts: o, max: max}
	if r != nil {
		rd.br = bufio.NewReaderSize(r, readBufferBytes)
	}
	switch src := r.(type) {
	case *os.File: // standard input redirected from a file
		if st, err := src.Stat(); err == nil && st.Mode().IsRegular() {
			if pos, err := src.Seek(0, io.SeekCurrent); err == nil {
				rd.ra, rd.raBase = src, pos
			}
		}
	case *Section: // a part of a plain file (File.Section), read from its start
		rd.ra = src.SectionReader
	}
	return rd
}

// StdinName is the file name of standard input in issues.
const StdinName = "<stdin>"

// Open opens a transcript file; "-" is standard input. The caller closes the
// returned file.
func Open(path string, o Options) (*Reader, io.Closer, error) {
	if path == "-" {
		if o.Name == "" {
			o.Name = StdinName
		}
		in := o.Stdin
		if in == nil {
			in = os.Stdin
		}
		return New(in, o), io.NopCloser(nil), nil
	}
	return OpenRange(path, 0, -1, o)
}

// OpenRange reads the lines of a file that start in [start, end) (end < 0:
// to the end of the file, as far as it has been written). start must be 0
// or just past a newline, end just past one. Entry.Offset counts from the
// start of the file, Entry.Line (and Issue.Line) from the first line of
// the range: a caller that reads a big file in pieces, one per core, adds
// the lines of the pieces before. Only a range that starts the file may
// begin with a byte order mark.
func OpenRange(path string, start, end int64, o Options) (*Reader, io.Closer, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("open %s: %w", path, ErrNotRegular)
	}
	if o.Name == "" {
		o.Name = path
	}
	if head := [4]byte{}; readHead(f, head[:]) && isZstd(head[:]) {
		return openZstdRange(f, path, start, end, o)
	}
	var src io.Reader = f
	if start > 0 {
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	if end >= 0 {
		src = io.LimitReader(f, end-start)
	}
	r := newPooled(src, o)
	r.offset, r.midFile = start, start > 0
	r.ra, r.file = f, f
	r.done = start
	return r, closeFunc(func() error { r.release(); return f.Close() }), nil
}

// Readers are pooled: a command that reads a thousand files would
// otherwise allocate a fresh 1 MiB buffer for each.
var bufPool = sync.Pool{New: func() any { return &buffers{br: bufio.NewReaderSize(nil, readBufferBytes)} }}

type buffers struct {
	br   *bufio.Reader
	line []byte // where lines longer than the bufio buffer are put together
}

// keepLineBuffer is the largest line buffer a pooled reader keeps; a
// reader that met a bigger line gives it back to the garbage collector.
const keepLineBuffer = 4 << 20

func newPooled(src io.Reader, o Options) *Reader {
	b := bufPool.Get().(*buffers)
	b.br.Reset(src)
	r := New(nil, o)
	r.br, r.buf, r.pooled = b.br, b.line[:0], true
	return r
}

// release returns a pooled reader's buffer; the Reader must not be used
// after it.
func (r *Reader) release() {
	if !r.pooled {
		return
	}
	r.br.Reset(nil)
	b := &buffers{br: r.br}
	if cap(r.buf) <= keepLineBuffer {
		b.line = r.buf[:0]
	}
	bufPool.Put(b)
	r.br, r.buf, r.pooled = nil, nil, false
}

type closeFunc func() error

func (c closeFunc) Close() error { return c() }

// Err is the read error that ended the stream, if any (never io.EOF).
func (r *Reader) Err() error { return r.err }

// Skipped is the number of lines skipped so far.
func (r *Reader) Skipped() int { return r.skipped }

// SetStrings makes alloc the maker of the envelope's strings (uuids,
// message and request ids, …) that differ from the line before: a
// consumer that keeps them copies them into its own arena, where the
// reader's copy was garbage (~50 bytes a line on a long session).
func (r *Reader) SetStrings(alloc func(b []byte) string) { r.strs.alloc = alloc }

// Line is the number of lines read so far.
func (r *Reader) Line() int { return r.line }

// Done is the byte offset just past the last line read whole, its newline
// included, and the number of lines read up to there: where to go on
// reading a file that is still being written (its last line may not be
// whole yet).
func (r *Reader) Done() (offset int64, lines int) { return r.done, r.doneLines }

// wantHead is Options.WantHead of the start of a long line, else Want.
func (r *Reader) wantHead(head []byte) bool {
	if r.opts.WantHead != nil {
		return r.opts.WantHead(head)
	}
	return r.opts.Want(head)
}

// Next returns the next entry. It returns false at the end of the input or on
// a read error (see Err). Skipped lines are reported through Options.OnIssue.
func (r *Reader) Next() (Entry, bool) {
	for {
		raw, start, complete, ok, shape := r.readLine()
		if !ok {
			return Entry{}, false
		}
		line := raw
		if line == nil { // a long line Want turned down: only its shape
			if shape[0] != '{' || shape[1] != '}' {
				kind := Malformed
				if !complete {
					kind = TruncatedTail
				}
				n := int(r.offset - start)
				if complete {
					n-- // the newline
				}
				r.issue(kind, n)
			}
			continue
		}
		if r.line == 1 && !r.midFile {
			if IsUTF16(line) {
				r.err = &fs.PathError{Op: "read", Path: r.opts.Name, Err: ErrUTF16}
				return Entry{}, false
			}
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		line = trimSpace(line)
		if len(line) == 0 {
			continue
		}
		at := start  // where the JSON of the line starts (moved by a crash's residue)
		nul := false // a NUL byte stays in the line: malformed (the parse does not look)
		afterUTF16 := r.utf16
		r.utf16 = false
		if cut, rest := SplitCrashResidue(line); cut > 0 {
			switch {
			case len(rest) == 0 && (IsUTF16(line) || len(line) > 1 && IsUTF16(line[1:])): // a NUL every other byte
				r.issueDetail(CrashResidue, r.drained+len(line), utf16Line)
				r.skipped++
				r.utf16 = true
				continue
			case len(rest) == 0 && afterUTF16 && len(line) == 1: // "\n\x00": the UTF-16 line's newline
				r.skipped++
				continue
			case len(rest) == 0: // nothing but the residue: the line is skipped
				r.issue(CrashResidue, r.drained+len(line))
				r.skipped++
				continue
			case rest[0] == '{':
				r.issue(CrashResidue, r.drained+cut) // with what readLine drained before the run
				line = rest
				at = start + int64(cap(raw)-cap(line)) // line is raw, cut at the front
			default: // not a line after a crash, but a malformed one
				nul = true
			}
		}
		if r.opts.Want != nil && !r.opts.Want(line) {
			if line[0] != '{' || line[len(line)-1] != '}' {
				kind := Malformed
				if !complete {
					kind = TruncatedTail
				}
				r.issue(kind, len(line)+r.cut)
			}
			continue
		}
		if line[0] != '{' {
			kind := Malformed
			switch {
			case gjson.ValidBytes(line): // rare: a JSON value that is not an object
				kind = NotObject
			case !complete:
				kind = TruncatedTail
			}
			r.issue(kind, len(line)+r.cut)
			continue
		}
		if nul {
			kind := Malformed
			if !complete {
				kind = TruncatedTail
			}
			r.issue(kind, len(line)+r.cut)
			continue
		}
		var fp *factsPass
		if r.opts.Facts {
			r.facts = factsPass{}
			fp = &r.facts
		}
		mode := readFull
		switch {
		case r.opts.EnvelopeOnly:
			mode = readNoMessage
		case r.opts.Count:
			mode = readForCount
		}
		e, ok := parseEntry(line, &r.strs, fp, mode)
		if !ok {
			kind := Malformed
			if !complete {
				kind = TruncatedTail
			}
			r.issue(kind, len(line)+r.cut)
			continue
		}
		if e.Usage.implausible {
			r.issue(ImplausibleCount, len(line))
		}
		if e.odd != "" {
			r.issueDetail(OddValue, len(line), e.odd)
		}
		e.Usage.implausible, e.Usage.negative, e.Usage.notObject, e.Usage.coerced, e.odd = false, false, false, "", ""
		if fp != nil {
			e.Facts = &fp.f
		}
		e.Line = r.line
		e.Offset = at
		e.Size = len(line) + r.cut // the bytes in the file
		if r.opts.KeepRaw {
			e.Raw = bytes.Clone(line)
		}
		return e, true
	}
}

func (r *Reader) issue(kind IssueKind, size int) { r.issueDetail(kind, size, "") }

func (r *Reader) issueDetail(kind IssueKind, size int, detail string) {
	switch kind {
	case ImplausibleCount, OddValue, CrashResidue: // the line is still read
	default:
		r.skipped++
	}
	if r.opts.OnIssue != nil {
		is := Issue{File: r.opts.Name, Line: r.line, Kind: kind, Size: size, Detail: detail}
		if kind == TooLong {
			is.Limit = r.max
		}
		r.opts.OnIssue(is)
	}
}

// readLine returns the next line without its terminator, the byte offset
// where it starts, and whether it ended in a newline. A line over the limit
// is reported and skipped here; its bytes are drained, not kept. So is a
// line longer than the read buffer that Want turns down on its first
// megabyte: then line is nil and shape holds its first and last
// non-space bytes, all Next checks of an unwanted line.
func (r *Reader) readLine() (line []byte, start int64, complete, ok bool, shape [2]byte) {
	for {
		if r.eof {
			return nil, 0, false, false, shape
		}
		start = r.offset
		if cap(r.buf) > keepLineBuffer {
			r.buf = nil // a long line's buffer is not kept for the lines after it
		}
		r.buf = r.buf[:0]
		size := 0
		r.drained, r.cut = 0, 0
		tooLong, unwanted := false, false
		// held >= 0: the line grew past holdBytes and is only measured
		// from there; its first held bytes are in r.buf.
		held := -1
		var chunk []byte
		var err error
		for {
			chunk, err = r.br.ReadSlice('\n')
			first := size == 0
			size += len(chunk)
			// An unwanted line is never held, so only what is put together
			// counts toward the limit. +1: the newline is not part of it.
			if !tooLong && !unwanted && size-r.drained > r.max+1 {
				tooLong = true
				r.buf = nil // hundreds of MB: not kept for the lines after it
			}
			if err == bufio.ErrBufferFull {
				if first && r.opts.Want != nil {
					head := chunk
					if r.line == 0 && !r.midFile {
						head = bytes.TrimPrefix(head, utf8BOM)
					}
					if head = trimSpace(head); len(head) > 0 && !r.wantHead(head) && !hasNUL(head) {
						unwanted, shape[0] = true, head[0]
					}
				} else if unwanted && hasNUL(chunk) {
					// A crash's NUL run inside a line that was turned down:
					// the line written after it may be wanted. What was
					// drained is the cut line's; read on from here.
					r.drained = size - len(chunk)
					unwanted, start = false, start+int64(r.drained)
				}
				switch {
				case unwanted:
					if c, ok := lastNonSpace(chunk); ok {
						shape[1] = c
					}
				case tooLong || held >= 0:
				case r.ra != nil && len(r.buf)+len(chunk) > holdBytes:
					// Not put together further: the line may be over
					// the limit, to be dropped. It is read again from
					// the file once its end is found.
					held = len(r.buf)
				default:
					r.buf = appendDoubling(r.buf, chunk)
				}
				continue
			}
			break
		}
		r.offset += int64(size)
		if err != nil && err != io.EOF {
			r.err = err
			return nil, 0, false, false, shape
		}
		if err == io.EOF {
			// A file still being written may grow after this: what is read
			// is the file as it was at its end, and a half-written last
			// line stays the last one, never glued to what follows.
			r.eof = true
		}
		if size == 0 { // io.EOF with nothing read
			return nil, 0, false, false, shape
		}
		r.line++
		complete = err == nil
		if complete {
			r.done, r.doneLines = r.offset, r.line
		}
		if tooLong {
			r.issue(TooLong, size)
			continue
		}
		if unwanted && hasNUL(chunk) {
			r.drained = size - len(chunk) // as above
			unwanted, start = false, start+int64(r.drained)
		}
		if unwanted {
			if c, ok := lastNonSpace(chunk); ok {
				shape[1] = c
			}
			return nil, start, complete, true, shape
		}
		switch {
		case held >= 0:
			line, err := r.reread(start, size-r.drained)
			if err != nil {
				r.err = err
				return nil, 0, false, false, shape
			}
			chunk = line
		case len(r.buf) > 0:
			r.buf = appendDoubling(r.buf, chunk)
			chunk = r.buf
		}
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		if n := len(chunk); n > 0 && chunk[n-1] == '\r' {
			chunk = chunk[:n-1]
		}
		return chunk, start, complete, true, shape
	}
}

// reread reads again the n bytes of a line that starts at start, once it
// is known to be within the limit: a counter (Want) gets it with its long
// strings cut (compactLine), any other reader the whole line, read into a
// buffer of its exact size.
func (r *Reader) reread(start int64, n int) ([]byte, error) {
	r.buf = nil // what was held: the line is read from its start
	off := r.raBase + start
	if r.opts.Want != nil && !r.opts.KeepRaw {
		if line, cut, ok := compactLine(r.ra, off, n); ok {
			r.cut = cut
			return line, nil
		}
	}
	r.buf = make([]byte, n)
	if _, err := r.ra.ReadAt(r.buf, off); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the file shrank while read
		}
		return nil, fmt.Errorf("reading a line of %s again: %w", humanBytes(n), err)
	}
	return r.buf, nil
}

// appendDoubling is append that doubles a full buffer: a long line is
// put together with half the garbage of append's growth, and at most
// half its size again held while it grows.
func appendDoubling(buf, b []byte) []byte {
	if cap(buf)-len(buf) < len(b) {
		nb := make([]byte, len(buf), max(2*cap(buf), len(buf)+len(b)))
		copy(nb, buf)
		buf = nb
	}
	return append(buf, b...)
}

func lastNonSpace(b []byte) (byte, bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if !isSpace(b[i]) {
			return b[i], true
		}
	}
	return 0, false
}

// trimSpace trims JSON whitespace without allocating.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// view turns bytes into a string without copying. The string is valid only
// while b is unchanged: anything kept must be cloned.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ErrNotRegular is returned for paths that are not regular files.
var ErrNotRegular = errors.New("not a regular file")

// SplitPoints divides a file into pieces of about pieceBytes that each
// begin a line, for OpenRange: it returns the start of each piece, the
// first being 0. A file smaller than two pieces is one piece. Only a few
// bytes around each cut are read.
func SplitPoints(path string, pieceBytes int64) ([]int64, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if head := [4]byte{}; readHead(f, head[:]) && isZstd(head[:]) {
		// The text of a compressed file is cut as a plain file's is when
		// it has a seek table; without one it is read in one piece.
		zf, err := OpenFile(path)
		if err != nil {
			return nil, err
		}
		defer zf.Close()
		if !zf.Seekable() {
			return []int64{0}, nil
		}
		size, _ := zf.Size()
		return splitPoints(zf, size, pieceBytes)
	}
	if !st.Mode().IsRegular() {
		return []int64{0}, nil
	}
	return splitPoints(f, st.Size(), pieceBytes)
}

// readHead reads the first len(b) bytes of f without moving its offset.
func readHead(f *os.File, b []byte) bool {
	n, _ := f.ReadAt(b, 0)
	return n == len(b)
}

func splitPoints(f io.ReaderAt, size, pieceBytes int64) ([]int64, error) {
	starts := []int64{0}
	if pieceBytes <= 0 {
		return starts, nil
	}
	buf := make([]byte, 64<<10)
	for target := pieceBytes; target+pieceBytes/2 < size; target += pieceBytes {
		if target <= starts[len(starts)-1] {
			continue // a long line ran past this cut
		}
		// The piece starts just past the first newline at or after target.
		at := target - 1
		for {
			n, err := f.ReadAt(buf, at)
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				if next := at + int64(i) + 1; next < size {
					starts = append(starts, next)
				}
				break
			}
			if err != nil { // no newline before the end: the last piece goes on
				return starts, nil
			}
			at += int64(n)
		}
	}
	return starts, nil
}
