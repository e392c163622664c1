package cache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// line is one transcript-like line of n bytes, newline included.
func line(c byte, n int) []byte { return append(bytes.Repeat([]byte{c}, n-1), '\n') }

// stampedFile is a new transcript-like file of body, stamped whole.
func stampedFile(t *testing.T, body []byte) (string, *Entry) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	must(t, os.WriteFile(p, body, 0o600))
	e, ok := Stamp(p, int64(len(body)), 2, []byte("data"))
	if !ok {
		t.Fatal("Stamp: not cached")
	}
	return p, e
}

func TestCheck(t *testing.T) {
	base := append(line('a', 5000), line('b', 6000)...)
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		want   State
	}{
		{"unchanged", func(*testing.T, string) {}, Same},
		{"appended", func(t *testing.T, p string) { appendTo(t, p, line('c', 100)) }, Grown},
		{"appended a part line", func(t *testing.T, p string) { appendTo(t, p, []byte("{\"x\"")) }, Grown},
		{"truncated", func(t *testing.T, p string) { must(t, os.Truncate(p, 5000)) }, Miss},
		{"touched only", func(t *testing.T, p string) { touch(t, p, time.Hour) }, Miss},
		{"first 4 KiB rewritten", func(t *testing.T, p string) { rewriteAt(t, p, 10, "zz") }, Miss},
		{"last 4 KiB rewritten", func(t *testing.T, p string) { rewriteAt(t, p, int64(len(base))-10, "zz") }, Miss},
		{"last 4 KiB rewritten and grown", func(t *testing.T, p string) {
			rewriteAt(t, p, int64(len(base))-10, "zz")
			appendTo(t, p, line('c', 100))
		}, Miss},
		{"replaced by a copy", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			st, _ := os.Stat(p)
			// A second link holds the old inode, so that the copy gets
			// another (a file made after the old one was freed could be
			// given its number again: the test failed 1 run in 40).
			must(t, os.Link(p, p+".keep"))
			must(t, os.Remove(p))
			must(t, os.WriteFile(p, b, 0o600))
			must(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
		}, Miss},
		{"deleted", func(t *testing.T, p string) { must(t, os.Remove(p)) }, Miss},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, e := stampedFile(t, base)
			tt.change(t, p)
			if got := Check(p, e); got != tt.want {
				t.Errorf("Check = %d, want %d", got, tt.want)
			}
			// A listing's status taken now says what an fstat says (a
			// file the listing did not find has none: not regular).
			listed, _ := rawfile.Stat(p)
			if got := CheckListed(p, e, listed); got != tt.want {
				t.Errorf("CheckListed = %d, want %d", got, tt.want)
			}
		})
	}
}

// CheckListed takes the status a listing found: a file that changed
// after it was listed is checked against that status, and its hashes
// are read from it as it is now.
func TestCheckListedAfterTheListing(t *testing.T) {
	base := append(line('a', 5000), line('b', 6000)...)
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
		want   State
	}{
		{"unchanged", func(*testing.T, string) {}, Same},
		{"appended after the listing: the file as listed", func(t *testing.T, p string) { appendTo(t, p, line('c', 100)) }, Same},
		{"first 4 KiB rewritten after the listing", func(t *testing.T, p string) { rewriteAt(t, p, 10, "zz") }, Miss},
		{"last 4 KiB rewritten after the listing", func(t *testing.T, p string) { rewriteAt(t, p, int64(len(base))-10, "zz") }, Miss},
		{"truncated after the listing", func(t *testing.T, p string) { must(t, os.Truncate(p, 5000)) }, Miss},
		{"deleted after the listing", func(t *testing.T, p string) { must(t, os.Remove(p)) }, Miss},
		{"a FIFO in its place after the listing", func(t *testing.T, p string) {
			if runtime.GOOS != "linux" {
				t.Skip("only Linux opens a FIFO without waiting for its writer (rawfile.OpenNow)")
			}
			must(t, os.Remove(p))
			must(t, mkfifo(p))
		}, Miss},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, e := stampedFile(t, base)
			listed, err := rawfile.Stat(p)
			must(t, err)
			tt.change(t, p)
			if got := CheckListed(p, e, listed); got != tt.want {
				t.Errorf("CheckListed = %d, want %d", got, tt.want)
			}
		})
	}
	t.Run("listed as not regular", func(t *testing.T) {
		p, e := stampedFile(t, base)
		listed, _ := rawfile.Stat(p)
		listed.Regular = false
		if got := CheckListed(p, e, listed); got != Miss {
			t.Errorf("CheckListed = %d, want Miss", got)
		}
	})
}

