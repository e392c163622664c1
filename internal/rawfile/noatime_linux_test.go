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

	"github.com/cctx-dev/cctx/internal/testfs"
)

// atimeAfterRead is the access time of path after a 4 KiB read through
// open, its atime set a day before its mtime first: the case in which a
// relatime mount writes the inode on every read.
func atimeAfterRead(t *testing.T, path string, open func(string) (io.ReadCloser, error)) (before, after time.Time) {
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
	if _, err := f.Read(b[:]); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	f.Close()
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	return before, time.Unix(st.Atim.Unix())
}

// cctx's reads (a cache check's 4 KiB of thousands of files, a count's
// whole file) leave a file's access time as it was, where a plain read
// moves it on this file system (the control: without it the others could
// not fail).
func TestReadsLeaveTheAccessTime(t *testing.T) {
	path := filepath.Join(testfs.AtimeDir(t), "s.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"user"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain := func(p string) (io.ReadCloser, error) { return os.Open(p) }
	if before, after := atimeAfterRead(t, path, plain); after.Equal(before) {
		t.Fatalf("control: a plain read left the atime at %v", before)
	}
	for name, open := range map[string]func(string) (io.ReadCloser, error){
		"Open":    func(p string) (io.ReadCloser, error) { return asReader(Open(p)) },
		"OpenNow": func(p string) (io.ReadCloser, error) { return asReader(OpenNow(p)) },
		"OpenFD": func(p string) (io.ReadCloser, error) {
			fd, err := OpenFD(p, false)
			return os.NewFile(uintptr(fd), p), err
		},
	} {
		if before, after := atimeAfterRead(t, path, open); !after.Equal(before) {
			t.Errorf("%s's read moved the access time from %v to %v", name, before, after)
		}
	}
}

// asReader reads f from its start.
func asReader(f *File, err error) (io.ReadCloser, error) {
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, 0, 1<<20), f}, nil
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
		// setfsuid says nothing when it is refused (a root without
		// CAP_SETUID, as in some containers): ask what it is now.
		if now, _, _ := syscall.RawSyscall(syscall.SYS_SETFSUID, ^uintptr(0), 0, 0); now != 65534 {
			t.Skipf("root cannot take another file system user here (fsuid %d): no file of another user to open", now)
		}
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

// An open that fails without O_NOATIME too (no such file, a directory
// that cannot be searched) fails as os.Open does, and the process goes on
// asking for O_NOATIME.
func TestAFailedOpenKeepsAskingForNoAtime(t *testing.T) {
	t.Cleanup(func() { noAtimeRefused.Store(false) })
	noAtimeRefused.Store(false)
	missing := filepath.Join(t.TempDir(), "gone.jsonl")
	_, err := OpenFD(missing, false)
	_, want := os.Open(missing)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("OpenFD(missing): %v, os.Open: %v", err, want)
	}
	if noAtimeRefused.Load() {
		t.Error("a missing file stopped O_NOATIME for the process")
	}
}
