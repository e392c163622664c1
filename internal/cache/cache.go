// Package cache keeps, for each transcript, a summary that a command can
// use instead of reading the file again: one flat, versioned binary file
// per project folder under Dir.
//
// The cache is never trusted: an entry is used only when the file's path,
// size, modification time and inode are the ones recorded and a hash of
// its first 4 KiB and of the 4 KiB before the recorded offset still match
// (State Same); a file that only grew (same inode, same hashes) is read
// from the recorded offset on (Grown); anything else is read whole (Miss).
// A cache file that is corrupt, truncated, of another version or
// unreadable is ignored (a note under -v) and rebuilt. Writes go to a
// temporary file renamed over the old one, so that two processes at once
// leave one or the other whole; a directory that cannot be written only
// costs speed.
//
// What an entry holds (Entry.Data) is its user's: this package never
// looks inside it.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// Version is the format of the cache files; a file of another version is
// ignored. Bump it whenever the layout of a file or of an Entry.Data
// changes meaning. 6: a UTF-16 file without a BOM is told from its first
// bytes (reader.IsUTF16), an error, where the entries of 5 may keep it as
// lines skipped for their NUL bytes.
const Version = 6

var magic = [8]byte{'C', 'C', 'T', 'X', 'C', 'A', 'C', 'H'}

// HashBytes is how many bytes the head hash and the tail hash cover.
const HashBytes = 4096

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Dir is the cache directory: $CCTX_CACHE_DIR, else cctx under the user's
// cache directory (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux
// and the BSDs, ~/Library/Caches on macOS, %LocalAppData% on Windows),
// found through getenv and home so that a caller with its own environment
// (a test) gets its own directory.
func Dir(getenv func(string) string, home string) (string, error) {
	if d := getenv("CCTX_CACHE_DIR"); d != "" {
		return d, nil
	}
	var base string
	switch runtime.GOOS {
	case "windows", "plan9", "ios", "android":
		b, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		base = b
	case "darwin":
		base = filepath.Join(home, "Library", "Caches")
	default:
		base = getenv("XDG_CACHE_HOME")
		if !filepath.IsAbs(base) {
			base = filepath.Join(home, ".cache")
		}
	}
	if home == "" && !filepath.IsAbs(base) || base == "" {
		return "", errors.New("no home directory for the cache")
	}
	return filepath.Join(base, "cctx"), nil
}

// Disabled reports whether CCTX_NO_CACHE asks for no cache.
func Disabled(getenv func(string) string) bool {
	v := getenv("CCTX_NO_CACHE")
	return v != "" && v != "0"
}

// Entry is what the cache knows about one file.
type Entry struct {
	Path    string
	Size    int64 // the file's size when it was read: Offset
	ModTime int64 // nanoseconds since 1970
	Inode   uint64
	Offset  int64 // bytes read, up to the end of the last whole line
	Lines   int64 // lines up to Offset
	Head    uint32
	Tail    uint32
	Data    []byte // its user's summary of the file up to Offset
	// Brief is how many leading bytes of Data its user reads through
	// LookupBrief: they are kept in the first part of the folder file,
	// which a run reads whole, the rest of Data only when a Lookup needs
	// it.
	Brief int
	rest  int // bytes of Data after the brief not yet read (part 2)
	// What this run made of the entry (its folder's mu held): looked up
	// or put (used), and what its check said (state, once checked). On
	// the entry, not in maps by path: a warm run over 5,000 sessions
	// hashed each path four more times a lookup.
	used, checked bool
	state         State
}

// State says what an entry still describes of its file.
type State int

const (
	// Miss: no entry, or the file changed: read it whole.
	Miss State = iota
	// Same: the file is the one the entry describes.
	Same
	// Grown: the file is the entry's with lines appended: read it from
	// Entry.Offset on.
	Grown
)