// StampOS stamps the file that was read, open, not whatever has its path
// by then: a transcript replaced by another of the same size while it was
// counted must not be described by the old one's summary.
func TestStampOSStampsTheFileRead(t *testing.T) {
	base := append(line('a', 5000), line('b', 6000)...)
	p := filepath.Join(t.TempDir(), "s.jsonl")
	must(t, os.WriteFile(p, base, 0o600))
	read, err := os.Open(p) // as the count read it
	must(t, err)
	defer read.Close()
	// Replaced (renamed over) by a file of the same size, other bytes.
	other := append(line('c', 5000), line('d', 6000)...)
	must(t, os.WriteFile(p+".new", other, 0o600))
	must(t, os.Rename(p+".new", p))

	e, ok := StampOS(read, p, int64(len(base)), 2, []byte("summary of the old file"))
	if !ok {
		t.Fatal("StampOS: not cached")
	}
	if got := Check(p, e); got != Miss {
		t.Errorf("the entry of the file read, checked against the one now at its path: %d, want Miss", got)
	}
	if byPath, ok := Stamp(p, int64(len(base)), 2, nil); !ok || Check(p, byPath) != Same {
		t.Error("Stamp by path: the new file is not the one stamped (the test no longer shows the race)")
	}
	if _, ok := StampOS(nil, p, int64(len(base)), 2, nil); ok {
		t.Error("StampOS of no file cached it")
	}
}

func TestStampRefuses(t *testing.T) {
	tests := []struct {
		name   string
		body   []byte
		offset int64
	}{
		{"a line not yet whole", []byte("{}\n{\"a\""), 3},
		{"compressed", append([]byte{0x28, 0xb5, 0x2f, 0xfd}, line('x', 10)...), 14},
		{"changed while read", []byte("{}\n{}\n"), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "s.jsonl")
			must(t, os.WriteFile(p, tt.body, 0o600))
			if _, ok := Stamp(p, tt.offset, 1, nil); ok {
				t.Error("Stamp cached it")
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	e := &Entry{Path: "/p/s.jsonl", Size: 10, ModTime: 5, Inode: 7, Offset: 10, Lines: 2, Head: 1, Tail: 2, Data: []byte("xyz")}
	good := encode("/p", map[string]*Entry{e.Path: e})
	got, err := decode(good, "/p")
	if err != nil || got[e.Path] == nil || string(got[e.Path].Data) != "xyz" || got[e.Path].Inode != 7 {
		t.Fatalf("decode(Encode) = %v, %v", got, err)
	}
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 1; return b }
	otherVersion := bytes.Clone(good)
	otherVersion[8] = Version + 1
	tests := []struct {
		name, key string
		b         []byte
		want      string
	}{
		{"empty", "/p", nil, "not a cctx cache file"},
		{"foreign", "/p", []byte("SQLite format 3\x00\x00\x00\x00"), "not a cctx cache file"},
		{"other version", "/p", otherVersion, "version"},
		{"truncated", "/p", good[:len(good)-1], "truncated"},
		{"truncated in its first part", "/p", good[:headerLen+3], "truncated"},
		{"a bit flipped in its first part", "/p", flip(headerLen + 2), "checksum"},
		{"a bit flipped in its second part", "/p", flip(len(good) - 2), "checksum"},
		{"another folder", "/q", good, "another folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decode(tt.b, tt.key); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Decode err = %v, want %q", err, tt.want)
			}
		})
	}
}

