package reader

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// This file decodes the text of a transcript line that a person reads, for
// cctx grep: prompts and replies, what a tool call was asked to do, what a
// tool returned, and thinking. Never a JSON key, an id, a signature,
// base64 data or a usage number.

// Readable kinds: the content block a text comes from.
const (
	KindText       = "text"
	KindThinking   = "thinking"
	KindToolUse    = "tool_use"
	KindToolResult = "tool_result"
)

// Readable is one decoded text of a line.
type Readable struct {
	Kind      string // KindText, KindThinking, KindToolUse or KindToolResult
	Block     int    // the block's index in message.content (0 for a string content)
	Tool      string // tool_use: the tool's name
	ToolUseID string // tool_use: the call's id; tool_result: the call it answers
	// Field names the text within its block: "text", "thinking", a tool
	// result's "content" (or "content[2].text" in a list of blocks), or a
	// tool call's input field ("command", "file_path", "edits[0].new_string").
	Field string
	// Text is the decoded string. It may share memory with the line or
	// with the decoder: it is valid only until the visit returns.
	Text string
}

// TextDecoder decodes the readable texts of lines; it keeps a buffer
// between calls. Use one per goroutine.
type TextDecoder struct {
	// Filter, when set, is shown each string (raw, with its quotes)
	// before it is decoded: false passes it over. A search that knows a
	// string cannot match saves its decoding.
	Filter func(raw []byte) bool

	buf  []byte
	path []byte
}

// maxInputDepth bounds how deep a tool call's input is walked for strings.
const maxInputDepth = 8

// SearchLine is what cctx grep reads of a line, in one walk: where the
// line belongs, and its message.content left raw, to be decoded only when
// the line may hold a match. Its fields view the line: they are valid while
// the line is.
type SearchLine struct {
	Type      string // user, assistant, ... (a view of the line)
	Timestamp time.Time
	Meta      bool // isMeta: text Claude Code wrote itself
	Sidechain bool
	// Queued is what a queued input's attachment line delivered
	// (Entry.Queued): a user message whose content is attachment.prompt.
	Queued    QueuedKind
	uuid      []byte
	content   []byte // message.content (a queued input's attachment.prompt), raw JSON
	sessionID []byte
	cwd       []byte
}

// IsUser reports whether the line is a user message (Entry.IsUser): a
// user line, or a queued input's attachment line.
func (l *SearchLine) IsUser() bool { return UserMessage(l.Type, l.Queued) }

// UUID is the line's uuid, copied.
func (l *SearchLine) UUID() string { return rawStr(l.uuid) }

// SessionID and CWD are the line's sessionId and cwd, copied ("" when
// not strings): what names a transcript read from standard input.
func (l *SearchLine) SessionID() string { return rawStr(l.sessionID) }
func (l *SearchLine) CWD() string       { return rawStr(l.cwd) }

// ParseSearchLine walks a raw line once: it checks, as the Reader does,
// that the line is one well-formed object without a NUL byte (false
// otherwise), and keeps what SearchLine holds. Duplicate keys: the first
// message and its first content are read.
func ParseSearchLine(line []byte) (SearchLine, bool) {
	var l SearchLine
	b := trimSpace(line)
	if len(b) == 0 || b[0] != '{' || hasNUL(b) {
		return l, false
	}
	seenMessage := false
	var attach []byte
	end := members(b, 0, func(k []byte, vs int) int {
		if string(k) == "message" && !seenMessage && vs < len(b) && b[vs] == '{' {
			// Walked once: its content is kept where the walk passes it.
			seenMessage = true
			seenContent := false
			return members(b, vs, func(k []byte, vs int) int {
				ve := skipValue(b, vs)
				if ve >= 0 && !seenContent && string(k) == "content" {
					seenContent = true
					l.content = b[vs:ve]
				}
				return ve
			})
		}
		ve := skipValue(b, vs)
		if ve < 0 {
			return ve
		}
		v := b[vs:ve]
		switch string(k) {
		case "type":
			if v[0] == '"' {
				l.Type = strView(v)
			}
		case "uuid":
			if v[0] == '"' {
				l.uuid = v
			}
		case "sessionId":
			l.sessionID = v
		case "cwd":
			l.cwd = v
		case "timestamp":
			l.Timestamp = rawTime(v)
		case "isMeta":
			l.Meta = isTrue(v)
		case "isSidechain":
			l.Sidechain = isTrue(v)
		case "attachment":
			if attach == nil {
				attach = v
			}
		}
		return ve
	})
	ok := end >= 0 && skipSpace(b, end) == len(b)
	if ok && attach != nil && l.Type == "attachment" {
		if k, prompt := queuedAttachment(attach); k != NotQueued {
			l.Queued, l.content = k, prompt
		}
	}
	return l, ok
}

// Readables calls visit for each readable text of message.content of a raw
// line (see Texts).
func (d *TextDecoder) Readables(raw []byte, thinking bool, visit func(*Readable) bool) {
	if l, ok := ParseSearchLine(raw); ok {
		d.Texts(&l, thinking, visit)
	}
}

