package tokens

import (
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/session"
)

// Selection says which sessions a report counts.
type Selection struct {
	// Args are the <session> arguments; none: every session under the
	// finder's roots.
	Args []string
	// Project keeps the sessions whose recorded cwd is this folder or
	// inside it (an absolute path; "" keeps all).
	Project string
	// Since skips, when no argument names sessions, the files last
	// written before it: they hold nothing in the window.
	Since time.Time
	// Cache gives the project and start of each unchanged main file
	// (nil: each file's head is read).
	Cache *cache.Store
}

// Inputs resolves the session arguments, or lists every session under the
// roots, and reads the head of each main file for its project and start
// (as ls gives them). An argument that names no single session is the
// finder's *session.ResolveError.
func Inputs(finder *session.Finder, sel Selection) ([]Input, error) {
	// The listing and the cache index are small and live till the end:
	// collecting as the heap first doubles (4, 6, 10 MB) was three
	// collections of a warm run over 5,000 sessions, for nothing.
	defer debug.SetGCPercent(debug.SetGCPercent(countPace()))
	var ss []*session.Session
	// What the listing found of each file's start in its cache entry.
	type start struct {
		at      time.Time
		project string
		ok      bool
	}
	var starts map[*session.Session]start
	if len(sel.Args) > 0 {
		seen := map[string]bool{}
		for _, arg := range sel.Args {
			s, err := finder.Resolve(arg)
			if err != nil {
				return nil, err
			}
			key := s.Path
			if why := s.NoConversation(); why != "" { // nothing to count, and why (in a pipe too)
				finder.Report.Info("session %s: %s", s.ID, why)
			}
			if s.Orphan {
				key = s.Folder()
				say := finder.Report.Warn
				if s.MainUnreadable() { // a file of a session named that could not be read: exit 1
					say = finder.Report.FileWarn
				}
				say("session %s: its main transcript %s; counting its subagent transcripts in %s", s.ID, s.MainGone(), s.Where())
			}
			if !seen[key] {
				seen[key] = true
				ss = append(ss, s)
			}
		}
	} else {
		// The cache entry of each main file is checked as soon as the
		// listing finds it (below, its result is taken), and the index
		// read while the folders are listed: on thousands of sessions the
		// checks are most of a run.
		var found func(*session.Session, *rawfile.File)
		if sel.Cache != nil {
			go sel.Cache.Preload()
			var mu sync.Mutex
			starts = map[*session.Session]start{}
			found = func(s *session.Session, fh *rawfile.File) {
				if sel.Since.IsZero() || !s.ModTime.Before(sel.Since) {
					var st start
					st.at, st.project, st.ok = cachedStartOpen(sel.Cache, s, fh)
					mu.Lock()
					starts[s] = st
					mu.Unlock()
				}
			}
		}
		for _, s := range finder.SessionsWith(found) {
			if !sel.Since.IsZero() && s.ModTime.Before(sel.Since) {
				continue
			}
			ss = append(ss, s)
		}
		sel.Cache.Preload() // done (its notes said) before Inputs returns, whatever was found
	}
	// The head of each file gives its project and start (its cache entry,
	// when the listing checked it); read them in parallel, keep the order.
	all := make([]Input, len(ss))
	// A few workers take the sessions in turn: a goroutine a session,
	// for 12 µs of work each, was a tenth of a warm run over thousands.
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(len(ss), runtime.GOMAXPROCS(0)*2) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ss); i = int(next.Add(1) - 1) {
				s := ss[i]
				in := &all[i]
				in.Session = s
				if s.Path == session.StdinPath {
					continue
				}
				in.Agents = finder.AgentPaths(s)
				in.Elsewhere = func(id string) string { return finder.AgentElsewhere(s, id) }
				st, checked := starts[s]
				if !checked || s.Orphan { // an emptied main transcript's start is its subagents'
					st.at, st.project, st.ok = cachedStart(sel.Cache, s)
				}
				if st.ok {
					in.Project, in.Started, in.startKnown = st.project, st.at, true
				} else if started, project, err := session.Start(s); err == nil {
					// As ls and show give them: the first cwd and timestamp of
					// the main file, none when no line has one. No skip when
					// the first timestamp is after --until: entries are not
					// always in time order (clock changes, merged files), and
					// the window is applied to each response.
					in.Project, in.Started, in.startKnown = project, started, true
				}
			}
		})
	}
	wg.Wait()
	if sel.Project == "" {
		return all, nil
	}
	// Filtered in place: appended one by one to a new slice, 5,000
	// inputs of 200 bytes were 2-4 ms of copies, growth and page faults.
	inputs := all[:0]
	for _, in := range all {
		if session.InProject(in.Project, sel.Project) {
			inputs = append(inputs, in)
		}
	}
	return inputs, nil
}

// ScopedViolation is an exceeded (or unchecked) budget and what it was
// checked on: "session <id>", or "total".
type ScopedViolation struct {
	Violation
	Scope string
}

// ViolationLines says each violation with its scope ("total: …"), the
// exceeded budgets apart from those that could not be checked.
func ViolationLines(vs []ScopedViolation) (exceeded, unchecked []string) {
	for _, v := range vs {
		if v.Unchecked() {
			unchecked = append(unchecked, v.Scope+": "+v.String())
		} else {
			exceeded = append(exceeded, v.Scope+": "+v.String())
		}
	}
	return exceeded, unchecked
}

// CheckBudgets checks the report's sessions against the budget, each on
// its own, or their sum when total is set (a report of one session is
// checked as that session).
func (r *Report) CheckBudgets(b Budget, total bool) []ScopedViolation {
	if !b.Set() {
		return nil
	}
	var out []ScopedViolation
	if total {
		scope := "total"
		if len(r.Sessions) == 1 {
			scope = "session " + r.Sessions[0].ID
		}
		for _, v := range b.Check(r.Total) {
			out = append(out, ScopedViolation{v, scope})
		}
		return out
	}
	for _, s := range r.Sessions {
		for _, v := range b.Check(s.Total) {
			out = append(out, ScopedViolation{v, "session " + s.ID})
		}
	}
	return out
}

// MissingAgentCount is how many agents the report's sessions name whose
// transcript is missing: in no total, and no run of --by agent-type.
func (r *Report) MissingAgentCount() int {
	n := 0
	for _, sr := range r.all {
		n += len(sr.MissingAgents)
	}
	return n
}

// MissingAgentsArg is the session argument that shows the agents whose
// transcript is missing (SessionReport.MissingAgents), not read from
// standard input: the short id of the one session that has any,
// "<session>" when several have, "" when none has.
func (r *Report) MissingAgentsArg() string {
	arg := ""
	for _, sr := range r.all {
		if len(sr.MissingAgents) > 0 && sr.Session.Path != session.StdinPath {
			if arg != "" {
				return "<session>"
			}
			arg = sr.ID[:min(8, len(sr.ID))]
		}
	}
	return arg
}

// UnpricedModels are the models of the report's responses that have no
// price, sorted; "(no model)" stands for responses that name none.
func (r *Report) UnpricedModels() []string {
	var models []string
	for m := range r.Unpriced {
		if m == "" {
			m = "(no model)"
		}
		models = append(models, m)
	}
	sort.Strings(models)
	return models
}