// A cache that cannot be read or written costs only speed: Lookup
// misses, Flush says why under -v.
func TestStoreUnusable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	must(t, os.WriteFile(blocker, []byte("x"), 0o600))
	var notes []string
	s := Open(filepath.Join(blocker, "cache"), func(f string, a ...any) { notes = append(notes, f) })
	p := filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	if _, st := s.Lookup(dir, p); st != Miss {
		t.Errorf("Lookup = %d, want Miss", st)
	}
	e, _ := Stamp(p, 3, 1, nil)
	s.Put(dir, e)
	s.Flush()
	if len(notes) == 0 {
		t.Error("no note for a cache that cannot be written")
	}
}

func TestStoreRoundTrip(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	s := Open(cdir, nil)
	e, _ := Stamp(p, 3, 1, []byte("d"))
	s.Put(dir, e)
	s.Flush()
	s2 := Open(cdir, func(f string, a ...any) { t.Errorf(f, a...) })
	got, st := s2.Lookup(dir, p)
	if st != Same || string(got.Data) != "d" {
		t.Errorf("Lookup = %v, %d", got, st)
	}
	// The entry of a deleted file is dropped at the next write.
	must(t, os.Remove(p))
	q := filepath.Join(dir, "t.jsonl")
	must(t, os.WriteFile(q, []byte("{}\n"), 0o600))
	s3 := Open(cdir, nil)
	e, _ = Stamp(q, 3, 1, nil)
	s3.Put(dir, e)
	s3.Flush()
	entries, _, err := ReadFolder(cdir, dir)
	if err != nil || len(entries) != 1 || entries[q] == nil {
		t.Errorf("after a deletion: %v, %v", entries, err)
	}
}

func appendTo(t *testing.T, p string, b []byte) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.Write(b)
	must(t, err)
	must(t, f.Close())
}

func rewriteAt(t *testing.T, p string, off int64, s string) {
	st, _ := os.Stat(p)
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteAt([]byte(s), off)
	must(t, err)
	must(t, f.Close())
	must(t, os.Chtimes(p, st.ModTime(), st.ModTime())) // only the bytes tell
}

func touch(t *testing.T, p string, d time.Duration) {
	st, _ := os.Stat(p)
	must(t, os.Chtimes(p, st.ModTime().Add(d), st.ModTime().Add(d)))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// A folder's blob is written with its entries and read back as it was;
// setting the same bytes again writes nothing, and nil drops it.
func TestStoreBlob(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	tests := []struct {
		name    string
		set     []byte
		want    []byte
		written bool
	}{
		{"a blob", []byte("sum"), []byte("sum"), true},
		{"the same again", []byte("sum"), []byte("sum"), false},
		{"another", []byte("other"), []byte("other"), true},
		{"none", nil, nil, true},
		{"none again", nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := indexFile(cdir) // a folder with no entries has no file of its own
			before, _ := os.Stat(file)
			s := Open(cdir, func(f string, a ...any) { t.Errorf(f, a...) })
			s.SetBlob(dir, tt.set)
			s.Flush()
			after, _ := os.Stat(file)
			if written := before == nil || !os.SameFile(before, after); written != tt.written {
				t.Errorf("written = %v, want %v", written, tt.written)
			}
			if got := Open(cdir, nil).Blob(dir); !bytes.Equal(got, tt.want) {
				t.Errorf("Blob = %q, want %q", got, tt.want)
			}
		})
	}
	if _, blob, err := ReadFolder(cdir, dir); err != nil || blob != nil {
		t.Errorf("ReadFolder = %q, %v", blob, err)
	}
	if _, err := os.Stat(FileOf(cdir, dir)); !os.IsNotExist(err) {
		t.Errorf("a folder file for no entries: %v", err)
	}
	var nilStore *Store
	nilStore.SetBlob(dir, []byte("x"))
	if nilStore.Blob(dir) != nil {
		t.Error("a nil store has a blob")
	}
}

// A run checks a file once (what it read stays what it uses); Flush ends
// the run, and the next Lookup of the same store checks the file again.
func TestFlushEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	s := Open(t.TempDir(), nil)
	e, _ := Stamp(p, 3, 1, nil)
	s.Put(dir, e)
	s.Flush()
	steps := []struct {
		name  string
		do    func()
		state State
	}{
		{"unchanged", func() {}, Same},
		{"grown in the run", func() { appendTo(t, p, []byte("{}\n")) }, Same},
		{"after Flush", func() { s.Flush() }, Grown},
	}
	for _, st := range steps {
		st.do()
		if _, got := s.Lookup(dir, p); got != st.state {
			t.Errorf("%s: Lookup = %d, want %d", st.name, got, st.state)
		}
	}
}

