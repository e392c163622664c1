// Package archive keeps a copy of every Claude Code transcript, so that
// none is lost to the cleanup Claude Code runs at start-up (it deletes
// transcripts older than cleanupPeriodDays, 30 by default).
//
// The archive is a projects tree like the one it copies
// (<archive>/projects/<project-key>/…), so every cctx command reads it
// with --dir, and reads it anyway when it exists (session.Roots). Files
// are compressed with zstd (.jsonl.zst, in the seekable format that
// internal/reader reads by offset) unless asked not to.
//
// A run is incremental and safe:
//   - a file unchanged since the last run (size and modification time) is
//     skipped after a stat;
//   - a file that grew is extended with its new complete lines only
//     (Claude Code may be writing the last one), after checking that the
//     archived bytes are still its start (SHA-256);
//   - a file whose start changed is archived anew, and the archived
//     version is kept beside it (<name>@1.jsonl.zst), never overwritten;
//     unless it now holds no conversation (emptied, truncated): then the
//     archived copy stays the current one (kindKept), since a version is
//     read by no command;
//   - a file deleted at the source stays in the archive;
//   - every file is written to a temporary name, synced and renamed into
//     place: a run killed at any point leaves every archived file whole,
//     and the next run finishes the work (see recoverEntry);
//   - files are 0600 and folders 0700 (transcripts hold secrets); links
//     are followed where the listing follows them (findSources).
package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// tmpSuffix ends the name of a file being written; a run removes those an
// interrupted run left.
const tmpSuffix = ".cctx-tmp"

// Options say what to archive where.
type Options struct {
	Roots      []session.Root // the live roots (not an archive)
	Dir        string         // the archive
	NoCompress bool           // store new files as plain .jsonl
	Report     *diag.Reporter
	Now        func() time.Time
	// Hook, for tests, is called at points of a run: "copying" once a
	// file's temporary copy holds some bytes, "committed" once the file
	// is in place and before the manifest records it.
	Hook func(point, path string)
}

// Result is what a run did.
type Result struct {
	Dir       string
	Files     int // transcript files under the roots
	New       int // archived for the first time
	Extended  int // grown: their new lines added
	Versioned int // their start changed: archived anew, the old version kept
	Unchanged int
	Empty     int // nothing whole in them yet (empty, or one line being written): nothing archived
	// Kept: their start changed and they now hold no conversation
	// (emptied, truncated to a newline or NUL bytes, metadata only),
	// while the archive holds a copy: that copy stays the current one.
	Kept      int
	Failed    int   // could not be read or archived (said on stderr)
	TextAdded int64 // transcript bytes added by this run
	// The archive as a whole: the transcript bytes it holds and what they
	// take on disk.
	TextTotal, StoredTotal int64
}

// Ratio is the archive's compression ratio (text / stored), 0 if empty.
func (r Result) Ratio() float64 {
	if r.StoredTotal == 0 {
		return 0
	}
	return float64(r.TextTotal) / float64(r.StoredTotal)
}

// ErrBusy is returned when another run holds the archive's lock.
var ErrBusy = errors.New("another cctx archive is running on this archive")

// Check refuses an archive inside a root or a root inside the archive:
// the archive would copy itself.
func Check(roots []session.Root, dir string) error {
	if err := isDirOrMissing(dir); err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, r := range roots {
		p, err := filepath.Abs(r.ProjectsDir)
		if err != nil {
			continue
		}
		if inside(abs, p) || inside(p, abs) {
			return fmt.Errorf("the archive %s and the transcripts %s overlap: choose an archive outside the folders it copies", dir, r.ProjectsDir)
		}
	}
	return nil
}

