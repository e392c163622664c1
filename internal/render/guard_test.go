package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// The guard is the last line: whatever a view forgot to escape, only text
// and cctx's own colours reach the terminal.
func TestGuard(t *testing.T) {
	on, off := NewTheme(true), NewTheme(false)
	red := on.Red("x")                                                // the theme's red, with its mark
	unmarked := strings.ReplaceAll(red, "\x1b["+on.mark+";", "\x1b[") // as a terminal gets it
	other := NewTheme(true).Red("x")                                  // another theme's (a forged mark)
	bold := on.Bold("")                                               // "": nothing painted
	tests := []struct {
		name  string
		theme Theme
		in    string
		want  string
	}{
		{"plain text", off, "id  prompt\tcost\n", "id  prompt\tcost\n"},
		{"non-ASCII text", off, "café ✓ 日本語 🎉\n", "café ✓ 日本語 🎉\n"},
		{"empty paint", on, bold, ""},
		{"the theme's colour passes, without its mark", on, red, unmarked},
		{"the same colour without the mark is text's: escaped", on, unmarked, Safe(unmarked)},
		{"a mark not the theme's", on, other, Safe(other)},
		{"no colour is allowed when colour is off", off, red, Safe(red)},
		{"a colour the theme never writes", on, "\x1b[5mblink\x1b[38;5;196m", `\x1b[5mblink\x1b[38;5;196m`},
		{"CSI that is not SGR", on, "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"OSC title", on, "\x1b]0;PWN\x07", `\x1b]0;PWN\x07`},
		{"OSC 8 hyperlink", on, "\x1b]8;;http://e\x1b\\x", `\x1b]8;;http://e\x1b\x`},
		{"a lone ESC at the end", on, "a\x1b", `a\x1b`},
		{"an SGR too long to be ours", on, "\x1b[" + "1;1;1;1;1;1;1;1;1;1;1;1;1;1m", `\x1b[1;1;1;1;1;1;1;1;1;1;1;1;1;1m`},
		{"carriage return", off, "safe\rEVIL", `safe\x0dEVIL`},
		{"NUL, BEL, DEL", off, "a\x00b\x07c\x7f", `a\x00b\x07c\x7f`},
		{"C1 as a character", off, "a\u009b31mb\u0085", `a\x9b31mb\x85`},
		{"bidi overrides", off, "evil\u202egpj.sh \u2066x\u2069 \u061c", `evil\u202egpj.sh \u2066x\u2069 \u061c`},
		{"a bad byte run is one mark", off, "a\xff\xfe\x9bb", "a\ufffdb"},
		{"a truncated character at the end", off, "ok\xe2\x9c", "ok\ufffd"},
		{"a real U+FFFD is kept", off, "x\ufffdy", "x\ufffdy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, and cut at every byte: the same output.
			for cut := 0; cut <= len(tt.in); cut++ {
				var b bytes.Buffer
				g := NewGuard(&b, tt.theme)
				g.Write([]byte(tt.in[:cut]))
				g.Write([]byte(tt.in[cut:]))
				if err := g.Flush(); err != nil {
					t.Fatal(err)
				}
				if b.String() != tt.want {
					t.Fatalf("written in two at %d: %q, want %q", cut, b.String(), tt.want)
				}
			}
		})
	}
}

// The guard allows what the theme writes, all of it: every colour of
// every view passes unchanged on a terminal.
func TestGuardPassesEveryThemeColour(t *testing.T) {
	on := NewTheme(true)
	for _, paint := range []func(string) string{on.Header, on.Dim, on.Bold, on.Red, on.Yellow, on.Green, on.Cyan, on.Magenta} {
		s := paint("text") + "\n"
		var b bytes.Buffer
		g := NewGuard(&b, on)
		g.Write([]byte(s))
		g.Flush()
		if want := strings.ReplaceAll(s, on.mark+";", ""); b.String() != want || !strings.HasPrefix(want, "\x1b[") {
			t.Errorf("%q became %q, want %q", s, b.String(), want)
		}
	}
}

