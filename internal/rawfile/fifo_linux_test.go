package rawfile

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A cache check opens a file that a listing found regular; if a FIFO has
// taken its place since, OpenNow returns at once (Open would wait for a
// writer), and its status says it is not regular.
func TestOpenNowDoesNotWaitForAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := OpenNow(path)
		if err == nil {
			var st Info
			if st, err = f.Stat(); err == nil && st.Regular {
				t.Error("a FIFO's status: regular")
			}
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("OpenNow of a FIFO waited for a writer")
	}
}