// Texts calls visit for each readable text of a line's message.content, in
// order, until visit returns false: a string content, text blocks, with
// thinking the thinking blocks, the string values of a tool call's input
// (except ids) and the text of a tool result. Images, documents,
// signatures, redacted thinking and anything that is not a string are
// left out.
func (d *TextDecoder) Texts(l *SearchLine, thinking bool, visit func(*Readable) bool) {
	b := l.content
	if len(b) == 0 {
		return
	}
	stop := false
	r := &Readable{}
	emit := func(v []byte) bool {
		if len(v) < 2 || v[0] != '"' || d.Filter != nil && !d.Filter(v) {
			return true
		}
		r.Text = d.decode(v)
		if r.Text == "" {
			return true
		}
		if !visit(r) {
			stop = true
		}
		return !stop
	}
	switch b[0] {
	case '"':
		*r = Readable{Kind: KindText, Field: "text"}
		emit(b)
		return
	case '[':
	default:
		return
	}
	n := 0
	elements(b, 0, func(es int) int {
		if stop {
			return stopped
		}
		idx := n
		n++
		if b[es] != '{' {
			return -1
		}
		return d.block(b, es, idx, thinking, r, emit)
	})
}

// block reads one content block at b[i] and emits its texts; it returns
// the index just past it (or -1 when malformed, to have it skipped).
func (d *TextDecoder) block(b []byte, i, idx int, thinking bool, r *Readable, emit func([]byte) bool) int {
	var typ, text, think, name, id, useID, input, content []byte
	end := members(b, i, func(k []byte, vs int) int {
		ve := skipValue(b, vs)
		if ve < 0 {
			return ve
		}
		v := b[vs:ve]
		switch string(k) {
		case "type":
			typ = v
		case "text":
			text = v
		case "thinking":
			think = v
		case "name":
			name = v
		case "id":
			id = v
		case "tool_use_id":
			useID = v
		case "input":
			input = v
		case "content":
			content = v
		}
		return ve
	})
	if end < 0 {
		return -1
	}
	*r = Readable{Block: idx}
	switch strView(typ) {
	case "text":
		r.Kind, r.Field = KindText, "text"
		emit(text)
	case "thinking":
		if thinking {
			r.Kind, r.Field = KindThinking, "thinking"
			emit(think)
		}
	case "tool_use", "server_tool_use":
		r.Kind, r.Tool, r.ToolUseID = KindToolUse, rawStr(name), rawStr(id)
		if len(input) > 0 && input[0] == '{' {
			d.path = d.path[:0]
			d.strings(input, 0, r, emit)
		}
	case "tool_result":
		r.Kind, r.ToolUseID = KindToolResult, rawStr(useID)
		switch {
		case len(content) > 0 && content[0] == '"':
			r.Field = "content"
			emit(content)
		case len(content) > 0 && content[0] == '[':
			part := 0
			eachElement(content, func(p []byte) {
				at := part
				part++
				if len(p) == 0 || p[0] != '{' {
					return
				}
				var ptyp, ptext []byte
				eachMember(p, func(k, v []byte) bool {
					switch string(k) {
					case "type":
						ptyp = v
					case "text":
						ptext = v
					}
					return true
				})
				if strView(ptyp) == "text" {
					r.Field = "content[" + strconv.Itoa(at) + "].text"
					emit(ptext)
				}
			})
		}
	}
	return end
}

// strings emits the string values of a tool call's input v (an object or
// an array), depth levels down, naming each by its path. Keys that hold
// ids, and objects that hold base64 data (an image or document source),
// are left out.
func (d *TextDecoder) strings(v []byte, depth int, r *Readable, emit func([]byte) bool) bool {
	if depth > maxInputDepth {
		return true
	}
	base := len(d.path)
	ok := true
	switch v[0] {
	case '{':
		if binaryObject(v) {
			return true
		}
		eachMember(v, func(k, val []byte) bool {
			key := string(k)
			if strings.IndexByte(key, '\\') >= 0 {
				key = rawStr(append(append([]byte{'"'}, k...), '"'))
			}
			if idKey(key) {
				return true
			}
			d.path = d.path[:base]
			if base > 0 {
				d.path = append(d.path, '.')
			}
			d.path = append(d.path, key...)
			ok = d.value(val, depth, r, emit)
			return ok
		})
	case '[':
		n := 0
		eachElement(v, func(val []byte) {
			if !ok {
				return
			}
			d.path = append(d.path[:base], '[')
			d.path = strconv.AppendInt(d.path, int64(n), 10)
			d.path = append(d.path, ']')
			n++
			ok = d.value(val, depth, r, emit)
		})
	}
	d.path = d.path[:base]
	return ok
}

func (d *TextDecoder) value(val []byte, depth int, r *Readable, emit func([]byte) bool) bool {
	if len(val) == 0 {
		return true
	}
	switch val[0] {
	case '"':
		r.Field = string(d.path)
		return emit(val)
	case '{', '[':
		return d.strings(val, depth+1, r, emit)
	}
	return true
}

