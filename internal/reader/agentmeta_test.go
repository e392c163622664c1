package reader

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A sidecar is read as a transcript is: a UTF-8 BOM (an editor's, or
// PowerShell's) is read past, UTF-16 is said as such, and anything that
// is not a JSON object is an error.
func TestReadAgentMeta(t *testing.T) {
	const obj = `{"agentType":"Explore","description":"find it"}`
	for _, tc := range []struct {
		name, content string
		want          string // agentType; "" with an error
		utf16         bool
	}{
		{"plain", obj, "Explore", false},
		{"a UTF-8 BOM", "\xEF\xBB\xBF" + obj + "\r\n", "Explore", false},
		{"UTF-16", "\xFF\xFE{\x00}\x00", "", true},
		{"UTF-16 LE without a BOM", "{\x00\"\x00a\x00\"\x00:\x001\x00}\x00", "", true},
		{"UTF-16 BE without a BOM", "\x00{\x00\"\x00a\x00\"\x00:\x001\x00}", "", true},
		{"not an object", `["Explore"]`, "", false},
	} {
		p := filepath.Join(t.TempDir(), "agent-a.meta.json")
		if err := os.WriteFile(p, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadAgentMeta(p)
		if m.AgentType != tc.want || (err != nil) != (tc.want == "") || errors.Is(err, ErrUTF16) != tc.utf16 {
			t.Errorf("%s: %+v, %v", tc.name, m, err)
		}
	}
}
