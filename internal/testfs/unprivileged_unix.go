//go:build unix

package testfs

import (
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// RunUnprivileged runs the calling test again, in a child process, as the
// user nobody, when the tests run as root (as CI does): permission bits do
// not stop root, so an unreadable file can only be tested without it. It
// reports whether it did (the caller then returns); the child's failure
// is this test's failure. It never skips: a test of unreadable files that
// does not run would hide the case.
func RunUnprivileged(t *testing.T) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	if os.Getenv("CCTX_TEST_UNPRIVILEGED") != "" {
		t.Fatal("still root after dropping privileges")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Fatalf("running as root and no user nobody to drop to: %v", err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	// The test binary sits in go's private build directory: copy it where
	// nobody may run it.
	dir, err := os.MkdirTemp("", "cctx-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, filepath.Base(os.Args[0]))
	copyFile(t, os.Args[0], bin)
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CCTX_TEST_UNPRIVILEGED=1", "HOME="+dir, "TMPDIR="+os.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%s as nobody: %v\n%s", t.Name(), err, out)
	}
	return true
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