// idKey reports whether an input key names an id, which is not text a
// person reads: id, uuid, tool_use_id, sessionId, taskID, ...
func idKey(k string) bool {
	return k == "id" || k == "uuid" || k == "signature" || strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "Id") ||
		strings.HasSuffix(k, "ID") || strings.HasSuffix(k, "_uuid") || strings.HasSuffix(k, "Uuid")
}

// binaryObject reports whether an object is a block of binary data: an
// image or document (or its source), base64 encoded.
func binaryObject(v []byte) bool {
	bin := false
	eachMember(v, func(k, val []byte) bool {
		if string(k) == "type" {
			switch strView(val) {
			case "image", "document", "base64":
				bin = true
			}
			return false
		}
		return true
	})
	return bin
}

// decode returns the string value v (raw, with its quotes) decoded. A
// string without escapes is a view of the line; an escaped one is decoded
// into the decoder's buffer. Escapes are read as JSON defines them; a lone
// surrogate becomes U+FFFD, and a malformed escape is kept as written.
func (d *TextDecoder) decode(v []byte) string {
	in := v[1 : len(v)-1]
	k := indexBackslash(in)
	if k < 0 {
		return view(in)
	}
	out := append(d.buf[:0], in[:k]...)
	for i := k; i < len(in); {
		c := in[i]
		if c != '\\' {
			j := indexBackslash(in[i:])
			if j < 0 {
				out = append(out, in[i:]...)
				break
			}
			out = append(out, in[i:i+j]...)
			i += j
			continue
		}
		if i+1 >= len(in) {
			out = append(out, c)
			break
		}
		switch e := in[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
			i += 2
		case 'b':
			out, i = append(out, '\b'), i+2
		case 'f':
			out, i = append(out, '\f'), i+2
		case 'n':
			out, i = append(out, '\n'), i+2
		case 'r':
			out, i = append(out, '\r'), i+2
		case 't':
			out, i = append(out, '\t'), i+2
		case 'u':
			r, n := unicodeEscape(in[i:])
			if n == 0 {
				out = append(out, c, e)
				i += 2
				continue
			}
			out = utf8.AppendRune(out, r)
			i += n
		default:
			out = append(out, c, e)
			i += 2
		}
	}
	d.buf = out
	return view(out)
}

// Release drops the decoder's buffer when a long text made it big: a
// search keeps one decoder per core for all its files.
func (d *TextDecoder) Release() {
	if cap(d.buf) > 1<<20 {
		d.buf = nil
	}
}

func indexBackslash(b []byte) int { return bytes.IndexByte(b, '\\') }

// unicodeEscape reads \uXXXX (and a following low surrogate) at the start
// of b: the rune and the bytes read, 0 when b holds no escape.
func unicodeEscape(b []byte) (rune, int) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4(b[6:]); ok && len(b) >= 12 {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				return dec, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// hex4 reads \uXXXX at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// UnicodeEscape reads a JSON \uXXXX escape (with a following low surrogate,
// \uXXXX\uXXXX) at the start of b: the rune it stands for and its length
// in bytes, or 0 when b does not start with one. cctx grep's prefilter uses
// it to tell which escaped characters a raw line holds.
func UnicodeEscape(b []byte) (rune, int) { return unicodeEscape(b) }

// LineAt reads again the line of an entry the Reader returned, from its
// Offset and Size: the JSON object as Entry.Raw holds it (a byte order
// mark and leading space skipped). A file that changed since is an error.
// tree.Source reads show's lines with it, cctx grep its hits.
func LineAt(r io.ReaderAt, offset int64, size int) ([]byte, error) {
	if size <= 0 {
		return nil, fmt.Errorf("empty line at offset %d", offset)
	}
	for pad := 8; ; pad *= 4 {
		buf := make([]byte, size+pad)
		n, err := r.ReadAt(buf, offset)
		if err != nil && err != io.EOF {
			return nil, err
		}
		body := bytes.TrimPrefix(buf[:n], utf8BOM)
		body = body[len(body)-len(bytes.TrimLeft(body, " \t\r\n")):]
		switch {
		case len(body) >= size:
			line := body[:size]
			if line[0] != '{' || line[size-1] != '}' {
				return nil, fmt.Errorf("the file changed: no JSON object at offset %d", offset)
			}
			return line, nil
		case n < size+pad:
			return nil, fmt.Errorf("the file changed: line at offset %d is cut short", offset)
		}
	}
}

// ReadFrom reads the lines of r, which holds a file's bytes from offset
// start on (0, or just past a newline), as OpenRange reads a file:
// Entry.Offset counts from the file's start, a byte order mark is dropped
// at offset 0 only, and the read buffer is pooled (Close gives it back).
// cctx grep reads a file's candidate lines so, partly from the bytes it
// scanned already and partly from the file.
func ReadFrom(r io.Reader, start int64, o Options) (*Reader, io.Closer) {
	rd := newPooled(r, o)
	rd.offset, rd.midFile, rd.done = start, start > 0, start
	return rd, closeFunc(func() error { rd.release(); return nil })
}
