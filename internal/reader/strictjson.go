package reader

import (
	"encoding/json"
	"strings"
)

// StrictJSON is a line (or a part of one) as JSON any parser reads. The
// reader takes what gjson takes, which lets a raw control byte (an ESC, a
// TAB) stand inside a string; encoding/json and most parsers refuse that,
// and a show --json that embedded such a line failed whole. Those bytes
// are written as \u escapes, which mean the same; anything else a strict
// parser refuses makes the value a string holding the text as written.
func StrictJSON(b []byte) json.RawMessage {
	if json.Valid(b) {
		return b
	}
	fixed := make([]byte, 0, len(b)+16)
	in, escaped := false, false
	for _, c := range b {
		switch {
		case in && escaped:
			escaped = false
		case in && c == '\\':
			escaped = true
		case c == '"':
			in = !in
		case in && c < 0x20:
			fixed = append(fixed, `\u00`...)
			fixed = append(fixed, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			continue
		}
		fixed = append(fixed, c)
	}
	if json.Valid(fixed) {
		return fixed
	}
	q, _ := json.Marshal(strings.ToValidUTF8(string(b), "\ufffd")) // JSON's escapes, never Go's
	return q
}
