package sigpipe

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// SIGPIPE is held only for a writer whose reader can go away: a pipe (or
// a socket), not a file, a buffer or a terminal's device.
func TestCatchForHoldsOnlyForAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if c := CatchFor(w); c == nil {
		t.Error("a pipe: nothing held")
	} else if c.Stop() {
		t.Error("a SIGPIPE said to have come, none did")
	}
	for name, out := range map[string]io.Writer{"a file": file, "a device": null, "a buffer": &bytes.Buffer{}} {
		if c := CatchFor(out); c != nil {
			c.Stop()
			t.Errorf("%s: SIGPIPE held", name)
		}
	}
	var none *Catcher
	if none.Stop() {
		t.Error("a nil Catcher caught something")
	}
}
