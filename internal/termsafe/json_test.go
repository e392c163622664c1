package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"clean ASCII", `{"a":"plain \u001b text","n":1}`, `{"a":"plain \u001b text","n":1}`},
		{"clean non-ASCII", `{"a":"café 日本 🎉 é"}`, `{"a":"café 日本 🎉 é"}`},
		{"C1 CSI", "{\"a\":\"x\u009b2Jy\"}", `{"a":"x\u009b2Jy"}`},
		{"C1 NEL and ST", "{\"a\":\"\u0085\u009c\"}", `{"a":"\u0085\u009c"}`},
		{"DEL", "{\"a\":\"x\x7fy\"}", `{"a":"x\u007fy"}`},
		// Not valid JSON, but a lenient parser reads it: a raw control in
		// a string is its escape.
		{"raw ESC and BEL in a string", "{\"a\":\"\x1b]0;t\x07" + strings.Repeat("z", 9) + "\x00\"}", `{"a":"\u001b]0;t\u0007` + strings.Repeat("z", 9) + `\u0000"}`},
		{"JSON whitespace is kept", "{\n\t\"a\": 1\r\n}", "{\n\t\"a\": 1\r\n}"},
		{"bidi override", "{\"a\":\"evil\u202egpj.sh\"}", `{"a":"evil\u202egpj.sh"}`},
		{"bidi isolates", "{\"a\":\"\u2066x\u2069\"}", `{"a":"\u2066x\u2069"}`},
		{"bidi marks", "{\"a\":\"\u200e\u200f\u061c\"}", `{"a":"\u200e\u200f\u061c"}`},
		{"line and paragraph separators", "{\"a\":\"a\u2028b\u2029c\"}", `{"a":"a\u2028b\u2029c"}`},
		{"invisible: tag characters (surrogate pairs), ZWSP, BOM", "{\"a\":\"x\U000e0069\u200b\ufeffy\"}", `{"a":"x\udb40\udc69\u200b\ufeffy"}`},
		{"emoji kept, joiner too", "{\"a\":\"👩\u200d💻\"}", "{\"a\":\"👩\u200d💻\"}"},
		{"a bad byte", "{\"a\":\"caf\xe9\"}", `{"a":"caf\ufffd"}`},
		{"a bad run is one mark", "{\"a\":\"x\xe2\x9c\xff y\xc0\"}", `{"a":"x\ufffd y\ufffd"}`},
		{"encoding/json's marks of one bad run", `{"a":"x\ufffd\ufffd\ufffdy"}`, `{"a":"x\ufffdy"}`},
		{"one mark is kept", `{"a":"x\ufffdy\ufffd"}`, `{"a":"x\ufffdy\ufffd"}`},
		{"a real U+FFFD is kept", "{\"a\":\"x\ufffd\ufffdy\"}", "{\"a\":\"x\ufffd\ufffdy\"}"},
		{"escaped backslashes are text", `{"a":"\\ufffd\\ufffd"}`, `{"a":"\\ufffd\\ufffd"}`},
		{"an escaped quote before", `{"a":"\"\ufffd\ufffd"}`, `{"a":"\"\ufffd"}`},
		// Not valid JSON either: a backslash JSON has no escape for,
		// which a lenient parser reads as itself.
		{"an escape JSON lacks", `{"a\w":"x\qy"}`, `{"a\\w":"x\\qy"}`},
		{"\\u without four hex digits", `{"a":"\u12G4 \u12"}`, `{"a":"\\u12G4 \\u12"}`},
		{"a backslash before a non-ASCII byte", "{\"a\":\"\\\u00e9\\\xff\"}", `{"a":"\\é\\\ufffd"}`},
		// A piece of a longer text may end in the middle of an escape.
		{"a backslash last", `{"a":"x\`, `{"a":"x\`},
		{"\\u cut short by the end", `{"a":"x\u00`, `{"a":"x\u00`},
		{"\\u cut short, not hex", `{"a":"x\u0g`, `{"a":"x\\u0g`},
		{"every escape JSON has is kept", `{"a":"\" \\ \/ \b \f \n \r \t \u00e9 \uABCD"}`, `{"a":"\" \\ \/ \b \f \n \r \t \u00e9 \uABCD"}`},
		{"long clean text around", "{\"a\":\"" + strings.Repeat("abcdefgh", 9) + "\u202e" + strings.Repeat("z", 17) + "\"}",
			`{"a":"` + strings.Repeat("abcdefgh", 9) + `\u202e` + strings.Repeat("z", 17) + `"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(JSON([]byte(tt.in)))
			if got != tt.want {
				t.Errorf("JSON(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
	clean := []byte(`{"a":"nothing to do, é"}`)
	if got := JSON(clean); &got[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
}

// FuzzJSON: whatever a Go string holds, its encoding/json form through
// JSON is valid JSON without a raw C1, bidi, U+2028/9 or DEL, decodes to
// the string with each bad byte run as one U+FFFD, and JSON is idempotent
// on any input.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{"", "plain", "\u009b\u202e\u2028", "caf\xe9\xff", "\ufffd", `\ufffd`, "x\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]string{"s": s}); err != nil {
			t.Fatal(err)
		}
		out := JSON(buf.Bytes())
		var v map[string]string
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%q -> %q: not JSON: %v", s, out, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); v["s"] != want {
			t.Fatalf("%q -> %q decodes to %q, want %q", s, out, v["s"], want)
		}
		checkInert(t, out)
		raw := JSON([]byte(s))
		checkInert(t, raw)
		if again := JSON(raw); !bytes.Equal(again, raw) {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, raw, again)
		}
	})
}

func checkInert(t *testing.T, b []byte) {
	t.Helper()
	if !utf8.Valid(b) {
		t.Fatalf("not UTF-8: %q", b)
	}
	for _, r := range string(b) {
		if r == 0x7f || jsonEscaped(r) {
			t.Fatalf("%U left raw in %q", r, b)
		}
	}
}

// What JSON changes is found wherever it stands in a long text: the scan
// that skips plain text a word or four words at a time stops at it.
func TestJSONFindsAtEveryOffset(t *testing.T) {
	pad := strings.Repeat(`{"plain":"text, 0-9"},`, 8)
	for _, x := range []string{"\x7f", "\u009b", "\u202e", "\x1b[31m", `\w`, "\xff", `"\ufffd\ufffd"`, "\x00"} {
		want := string(JSON([]byte(x)))
		if want == x {
			t.Fatalf("%q: nothing to change", x)
		}
		for left := range 70 {
			for _, right := range []int{0, 1, 7, 8, 33} {
				in := pad[:left] + x + pad[:right]
				if got := string(JSON([]byte(in))); got != pad[:left]+want+pad[:right] {
					t.Fatalf("%q at %d, %d after: %q", x, left, right, got)
				}
			}
		}
	}
}