// Store is the cache of one run: folder files are loaded when first asked
// for, and Flush writes back the ones that changed.
type Store struct {
	dir  string
	note func(format string, args ...any)
	cwd  string // relative paths are made absolute from it: one folder, one file

	mu      sync.Mutex
	folders map[string]*folder
	behind  *sync.WaitGroup // FlushBehind's writes (shared with the subs)

	// The index (index.go): read once, at the first folder; rewritten by
	// Flush when a folder was written.
	indexOnce sync.Once
	indexMu   sync.Mutex
	index     map[string]record
	indexOld  bool // a record changed
}

type folder struct {
	once    sync.Once
	file    string // the cache file (path: named when first needed)
	key     string // the project folder
	mu      sync.Mutex
	entries map[string]*Entry
	blob    []byte // the folder's own summary (SetBlob)
	dirty   bool
	// from is the file as it was loaded while the rests of its entries'
	// Data are not read (nil: nothing to read): a Lookup or a write reads
	// them, LookupBrief does not.
	from *loaded
}

// Open returns the store in dir (created when first written). note
// receives what went wrong with it (nil: nothing is said).
func Open(dir string, note func(format string, args ...any)) *Store {
	if note == nil {
		note = func(string, ...any) {}
	}
	cwd, _ := os.Getwd()
	return &Store{dir: dir, note: note, cwd: cwd, folders: map[string]*folder{}, behind: new(sync.WaitGroup)}
}

func (s *Store) abs(p string) string {
	if filepath.IsAbs(p) || s.cwd == "" {
		return p
	}
	return filepath.Join(s.cwd, p)
}

