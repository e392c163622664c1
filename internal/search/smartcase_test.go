package search

import (
	"strings"
	"testing"
)

// Smart case: a capital makes --grep case-sensitive, but the letters of
// escapes, classes and group names are syntax, not text to match.
func TestGrepSmartCase(t *testing.T) {
	tests := []struct {
		pattern string
		text    string
		match   bool
	}{
		{`error`, "ERROR here", true},
		{`Error`, "ERROR here", false},
		{`Error`, "Error here", true},
		{`\Serror`, "xERROR", true},
		{`\W?error\b`, " ERROR", true},
		{`\Derror\B`, "xERRORS", true},
		{`\P{L}error`, "1ERROR", true},
		{`\p{Lu}rror`, "ERROR", true},
		{`\PLerror`, "1ERROR", true},
		{`\x{1F}error|\x4Aerror`, "JERROR", true},
		{`(?P<Word>error)`, "ERROR", true},
		{`(?<Word>error)`, "ERROR", true},
		{`\QA.B\E`, "a.b", false},
		{`\Qa.b\E`, "A.B", true},
		{`\Qa.b\EX`, "a.bx", false},
		{`\SError`, "xerror", false},
	}
	for _, tc := range tests {
		re, err := SmartCase(tc.pattern)
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		if got := re.MatchString(tc.text); got != tc.match {
			t.Errorf("--grep %s on %q: match %v, want %v (%s)", tc.pattern, tc.text, got, tc.match, re)
		}
	}
}

func TestGrepFlag(t *testing.T) {
	for _, tc := range []struct {
		in      string
		match   string // a text the pattern matches ("" with an error or no pattern)
		wantErr string
	}{
		{in: ""},
		{in: "migration", match: "MIGRATION done"},
		{in: "Migration", match: "a Migration"},
		{in: "a(", wantErr: "--grep `a(`: missing closing ) at column 2 (a regular expression; escape ( [ * + ? with \\)"},
		{in: `\p{Foo}`, wantErr: "--grep `\\p{Foo}`: invalid character class range at column 1 (a regular expression; escape ( [ * + ? with \\)"},
		{in: "a`(", wantErr: "--grep \"a`(\": missing closing ) at column 3 (a regular expression; escape ( [ * + ? with \\)"},
		{in: "\x1b[(", wantErr: `--grep "\x1b[(": missing closing ] at column 2 (a regular expression; escape ( [ * + ? with \)`},
		{in: "\xff(", wantErr: `--grep "\xff(": `},
	} {
		re, err := GrepFlag(tc.in)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("GrepFlag(%q) error = %v, want %q", tc.in, err, tc.wantErr)
			}
		case err != nil, tc.in == "" && re != nil, tc.match != "" && (re == nil || !re.MatchString(tc.match)):
			t.Errorf("GrepFlag(%q) = %v, %v; want a pattern matching %q", tc.in, re, err, tc.match)
		}
	}
}