func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Run archives every transcript under the roots into o.Dir.
func Run(o Options) (Result, error) {
	res := Result{Dir: o.Dir}
	if o.Report == nil {
		o.Report = diag.Discard()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := Check(o.Roots, o.Dir); err != nil {
		return res, err
	}
	projects := filepath.Join(o.Dir, "projects")
	if err := os.MkdirAll(projects, 0o700); err != nil {
		return res, err
	}
	unlock, err := lock(o.Dir)
	if err != nil {
		return res, err
	}
	defer unlock()
	sweep(projects)
	m, err := loadManifest(o.Dir)
	if err != nil {
		return res, fmt.Errorf("%s: %w", filepath.Join(o.Dir, session.ArchiveMarker), err)
	}
	if err := m.open(); err != nil {
		return res, err
	}
	defer m.close()
	a := &archiver{o: o, m: m, projects: projects}
	srcs := findSources(o.Roots, o.Report)
	res.Files = len(srcs)
	if err := a.all(srcs, &res); err != nil {
		return res, err // a full disk: stop, nothing archived is lost
	}
	for _, e := range m.entries {
		res.TextTotal += e.Text
		res.StoredTotal += e.StoredSize
	}
	if err := m.finish(o.Now(), res.Files); err != nil {
		return res, &writeError{path: m.path, err: err}
	}
	return res, nil
}

// all archives the sources, one per core at a time (compression is what
// a first run spends its time on), and counts what was done. A write
// error stops the run.
func (a *archiver) all(srcs []source, res *Result) error {
	var mu sync.Mutex
	var fatal error
	next := make(chan source)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(srcs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				k, added, err := a.one(s)
				mu.Lock()
				var we *writeError
				switch {
				case errors.As(err, &we):
					if fatal == nil {
						fatal = err
					}
				case err != nil:
					a.o.Report.FileError(s.Path, err)
					res.Failed++
				default:
					res.TextAdded += added
					switch k {
					case kindNew:
						res.New++
					case kindExtended:
						res.Extended++
					case kindVersioned:
						res.Versioned++
					case kindEmpty:
						res.Empty++
					case kindKept:
						res.Kept++
					default:
						res.Unchanged++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range srcs {
		mu.Lock()
		stop := fatal != nil
		mu.Unlock()
		if stop {
			break
		}
		next <- s
	}
	close(next)
	wg.Wait()
	return fatal
}

// writeError is a failure to write the archive (a full disk): the run
// stops.
type writeError struct {
	path string
	err  error
}

func (e *writeError) Error() string {
	return fmt.Sprintf("cannot write the archive: %s: %s (what was archived before is intact)", e.path, diag.FileErrorText(e.path, e.err))
}
func (e *writeError) Unwrap() error { return e.err }

// lock takes the archive's lock, waiting up to a minute for another run
// (two sessions ending at once, each with a SessionEnd hook).
func lock(dir string) (func(), error) {
	p := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for i := 0; ; i++ {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if ok {
			return func() { f.Close() }, nil
		}
		if i == 600 {
			f.Close()
			return nil, fmt.Errorf("%w (lock %s held for a minute)", ErrBusy, p)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sweep removes the temporary files an interrupted run left.
func sweep(projects string) {
	filepath.WalkDir(projects, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(d.Name(), tmpSuffix) {
			os.Remove(p)
		}
		return nil
	})
}

type kind int

const (
	kindUnchanged kind = iota
	kindEmpty
	kindNew
	kindExtended
	kindVersioned
	kindKept
)

type archiver struct {
	o        Options
	m        *manifest
	projects string
}

// storedName is where a source is archived: .zst added to a transcript
// unless --no-compress; sidecars stay plain.
func (a *archiver) storedName(s source) string {
	if s.Whole || a.o.NoCompress {
		return s.Rel
	}
	return s.Rel + ".zst"
}

func (a *archiver) abs(rel string) string { return filepath.Join(a.projects, filepath.FromSlash(rel)) }

// one archives one source: skipped when unchanged, else extended, copied
// anew, or archived as a new version.
func (a *archiver) one(s source) (kind, int64, error) {
	cur := a.current(s)
	if cur != nil && cur.SrcSize == s.Size && cur.SrcMtime == s.Mtime.UnixNano() {
		return kindUnchanged, 0, nil
	}
	f, err := rawfile.OpenOS(s.Path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	size := st.Size() // it may have grown since it was listed
	end := size
	if !s.Whole {
		if end, err = lastNewline(f, size); err != nil {
			return 0, 0, err
		}
	}
	touch := func(e *entry) (kind, int64, error) { // nothing new to copy
		e.SrcSize, e.SrcMtime = s.Size, s.Mtime.UnixNano()
		return kindUnchanged, 0, a.m.record(e)
	}
	if cur != nil && end >= cur.Text {
		// The archived bytes must still be the file's start.
		h := sha256.New()
		if _, err := io.Copy(h, io.NewSectionReader(f, 0, cur.Text)); err != nil {
			return 0, 0, err
		}
		if hex.EncodeToString(h.Sum(nil)) == cur.Hash && (!s.Whole || end == cur.Text) {
			if end == cur.Text {
				return touch(cur)
			}
			_, err := a.write(s, f, cur.Stored, cur, h, end)
			return kindExtended, end - cur.Text, err
		}
	}
	if end == 0 && cur == nil {
		return kindEmpty, 0, nil // an empty file, or only a line being written
	}
	if cur == nil {
		_, err := a.write(s, f, a.storedName(s), nil, sha256.New(), end)
		return kindNew, end, err
	}
	// Its start changed. A transcript that now holds no conversation
	// (emptied, truncated to a newline, NUL bytes or metadata lines)
	// would demote the archived copy to a version, which no command
	// reads: the session would be lost from every listing. The archived
	// copy stays the current one; the file's stamp is recorded, so that
	// the next runs skip it until it changes again.
	if !s.Whole {
		talks, err := reader.HoldsConversation(io.NewSectionReader(f, 0, end))
		if err == nil && !talks {
			a.o.Report.Warn("%s: holds no conversation now (%d bytes: emptied or truncated); the archive's copy (%d bytes of transcript) is kept as the current one, not replaced",
				s.Path, end, cur.Text)
			_, _, err := touch(cur)
			return kindKept, 0, err
		}
	}
	// Keep what was archived as a version, and archive the file anew
	// under the same name.
	if err := a.keepVersion(cur); err != nil {
		return 0, 0, err
	}
	versions := cur.Versions + 1
	_, err = a.write(s, f, cur.Stored, &entry{Versions: versions}, sha256.New(), end)
	return kindVersioned, end, err
}

// current is the manifest's entry for a source when its stored file is as
// the entry says; else what the stored file holds, read again (a run
// killed between putting a file in place and recording it); else nil.
func (a *archiver) current(s source) *entry {
	e := a.m.get(s.Rel)
	if e != nil {
		if st, err := os.Stat(a.abs(e.Stored)); err == nil && st.Size() == e.StoredSize && st.ModTime().UnixNano() == e.StoredMtime {
			return e
		}
	}
	names := []string{a.storedName(s)}
	if e != nil && e.Stored != names[0] {
		names = append([]string{e.Stored}, names...)
	}
	if !s.Whole {
		names = append(names, s.Rel, s.Rel+".zst")
	}
	for _, n := range names {
		if re := a.recoverEntry(s, n, e); re != nil {
			return re
		}
	}
	return nil
}

// recoverEntry reads a stored file again: its text's length and hash. One
// that cannot be read is moved aside as a version (never deleted).
func (a *archiver) recoverEntry(s source, stored string, old *entry) *entry {
	p := a.abs(stored)
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	e := &entry{Path: s.Rel, Stored: stored, Whole: s.Whole, StoredSize: st.Size(), StoredMtime: st.ModTime().UnixNano()}
	if old != nil {
		e.Versions = old.Versions
	}
	zf, err := reader.OpenFile(p)
	var n int64
	h := sha256.New()
	if err == nil {
		var r io.ReadCloser
		if r, err = zf.Section(0, -1); err == nil {
			n, err = io.Copy(h, r)
			r.Close()
		}
		zf.Close()
	}
	if err != nil {
		a.o.Report.Warn("%s: %v; kept as an older version, archived anew", p, err)
		a.keepVersion(e)
		return nil
	}
	e.Text, e.Hash = n, hex.EncodeToString(h.Sum(nil))
	return e
}