// Sub is a store of its own in the directory name under s's, for
// another kind of entry (nil for nil).
func (s *Store) Sub(name string) *Store {
	if s == nil {
		return nil
	}
	sub := Open(filepath.Join(s.dir, name), s.note)
	sub.behind = s.behind // Wait on s waits for its subs' writes too
	return sub
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

// fileOf names the cache file of a project folder.
func (s *Store) fileOf(key string) string { return FileOf(s.dir, key) }

// FileOf is the cache file in dir of the project folder key.
func FileOf(dir, key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(dir, fmt.Sprintf("v%d", Version), hex.EncodeToString(sum[:12])+".bin")
}

func (s *Store) folder(key string) *folder {
	key = s.abs(key)
	s.mu.Lock()
	f, ok := s.folders[key]
	if !ok {
		f = &folder{key: key}
		s.folders[key] = f
	}
	s.mu.Unlock()
	f.once.Do(func() {
		l := s.load(f)
		if l == nil {
			l = &loaded{entries: map[string]*Entry{}}
		}
		// Under f.mu: a Flush may look at f's entries while a goroutine
		// left loading it (ls's preloadRows) is still here.
		f.mu.Lock()
		f.entries, f.blob = l.entries, l.blob
		if len(l.order) > 0 {
			f.from = l
		}
		f.mu.Unlock()
	})
	return f
}

// path is the folder's cache file, named when first needed (a sum of the
// folder's path: most runs read the index only). Called by the one
// loading the folder, or with f.mu held.
func (f *folder) path(s *Store) string {
	if f.file == "" {
		f.file = s.fileOf(f.key)
	}
	return f.file
}

// Preload reads the index now (in the background when its caller says
// go): a run that lists thousands of files first has it read meanwhile.
func (s *Store) Preload() {
	if s != nil {
		s.indexOnce.Do(s.readIndex)
	}
}

func (s *Store) readIndex() {
	recs, err := loadIndex(indexFile(s.dir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		s.note("cache: ignoring %s: %v", indexFile(s.dir), err)
	}
	s.index = recs
}

// load reads part 1 of a folder from the index (nil: none).
func (s *Store) load(f *folder) *loaded {
	s.indexOnce.Do(s.readIndex)
	s.indexMu.Lock()
	r, ok := s.index[f.key]
	s.indexMu.Unlock()
	if !ok {
		return nil
	}
	l, err := fromRecord(r, f.key)
	if err != nil {
		s.note("cache: ignoring the record of %s in %s: %v", f.key, indexFile(s.dir), err)
		return nil
	}
	return l
}

// setRecord replaces (part1 nil: drops) the index record of key
// (s.indexMu held).
func (s *Store) setRecord(key string, r record) {
	if s.index == nil {
		s.index = map[string]record{}
	}
	if r.part1 == nil {
		delete(s.index, key)
	} else {
		s.index[key] = r
	}
	s.indexOld = true
}

// Blob is what its user last kept with SetBlob for the project folder key
// as a whole (nil: nothing). Like Entry.Data it is never looked inside,
// and never checked: its user says what it describes, and checks it
// against the entries of the folder's files (Lookup).
func (s *Store) Blob(key string) []byte {
	if s == nil {
		return nil
	}
	f := s.folder(key)
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.blob
}

// SetBlob replaces the blob of the project folder key (nil: none).
func (s *Store) SetBlob(key string, b []byte) {
	if s == nil {
		return
	}
	f := s.folder(key)
	f.mu.Lock()
	if !bytes.Equal(f.blob, b) {
		f.blob, f.dirty = b, true
	}
	f.mu.Unlock()
}

// Known reports whether the cache holds an entry of the project folder
// key (its record is read from the index first, if it was not).
func (s *Store) Known(key string) bool {
	if s == nil {
		return false
	}
	f := s.folder(key)
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.entries) > 0
}

// Lookup finds the entry of the file at path, in the cache of the project
// folder key, and checks it against the file. The entry is nil with Miss.
func (s *Store) Lookup(key, path string) (*Entry, State) { return s.LookupOpen(key, path, nil) }

// File is an open file as CheckFile reads it: a *rawfile.File, or a
// reader in front of one.
type File interface {
	io.ReaderAt
	Stat() (rawfile.Info, error)
}

// LookupOpen is Lookup of a file the caller has open (fh; nil: opened
// here), which it may go on reading once its entry is found the same.
func (s *Store) LookupOpen(key, path string, fh File) (*Entry, State) {
	if s == nil {
		return nil, Miss
	}
	f := s.folder(key)
	path = s.abs(path)
	f.mu.Lock()
	s.readRests(f)
	e := f.entries[path]
	f.mu.Unlock()
	if e == nil { // (readRests dropped the entries whose rest it could not read)
		return nil, Miss
	}
	return e, s.check(f, path, e, fh, nil)
}

// LookupBrief is Lookup for a user that reads only the entry's stamp and
// the first Entry.Brief bytes of its Data: the copy it returns has only
// those in Data, and the rest of the folder's entries is not read.
// listed, when known, is the file's status when it was listed (as
// CheckListed takes it).
func (s *Store) LookupBrief(key, path string, listed *rawfile.Info) (Entry, State) {
	return s.LookupBriefOpen(key, path, listed, nil)
}

// LookupBriefOpen is LookupBrief of a file its caller holds open (fh,
// nil: none): its hashes are read from it, not from a file opened again.
func (s *Store) LookupBriefOpen(key, path string, listed *rawfile.Info, fh File) (Entry, State) {
	if s == nil {
		return Entry{}, Miss
	}
	f := s.folder(key)
	path = s.abs(path)
	f.mu.Lock()
	e := f.entries[path]
	var c Entry
	if e != nil {
		c = *e
		c.Data, c.rest = c.Data[:min(c.Brief, len(c.Data))], 0
	}
	f.mu.Unlock()
	if e == nil {
		return c, Miss
	}
	return c, s.check(f, path, e, fh, listed)
}

// check is what e says of its file in this run: checked once a run
// (tokens looks a main file up more than once).
func (s *Store) check(f *folder, path string, e *Entry, fh File, listed *rawfile.Info) State {
	f.mu.Lock()
	e.used = true
	st, checked := e.state, e.checked
	f.mu.Unlock()
	if checked {
		return st
	}
	switch {
	case fh != nil && listed != nil:
		st = Miss
		if listed.Regular {
			st = checkStat(fh, *listed, e)
		}
	case fh != nil:
		st = CheckFile(fh, e)
	case listed != nil:
		st = CheckListed(path, e, *listed)
	default:
		st = Check(path, e)
	}
	f.mu.Lock()
	e.checked, e.state = true, st
	f.mu.Unlock()
	return st
}

// readRests reads, once, the rests of the Data of the entries f was
// loaded with (f.mu held). If the file is no longer the one loaded, those
// entries are lost: looked up, they miss, and they are not written again.
func (s *Store) readRests(f *folder) {
	if f.from == nil {
		return
	}
	if err := f.from.loadRest(f.path(s)); err != nil {
		s.note("cache: ignoring the entries of %s: %v", f.path(s), err)
		for p, e := range f.entries {
			if e.rest > 0 {
				delete(f.entries, p)
			}
		}
	}
	f.from = nil
}

// Put records a new entry for the file at path (Stamp makes its fields).
func (s *Store) Put(key string, e *Entry) {
	if s == nil {
		return
	}
	f := s.folder(key)
	e.Path = s.abs(e.Path)
	f.mu.Lock()
	f.entries[e.Path] = e
	e.used = true
	e.checked, e.state = true, Same // stamped from the file as it is
	f.dirty = true
	f.mu.Unlock()
}

// Forget drops the entry of a file that could not be cached this time.
func (s *Store) Forget(key, path string) {
	if s == nil {
		return
	}
	f := s.folder(key)
	path = s.abs(path)
	f.mu.Lock()
	if _, ok := f.entries[path]; ok {
		delete(f.entries, path)
		f.dirty = true
	}
	f.mu.Unlock()
}

// Flush writes each folder file that changed, and ends the run: a later
// Lookup checks its file again (tokens --watch counts every few seconds
// with one store). Entries of files not used in this run are kept while
// their file exists. A write that fails is noted and costs only speed.
func (s *Store) Flush() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushHeld()
}

