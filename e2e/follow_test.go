package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while a process writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// show -f -v says when the followed file is truncated or replaced (it goes
// on from the new file's start either way).
func TestFollowSaysTruncatedAndReplaced(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("ends the process with an interrupt")
	}
	root := t.TempDir()
	const id = "f0110f01-0000-4000-8000-000000000001"
	user := func(uuid, parent, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"` + id + `","timestamp":"2026-01-01T10:00:00Z","cwd":"/w/p","message":{"role":"user","content":"` + text + `"}}`
	}
	path := writeFile(t, root, filepath.Join("-w-p", id+".jsonl"), lines(user("u1", "", "first"), user("u2", "u1", "second")))
	c := exec.Command(bin, "show", "-f", "-v", "--no-pager", "--dir", root, id)
	c.Env = baseEnv(t)
	var out, errOut syncBuffer
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Process.Kill()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("waiting for %s\n--- stdout\n%s\n--- stderr\n%s", what, out.String(), errOut.String())
			}
		}
	}
	wait("the session", func() bool { return strings.Contains(out.String(), "second") })
	time.Sleep(300 * time.Millisecond) // following has started
	os.WriteFile(path, []byte(lines(user("u3", "", "third"))), 0o644)
	wait("the truncation", func() bool { return strings.Contains(errOut.String(), "was truncated") })
	wait("the new line", func() bool { return strings.Contains(out.String(), "third") })
	other := filepath.Join(filepath.Dir(path), "next.tmp")
	os.WriteFile(other, []byte(lines(user("u4", "", "fourth"), user("u5", "u4", "fifth"), user("u6", "u5", "sixth"))), 0o644)
	os.Rename(other, path)
	wait("the replacement", func() bool { return strings.Contains(errOut.String(), "was replaced") })
	wait("the new file", func() bool { return strings.Contains(out.String(), "sixth") })
	c.Process.Signal(os.Interrupt)
	c.Wait()
	for _, l := range strings.Split(strings.TrimSpace(errOut.String()), "\n") {
		if strings.Contains(l, "was ") && (!strings.HasPrefix(l, "cctx: note: ") || !strings.Contains(l, path)) {
			t.Errorf("not a note naming the file: %q", l)
		}
	}
}
