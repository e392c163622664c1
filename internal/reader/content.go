package reader

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// ContentFlags summarises the blocks of message.content without keeping
// them: enough to tell a typed prompt from a tool result.
type ContentFlags uint8

const (
	HasText ContentFlags = 1 << iota // a string content or a text block
	HasToolUse
	HasToolResult
	HasImage
	HasThinking
	HasDocument
)

// contentFlags reads the content value at b[vs] and returns its flags,
// the start of its first text a person typed (when wantText; see
// ClassifyText), and the index just past it (-1 when malformed). With fp,
// it also gathers the blocks' tree facts; with calls (the line's first
// content), its Entry.SpawnIDs and Entry.ResultIDs.
func contentFlags(b []byte, vs int, wantText bool, fp *factsPass, calls *callState) (ContentFlags, string, int) {
	if vs >= len(b) {
		return 0, "", -1
	}
	switch b[vs] {
	case '"':
		end := skipString(b, vs)
		if fp != nil && end > 0 {
			fp.strContent = b[vs:end]
		}
		if end < 0 || blankString(b[vs:end]) {
			return 0, "", end
		}
		head := ""
		if wantText {
			head = promptHead(b[vs:end])
		}
		return HasText, head, end
	case '[':
	default:
		return 0, "", skipValue(b, vs)
	}
	var f ContentFlags
	head := ""
	end := elements(b, vs, func(i int) int {
		if b[i] != '{' {
			return -1
		}
		var typ []byte
		text := ""
		var bk blockKeys
		keys := fp != nil || calls != nil // the block's keys are wanted
		end := members(b, i, func(k []byte, vs int) int {
			switch {
			case string(k) == "type":
			case string(k) == "text" && wantText && head == "":
			case keys && bk.wants(k):
			default:
				return -1
			}
			ve := skipValue(b, vs)
			if ve < 0 {
				return ve
			}
			v := b[vs:ve]
			if keys {
				bk.capture(k, v)
			}
			switch string(k) {
			case "type":
				typ = v
			case "text":
				if wantText && head == "" && v[0] == '"' {
					text = promptHead(v)
				}
			}
			return ve
		})
		if end < 0 {
			return end
		}
		bt := strView(typ)
		f |= blockFlag(bt)
		if bt == "text" && head == "" {
			head = text
		}
		if fp != nil {
			bk.apply(&fp.f, &fp.texts)
		}
		if calls != nil {
			calls.block(&bk)
		}
		return end
	})
	if end < 0 {
		return 0, "", -1
	}
	return f, head, end
}

// strView is a string value (raw, with quotes) for a comparison made at
// once: without escapes it is a view of the line, not a copy.
func strView(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	if bytes.IndexByte(v, '\\') < 0 {
		return view(v[1 : len(v)-1])
	}
	return rawStr(v)
}

// textHeadBytes is how much of a prompt's text the envelope keeps: enough
// to tell typed text from what Claude Code writes itself.
const textHeadBytes = 96

// promptHead is textHead when the text is one a person typed
// (ClassifyText), else "": an IDE selection before the typed text, in a
// block of its own, does not hide it.
func promptHead(v []byte) string {
	h := textHead(v)
	if classify(h, textProbe{
		closesOnce: func(name string) bool { return rawClosesOnce(v, name) },
		hasArgs:    func() bool { return rawHasArgs(v) },
	}).IsPrompt() {
		return h
	}
	return ""
}

// rawHasArgs is ClassifyText's argument test on a raw JSON string value:
// something other than space follows <command-args> before its end tag
// (JSON may write < as \u003c).
func rawHasArgs(v []byte) bool {
	for _, open := range []string{"<command-args>", "\u003ccommand-args\u003e"} {
		i := bytes.Index(v, []byte(open))
		if i < 0 {
			continue
		}
		rest := skipJSONSpace(v[i+len(open):])
		return len(rest) > 0 && rest[0] != '<' && !bytes.HasPrefix(rest, []byte("\\u003c")) && !bytes.HasPrefix(rest, []byte(`"`))
	}
	return false
}

