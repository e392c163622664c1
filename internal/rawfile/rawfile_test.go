package rawfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cctx-dev/cctx/internal/testfs"
)

// File reads as os.File does: the same bytes, the same end-of-file
// errors, the same status.
func TestFileAsOSFile(t *testing.T) {
	for _, open := range []struct {
		name string
		open func(string) (*File, error)
	}{{"Open", Open}, {"OpenNow", OpenNow}} {
		t.Run(open.name, func(t *testing.T) { testFileAsOSFile(t, open.open) })
	}
}

func testFileAsOSFile(t *testing.T, open func(string) (*File, error)) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef\n"), 1000) // 17,000 bytes
	path := filepath.Join(dir, "f.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	o, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	for _, c := range []struct {
		name    string
		n       int
		off     int64
		wantErr error
	}{
		{"head", 4096, 0, nil},
		{"middle", 100, 5000, nil},
		{"up to the end", 1000, int64(len(data)) - 1000, nil},
		{"past the end", 1000, int64(len(data)) - 10, io.EOF},
		{"at the end", 10, int64(len(data)), io.EOF},
		{"far past the end", 10, 1 << 30, io.EOF},
		{"empty", 0, 3, nil},
		{"16 KiB", 16 << 10, 100, nil},
		{"longer than 16 KiB", 16<<10 + 1, 0, nil},
		{"the whole file and past it", 20000, 0, io.EOF},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, want := make([]byte, c.n), make([]byte, c.n)
			n, err := f.ReadAt(got, c.off)
			wn, werr := o.ReadAt(want, c.off)
			if n != wn || !errors.Is(err, c.wantErr) || !errors.Is(werr, c.wantErr) || !bytes.Equal(got[:n], want[:wn]) {
				t.Errorf("ReadAt(%d, %d) = %d, %v; os.File: %d, %v", c.n, c.off, n, err, wn, werr)
			}
		})
	}
	if _, err := f.ReadAt(make([]byte, 1), -1); err == nil {
		t.Error("ReadAt at a negative offset: no error")
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	ost, _ := o.Stat()
	if st.Size != ost.Size() || st.ModTime != ost.ModTime().UnixNano() || !st.Regular {
		t.Errorf("Stat = %+v; os: size %d, time %d", st, ost.Size(), ost.ModTime().UnixNano())
	}
	// A listing's os.Stat of the path gives what Stat of the open file
	// gives, inode included (a check of a cached entry takes one for the
	// other).
	pst, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := InfoOf(pst); got != st {
		t.Errorf("InfoOf(os.Stat) = %+v; Stat of the open file = %+v", got, st)
	}
	if got, err := Stat(path); err != nil || got != st {
		t.Errorf("Stat(path) = %+v, %v; Stat of the open file = %+v", got, err, st)
	}
	if dst, _ := os.Stat(dir); InfoOf(dst).Regular {
		t.Error("InfoOf of a directory: regular")
	}
	if b, err := ReadFile(path); err != nil || !bytes.Equal(b, data) {
		t.Errorf("ReadFile: %d bytes, %v; want %d", len(b), err, len(data))
	}
}

// The errors are os.Open's and os.ReadFile's: callers test them with
// errors.Is and say them to people.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jsonl")
	_, serr := os.Stat(missing)
	if _, err := Stat(missing); !errors.Is(err, fs.ErrNotExist) || err.Error() != serr.Error() {
		t.Errorf("Stat(missing) = %v; os.Stat: %v", err, serr)
	}
	if st, err := Stat(dir); err != nil || st.Regular {
		t.Errorf("Stat of a directory = %+v, %v: want not regular", st, err)
	}
	link := filepath.Join(dir, "loop.jsonl")
	if err := os.Symlink(link, link); err == nil {
		_, lerr := os.Stat(link)
		if _, err := Stat(link); err == nil || err.Error() != lerr.Error() {
			t.Errorf("Stat of a symlink loop = %v; os.Stat: %v", err, lerr)
		}
	}
	_, oerr := os.Open(missing)
	for name, open := range map[string]func(string) (*File, error){"Open": Open, "OpenNow": OpenNow} {
		if _, err := open(missing); !errors.Is(err, fs.ErrNotExist) || err.Error() != oerr.Error() {
			t.Errorf("%s(missing) = %v; os.Open: %v", name, err, oerr)
		}
	}
	if _, err := ReadFile(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v", err)
	}
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := d.Stat(); err != nil || st.Regular {
		t.Errorf("Stat of a directory = %+v, %v: want not regular", st, err)
	}
	if _, err := d.ReadAt(make([]byte, 4), 0); err == nil {
		t.Error("ReadAt of a directory: no error")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err == nil {
		t.Error("second Close: no error")
	}
}

// ReadDir lists what os.ReadDir lists, in its order, with its types and
// errors.
func TestReadDirAsOS(t *testing.T) {
	dir := t.TempDir()
	for i := range 600 { // more than one read of entries
		name := fmt.Sprintf("%08x-0000-4000-8000-%012d.jsonl", i, i)
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"sub", "a b", "é"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	got, err := ReadDir(dir)
	want, werr := os.ReadDir(dir)
	if err != nil || werr != nil || len(got) != len(want) {
		t.Fatalf("ReadDir: %d entries, %v; os.ReadDir: %d, %v", len(got), err, len(want), werr)
	}
	for i := range got {
		if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
			t.Errorf("entry %d: %q %v; os.ReadDir: %q %v", i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
		}
	}
	for _, p := range []string{filepath.Join(dir, "missing"), filepath.Join(dir, "link", "x"), filepath.Join(dir, fmt.Sprintf("%08x-0000-4000-8000-%012d.jsonl", 1, 1))} {
		_, err := ReadDir(p)
		_, werr := os.ReadDir(p)
		if err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("ReadDir(%s): %v; os.ReadDir: %v", p, err, werr)
		}
	}
}

