package termsafe

import "testing"

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, café, 日本": "plain text, café, 日本",
		"a\x1b[31mred":         `a\x1b[31mred`,
		"line\nbreak\ttab":     `line\nbreak\ttab`,
		"\u009b31m":            `\x9b31m`,
		"bad \xff\xfe bytes":   "bad \ufffd bytes",
		"real \ufffd kept":     "real \ufffd kept",
		"evil\u202egpj.sh":     `evil\u202egpj.sh`,
		"\u2066isolate\u2069":  `\u2066isolate\u2069`,
		"mark\u200f":           `mark\u200f`,
		"del\x7f":              `del\x7f`,
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