// A folder file is read in two parts: LookupBrief reads only the first
// (each entry's stamp and brief), Lookup the rest of every Data too, and
// only from the very file the first part came from.
func TestBriefAndRest(t *testing.T) {
	setup := func(t *testing.T) (dir, cdir, p string) {
		dir, cdir = t.TempDir(), t.TempDir()
		p = filepath.Join(dir, "s.jsonl")
		must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
		s := Open(cdir, nil)
		e, _ := Stamp(p, 3, 1, []byte("brief+rest"))
		e.Brief = len("brief")
		s.Put(dir, e)
		s.Flush()
		return dir, cdir, p
	}
	// corruptRest flips the last byte of the folder file: its second part.
	corruptRest := func(t *testing.T, file string) {
		b, err := os.ReadFile(file)
		must(t, err)
		b[len(b)-1] ^= 1
		must(t, os.WriteFile(file, b, 0o600))
	}
	tests := []struct {
		name     string
		between  func(t *testing.T, dir, cdir, p string) // after LookupBrief, before Lookup
		brief    string
		full     string // "" with Miss
		wantNote string
	}{
		{name: "whole", brief: "brief", full: "brief+rest"},
		{name: "the second part corrupt", between: func(t *testing.T, dir, cdir, p string) { corruptRest(t, FileOf(cdir, dir)) },
			brief: "brief", wantNote: "checksum"},
		{name: "written again by another run", between: func(t *testing.T, dir, cdir, p string) {
			other := Open(cdir, nil)
			e, _ := Stamp(p, 3, 1, []byte("brief+other"))
			e.Brief = len("brief")
			other.Put(dir, e)
			other.Flush()
		}, brief: "brief", wantNote: "written again meanwhile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cdir, p := setup(t)
			var notes []string
			s := Open(cdir, func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) })
			e, st := s.LookupBrief(dir, p, nil)
			if st != Same || string(e.Data) != tt.brief {
				t.Fatalf("LookupBrief = %q, %d; want %q, Same", e.Data, st, tt.brief)
			}
			if tt.between != nil {
				tt.between(t, dir, cdir, p)
			}
			full, st := s.Lookup(dir, p)
			switch {
			case tt.full == "" && (st != Miss || full != nil):
				t.Errorf("Lookup = %v, %d; want Miss", full, st)
			case tt.full != "" && (st != Same || string(full.Data) != tt.full):
				t.Errorf("Lookup = %q, %d; want %q, Same", full.Data, st, tt.full)
			}
			if got := strings.Join(notes, "\n"); !strings.Contains(got, tt.wantNote) || (tt.wantNote == "") != (got == "") {
				t.Errorf("notes %q, want %q", got, tt.wantNote)
			}
		})
	}
	// A write keeps what it did not look up whole: the rests are read
	// before the folder file is written again.
	t.Run("a write after briefs only", func(t *testing.T) {
		dir, cdir, p := setup(t)
		s := Open(cdir, nil)
		s.LookupBrief(dir, p, nil)
		s.SetBlob(dir, []byte("sum"))
		s.Flush()
		if e, st := Open(cdir, nil).Lookup(dir, p); st != Same || string(e.Data) != "brief+rest" {
			t.Errorf("after the write: Lookup = %v, %d; want brief+rest", e, st)
		}
	})
	// Only the first part is read for a brief: a corrupt second part is
	// not seen until the rest is needed.
	t.Run("brief of a file whose second part is corrupt", func(t *testing.T) {
		dir, cdir, p := setup(t)
		corruptRest(t, FileOf(cdir, dir))
		var notes []string
		s := Open(cdir, func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) })
		if e, st := s.LookupBrief(dir, p, nil); st != Same || string(e.Data) != "brief" || len(notes) > 0 {
			t.Errorf("LookupBrief = %q, %d, notes %q", e.Data, st, notes)
		}
		if _, st := s.Lookup(dir, p); st != Miss || len(notes) != 1 || !strings.Contains(notes[0], "checksum") {
			t.Errorf("Lookup = %d, notes %q; want Miss and a checksum note", st, notes)
		}
	})
}