// A Dir opens the files its listing found by name, with the errors
// os.Open gives for their paths.
func TestDirOpensItsEntries(t *testing.T) {
	dir := t.TempDir()
	d := openDirWithA(t, dir)
	defer d.Close()
	ents, err := d.ReadDir()
	if err != nil || len(ents) != 1 || ents[0].Name() != "a.jsonl" {
		t.Fatalf("ReadDir: %v, %v", ents, err)
	}
	f, err := d.OpenNow("a.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 3)
	if n, err := f.ReadAt(b, 0); n != 3 || err != nil || string(b) != "{}\n" {
		t.Errorf("ReadAt: %q %d %v", b, n, err)
	}
	f.Close()
	_, err = d.OpenNow("missing.jsonl")
	_, werr := os.Open(filepath.Join(dir, "missing.jsonl"))
	if err == nil || werr == nil || err.Error() != werr.Error() {
		t.Errorf("OpenNow(missing): %v; os.Open: %v", err, werr)
	}
	if _, err := OpenDir(filepath.Join(dir, "a.jsonl")); err == nil {
		t.Error("OpenDir of a file: no error")
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := d.Close(); err == nil {
		t.Error("a second Close: no error")
	}
}

// Dir.Join is filepath.Join of the directory and an entry's name, however
// the directory was written.
func TestDirJoinIsFilepathJoin(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	if err := os.MkdirAll(filepath.Join(base, "x", "proj"), 0o700); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.Separator)
	for _, dir := range []string{base, base + sep, base + sep + ".", base + sep + "x" + sep + ".." + sep + "x" + sep + "proj", ".", "." + sep, "x" + sep + sep + "proj", sep} {
		d, err := OpenDir(dir)
		if err != nil {
			t.Fatalf("OpenDir(%q): %v", dir, err)
		}
		for _, name := range []string{"a.jsonl", "...", "é"} {
			if got, want := d.Join(name), filepath.Join(dir, name); got != want {
				t.Errorf("Join(%q, %q) = %q, want %q", dir, name, got, want)
			}
		}
		d.Close()
	}
}

// A Dir opens its entries from the folder it opened, not by path again: a
// folder renamed since still gives the file its listing found.
func TestDirOpensFromTheOpenFolder(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "before")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	d := openDirWithA(t, dir)
	defer d.Close()
	if err := os.Rename(dir, filepath.Join(base, "after")); err != nil {
		t.Fatal(err)
	}
	f, err := d.OpenNow("a.jsonl")
	if runtime.GOOS != "linux" {
		if err == nil { // elsewhere a Dir opens by path
			f.Close()
		}
		return
	}
	if err != nil {
		t.Fatalf("OpenNow after the folder's rename: %v", err)
	}
	f.Close()
}

// openDirWithA writes a.jsonl ("{}\n") into dir and opens dir.
func openDirWithA(t *testing.T, dir string) *Dir {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// MayBeUnreadable reads the mode bits as the system will: a file its
// owner may read is readable, one it may not is looked at (opened) by its
// caller; Stat, an open file's Stat and InfoOf agree; and a file it calls
// readable opens. Run as nobody when the tests run as root (root reads
// every file).
func TestMayBeUnreadable(t *testing.T) {
	if testfs.RunUnprivileged(t) {
		return
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		mode  os.FileMode
		maybe bool
	}{
		{0o644, false}, {0o600, false}, {0o400, false}, {0o444, false},
		{0o000, true}, {0o200, true}, {0o044, true}, {0o004, true},
	} {
		p := filepath.Join(dir, fmt.Sprintf("f%o", tt.mode))
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, tt.mode)
		st, err := Stat(p)
		fi, _ := os.Stat(p)
		if err != nil || st.MayBeUnreadable() != tt.maybe || InfoOf(fi).MayBeUnreadable() != tt.maybe {
			t.Errorf("%o: MayBeUnreadable %v (os.Stat's %v), want %v (%v)", tt.mode, st.MayBeUnreadable(), InfoOf(fi).MayBeUnreadable(), tt.maybe, err)
		}
		f, err := Open(p)
		if err == nil {
			if fst, _ := f.Stat(); fst.MayBeUnreadable() != tt.maybe {
				t.Errorf("%o: the open file's Stat says %v", tt.mode, fst.MayBeUnreadable())
			}
			f.Close()
		} else if !tt.maybe {
			t.Errorf("%o: said readable, and the open fails: %v", tt.mode, err)
		}
	}
}

// Another user's file is readable when anyone may read it and the group
// may too: a process in the file's group gets the group's right, not
// anyone's, so where they differ only opening it tells.
func TestMayBeUnreadableOfAnotherUser(t *testing.T) {
	saved := euid
	euid = 1000
	defer func() { euid = saved }()
	for _, tt := range []struct {
		perm  uint32
		maybe bool
	}{
		{0o644, false}, {0o444, false}, {0o604, true}, {0o640, true}, {0o600, true}, {0o000, true},
	} {
		i := Info{permKnown: true, owner: 1001, perm: tt.perm}
		if got := i.MayBeUnreadable(); got != tt.maybe {
			t.Errorf("%o of another user: MayBeUnreadable %v, want %v", tt.perm, got, tt.maybe)
		}
	}
	if (Info{permKnown: true, owner: 1000, perm: 0o604}).MayBeUnreadable() {
		t.Error("0604 of its owner: the owner may read it")
	}
}
