package show

import (
	"fmt"
	"strings"
	"testing"
)

// headLines is lines() cut to the first n, with the rest counted.
func TestHeadLinesIsTheStartOfLines(t *testing.T) {
	for _, text := range []string{"", "a", "a\nb", "a\nb\nc", "a\n\nb\n", "x\x1b[31my\nz", strings.Repeat("l\n", 50) + "end"} {
		all := lines(text)
		for n := 1; n <= len(all)+1; n++ {
			head, hidden := headLines(text, n)
			want := all[:min(n, len(all))]
			if fmt.Sprint(head) != fmt.Sprint(want) || hidden != len(all)-len(want) {
				t.Errorf("headLines(%q, %d) = %q + %d hidden, want %q + %d", text, n, head, hidden, want, len(all)-len(want))
			}
		}
	}
}

func TestCutWidth(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello!", 5, "hell…"},
		{"日本語です", 6, "日本…"},
		{"e\u0301te\u0301", 3, "e\u0301te\u0301"}, // combining marks take no cell
		{strings.Repeat("x", 1<<20), 4, "xxx…"},
		{"abc", 0, "abc"},
	}
	for _, tt := range tests {
		if got := cutWidth(tt.s, tt.w); got != tt.want {
			t.Errorf("cutWidth(%.20q, %d) = %q, want %q", tt.s, tt.w, got, tt.want)
		}
	}
}