// rawClosesOnce is ClassifyText's end test on a raw JSON string value: the
// first </name> is its end (whitespace aside). The tag is found as JSON
// may write it (<\/name>, \u003c/name\u003e) without decoding the text.
func rawClosesOnce(v []byte, name string) bool {
	e := v[1 : len(v)-1]
	for {
		switch {
		case len(e) >= 2 && e[len(e)-2] == '\\' && (e[len(e)-1] == 'n' || e[len(e)-1] == 'r' || e[len(e)-1] == 't'):
			e = e[:len(e)-2]
		case len(e) >= 1 && (e[len(e)-1] == ' ' || e[len(e)-1] == '\t'):
			e = e[:len(e)-1]
		default:
			for _, closing := range []string{"</" + name + ">", "<\\/" + name + ">", "\\u003c/" + name + "\\u003e", "\\u003c\\/" + name + "\\u003e"} {
				if i := bytes.Index(e, []byte(closing)); i >= 0 {
					return i+len(closing) == len(e)
				}
			}
			return false
		}
	}
}

// textHead decodes the start of a JSON string, trimmed of leading space.
// Leading space is skipped before the cut, so that text after a long run
// of blank lines is still seen.
func textHead(v []byte) string {
	inner := skipJSONSpace(v[1 : len(v)-1])
	if len(inner) > textHeadBytes {
		inner = inner[:textHeadBytes]
		// Do not end inside an escape: drop a trailing partial one.
		if k := bytes.LastIndexByte(inner, '\\'); k >= 0 && len(inner)-k < 6 {
			inner = inner[:k]
		}
	}
	q := make([]byte, 0, len(inner)+2)
	q = append(append(append(q, '"'), inner...), '"')
	return strings.TrimLeftFunc(gjson.ParseBytes(q).Str, unicode.IsSpace)
}

// skipJSONSpace skips the whitespace at the start of the inside of a JSON
// string: spaces, tabs and line ends, raw or escaped.
func skipJSONSpace(b []byte) []byte {
	for len(b) > 0 {
		switch {
		case b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r':
			b = b[1:]
		case len(b) > 1 && b[0] == '\\' && (b[1] == 'n' || b[1] == 't' || b[1] == 'r'):
			b = b[2:]
		default:
			return b
		}
	}
	return b
}

// blankString reports whether a JSON string holds only whitespace, without
// decoding it unless it must (a prompt may be megabytes long).
func blankString(v []byte) bool {
	// Decoded as far as the first character that is not space: a prompt
	// of megabytes that starts with a newline escape or a non-ASCII letter
	// is not decoded whole to find that it is not blank.
	in := v[1 : len(v)-1]
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\\' && i+1 < len(in):
			switch in[i+1] {
			case 'n', 'r', 't', 'f':
				i += 2
			case 'u':
				if i+6 > len(in) {
					return false
				}
				r, err := strconv.ParseUint(string(in[i+2:i+6]), 16, 32)
				if err != nil || !unicode.IsSpace(rune(r)) {
					return false
				}
				i += 6
			default:
				return false
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(in[i:])
			if !unicode.IsSpace(r) {
				return false
			}
			i += n
		default:
			return false
		}
	}
	return true
}

func blockFlag(typ string) ContentFlags {
	switch typ {
	case "text":
		return HasText
	case "tool_use", "server_tool_use":
		return HasToolUse
	case "tool_result":
		return HasToolResult
	case "image":
		return HasImage
	case "thinking", "redacted_thinking":
		return HasThinking
	case "document":
		return HasDocument
	}
	return 0
}

// Texts returns the text of message.content in a raw line (of a queued
// input's attachment line, its attachment.prompt): the string content
// itself, or each text block in order.
func Texts(raw []byte) []string {
	c := contentOf(raw)
	if c.Type == gjson.String {
		return []string{c.Str}
	}
	var out []string
	c.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str == "text" {
			out = append(out, b.Get("text").Str)
		}
		return true
	})
	return out
}

// StringField returns a top-level string field of a raw line, or "".
func StringField(raw []byte, name string) string {
	v := gjson.GetBytes(raw, gjson.Escape(name))
	if v.Type != gjson.String {
		return ""
	}
	return v.Str
}

// Valid reports whether raw is one JSON object.
func Valid(raw []byte) bool {
	raw = trimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && !hasNUL(raw) && skipContainer(raw, 0) == len(raw)
}

// ParseLine extracts the envelope of a single raw line, for callers that
// split lines themselves (the head and tail reads of session listing).
func ParseLine(raw []byte) (Entry, bool) {
	raw = trimSpace(raw)
	if hasNUL(raw) {
		return Entry{Size: len(raw)}, false
	}
	e, ok := parseEnvelope(raw, nil, nil)
	e.Size = len(raw)
	return e, ok
}