// FlushBehind is Flush done while its caller goes on (a report printed
// while the cache is written): it holds the store from now until it is
// done, so any later use of the store waits for it. Wait waits for it.
func (s *Store) FlushBehind() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.behind.Add(1)
	go func() {
		defer s.behind.Done()
		defer s.mu.Unlock()
		flushBehindStarts()
		s.flushHeld()
	}()
}

// flushBehindStarts is called as FlushBehind's writes begin (a test
// holds them there).
var flushBehindStarts = func() {}

// Wait returns once the writes FlushBehind began are done (nil: none).
func (s *Store) Wait() {
	if s != nil {
		s.behind.Wait()
	}
}

// flushHeld is Flush with s.mu held.
func (s *Store) flushHeld() {
	for _, f := range s.folders {
		f.mu.Lock()
		if f.dirty {
			s.readRests(f)
			for p, e := range f.entries {
				if !e.used {
					if _, err := os.Lstat(p); err != nil {
						delete(f.entries, p)
					}
				}
			}
			r, err := write(f.path(s), f.key, f.entries, f.blob)
			if err != nil {
				s.note("cache: cannot write %s: %v", f.path(s), err)
				r = record{}
			}
			s.indexMu.Lock()
			s.setRecord(f.key, r)
			s.indexMu.Unlock()
			f.dirty = false
		}
		for _, e := range f.entries {
			e.used, e.checked = false, false // the run ends: a later lookup checks again
		}
		f.mu.Unlock()
	}
	s.writeIndex()
}

// writeIndex writes the index again when a record changed: the records of
// folders this run did not look up are kept while the folder exists, and
// dropped with their folder files once it is gone.
func (s *Store) writeIndex() {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if !s.indexOld {
		return
	}
	for key := range s.index {
		if _, looked := s.folders[key]; !looked && !keepRecord(key) {
			delete(s.index, key)
			// Its folder file too when the folder is gone (not merely
			// unreadable): else the files of every folder ever seen stay
			// (worktrees come and go).
			if _, err := os.Stat(key); errors.Is(err, os.ErrNotExist) {
				if err := os.Remove(s.fileOf(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
					s.note("cache: cannot remove %s: %v", s.fileOf(key), err)
				}
			}
		}
	}
	file := indexFile(s.dir)
	_, had := os.Stat(file)
	if err := writeIndex(file, s.index); err != nil {
		s.note("cache: cannot write %s: %v", file, err)
	} else if had != nil {
		s.dropOldVersions()
	} else {
		s.dropStaleTemps(filepath.Dir(file))
	}
	s.indexOld = false
}

// staleTemp is how old a temporary file of replace must be to be another
// run's that was stopped between writing and renaming it (killed, power
// lost), not one being written now.
const staleTemp = 10 * time.Minute

// dropStaleTemps removes the temporary files that runs stopped before
// their rename left in dir: else each such stop leaves one for good.
func (s *Store) dropStaleTemps(dir string) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range list {
		if !strings.Contains(d.Name(), ".bin.tmp") || !d.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, d.Name())
		if st, err := d.Info(); err == nil && time.Since(st.ModTime()) > staleTemp && isCacheFile(p, d.Name()) {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.note("cache: cannot remove %s: %v", p, err)
			}
		}
	}
}

