package reader

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// openRead opens what os.Open opens and fails as it fails, with the same
// error (a *os.PathError of op "open").
func TestOpenReadIsOsOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(file, []byte("{\"type\":\"user\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		content    string // read from it ("" when it cannot be opened or read)
	}{
		{"a file", file, "{\"type\":\"user\"}\n"},
		{"a link to one", link, "{\"type\":\"user\"}\n"},
		{"missing", filepath.Join(dir, "none.jsonl"), ""},
		{"under a file", filepath.Join(file, "x"), ""},
		{"a folder", dir, ""},
		{"empty path", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, gerr := openRead(c.path)
			want, werr := os.Open(c.path)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("openRead: %v, os.Open: %v", gerr, werr)
			}
			if gerr != nil {
				var pe *os.PathError
				if !errors.As(gerr, &pe) || pe.Op != "open" || !errors.Is(gerr, errors.Unwrap(werr)) {
					t.Errorf("error %#v is not os.Open's %#v", gerr, werr)
				}
				return
			}
			defer got.Close()
			defer want.Close()
			if got.Name() != want.Name() {
				t.Errorf("name %q, os.Open's %q", got.Name(), want.Name())
			}
			gb, _ := io.ReadAll(got)
			if string(gb) != c.content {
				t.Errorf("read %q, want %q", gb, c.content)
			}
		})
	}
}
