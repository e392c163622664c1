package render

import (
	"bytes"
	"strings"
	"testing"
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
	in := []byte("{\"a\":\"x\u009by\u007fz é \u202e\"}\n")
	want := `{"a":"x\u009by\u007fz é \u202e"}` + "\n"
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
