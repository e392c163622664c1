package session

import (
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
)

// ListOptions filter a listing.
type ListOptions struct {
	Project      string    // a cwd, or a folder the cwd is inside
	Since, Until time.Time // activity overlapping this window
	IncludeEmpty bool      // also list files without a conversation
	Limit        int       // 0: no limit
}

// Listing is the result of List.
type Listing struct {
	Sessions []*Info
	Matched  int // sessions that passed the filters, before Limit
	Empty    int // metadata-only or empty files left out
	Found    int // session files found, before any filter
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
// sorts them by last activity, newest first, and adds subagent counts and
// live state to those it returns.
func (f *Finder) List(o ListOptions) Listing {
	var cands []*Session
	all := f.Sessions()
	for _, s := range all {
		// A file last written before the window cannot hold activity in it.
		if !o.Since.IsZero() && s.ModTime.Before(o.Since) {
			continue
		}
		cands = append(cands, s)
	}
	infos := make([]*Info, len(cands))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(4, runtime.GOMAXPROCS(0)*2))
	for i, s := range cands {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			in, err := f.lite(s)
			if err != nil {
				where := s.Path
				if s.Orphan {
					where = s.Folder()
				}
				f.Report.Warn("%s: %s", where, diag.FileErrorText(where, err))
				return
			}
			infos[i] = in
		}()
	}
	wg.Wait()

	out := Listing{Found: len(all)}
	for _, in := range infos {
		switch {
		case in == nil:
			continue
		case in.Sidechain:
			f.Report.Note("%s: starts with a sidechain entry; not listed as a session", in.Path)
			continue
		case in.Empty && !o.IncludeEmpty:
			out.Empty++
			continue
		case o.Project != "" && !InProject(in.Project, o.Project):
			continue
		case !o.Since.IsZero() && in.UpdatedAt.Before(o.Since):
			continue
		case !o.Until.IsZero() && activeFrom(in).After(o.Until):
			continue
		}
		out.Sessions = append(out.Sessions, in)
	}
	sort.SliceStable(out.Sessions, func(i, j int) bool {
		a, b := out.Sessions[i], out.Sessions[j]
		if !a.UpdatedAt.Equal(b.UpdatedAt) {
			return a.UpdatedAt.After(b.UpdatedAt)
		}
		return a.ID > b.ID
	})
	out.Matched = len(out.Sessions)
	if o.Limit > 0 && len(out.Sessions) > o.Limit {
		out.Sessions = out.Sessions[:o.Limit]
	}
	live := LiveSessions(f.Roots)
	for _, in := range out.Sessions {
		if l, ok := live[in.ID]; ok {
			in.Live = &l
		}
	}
	// Subagents, in parallel: a 1.0.x session's inline sidechains are
	// counted from its whole file (then kept in the cache).
	for _, in := range out.Sessions {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			f.finishRow(in)
			in.Subagents = Subagents(f.Agents(in.Session), in)
			if in.inlineKnown && !in.cached {
				f.remember(in)
			}
		}()
	}
	wg.Wait()
	f.Cache.Flush()
	return out
}

// activeFrom is when a session's activity began, for --until: its start,
// or for a file without a timestamp its last write.
func activeFrom(in *Info) time.Time {
	if in.StartedAt.IsZero() {
		return in.UpdatedAt
	}
	return in.StartedAt
}
