package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// A transcript saved as UTF-16, with a BOM or without one (its first
// line starts `{"` in UTF-16), is said once as such by every command,
// never skipped line by line as a crash's NUL bytes; ls, left with no
// session by it, says why, and --strict fails.
func TestUTF16TranscriptInEveryCommand(t *testing.T) {
	const id = "11111111-1111-4111-8111-111111111111"
	line := `{"type":"user","uuid":"u1","sessionId":"` + id + `","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"
	encode := func(bom string, big bool) []byte {
		b := []byte(bom)
		for _, c := range []byte(line + line) {
			if big {
				b = append(b, 0, c)
			} else {
				b = append(b, c, 0)
			}
		}
		return b
	}
	for _, enc := range []struct {
		name string
		data []byte
	}{
		{"LE with a BOM", encode("\xFF\xFE", false)},
		{"BE with a BOM", encode("\xFE\xFF", true)},
		{"LE without a BOM", encode("", false)},
		{"BE without a BOM", encode("", true)},
	} {
		t.Run(enc.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, "-p"), 0o755)
			os.WriteFile(filepath.Join(root, "-p", id+".jsonl"), enc.data, 0o644)
			for _, tt := range []struct {
				args   []string
				code   int
				stderr string
			}{
				{[]string{"ls"}, 0, "no sessions found in " + root + " (1 session file(s) skipped as UTF-16, said above)"},
				{[]string{"ls", "--strict"}, 1, "skipped as UTF-16"},
				{[]string{"grep", "hello"}, 1, "the file is UTF-16"},
				{[]string{"show", "1111"}, 1, "the file is UTF-16"},
				{[]string{"tokens"}, 0, "the file is UTF-16"},
			} {
				r := run(t, false, nil, append(tt.args, "--dir", root)...)
				if r.code != tt.code || !strings.Contains(r.errOut, tt.stderr) || strings.Count(r.errOut, "the file is UTF-16") != 1 || strings.Contains(r.errOut, "NUL") {
					t.Errorf("%s: exit %d, stderr %q", strings.Join(tt.args, " "), r.code, r.errOut)
				}
			}
			io, in, _, errOut := TestIO()
			in.Write(enc.data)
			if code := Run([]string{"show", "-"}, io, session.Env{Getenv: func(string) string { return "" }}, time.Now); code != 1 || strings.Count(errOut.String(), "the file is UTF-16") != 1 || strings.Contains(errOut.String(), "NUL") {
				t.Errorf("show -: exit %d, stderr %q", code, errOut)
			}
		})
	}
}
