//go:build linux

// Package testfs gives tests a directory on a file system with the
// behaviour they check. It is for tests only.
package testfs

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// AtimeDir is an empty directory, removed after the test, on a file system
// that updates access times on reads (relatime or strictatime): the test's
// temporary directory, else one in /dev/shm (a tmpfs, mounted relatime
// almost everywhere). A test of what leaves access times alone could not
// fail on a noatime mount: where neither updates them, it is skipped,
// saying why.
func AtimeDir(t testing.TB) string {
	t.Helper()
	var tried []string
	for _, base := range []string{"", "/dev/shm"} {
		dir, err := os.MkdirTemp(base, "cctx-atime-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if updatesAtime(dir) {
			return dir
		}
		tried = append(tried, filepath.Dir(dir))
	}
	t.Skipf("no file system here updates access times on reads (tried %v, mounted noatime?): nothing to check", tried)
	return ""
}

// updatesAtime reports whether a read of a file in dir, whose atime lies
// before its mtime, moves the atime.
func updatesAtime(dir string) bool {
	p := filepath.Join(dir, "probe")
	if os.WriteFile(p, []byte("x"), 0o644) != nil {
		return false
	}
	defer os.Remove(p)
	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	if os.Chtimes(p, mtime.Add(-24*time.Hour), mtime) != nil {
		return false
	}
	if _, err := os.ReadFile(p); err != nil {
		return false
	}
	var st syscall.Stat_t
	if syscall.Stat(p, &st) != nil {
		return false
	}
	return time.Unix(st.Atim.Unix()).After(mtime)
}
