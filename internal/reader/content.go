package reader

import (
	"strings"

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

func contentFlags(v []byte) ContentFlags {
	switch {
	case len(v) > 0 && v[0] == '"':
		if strings.TrimSpace(rawStr(v)) != "" {
			return HasText
		}
		return 0
	case len(v) == 0 || v[0] != '[':
		return 0
	}
	var f ContentFlags
	eachElement(v, func(b []byte) {
		typ := ""
		eachMember(b, func(k, v []byte) bool {
			if string(k) == "type" {
				typ = rawStr(v)
				return false
			}
			return true
		})
		switch typ {
		case "text":
			f |= HasText
		case "tool_use", "server_tool_use":
			f |= HasToolUse
		case "tool_result":
			f |= HasToolResult
		case "image":
			f |= HasImage
		case "thinking", "redacted_thinking":
			f |= HasThinking
		case "document":
			f |= HasDocument
		}
	})
	return f
}

// Texts returns the text of message.content in a raw line: the string
// content itself, or each text block in order.
func Texts(raw []byte) []string {
	c := gjson.GetBytes(raw, "message.content")
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
	return len(raw) > 0 && raw[0] == '{' && skipContainer(raw, 0) == len(raw)
}

// ParseLine extracts the envelope of a single raw line, for callers that
// split lines themselves (the head and tail reads of session listing).
func ParseLine(raw []byte) (Entry, bool) {
	raw = trimSpace(raw)
	e, ok := parseEnvelope(raw)
	e.Size = len(raw)
	return e, ok
}

// Peek tells what a raw line is without parsing the rest of it: it walks
// the top-level keys only until it knows the entry's type, or its message
// role (Claude Code writes "type" after "message" on assistant lines, but
// before the payload on most others). isSidechain, an early key, is
// reported if seen by then. It is how a caller picks the lines worth
// parsing (Options.Want) at close to the speed of reading them.
func Peek(line []byte) (typ, role string, sidechain bool) {
	b := line
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", "", false
	}
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
		if string(key) == "message" && vs < len(b) && b[vs] == '{' {
			// Only the start of the message is read: role comes before
			// the content in every version seen.
			eachMember(b[vs:], func(k, v []byte) bool {
				if string(k) == "role" {
					role = rawStr(v)
					return false
				}
				return true
			})
			return
		}
		if i = skipValue(b, vs); i < 0 {
			return
		}
		switch string(key) {
		case "isSidechain":
			sidechain = string(b[vs:i]) == "true"
		case "type":
			typ = rawStr(b[vs:i])
			return
		}
		if i = skipSpace(b, i); i >= len(b) || b[i] != ',' {
			return
		}
		i = skipSpace(b, i+1)
	}
	return
}