// The index holds part 1 of every folder: a run reads it, and a folder's
// file only for the rests. Missing, corrupt or older than a folder file,
// it costs speed only, and Flush writes it again.
func TestIndex(t *testing.T) {
	type world struct {
		dir, cdir, p string
		index, file  string
	}
	setup := func(t *testing.T) world {
		w := world{dir: t.TempDir(), cdir: t.TempDir()}
		w.p = filepath.Join(w.dir, "s.jsonl")
		w.index, w.file = indexFile(w.cdir), FileOf(w.cdir, w.dir)
		must(t, os.WriteFile(w.p, []byte("{}\n"), 0o600))
		put(t, Open(w.cdir, nil), w.dir, w.p, "brief+rest")
		return w
	}
	tests := []struct {
		name     string
		change   func(t *testing.T, w world)
		brief    string // what LookupBrief finds
		full     string // what Lookup finds ("": Miss)
		wantNote string
	}{
		{name: "whole", brief: "brief", full: "brief+rest"},
		{name: "the folder file gone: briefs from the index",
			change: func(t *testing.T, w world) { must(t, os.Remove(w.file)) },
			brief:  "brief", wantNote: "no such file"},
		{name: "no index: no entries",
			change: func(t *testing.T, w world) { must(t, os.Remove(w.index)) }},
		{name: "a corrupt index: no entries",
			change:   func(t *testing.T, w world) { must(t, os.WriteFile(w.index, []byte("CCTXINDX garbage"), 0o600)) },
			wantNote: "index.bin"},
		{name: "a record older than its folder file",
			change: func(t *testing.T, w world) {
				old, err := os.ReadFile(w.index)
				must(t, err)
				put(t, Open(w.cdir, nil), w.dir, w.p, "brief+newer")
				must(t, os.WriteFile(w.index, old, 0o600)) // another run lost the race to write it
			},
			brief: "brief", wantNote: "written again meanwhile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := setup(t)
			if tt.change != nil {
				tt.change(t, w)
			}
			var notes []string
			s := Open(w.cdir, func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) })
			if e, st := s.LookupBrief(w.dir, w.p, nil); tt.brief == "" && st != Miss || tt.brief != "" && (st != Same || string(e.Data) != tt.brief) {
				t.Errorf("LookupBrief = %q, %d; want %q", e.Data, st, tt.brief)
			}
			e, st := s.Lookup(w.dir, w.p)
			if tt.full == "" && st != Miss || tt.full != "" && (st != Same || string(e.Data) != tt.full) {
				t.Errorf("Lookup = %v, %d; want %q", e, st, tt.full)
			}
			if got := strings.Join(notes, "\n"); !strings.Contains(got, tt.wantNote) || (tt.wantNote == "") != (got == "") {
				t.Errorf("notes %q, want %q", got, tt.wantNote)
			}
			// What missed is put again, as a user does; then the index
			// and the folder file agree again.
			if st != Same {
				put(t, s, w.dir, w.p, "brief+again")
			}
			s.Flush()
			if _, err := os.Stat(w.index); err != nil {
				t.Fatalf("no index after Flush: %v", err)
			}
			again := Open(w.cdir, func(f string, a ...any) { t.Errorf("a note after Flush: "+f, a...) })
			if e, st := again.Lookup(w.dir, w.p); st != Same || !strings.HasPrefix(string(e.Data), "brief+") {
				t.Errorf("after Flush: Lookup = %v, %d", e, st)
			}
		})
	}
}

// The index keeps the records of folders a run did not look up while
// their project folder exists.
func TestIndexKeepsOtherFolders(t *testing.T) {
	cdir, base := t.TempDir(), t.TempDir()
	var dirs, paths []string
	for _, name := range []string{"kept", "gone", "looked"} {
		d := filepath.Join(base, name)
		must(t, os.MkdirAll(d, 0o700))
		p := filepath.Join(d, "s.jsonl")
		must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
		put(t, Open(cdir, nil), d, p, "brief+rest")
		dirs, paths = append(dirs, d), append(paths, p)
	}
	must(t, os.RemoveAll(dirs[1]))
	s := Open(cdir, nil)
	put(t, s, dirs[2], paths[2], "brief+new") // a change: the index is written
	b, err := os.ReadFile(indexFile(cdir))
	must(t, err)
	recs, err := decodeIndex(b)
	must(t, err)
	for i, want := range []bool{true, false, true} {
		if _, ok := recs[dirs[i]]; ok != want {
			t.Errorf("%s: in the index %v, want %v", dirs[i], ok, want)
		}
	}
}

