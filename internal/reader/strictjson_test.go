package reader

import (
	"encoding/json"
	"testing"
)

// What gjson reads and a strict parser refuses becomes JSON that any
// parser reads, meaning the same where it can.
func TestStrictJSON(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"valid, as it is", `{"a":"b\u001b"}`, `{"a":"b\u001b"}`},
		{"a raw ESC in a string", "{\"a\":\"x\x1b[2Jy\"}", `{"a":"x\u001b[2Jy"}`},
		{"a raw TAB and newline", "{\"a\":\"x\ty\nz\"}", `{"a":"x\u0009y\u000az"}`},
		{"an escaped quote before", "{\"a\":\"q\\\"\x01\"}", `{"a":"q\"\u0001"}`},
		{"whitespace between values stays", "{\"a\":\t\"x\x02\"}", "{\"a\":\t\"x\\u0002\"}"},
		{"not JSON: the text as a string", `{"a":tru}`, `"{\"a\":tru}"`},
		{"not JSON, with controls and bad bytes: a JSON string still", "{\"a\":\"x\\q\x1b[31m\xff\"}", "\"{\\\"a\\\":\\\"x\\\\q\\u001b[31m\ufffd\\\"}\""},
	} {
		got := StrictJSON([]byte(tc.in))
		if string(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		if !json.Valid(got) {
			t.Errorf("%s: %s is not valid JSON", tc.name, got)
		}
	}
}