// ParseEnvelopeOnly is ParseLine without the message: it is checked as
// any value is, and the fields read from it (role, content, usage, ids,
// model) are left zero. The same lines are well-formed. For a caller that
// needs only the envelope's fields (the tail of an ls row).
func ParseEnvelopeOnly(raw []byte) (Entry, bool) {
	raw = trimSpace(raw)
	if hasNUL(raw) {
		return Entry{Size: len(raw)}, false
	}
	e, ok := parseEntry(raw, nil, nil, readNoMessage)
	e.Size = len(raw)
	return e, ok
}

// Peek tells what a raw line is without parsing the rest of it: it walks
// the top-level keys only until it knows the entry's type, or its message
// role (Claude Code writes "type" after "message" on assistant lines, but
// before the payload on most others), and whether it is a sidechain line.
// isSidechain comes before both in every version seen; when a user or
// assistant line has it later (keys in another order), the walk goes on
// to find it, so that what a caller picks does not depend on key order:
// the lines of an inline sidechain are all picked, and its agent is named
// the same whatever order the keys came in. It is how a caller picks the
// lines worth parsing (Options.Want) at close to the speed of reading them.
func Peek(line []byte) (typ, role string, sidechain bool) {
	b := line
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", "", false
	}
	sawSidechain := false
	// No closures here: Peek runs on every line, and its walk is short.
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		ks := i
		if i = skipString(b, i); i < 0 {
			return
		}
		key := b[ks+1 : i-1]
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return
		}
		vs := skipSpace(b, i+1)
		if string(key) == "message" && vs < len(b) && b[vs] == '{' && role == "" {
			// Only the start of the message is read: role comes before
			// the content in every version seen.
			role = messageRole(b, vs)
			if peekDone(typ, role, sawSidechain) {
				return // the common case: the rest is the payload
			}
		}
		if i = skipValue(b, vs); i < 0 {
			return
		}
		switch string(key) {
		case "isSidechain":
			sidechain, sawSidechain = string(b[vs:i]) == "true", true
		case "type":
			typ = wordStr(b[vs:i])
		}
		if peekDone(typ, role, sawSidechain) {
			return
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ',' {
			return
		}
		i = skipSpace(b, i+1)
	}
	return
}

// peekDone says whether Peek knows enough: the type (or role), and
// whether the line is a sidechain's unless it is no user or assistant
// line, where that does not matter.
func peekDone(typ, role string, sawSidechain bool) bool {
	kind := typ
	if kind == "" {
		kind = role
	}
	return kind != "" && (sawSidechain || kind != "user" && kind != "assistant")
}

// messageRole is the value of the first "role" key of the object at b[i],
// read up to it ("" when the object is malformed before it or has none).
func messageRole(b []byte, i int) string {
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		ks := i
		if i = skipString(b, i); i < 0 {
			return ""
		}
		key := b[ks+1 : i-1]
		if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
			return ""
		}
		vs := skipSpace(b, i+1)
		if i = skipValue(b, vs); i < 0 {
			return ""
		}
		if string(key) == "role" {
			return wordStr(b[vs:i])
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ',' {
			return ""
		}
		i = skipSpace(b, i+1)
	}
	return ""
}

// StartsWithToolResult reports whether a raw line's message.content is an
// array whose first block is a tool_result: a user line that answers a
// tool call, never a typed prompt. It reads only up to that block's type
// (the tool_use_id before it is short; the result's content after it is
// the bulk of the line and is not read), so a caller can skip the line
// unparsed, as Options.Want. Anything it cannot tell gives false.
func StartsWithToolResult(line []byte) bool {
	b := line
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	found := false
	members(b, i, func(k []byte, vs int) int {
		if string(k) != "message" || vs >= len(b) || b[vs] != '{' {
			return -1
		}
		members(b, vs, func(k []byte, vs int) int {
			if string(k) != "content" {
				return -1
			}
			j := skipSpace(b, vs+1)
			if vs >= len(b) || b[vs] != '[' || j >= len(b) || b[j] != '{' {
				return stopped
			}
			members(b, j, func(k []byte, vs int) int {
				if string(k) != "type" {
					return -1
				}
				ve := skipValue(b, vs)
				found = ve > 0 && string(b[vs:ve]) == `"tool_result"`
				return stopped
			})
			return stopped
		})
		return stopped
	})
	return found
}