// put stamps the file at p with data (its brief up to the "+") and
// flushes the store.
func put(t *testing.T, s *Store, dir, p, data string) {
	t.Helper()
	e, ok := Stamp(p, 3, 1, []byte(data))
	if !ok {
		t.Fatal("Stamp: not cached")
	}
	e.Brief = strings.Index(data, "+")
	s.Put(dir, e)
	s.Flush()
}

// The folder files of an earlier format are removed when this one's
// index is first written: an upgrade does not double the cache.
func TestOldVersionsDropped(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	old := filepath.Join(cdir, "v2", "0123.bin")
	must(t, os.MkdirAll(filepath.Dir(old), 0o700))
	must(t, os.WriteFile(old, []byte("CCTXCACH old"), 0o600))
	other := filepath.Join(cdir, "ls") // another store's directory stays
	must(t, os.MkdirAll(other, 0o700))
	p := filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	put(t, Open(cdir, nil), dir, p, "brief+rest")
	if _, err := os.Stat(filepath.Dir(old)); !os.IsNotExist(err) {
		t.Errorf("v2 still there: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another store's directory removed: %v", err)
	}
	if e, st := Open(cdir, nil).Lookup(dir, p); st != Same || string(e.Data) != "brief+rest" {
		t.Errorf("this version's entry: %v, %d", e, st)
	}
}

// Removing an earlier format's directory removes the cache's own files
// only: CCTX_CACHE_DIR may name a directory that holds other things (a
// project with v1/ and v2/ folders of its own), which must survive.
func TestOldVersionsDropOnlyCacheFiles(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string // path under the cache dir: content
		gone    []string          // removed by the first index write
		kept    []string          // still there after it
		dirGone []string          // directories removed
	}{
		{name: "an old format's folder files and temporary files",
			files: map[string]string{"v2/0123456789abcdef01234567.bin": "CCTXCACH old", "v1/89abcdef.bin.tmp123": "CC",
				"ls/v2/0123456789abcdef01234567.bin": "CCTXCACH old"},
			gone:    []string{"v2/0123456789abcdef01234567.bin", "v1/89abcdef.bin.tmp123"},
			kept:    []string{"ls/v2/0123456789abcdef01234567.bin"}, // another store's: its own run drops it
			dirGone: []string{"v1", "v2"}},
		{name: "someone else's files in v1/ and v2/",
			files: map[string]string{"v1/api.go": "package v1", "v2/src/main.go": "package main",
				"v2/0123456789abcdef01234567.bin": "CCTXCACH old", "v2/notes.bin": "mine"},
			gone: []string{"v2/0123456789abcdef01234567.bin"},
			kept: []string{"v1/api.go", "v2/src/main.go", "v2/notes.bin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cdir := t.TempDir(), t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(cdir, filepath.FromSlash(name))
				must(t, os.MkdirAll(filepath.Dir(p), 0o700))
				must(t, os.WriteFile(p, []byte(content), 0o600))
			}
			p := filepath.Join(dir, "s.jsonl")
			must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
			put(t, Open(cdir, nil), dir, p, "brief+rest")
			for _, name := range tt.gone {
				if _, err := os.Stat(filepath.Join(cdir, filepath.FromSlash(name))); !os.IsNotExist(err) {
					t.Errorf("%s still there: %v", name, err)
				}
			}
			for _, name := range tt.kept {
				if _, err := os.Stat(filepath.Join(cdir, filepath.FromSlash(name))); err != nil {
					t.Errorf("%s removed: %v", name, err)
				}
			}
			for _, name := range tt.dirGone {
				if _, err := os.Stat(filepath.Join(cdir, name)); !os.IsNotExist(err) {
					t.Errorf("directory %s still there: %v", name, err)
				}
			}
		})
	}
}

