package session

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// ListOptions filter a listing.
type ListOptions struct {
	Project      string    // a cwd, or a folder the cwd is inside
	Since, Until time.Time // activity overlapping this window
	IncludeEmpty bool      // also list files without a conversation
	Limit        int       // 0: no limit
	Now          time.Time // the clock of the order (CompareActivity); zero: time.Now()
	// NoFirstPrompt: the caller shows a row's first prompt only as its
	// title, so a row from the cache whose title is another leaves
	// Info.FirstPrompt empty (its line is not read).
	NoFirstPrompt bool
}

// Listing is the result of List.
type Listing struct {
	Sessions []*Info
	Matched  int        // sessions that passed the filters, before Limit
	Hidden   []*Session // metadata-only or empty files left out (--strict checks them too)
	Found    int        // session files found, before any filter
	// Unread counts the session files that could not be read (each
	// warned, not listed); UTF16 of them were saved as UTF-16.
	Unread, UTF16 int
}

// UnreadNote is what a command that found nothing adds about the files
// it could not read (each warned as it was met), utf16 of them saved as
// UTF-16: "" when it read them all. what names them: "session" (the
// main transcripts a listing could not read) or "transcript" (any file a
// count could not read, a subagent's too).
func UnreadNote(what string, unread, utf16 int) string {
	switch {
	case unread == 0:
		return ""
	case utf16 == unread:
		return fmt.Sprintf(" (%d %s file(s) skipped as UTF-16, said above)", utf16, what)
	case utf16 > 0:
		return fmt.Sprintf(" (%d %s file(s) could not be read, %d of them UTF-16, said above)", unread, what, utf16)
	default:
		return fmt.Sprintf(" (%d %s file(s) could not be read, said above)", unread, what)
	}
}

// NoneFound is what an empty listing says on stderr, and why: the
// filters that ruled out every session found, and the session files that
// could not be read. where is the finder's Where.
func (l Listing) NoneFound(where string, filters Filters) string {
	unread := UnreadNote("session", l.Unread, l.UTF16)
	if names := filters.Names(false); l.Found > 0 && names != "" {
		// No count: files the window rules out by their time are never
		// read, so how many of them hold a conversation is not known.
		return "no session found" + where + " that matches " + names + unread
	}
	return "no sessions found" + where + unread
}

// Files are the sessions of the listing.
func (l Listing) Files() []*Session {
	out := make([]*Session, len(l.Sessions))
	for i, in := range l.Sessions {
		out[i] = in.Session
	}
	return out
}