// A live view's own cursor movement passes; the same bytes written as
// text do not.
func TestGuardOwn(t *testing.T) {
	var b bytes.Buffer
	g := NewGuard(&b, NewTheme(false))
	g.Write([]byte("frame\n\xe2"))
	WriteOwn(g, "\x1b[1A\r\x1b[J")
	g.Write([]byte("\x1b[1A"))
	g.Flush()
	if want := "frame\n\ufffd\x1b[1A\r\x1b[J" + `\x1b[1A`; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// Through a redactor in front of the guard (--redact) too.
func TestGuardOwnThroughRedactLines(t *testing.T) {
	var b bytes.Buffer
	rl := NewRedactLines(NewGuard(&b, NewTheme(false)), bytes.ToUpper)
	rl.Write([]byte("frame\nhalf"))
	WriteOwn(rl, "\x1b[2A")
	if want := "FRAME\nHALF\x1b[2A"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// JSON output, already escaped, passes byte for byte.
func TestGuardPassesJSON(t *testing.T) {
	var doc bytes.Buffer
	JSON(&doc, map[string]string{"t": "\x1b]0;x\x07 \u202e \u009b \xff"}, Options{TTY: true})
	var b bytes.Buffer
	g := NewGuard(&b, NewTheme(true))
	g.Write(doc.Bytes())
	g.Flush()
	if b.String() != doc.String() {
		t.Errorf("%q became %q", doc.String(), b.String())
	}
}

// JSON text (raw lines, show --json) gets JSON's escapes, never the
// text escapes that would make it invalid; a character split across
// writes is held until whole.
func TestJSONGuard(t *testing.T) {
	// Escapes JSON has, cut anywhere, are kept; one it lacks (\w, \U
	// after an escaped backslash is text) becomes \\.
	in := []byte("{\"a\":\"x\u009by\u007fz é \u202e C:\\\\Users\\\\\\\"q\\\" \\u001b[1m \\w\"}\n")
	want := `{"a":"x\u009by\u007fz é \u202e C:\\Users\\\"q\" \u001b[1m \\w"}` + "\n"
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		g := NewJSONGuard(&b)
		g.Write(in[:cut])
		g.Write(in[cut:])
		g.Flush()
		if b.String() != want {
			t.Fatalf("cut at %d: %s", cut, b.String())
		}
	}
}

func BenchmarkGuard(b *testing.B) {
	line := []byte("  12:03  assistant  Let me look at the failing test — it reads “café” from the fixture.\n")
	page := bytes.Repeat(line, 4096/len(line)*16)
	g := NewGuard(discard{}, NewTheme(true))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		g.Write(page)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// FuzzGuard writes arbitrary bytes through the guard, whole and cut in
// two: the output holds nothing a terminal obeys but the theme's colours,
// is UTF-8, and does not depend on how the writes were cut.
func FuzzGuard(f *testing.F) {
	th := NewTheme(true)
	f.Add([]byte("plain\n"), 3)
	f.Add([]byte(th.Red("x")+"\x1b]0;t\x07\x1b[31m\u009b\u202e\xff\xe2\x9c"), 5)
	f.Add([]byte("\x1b["+th.mark+";31"), 4)
	f.Fuzz(func(t *testing.T, in []byte, cut int) {
		var whole, two bytes.Buffer
		g := NewGuard(&whole, th)
		g.Write(in)
		g.Flush()
		cut = max(0, min(len(in), cut))
		g = NewGuard(&two, th)
		g.Write(in[:cut])
		g.Write(in[cut:])
		g.Flush()
		if whole.String() != two.String() {
			t.Fatalf("cut at %d: %q, whole: %q", cut, two.String(), whole.String())
		}
		out := whole.String()
		if !utf8.ValidString(out) {
			t.Fatalf("not UTF-8: %q", out)
		}
		// Only the theme's colours start with ESC, and only without the mark.
		for i := strings.IndexByte(out, 0x1b); i >= 0; i = strings.IndexByte(out, 0x1b) {
			j := strings.IndexByte(out[i:], 'm')
			if j < 0 || strings.Contains(out[i:i+j], th.mark) || !allowedSGR(out[i:i+j+1]) {
				t.Fatalf("a sequence not the theme's in %q", out)
			}
			out = out[i+j+1:]
		}
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || bidiRune(r) {
				t.Fatalf("%U in %q", r, whole.String())
			}
		}
	})
}

// allowedSGR reports an SGR sequence (the fuzzer cannot forge the mark,
// so any that came through is the theme's).
func allowedSGR(s string) bool {
	return len(s) >= 3 && s[1] == '[' && strings.Trim(s[2:len(s)-1], "0123456789;") == ""
}

func bidiRune(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// A table on a terminal, coloured, passes the guard as colour: the resets
// tablewriter adds after a coloured cell are the theme's, never visible
// text, and no line ends in padding.
func TestColouredTablePassesTheGuard(t *testing.T) {
	on := NewTheme(true)
	tbl := NewTable(Options{TTY: true, Theme: on}, "ID", "TOKENS>", "TITLE")
	tbl.Row(on.Cyan("ef958aa1"), "1,234", "a title")
	tbl.Row(on.Cyan("03eb5929"), on.Dim("—"), "another")
	tbl.Footer("total", "1,234", "")
	var b bytes.Buffer
	g := NewGuard(&b, on)
	if err := tbl.Render(g); err != nil {
		t.Fatal(err)
	}
	g.Flush()
	out := b.String()
	if strings.Contains(out, `\x1b`) || !strings.Contains(out, "\x1b[36mef958aa1") {
		t.Errorf("the table's colour did not pass as colour:\n%q", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasSuffix(strings.TrimSuffix(l, "\x1b[0m"), " ") {
			t.Errorf("line ends in padding: %q", l)
		}
	}
	// A raw reset in a cell's text (one a view forgot to escape) is not
	// taken for tablewriter's: the guard still shows it.
	tbl = NewTable(Options{TTY: true, Theme: on}, "ID", "TITLE")
	tbl.Row(on.Cyan("ef958aa1"), "a \x1b[0m title")
	b.Reset()
	g = NewGuard(&b, on)
	if err := tbl.Render(g); err != nil {
		t.Fatal(err)
	}
	g.Flush()
	if !strings.Contains(b.String(), `a \x1b[0m title`) {
		t.Errorf("a raw reset in a cell passed as colour:\n%q", b.String())
	}
}
