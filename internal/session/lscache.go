package session

import (
	"bytes"
	"hash/fnv"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// The ls cache keeps, for each main transcript, its row (Info) without
// any text a person or a model wrote: the title and first prompt are kept
// as the place of the line they come from, and read from it again. An
// entry is used only while its file is exactly the same (cache.Same); a
// file that changed at all is read again (Lite).

// lsCacheFormat is the version of a row's encoding, and of the rules that
// made it: 2 since a head's title behind a tail's cleared custom title is
// found (rows of 1 may hold the title the old rule gave); 3 since a queued
// prompt delivered as an attachment (reader.Entry.Queued) is a user
// message, which may be the first prompt and makes a file a conversation
// (rows of 2 may hold another first prompt, or be empty); 4 since a
// UTF-16 file without a BOM is told from its first bytes (reader.IsUTF16)
// and said, not listed (rows of 3 may hold one as a file without
// conversation).
const lsCacheFormat = 4

// lite is Lite through the finder's cache, when it has one, with one open
// of the file: its entry's checks, then its row's text (withText) or the
// head and tail of a file that changed. Without withText the text of a
// row from the cache is read when it is shown (finishRow).
func (f *Finder) lite(s *Session, withText, noPrompt bool) (*Info, error) {
	if s.Orphan {
		return Lite(s)
	}
	store, key := f.rows(s)
	fh, err := rawfile.OpenNow(s.Path) // listed as a regular file
	if err != nil {
		store.Forget(key, s.Path)
		return nil, err
	}
	defer fh.Close()
	if in := f.cachedRow(s, fh, withText, noPrompt); in != nil {
		return in, nil
	}
	in, err := liteFile(s, fh)
	if err != nil {
		store.Forget(key, s.Path)
		return nil, err
	}
	f.rememberRead(in, fh)
	return in, nil
}

// cachedRow is the row of s from its cache entry, when the entry is the
// same as the file (open as fh), and its text read when withText; nil
// when it is not (Lite reads the file then). The listing takes the rows
// of a warm run this way, as it opens each file (Finder.List).
func (f *Finder) cachedRow(s *Session, fh *rawfile.File, withText, noPrompt bool) *Info {
	store, key := f.rows(s)
	if store == nil {
		return nil
	}
	k := keptPool.Get().(*keptReads)
	k.File, k.n = fh, 0
	k.st, k.statKnown = s.listedStat, s.statKnown
	defer keptPool.Put(k)
	e, st := store.LookupOpen(key, s.Path, k)
	if st != cache.Same {
		return nil
	}
	in, ok := infoFrom(s, e.Data)
	if !ok {
		return nil
	}
	in.cached = in.inlineKnown
	in.noPrompt = noPrompt && in.TitleSource != "first-prompt"
	if withText && !readTextFrom(in, k) {
		return nil
	}
	return in
}

// keptReads is an open file that keeps its first two small reads (the
// cache's hashes of the file's first and last 4 KiB) and answers a later
// read that lies inside one of them from it: a row's first prompt is most
// often in the first 4 KiB, its title often in the last.
//
// Its status is the one the listing found (Session.listedStat), when it
// found one: one system call a session less. A file that changes after it
// is listed is then checked against its status when listed, as one that
// changes after an fstat is against that one, and its hashes are read
// from it as it is: a row the cache gives is one the file had when listed,
// and still has where it is hashed.
type keptReads struct {
	*rawfile.File
	st        rawfile.Info
	statKnown bool
	n         int
	kept      [2]struct {
		off int64
		n   int
		buf [2 * cache.HashBytes]byte
	}
}

var keptPool = sync.Pool{New: func() any { return new(keptReads) }}

// Stat is the status the listing found, else the open file's.
func (k *keptReads) Stat() (rawfile.Info, error) {
	if k.statKnown {
		return k.st, nil
	}
	return k.File.Stat()
}

func (k *keptReads) ReadAt(b []byte, off int64) (int, error) {
	for i := range k.n {
		w := &k.kept[i]
		if off >= w.off && off+int64(len(b)) <= w.off+int64(w.n) {
			return copy(b, w.buf[off-w.off:w.n]), nil
		}
	}
	n, err := k.File.ReadAt(b, off)
	if err == nil && k.n < len(k.kept) && len(b) <= len(k.kept[0].buf) {
		w := &k.kept[k.n]
		w.off, w.n = off, copy(w.buf[:], b)
		k.n++
	}
	return n, err
}

// remember puts a row in the cache (again, once its inline sidechains are
// counted), stamped by its path.
func (f *Finder) remember(in *Info) { f.rememberRead(in, nil) }

// rememberRead is remember of a row read from read, still open (nil: by
// its path): the entry stamps the very file the row was read from, not
// whatever has its path by then (a file replaced by another of the same
// size would get the old one's row).
func (f *Finder) rememberRead(in *Info, read cache.File) {
	store, key := f.rows(in.Session)
	if store == nil || in.Orphan {
		return
	}
	if data, ok := encodeInfo(in); ok {
		var e *cache.Entry
		if read != nil {
			e, ok = cache.StampFile(read, in.Path, in.Size, 0, data)
		} else {
			e, ok = cache.Stamp(in.Path, in.Size, 0, data)
		}
		if ok {
			e.Brief = len(data) // a row is small: all in the index, no folder file of its own
			store.Put(key, e)
			in.cached = in.inlineKnown
			return
		}
	}
	store.Forget(key, in.Path)
}

// rowShards is how many cache files the rows of a root's sessions are
// spread over, by project folder. One a project folder was 659 files to
// open and read on the real-shaped tree (a fifth of a warm listing's
// system calls); one a root is rewritten whole whenever one row changes
// (870 KiB at 5,000 sessions, for the session that is running).
const rowShards = 16

// rows is the store and key of the cache file a session's row is kept in
// (nil without a cache): the root's file in the store of its project
// folder's shard.
func (f *Finder) rows(s *Session) (*cache.Store, string) {
	shards := f.rowStores()
	if shards == nil {
		return nil, ""
	}
	h := fnv.New32a()
	h.Write([]byte(s.ProjectDir))
	key := s.Root.ProjectsDir
	if key == "" {
		key = s.ProjectDir
	}
	return shards[h.Sum32()%rowShards], key
}

// rowStores are the stores of the rows' shards (nil without a cache).
func (f *Finder) rowStores() *[rowShards]*cache.Store {
	if f.Cache == nil {
		return nil
	}
	f.shardsOnce.Do(func() {
		for i := range f.shards {
			f.shards[i] = f.Cache.Sub(strconv.Itoa(i))
		}
	})
	return &f.shards
}

// preloadRows loads the rows of each root's sessions from the cache
// while the roots are listed.
func (f *Finder) preloadRows() {
	if shards := f.rowStores(); shards != nil {
		for _, r := range f.Roots {
			for _, shard := range shards {
				go shard.Blob(r.ProjectsDir)
			}
		}
	}
}

// rowsKnown reports whether the cache holds rows of a root's sessions: a
// listing without any (a first run, --no-cache) has none to take as it
// lists, and opens no file then (Finder.List).
func (f *Finder) rowsKnown() bool {
	if shards := f.rowStores(); shards != nil {
		for _, r := range f.Roots {
			for _, shard := range shards {
				if shard.Known(r.ProjectsDir) {
					return true
				}
			}
		}
	}
	return false
}

// flushRows writes the rows that changed.
func (f *Finder) flushRows() {
	if shards := f.rowStores(); shards != nil {
		for _, shard := range shards {
			shard.Flush()
		}
	}
}

// titleKeys are the fields of the lines a title is read from.
var titleKeys = map[string]string{"custom-title": "customTitle", "ai-title": "aiTitle", "last-prompt": "lastPrompt", "summary": "summary"}

// encodeInfo is a row as cache data; false when it cannot be rebuilt
// exactly (a time in another zone than UTC).
func encodeInfo(in *Info) ([]byte, bool) {
	var e cache.Encoder
	e.Uvarint(lsCacheFormat)
	e.String(in.Project)
	e.String(in.GitBranch)
	e.String(in.Version)
	if !in.StartedAt.IsZero() && in.StartedAt.Location() != time.UTC {
		return nil, false
	}
	e.Bool(!in.StartedAt.IsZero())
	if !in.StartedAt.IsZero() {
		e.Varint(in.StartedAt.UnixNano())
	}
	fromMod := in.UpdatedAt == in.ModTime
	if !fromMod && in.UpdatedAt.Location() != time.UTC {
		return nil, false
	}
	e.Bool(fromMod)
	if !fromMod {
		e.Varint(in.UpdatedAt.UnixNano())
	}
	e.Bool(in.Sidechain)
	e.Bool(in.Empty)
	e.String(in.TitleSource)
	e.Varint(in.titleAt.off)
	e.Varint(in.titleAt.n)
	e.Varint(in.promptAt.off)
	e.Varint(in.promptAt.n)
	e.String(in.media)
	e.Bool(in.inlineKnown)
	e.Varint(int64(in.inline))
	return e.Buf(), true
}

// infoFrom rebuilds a row from cache data, reading its title and first
// prompt from their lines; false when anything does not fit.
func infoFrom(s *Session, data []byte) (*Info, bool) {
	d := cache.NewDecoder(data)
	if d.Uvarint() != lsCacheFormat {
		return nil, false
	}
	in := &Info{Session: s, Project: d.String(), GitBranch: d.String(), Version: d.String()}
	if d.Bool() {
		in.StartedAt = time.Unix(0, d.Varint()).UTC()
	}
	if d.Bool() {
		in.UpdatedAt = s.ModTime
	} else {
		in.UpdatedAt = time.Unix(0, d.Varint()).UTC()
	}
	in.Sidechain, in.Empty = d.Bool(), d.Bool()
	in.TitleSource = d.String()
	in.titleAt = lineRef{d.Varint(), d.Varint()}
	in.promptAt = lineRef{d.Varint(), d.Varint()}
	in.media = d.String()
	in.inlineKnown, in.inline = d.Bool(), int(d.Varint())
	if d.Err() != nil || d.Len() != 0 || in.inline < 0 {
		return nil, false
	}
	if _, ok := titleKeys[in.TitleSource]; !ok && in.TitleSource != "first-prompt" && in.TitleSource != "none" {
		return nil, false
	}
	in.textLater = true // title and first prompt: only for the rows shown (readText)
	return in, true
}

// readText reads the title and first prompt of a row from the cache from
// the lines they come from; false when they are not there as they were.
func readText(in *Info) bool {
	if (in.promptAt.n <= 0 || in.noPrompt) && titleKeys[in.TitleSource] == "" {
		return readTextFrom(in, nil) // no line to read
	}
	fh, err := rawfile.Open(in.Path)
	if err != nil {
		in.textLater = false
		return false
	}
	defer fh.Close()
	return readTextFrom(in, fh)
}

// readTextFrom is readText from the file open as r.
func readTextFrom(in *Info, r io.ReaderAt) bool {
	in.textLater = false
	read := func(at lineRef) []byte {
		if r == nil || at.n <= 0 || at.off < 0 || at.n > firstPromptScanLimit {
			return nil
		}
		b := make([]byte, at.n)
		if _, err := r.ReadAt(b, at.off); err != nil {
			return nil
		}
		return bytes.TrimSpace(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}))
	}
	in.FirstPrompt = in.media
	switch {
	case in.noPrompt:
		in.FirstPrompt = "" // not shown (ListOptions.NoFirstPrompt)
	case in.promptAt.n > 0:
		raw := read(in.promptAt)
		if raw == nil {
			return false
		}
		label, _ := reader.PromptOf(reader.Texts(raw))
		if label == "" {
			return false
		}
		in.FirstPrompt = label
	}
	switch key, ok := titleKeys[in.TitleSource]; {
	case ok:
		raw := read(in.titleAt)
		if raw == nil {
			return false
		}
		in.Title = reader.OneLine(reader.StringField(raw, key))
	case in.TitleSource == "first-prompt":
		in.Title = reader.OneLine(in.FirstPrompt)
	}
	return in.TitleSource == "none" || in.Title != ""
}

// finishRow gives a row from the cache its title and first prompt, or
// reads it again when they are not where they were.
func (f *Finder) finishRow(in *Info) {
	if !in.textLater || readText(in) {
		return
	}
	if again, err := Lite(in.Session); err == nil {
		again.Live = in.Live
		*in = *again
		f.remember(in)
	}
}
