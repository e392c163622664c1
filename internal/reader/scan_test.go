package reader

import (
	"strings"
	"testing"
)

// skipStringByBytes is the definition skipString must keep: a byte at a
// time, a backslash escapes the byte after it, the end of input means no
// string. (NUL is refused for the whole line, by the entry points.)
func skipStringByBytes(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1
		case '\\':
			j++
		}
	}
	return -1
}

// TestSkipStringEveryPosition puts a closing quote, escaped quotes, runs of
// backslashes and NULs at every offset around the word and short-string
// boundaries of the fast path, and compares with the byte-at-a-time
// definition.
func TestSkipStringEveryPosition(t *testing.T) {
	pieces := []string{`"`, `\"`, `\\"`, `\\\"`, `\\\\"`, "\x00", `\`, `\\`, `\u0022`}
	checked := 0
	for n := 0; n <= shortString+24; n++ {
		for _, p := range pieces {
			for _, tail := range []string{``, `"`, `x"`, `,"k":1}`} {
				s := `"` + strings.Repeat("a", n) + p + strings.Repeat("b", n%9) + tail
				b := []byte(s)
				if got, want := skipString(b, 0), skipStringByBytes(b, 0); got != want {
					t.Fatalf("skipString(%q) = %d, want %d", s, got, want)
				}
				checked++
			}
		}
	}
	// A quote past the short-string stretch, escaped across the jump.
	long := `"` + strings.Repeat("x", shortString-1) + `\` + `"` + strings.Repeat("y", 1000) + `"`
	if got := skipString([]byte(long), 0); got != len(long) {
		t.Errorf("escape at the jump: got %d, want %d", got, len(long))
	}
	if checked < 1000 {
		t.Fatalf("only %d cases", checked)
	}
}

// elements walks an array as members walks an object: an element fn does
// not parse (-1, here the objects) is skipped and still validated; the
// end is just past ']'.
func TestElements(t *testing.T) {
	tests := []struct {
		in   string
		want int    // end index, -1 malformed
		seen string // the elements fn parsed, up to where the walk stopped
	}{
		{`[]`, 2, ""},
		{`[ ]`, 3, ""},
		{`[1,"a",{"b":[2]}] tail`, 17, `1|"a"`},
		{`[1 , 2 ]`, 8, "1|2"},
		{`[1,]`, -1, "1"},
		{`[1 2]`, -1, "1"},
		{`[1,2`, -1, "1|2"},
		{`[{"a":}]`, -1, ""},
		{`{}`, -1, ""},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		var seen []string
		got := elements(b, 0, func(vs int) int {
			if b[vs] == '{' {
				return -1
			}
			ve := skipValue(b, vs)
			if ve > 0 {
				seen = append(seen, string(b[vs:ve]))
			}
			return ve
		})
		if got != tt.want || strings.Join(seen, "|") != tt.seen {
			t.Errorf("elements(%q) = %d seeing %q, want %d seeing %q", tt.in, got, strings.Join(seen, "|"), tt.want, tt.seen)
		}
	}
}