// A project folder that no longer exists loses its folder file with its
// index record: else the files of every folder ever seen stay forever
// (worktrees come and go), and the cache outgrows its 1%.
func TestGoneFolderFileRemoved(t *testing.T) {
	cdir, base := t.TempDir(), t.TempDir()
	names := []string{"kept", "gone", "looked"}
	dirs := map[string]string{}
	for _, name := range names {
		d := filepath.Join(base, name)
		must(t, os.MkdirAll(d, 0o700))
		p := filepath.Join(d, "s.jsonl")
		must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
		put(t, Open(cdir, nil), d, p, "brief+rest")
		dirs[name] = d
	}
	must(t, os.RemoveAll(dirs["gone"]))
	looked := filepath.Join(dirs["looked"], "s.jsonl")
	put(t, Open(cdir, nil), dirs["looked"], looked, "brief+new") // a change: the index is written
	for _, tt := range []struct {
		name string
		file bool
	}{{"kept", true}, {"gone", false}, {"looked", true}} {
		_, err := os.Stat(FileOf(cdir, dirs[tt.name]))
		if got := err == nil; got != tt.file {
			t.Errorf("%s: folder file there %v, want %v (%v)", tt.name, got, tt.file, err)
		}
	}
}

// A write never keeps an entry whose rest it could not read: written
// with its brief only, it would be taken whole by the next run.
func TestWriteAfterLostRests(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	p, q := filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "q.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	must(t, os.WriteFile(q, []byte("{}\n"), 0o600))
	put(t, Open(cdir, nil), dir, p, "brief+rest")
	tests := []struct {
		name  string
		other func(t *testing.T) // another run, after this one's briefs
	}{
		{"the folder file written again", func(t *testing.T) { put(t, Open(cdir, nil), dir, q, "other+data") }},
		{"the folder file gone", func(t *testing.T) { must(t, os.Remove(FileOf(cdir, dir))) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			put(t, Open(cdir, nil), dir, p, "brief+rest")
			s := Open(cdir, func(f string, a ...any) { t.Logf(f, a...) })
			if e, st := s.LookupBrief(dir, p, nil); st != Same || string(e.Data) != "brief" {
				t.Fatalf("LookupBrief = %q, %d", e.Data, st)
			}
			tt.other(t)
			put(t, s, dir, q, "q+mine") // dirty: the rests are read, and fail
			for _, x := range []*Store{s, Open(cdir, nil)} {
				if e, st := x.Lookup(dir, p); st != Miss && string(e.Data) != "brief+rest" {
					t.Errorf("Lookup(p) = %q, %d: an entry without its rest", e.Data, st)
				}
				if e, st := x.Lookup(dir, q); st != Same || string(e.Data) != "q+mine" {
					t.Errorf("Lookup(q) = %v, %d", e, st)
				}
			}
		})
	}
}

// A temporary file a run stopped before its rename left is removed by a
// later write of the index once it is old; a fresh one (another run
// writing now) and files not the cache's stay.
func TestStaleTempsDropped(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	put(t, Open(cdir, nil), dir, p, "brief+rest") // the index exists: later writes are not the first
	vdir := filepath.Dir(indexFile(cdir))
	old := time.Now().Add(-time.Hour)
	files := []struct {
		name string
		age  time.Time
		kept bool
	}{
		{"index.bin.tmp123", old, false},
		{"0123abcd.bin.tmp456", old, false},
		{"0123abcd.bin.tmp789", time.Now(), true}, // being written
		{"notes.bin.tmp1", old, true},             // not a name the cache writes
	}
	for _, f := range files {
		fp := filepath.Join(vdir, f.name)
		must(t, os.WriteFile(fp, []byte("partial"), 0o600))
		must(t, os.Chtimes(fp, f.age, f.age))
	}
	put(t, Open(cdir, nil), dir, p, "brief+again")
	for _, f := range files {
		_, err := os.Stat(filepath.Join(vdir, f.name))
		if kept := err == nil; kept != f.kept {
			t.Errorf("%s: kept %v, want %v", f.name, kept, f.kept)
		}
	}
}

