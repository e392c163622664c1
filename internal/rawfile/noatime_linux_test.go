package rawfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// atimeAfterRead is the access time of path after a 4 KiB read through
// open, its atime set a day before its mtime first: the case in which a
// relatime mount writes the inode on every read.
func atimeAfterRead(t *testing.T, path string, open func(string) (*File, error)) (before, after time.Time) {
	t.Helper()
	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	before = mtime.Add(-24 * time.Hour)
	if err := os.Chtimes(path, before, mtime); err != nil {
		t.Fatal(err)
	}
	f, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	var b [4096]byte
	if _, err := f.ReadAt(b[:], 0); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	f.Close()
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return before, time.Unix(st.Atim.Unix())
}

// The cache checks of thousands of files read each file's first and last
// 4 KiB: OpenNow's reads leave its access time as it was, where Open's
// (as any reader's) move it on this file system (the control: without it
// the first half could not fail).
func TestOpenNowLeavesTheAccessTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"user"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if before, after := atimeAfterRead(t, path, Open); after.Equal(before) {
		t.Fatalf("control: a plain read left the atime at %v: this file system does not update access times (mount it relatime or strictatime to run this test)", before)
	}
	if before, after := atimeAfterRead(t, path, OpenNow); !after.Equal(before) {
		t.Errorf("OpenNow's read moved the access time from %v to %v", before, after)
	}
}

// Only a file's owner (or a process with CAP_FOWNER) may open it with
// O_NOATIME: another user's file is opened all the same, and OpenNow
// stops asking.
func TestOpenNowOpensAnotherUsersFile(t *testing.T) {
	const other = "/etc/passwd" // root's, readable by all
	var st syscall.Stat_t
	if err := syscall.Stat(other, &st); err != nil {
		t.Fatalf("%s: %v (the test needs a file of root's that all may read)", other, err)
	}
	t.Cleanup(func() { noAtimeRefused.Store(false) })
	noAtimeRefused.Store(false)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if os.Geteuid() == 0 {
		// As root (CAP_FOWNER) every file is its own: the file system
		// user of this thread becomes nobody for the open.
		syscall.Setfsuid(65534)
		defer syscall.Setfsuid(0)
	} else if int(st.Uid) == os.Geteuid() {
		t.Fatalf("%s is this user's own", other)
	}
	f, err := OpenNow(other)
	if err != nil {
		t.Fatalf("OpenNow(%s) as another user: %v", other, err)
	}
	f.Close()
	if !noAtimeRefused.Load() {
		t.Error("a refused O_NOATIME was not remembered")
	}
}