// dropOldVersions removes the folder files of earlier versions of the
// format, which no run reads again, when this version's index is first
// written: else an upgrade doubles the cache. Only the cache's own files
// go (CCTX_CACHE_DIR may name a directory with v1/ or v2/ folders of
// someone else's), and the directory when nothing else is left in it.
func (s *Store) dropOldVersions() {
	for v := 1; v < Version; v++ {
		old := filepath.Join(s.dir, fmt.Sprintf("v%d", v))
		if st, err := os.Lstat(old); err != nil || !st.IsDir() {
			continue // none, or not a directory of ours (a link is not followed)
		}
		list, err := os.ReadDir(old)
		if err != nil {
			s.note("cache: cannot remove %s: %v", old, err)
			continue
		}
		for _, d := range list {
			p := filepath.Join(old, d.Name())
			if !d.Type().IsRegular() || !isCacheFile(p, d.Name()) {
				continue
			}
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.note("cache: cannot remove %s: %v", p, err)
			}
		}
		os.Remove(old) // fails, and is meant to, when something else is in it
	}
}

// isCacheFile reports whether the file p, named name, in a format's
// directory is one the cache wrote: a folder file or an index (a hex sum
// or "index", then ".bin", starting with a magic of this package) or one
// of their temporary files (replace).
func isCacheFile(p, name string) bool {
	stem, tmp, isTmp := strings.Cut(name, ".bin.tmp")
	if !isTmp {
		var ok bool
		if stem, ok = strings.CutSuffix(name, ".bin"); !ok {
			return false
		}
	}
	if stem != "index" && (stem == "" || strings.Trim(stem, "0123456789abcdef") != "") {
		return false
	}
	if isTmp {
		return tmp != "" && strings.Trim(tmp, "0123456789") == ""
	}
	fh, err := rawfile.Open(p)
	if err != nil {
		return false
	}
	defer fh.Close()
	var m [8]byte
	if n, _ := fh.ReadAt(m[:], 0); n != len(m) {
		return false
	}
	return m == magic || m == indexMagic
}

// Check compares an entry with the file at path now.
func Check(path string, e *Entry) State {
	fh, err := rawfile.OpenNow(path)
	if err != nil {
		return Miss
	}
	defer fh.Close()
	return CheckFile(fh, e)
}

// CheckListed is Check of a file whose status a listing found (listed):
// one system call less a file, on thousands. Its hashes are read from
// the file as it is now. A file that changed since it was listed is
// checked against its status when listed, as one that changes after an
// fstat is against that one: the entry it keeps is one the file had when
// listed, and still has where it is hashed.
func CheckListed(path string, e *Entry, listed rawfile.Info) State {
	if !listed.Regular {
		return Miss
	}
	fh, err := rawfile.OpenNow(path)
	if err != nil {
		return Miss
	}
	defer fh.Close()
	return checkStat(fh, listed, e)
}

// CheckFile is Check of a file already open (one open a file: its
// entry's checks and then whatever its user reads of it).
func CheckFile(fh File, e *Entry) State {
	st, err := fh.Stat()
	if err != nil || !st.Regular {
		return Miss
	}
	return checkStat(fh, st, e)
}

