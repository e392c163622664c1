package search

import (
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// Selection narrows the sessions searched, as ls and tokens narrow them.
type Selection struct {
	Project      string    // a cwd, or a folder the cwd is inside ("": all)
	Since, Until time.Time // sessions active in the window (and hits in it)
}

// Targets lists what to search: the sessions named (a session id, a
// prefix, a path, "latest" or "-"; an argument that names no session is an
// error, a *session.ResolveError), or every session under the finder's
// roots. Sessions come newest activity first, as ls lists them, each with
// what a listing shows of it. The selection's project applies to both; its
// window chooses among every session as ls does (a session named is
// searched whatever its dates, and the window then applies to its hits).
func Targets(f *session.Finder, args []string, sel Selection) ([]Target, error) {
	if len(args) == 0 && sel == (Selection{}) {
		// Every session, ordered as ls orders them: only what that needs
		// is read (ls also counts subagents and looks for live sessions).
		return byActivity(f, f.Sessions()), nil
	}
	if len(args) == 0 {
		l := f.List(session.ListOptions{Project: sel.Project, Since: sel.Since, Until: sel.Until, IncludeEmpty: true})
		out := make([]Target, len(l.Sessions))
		for i, in := range l.Sessions {
			out[i] = Target{Session: in.Session, Info: in}
		}
		return out, nil
	}
	var out []Target
	seen := map[string]bool{}
	for _, a := range args {
		s, err := f.Resolve(a)
		if err != nil {
			return nil, err
		}
		if seen[s.Path] {
			continue
		}
		seen[s.Path] = true
		t := Target{Session: s}
		if s.Path != session.StdinPath {
			if in, err := session.Lite(s); err == nil {
				t.Info = in
			}
		}
		if sel.Project != "" && (t.Info == nil || !session.InProject(t.Info.Project, sel.Project)) {
			continue
		}
		out = append(out, t)
	}
	now := time.Now()
	sort.SliceStable(out, func(i, j int) bool { return session.CompareActivity(listed(out[i]), listed(out[j]), now) < 0 })
	return out, nil
}

// byActivity reads the head and tail of each session (in parallel), leaves
// out the files that are not sessions (they start with a sidechain entry,
// as ls leaves them out) and orders the others by their last activity,
// newest first.
func byActivity(f *session.Finder, ss []*session.Session) []Target {
	out := make([]Target, len(ss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(4, 2*runtime.GOMAXPROCS(0)))
	for i, s := range ss {
		out[i].Session = s
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if in, err := session.Lite(s); err == nil {
				out[i].Info = in
			}
		}()
	}
	wg.Wait()
	kept := out[:0]
	for _, t := range out {
		if t.Info != nil && t.Info.Sidechain {
			f.Report.Note("%s: starts with a sidechain entry; not searched as a session", t.Session.Path)
			continue
		}
		kept = append(kept, t)
	}
	now := time.Now()
	sort.SliceStable(kept, func(i, j int) bool { return session.CompareActivity(listed(kept[i]), listed(kept[j]), now) < 0 })
	return kept
}

// listed is a target as ls lists it, for the order of the output (ls's:
// session.CompareActivity): a file whose head and tail could not be read
// was last active when it was last written.
func listed(t Target) *session.Info {
	if t.Info != nil {
		return t.Info
	}
	return &session.Info{Session: t.Session, UpdatedAt: t.Session.ModTime}
}
