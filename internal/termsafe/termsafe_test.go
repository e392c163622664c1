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
		// Invisible characters a word or an instruction hides in.
		"tag\U000e0069\U000e0067\U000e006e": `tag\U000e0069\U000e0067\U000e006e`,
		"zero\u200bwidth":                   `zero\u200bwidth`,
		"word\u2060joiner\u2064":            `word\u2060joiner\u2064`,
		"\ufeffbom":                         `\ufeffbom`,
		"soft\u00adhyphen":                  `soft\u00adhyphen`,
		"line\u2028para\u2029":              `line\u2028para\u2029`,
		"\ufff9note\ufffb":                  `\ufff9note\ufffb`,
		"hangul\u3164filler":                `hangul\u3164filler`,
		// Kept: emoji and scripts need the joiners, and they hide nothing.
		"👩\u200d💻 \u200cx": "👩\u200d💻 \u200cx",
	} {
		if got := String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}
