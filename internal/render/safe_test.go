package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// Transcripts hold whatever the model and its tools printed: a terminal
// must show it, never obey it. Each case is text found (or easily put) in a
// transcript and what Safe must turn it into.
func TestSafe(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text is unchanged", "fix the login bug", "fix the login bug"},
		{"non-ASCII text is unchanged", "café ✓ 日本語 🎉", "café ✓ 日本語 🎉"},
		{"empty", "", ""},
		{"CSI colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"clear screen and home", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"OSC window title (BEL-terminated)", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"OSC 52 clipboard write", "\x1b]52;c;ZWNobyBoaQ==\x1b\\", `\x1b]52;c;ZWNobyBoaQ==\x1b\`},
		{"OSC 8 hyperlink", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;http://evil\x1b\click\x1b]8;;\x1b\`},
		{"DCS", "\x1bP+q544e\x1b\\", `\x1bP+q544e\x1b\`},
		{"carriage return overwrites the line", "safe\rEVIL", `safe\x0dEVIL`},
		{"backspace erases", "rm -rf /\b\b\b\b\b\b\b\bls", `rm -rf /\x08\x08\x08\x08\x08\x08\x08\x08ls`},
		{"newline and tab", "a\nb\tc", `a\nb\tc`},
		{"NUL", "a\x00b", `a\x00b`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"vertical tab and form feed", "a\vb\fc", `a\x0bb\x0cc`},
		{"C1 CSI as a character (U+009B)", "a\u009b31mb", `a\x9b31mb`},
		{"C1 OSC and ST as characters", "\u009d0;t\u009c", `\x9d0;t\x9c`},
		{"C1 NEL (U+0085)", "a\u0085b", `a\x85b`},
		// A bad byte sequence shows as one replacement mark, as ls shows it.
		{"a raw C1 byte (invalid UTF-8)", "a\x9bb", "a\ufffdb"},
		{"invalid UTF-8", "caf\xe9", "caf\ufffd"},
		{"a truncated multibyte sequence is one mark", "\xe2\x9c", "\ufffd"},
		{"two bad runs are two marks", "a\xff\xfeb\xc0c", "a\ufffdb\ufffdc"},
		{"a real U+FFFD is kept", "x\ufffdy", "x\ufffdy"},
		{"U+00A0 (first char after C1) is kept", "a\u00a0b", "a\u00a0b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Safe(tt.in)
			if got != tt.want {
				t.Errorf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
			}
			assertInert(t, got)
		})
	}
}

// Bidirectional overrides reorder what a terminal shows ("Trojan Source",
// CVE-2021-42574): a tool result or file name can make `cctx show` display
// text in an order other than the one the model read, and a file name
// "evil\u202egpj.sh" shows as "evilhs.jpg". They are not escape sequences,
// so they cannot take over the terminal, but they make what is displayed
// differ from what is there.
func TestSafeBidi(t *testing.T) {
	tests := []struct{ in, want string }{
		{"evil\u202egpj.sh", `evil\u202egpj.sh`},
		{"a\u2066b\u2069", `a\u2066b\u2069`},
		{"\u200fx", `\u200fx`},
	}
	for _, tt := range tests {
		if got := Safe(tt.in); got != tt.want {
			t.Errorf("Safe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Safe output must survive the rest of the pipeline: cutting it for a
// column and colouring it must not bring a control character back.
func TestSafeThroughCutAndTheme(t *testing.T) {
	in := strings.Repeat("\x1b[2J", 20) + "\u009b" + "tail"
	s := Safe(in)
	for _, n := range []int{1, 2, 5, 10, 40} {
		assertInert(t, Cut(s, n))
		assertInert(t, CutLeft(s, n))
	}
	// With colour on, the only escapes are the theme's own: removing its
	// SGR sequences leaves an inert string.
	th := NewTheme(true)
	painted := th.Red(s)
	mark := "\x1b[" + th.mark + ";"
	if !strings.HasPrefix(painted, mark+"31m") {
		t.Fatalf("colour is off in a forced theme: %q", painted)
	}
	stripped := strings.NewReplacer(mark+"31m", "", mark+"0m", "").Replace(painted)
	if stripped != s {
		t.Errorf("theme changed the text: %q", stripped)
	}
	if NewTheme(false).Red(s) != s {
		t.Errorf("a theme without colour changed the text")
	}
}

// Safe cells in a pipe: tab-separated output stays one line per row with
// the right number of fields, whatever the text holds.
func TestSafeCellsKeepTSVShape(t *testing.T) {
	var b bytes.Buffer
	tb := NewTable(Options{}, "A", "B")
	tb.Row(Safe("x\ty\nz\r"), Safe("\x1b[31m"))
	tb.Row("plain", "row")
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("rows %q", lines)
	}
	for _, l := range lines {
		if n := strings.Count(l, "\t"); n != 1 {
			t.Errorf("row %q has %d tabs", l, n)
		}
		assertInert(t, strings.ReplaceAll(l, "\t", ""))
	}
}

// FuzzSafe: whatever the input, Safe's output is valid UTF-8 with no C0 or
// C1 control character, DEL or bidi control, and text without them is
// returned as is.
func FuzzSafe(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mx", "\u009b", "caf\xe9", "\r\n\t\x00\x7f", "日本\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Safe(s)
		assertInert(t, got)
		if utf8.ValidString(s) && !hasControl(s) && got != s {
			t.Fatalf("clean text changed: %q -> %q", s, got)
		}
		// One mark for each run of bad bytes, besides the real ones.
		want := strings.Count(strings.ToValidUTF8(s, "\x00"), "\x00") + strings.Count(s, "\ufffd")
		if strings.Contains(s, "\x00") {
			return
		}
		if n := strings.Count(got, "\ufffd"); n != want {
			t.Fatalf("%q -> %q: %d replacement marks, want %d", s, got, n, want)
		}
	})
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidi(r) {
			return true
		}
	}
	return false
}

// assertInert fails when s could make a terminal do anything but print it.
func assertInert(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("not valid UTF-8: %q", s)
	}
	if hasControl(s) {
		t.Fatalf("control character left in %q", s)
	}
}

func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// In a pipe a tab or newline inside a cell becomes a space, whichever
// cell of the row or footer holds it; other cells are copied as they are.
func TestTSVCellSpaces(t *testing.T) {
	tests := []struct {
		cells []string
		want  string
	}{
		{[]string{"a", "b c", "日本"}, "a\tb c\t日本\n"},
		{[]string{"x\ty", "z"}, "x y\tz\n"},
		{[]string{"", "line\nbreak\n"}, "\tline break \n"},
		{[]string{"\t\n", "\r"}, "  \t\r\n"},
	}
	for _, tc := range tests {
		for _, footer := range []bool{false, true} {
			var b bytes.Buffer
			tb := NewTable(Options{}, "A", "B", "C")
			if footer {
				tb.Footer(tc.cells...)
			} else {
				tb.Row(tc.cells...)
			}
			if err := tb.Render(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("%q (footer %v): %q, want %q", tc.cells, footer, b.String(), tc.want)
			}
		}
	}
}
