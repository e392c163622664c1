package search

import (
	"sort"
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
// roots. Sessions come newest activity first (without a selection, newest
// file first: the same but for a copied file), each with what a listing
// shows of it (without a selection, read by Run for the sessions with a
// hit only). The selection's project applies to both; its window chooses
// among every session as ls does (a session named is searched whatever
// its dates, and the window then applies to its hits).
func Targets(f *session.Finder, args []string, sel Selection) ([]Target, error) {
	if len(args) == 0 && sel == (Selection{}) {
		// Every session, newest file first: what a listing shows of one
		// is read only when it has a hit (Run).
		ss := f.Sessions()
		out := make([]Target, len(ss))
		for i, s := range ss {
			out[i] = Target{Session: s}
		}
		return out, nil
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
	sort.SliceStable(out, func(i, j int) bool { return updated(out[i]).After(updated(out[j])) })
	return out, nil
}

// updated is a target's last activity, for the order of the output.
func updated(t Target) time.Time {
	if t.Info != nil {
		return t.Info.UpdatedAt
	}
	return t.Session.ModTime
}