// checkStat is CheckFile of a file whose status is st.
func checkStat(fh io.ReaderAt, st rawfile.Info, e *Entry) State {
	if st.Inode != e.Inode || st.Size < e.Offset {
		return Miss
	}
	head, tail, err := hashes(fh, e.Offset)
	if err != nil || head != e.Head || tail != e.Tail {
		return Miss
	}
	if st.Size == e.Size && st.ModTime == e.ModTime {
		return Same
	}
	if st.Size > e.Offset {
		return Grown
	}
	return Miss // same size, another time: rewritten
}

// zstdMagic starts a compressed transcript: its offsets are not the
// file's, so it is not cached.
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// Stamp makes the entry of a file read up to offset (lines lines), if the
// file is still exactly that long: a file that changed while it was read,
// or ends in a line not yet whole, or is compressed, is not cached
// (ok false).
func Stamp(path string, offset, lines int64, data []byte) (e *Entry, ok bool) {
	fh, err := rawfile.OpenNow(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	return StampFile(fh, path, offset, lines, data)
}

// StampOS is StampFile of a file its caller read through an *os.File
// still open (reader.Reader.File; nil: not cached). A file stamped by its
// path after it was read could be another one by then (replaced by a
// file of the same size): its entry would give the old file's summary
// for the new one.
func StampOS(f *os.File, path string, offset, lines int64, data []byte) (e *Entry, ok bool) {
	if f == nil {
		return nil, false
	}
	return StampFile(osFile{f}, path, offset, lines, data)
}

// CheckOS is CheckFile of a file open as an *os.File (nil: Miss): that
// the file a caller opened to read on from an entry's offset is still the
// one the entry describes.
func CheckOS(f *os.File, e *Entry) State {
	if f == nil {
		return Miss
	}
	return CheckFile(osFile{f}, e)
}

// osFile is an *os.File as a File.
type osFile struct{ *os.File }

func (f osFile) Stat() (rawfile.Info, error) {
	st, err := f.File.Stat()
	if err != nil {
		return rawfile.Info{}, err
	}
	return rawfile.InfoOf(st), nil
}

// StampFile is Stamp of the file fh (at path), open.
func StampFile(fh File, path string, offset, lines int64, data []byte) (e *Entry, ok bool) {
	st, err := fh.Stat()
	if err != nil || !st.Regular || st.Size != offset {
		return nil, false
	}
	var m [4]byte
	if n, _ := fh.ReadAt(m[:], 0); n == 4 && bytes.Equal(m[:], zstdMagic) {
		return nil, false
	}
	head, tail, err := hashes(fh, offset)
	if err != nil {
		return nil, false
	}
	return &Entry{Path: path, Size: st.Size, ModTime: st.ModTime, Inode: st.Inode,
		Offset: offset, Lines: lines, Head: head, Tail: tail, Data: data}, true
}

// hashBufs are the buffers of hashes: one a file, zeroed each time, was
// much of what a warm run spent.
var hashBufs = sync.Pool{New: func() any { return new([2 * HashBytes]byte) }}

// hashes are the CRC-32C of the first HashBytes of the file (at most up
// to offset) and of the HashBytes before offset.
func hashes(r io.ReaderAt, offset int64) (head, tail uint32, err error) {
	bp := hashBufs.Get().(*[2 * HashBytes]byte)
	defer hashBufs.Put(bp)
	buf := bp[:]
	if offset <= 2*HashBytes {
		b := buf[:offset]
		if _, err := r.ReadAt(b, 0); err != nil {
			return 0, 0, err
		}
		n := min(offset, HashBytes)
		return crc32.Checksum(b[:n], castagnoli), crc32.Checksum(b[offset-n:], castagnoli), nil
	}
	h, t := buf[:HashBytes], buf[HashBytes:]
	if _, err := r.ReadAt(h, 0); err != nil {
		return 0, 0, err
	}
	if _, err := r.ReadAt(t, offset-HashBytes); err != nil {
		return 0, 0, err
	}
	return crc32.Checksum(h, castagnoli), crc32.Checksum(t, castagnoli), nil
}