// The whole layout of a folder, read back (what write splits between
// the index and the folder file), for the tests of the format.

// decode reads the entries of a cache file's bytes, which must be of this
// version and of the project folder key.
func decode(b []byte, key string) (map[string]*Entry, error) {
	entries, _, err := decodeFile(b, key)
	return entries, err
}

// decodeFile is decode, with the folder's blob (SetBlob).
func decodeFile(b []byte, key string) (map[string]*Entry, []byte, error) {
	h, err := parseHeader(b)
	if err != nil {
		return nil, nil, err
	}
	end := headerLen + int64(h.part1)
	if end > int64(len(b)) {
		return nil, nil, errTruncated
	}
	l, err := decodePart1(b[headerLen:end], h, key, int64(len(b))-end)
	if err != nil {
		return nil, nil, err
	}
	copy(l.head[:], b)
	if err := l.fill(b[end:]); err != nil {
		return nil, nil, err
	}
	return l.entries, l.blob, nil
}

// encode is the bytes of a cache file holding entries.
func encode(key string, entries map[string]*Entry) []byte { return encodeFile(key, entries, nil) }

// FlushBehind writes while its caller goes on: a lookup on the same store
// meanwhile waits for the writes (it sees the run ended, as after Flush),
// and Wait returns once the folder file is on disk for the next run.
func TestFlushBehind(t *testing.T) {
	dir, cdir, p, release := heldWritesBehind(t)
	s := Open(cdir, func(f string, a ...any) { t.Errorf(f, a...) })
	e, _ := Stamp(p, 3, 1, []byte("d"))
	s.Put(dir, e)
	appendTo(t, p, []byte("{}\n")) // grown in the run: Grown only once the run has ended
	s.FlushBehind()
	if _, err := os.Stat(indexFile(cdir)); err == nil {
		t.Fatal("the index was written before the writes began")
	}
	looked := make(chan State)
	go func() {
		_, st := s.Lookup(dir, p)
		looked <- st
	}()
	select {
	case st := <-looked:
		t.Fatalf("a lookup during the writes did not wait for them (%d)", st)
	case <-time.After(50 * time.Millisecond):
	}
	waited := waitOf(s)
	select {
	case <-waited:
		t.Fatal("Wait returned before the writes were done")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-waited
	if st := <-looked; st != Grown {
		t.Errorf("the lookup that waited: %d, want Grown (%d)", st, Grown)
	}
	got, st := Open(cdir, nil).Lookup(dir, p)
	if st != Grown || string(got.Data) != "d" {
		t.Errorf("the next run: %v, %d", got, st)
	}
	var none *Store
	none.FlushBehind()
	none.Wait()
}

// A sub-store's writes behind are waited for by its parent's Wait: the
// one a command holds.
func TestWaitWaitsForTheSubs(t *testing.T) {
	dir, cdir, p, release := heldWritesBehind(t)
	parent := Open(cdir, nil)
	sub := parent.Sub("stats")
	e, _ := Stamp(p, 3, 1, nil)
	sub.Put(dir, e)
	sub.FlushBehind()
	waited := waitOf(parent)
	select {
	case <-waited:
		t.Fatal("the parent's Wait returned before its sub's writes")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-waited
	if _, st := Open(filepath.Join(cdir, "stats"), nil).Lookup(dir, p); st != Same {
		t.Errorf("the sub's entry after Wait: %d", st)
	}
}

// heldWritesBehind is a transcript p in dir, a cache directory cdir, and
// FlushBehind's writes held from their start until release is closed.
func heldWritesBehind(t *testing.T) (dir, cdir, p string, release chan struct{}) {
	dir, cdir = t.TempDir(), t.TempDir()
	p = filepath.Join(dir, "s.jsonl")
	must(t, os.WriteFile(p, []byte("{}\n"), 0o600))
	release = make(chan struct{})
	flushBehindStarts = func() { <-release }
	t.Cleanup(func() { flushBehindStarts = func() {} })
	return dir, cdir, p, release
}

// waitOf is closed once s.Wait returns.
func waitOf(s *Store) <-chan struct{} {
	waited := make(chan struct{})
	go func() {
		s.Wait()
		close(waited)
	}()
	return waited
}
