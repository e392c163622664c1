package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestStdoutFlush: Flush writes what every writer of stdout holds, the
// redactor's last line (no newline yet) before the guard's cut character,
// so a line that ends in the middle of a character is written whole,
// redacted, and escaped as the guard escapes it: exactly what one
// guard (after one redactor) writes of the same bytes.
func TestStdoutFlush(t *testing.T) {
	red := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("bob"), []byte("[USER]")) }
	cut := "line\n/home/bob/x é"[:len("line\n/home/bob/x é")-1] // ends in the first byte of é
	theme := NewTheme(false)
	for _, tc := range []struct {
		name   string
		json   bool
		redact func([]byte) []byte
	}{
		{"text", false, nil},
		{"text redacted", false, red},
		{"json", true, nil},
		{"json redacted", true, red},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want bytes.Buffer
			so := NewStdout(&got, theme, tc.redact)
			w := so.Text()
			if tc.json {
				w = so.JSON()
			}
			w.Write([]byte(cut))
			so.Flush()

			g := NewGuard(&want, theme)
			if tc.json {
				g = NewJSONGuard(&want)
			}
			data := []byte(cut)
			if tc.redact != nil {
				data = tc.redact(data)
			}
			g.Write(data)
			g.Flush()
			if got.String() != want.String() {
				t.Errorf("wrote %q, want %q", got.String(), want.String())
			}
			if tc.redact != nil && strings.Contains(got.String(), "bob") {
				t.Errorf("not redacted: %q", got.String())
			}
		})
	}
	// Text and JSON both used: both flushed.
	var got bytes.Buffer
	so := NewStdout(&got, theme, red)
	so.Text().Write([]byte("a bob"))
	so.JSON().Write([]byte(`"b bob"`))
	so.Flush()
	if s := got.String(); strings.Contains(s, "bob") || !strings.Contains(s, "a [USER]") || !strings.Contains(s, `"b [USER]"`) {
		t.Errorf("text and JSON: wrote %q", s)
	}
}