// List reads the head and tail of each session (in parallel), filters and
// sorts them by last activity, newest first (CompareActivity: a time in
// the future does not keep a session first), and adds subagent counts and
// live state to those it returns.
func (f *Finder) List(o ListOptions) Listing {
	var cands []*Session
	f.preloadRows()
	// A warm run's rows come from the cache as the listing opens each
	// file: one open a session, not a stat by path and then an open. The
	// rows of files that changed are read below, the largest first.
	var mu sync.Mutex
	warm := map[*Session]*Info{}
	var fromCache func(*Session, *rawfile.File)
	if f.rowsKnown() {
		fromCache = func(s *Session, fh *rawfile.File) {
			if fh == nil || !o.Since.IsZero() && s.ModTime.Before(o.Since) {
				return
			}
			// --all shows every row: its text is read in this open too.
			if in := f.cachedRow(s, fh, o.Limit == 0, o.NoFirstPrompt); in != nil {
				mu.Lock()
				warm[s] = in
				mu.Unlock()
			}
		}
	}
	all := f.sessionsQuietOrphans(fromCache)
	for _, s := range all {
		// A file last written before the window cannot hold activity in it.
		if !o.Since.IsZero() && s.ModTime.Before(o.Since) {
			continue
		}
		cands = append(cands, s)
	}
	// Workers take the files in turn: a goroutine a file was thousands of
	// goroutines, and the scheduler's wake-ups and sleeps cost more than
	// their work on a warm run. When every row is likely shown, its text
	// is read in the same open as its cache check.
	infos := make([]*Info, len(cands))
	errs := make([]error, len(cands))
	withText := o.Limit == 0 || len(cands) <= o.Limit
	order := bigFirst(cands)
	each(len(cands), func(k int) {
		i := order[k]
		in, err := warm[cands[i]], error(nil)
		// An emptied main transcript's row is its subagents' (emptiedMain
		// made it an Orphan after its file's row was looked up).
		if in == nil || withText && o.Limit > 0 || cands[i].Orphan {
			in, err = f.lite(cands[i], withText, o.NoFirstPrompt)
		}
		infos[i], errs[i] = in, err
		// A row that is shown is finished here too: one pass, where a
		// second after the first waited for its slowest file (a 1.0.x
		// session counted whole).
		if withText && in != nil && o.keeps(in) {
			f.finish(in)
		}
	})
	out := Listing{Found: len(all)}
	for i, err := range errs {
		if err != nil {
			s := cands[i]
			where := s.Where()
			f.Report.Warn("%s: %s", where, diag.FileErrorText(where, err))
			out.Unread++
			if errors.Is(err, reader.ErrUTF16) {
				out.UTF16++
			}
		}
	}

	for _, in := range infos {
		switch {
		case in == nil:
			continue
		case in.Sidechain:
			f.Report.Note("%s: starts with a sidechain entry; not listed as a session", in.Path)
			continue
		case in.Empty && !o.IncludeEmpty:
			out.Hidden = append(out.Hidden, in.Session)
			continue
		case !o.keeps(in):
			continue
		}
		out.Sessions = append(out.Sessions, in)
	}
	now := o.clock()
	slices.SortStableFunc(out.Sessions, func(a, b *Info) int { return CompareActivity(a, b, now) })
	out.Matched = len(out.Sessions)
	f.sayOrphans(out.Files()) // those listed: one without conversation is not, unless --empty
	if o.Limit > 0 && len(out.Sessions) > o.Limit {
		out.Sessions = out.Sessions[:o.Limit]
	}
	live := LiveSessions(f.Roots)
	for _, in := range out.Sessions {
		if l, ok := live[in.ID]; ok {
			in.Live = &l
		}
	}
	// The rows not finished yet, in parallel.
	each(len(out.Sessions), func(i int) {
		if in := out.Sessions[i]; !in.finished {
			f.finishRow(in)
			f.finish(in)
		}
	})
	f.flushRows()
	return out
}

// keeps reports whether a row passes the filters of o (a sidechain file or
// an empty one is left out before).
func (o ListOptions) keeps(in *Info) bool {
	switch {
	case in.Sidechain, in.Empty && !o.IncludeEmpty:
		return false
	case o.Project != "" && !InProject(in.Project, o.Project):
		return false
	case !o.Since.IsZero() && in.UpdatedAt.Before(o.Since):
		return false
	case !o.Until.IsZero() && activeFrom(in).After(o.Until):
		return false
	}
	return true
}

// finish gives a row its subagents: a 1.0.x session's inline sidechains
// are counted from its whole file (then kept in the cache).
func (f *Finder) finish(in *Info) {
	in.Subagents = Subagents(f.agents(in.Session, true), in)
	if in.inlineKnown && !in.cached {
		f.remember(in)
	}
	in.finished = true
}

// bigFirst is the order the rows of a listing are read in: files of a
// MiB or more first, largest first, then the others as listed. A cold
// row of a 1.0.x session reads its file whole (its inline sidechains):
// one taken last kept a worker busy while the others had nothing left
// (ls cold on the real-shaped tree: 101 -> 93 ms). The small files keep
// the listing's order, folder by folder, which a warm run's cache checks
// read fastest in (sorting them all by size cost 5 % at 5,000 sessions).
func bigFirst(ss []*Session) []int {
	const big = 1 << 20
	order := make([]int, 0, len(ss))
	for i, s := range ss {
		if s.Size >= big {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ss[b].Size, ss[a].Size) })
	for i, s := range ss {
		if s.Size < big {
			order = append(order, i)
		}
	}
	return order
}

// activeFrom is when a session's activity began, for --until: its start,
// or for a file without a timestamp its last write.
func activeFrom(in *Info) time.Time {
	if in.StartedAt.IsZero() {
		return in.UpdatedAt
	}
	return in.StartedAt
}

// each runs fn(0) … fn(n-1) on a few workers that take the indexes in
// turn: as many as there are processors, and at least 4, so that a file
// read from a slow disk does not hold the others up.
func each(n int, fn func(i int)) { spread(n, min(n, max(4, runtime.GOMAXPROCS(0))), fn) }

// spread runs fn(0) … fn(n-1) on workers goroutines that take the indexes
// in turn (inline for fewer than two).
func spread(n, workers int, fn func(i int)) {
	if workers < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		})
	}
	wg.Wait()
}
