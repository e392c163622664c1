package tokens

import (
	"math"
	"runtime"
	"sort"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Input is one session to count, with what a report says about it.
type Input struct {
	Session *session.Session
	Agents  []session.Agent
	Project string    // recorded cwd, or the project folder's name
	Started time.Time // first timestamp; orders sessions so that a resumed session's replayed lines belong to the original
}

// Window keeps only responses whose time is inside it (zero: unbounded).
type Window struct{ Since, Until time.Time }

func (w Window) contains(t time.Time) bool {
	if !w.Since.IsZero() && t.Before(w.Since) {
		return false
	}
	if !w.Until.IsZero() && t.After(w.Until) {
		return false
	}
	return true
}

// Report is the deduplicated usage of a set of sessions.
type Report struct {
	Prices    *Prices
	Total     Total
	Sessions  []*SessionReport
	Responses []Response        // every counted response, sessions in order, then by time (Build only)
	Unpriced  map[string]int64  // model → responses without a price
	projectOf map[string]string // session id → project
	counter   *Counter          // every response read,
	kept      []int32           // and the rows of the counted ones, in report order
}

// SessionReport is one session's share of a Report.
type SessionReport struct {
	Input
	ID        string // the session id ("" from stdin without a sessionId)
	Total     Total
	Agents    []Group // "" (main) first, then subagents by id
	Models    []Group // by tokens, largest first
	Responses []Response
}

// Group is a total under a key (an agent id, a model, a day, a project).
type Group struct {
	Key   string
	Total Total
}

// Build reads every session in inputs (oldest first, each response counted
// once across all of them), keeps the responses inside w, and totals them.
// Report.Responses lists every counted response.
func Build(inputs []Input, prices *Prices, w Window, o reader.Options, onErr func(path string, err error)) *Report {
	return build(inputs, prices, w, o, onErr, true)
}

// BuildTotals is Build for a report that prints totals and groups only:
// Report.Responses and SessionReport.Responses stay empty, and a response
// costs a fixed-size row while the sessions are read, not its ids.
func BuildTotals(inputs []Input, prices *Prices, w Window, o reader.Options, onErr func(path string, err error)) *Report {
	return build(inputs, prices, w, o, onErr, false)
}

func build(inputs []Input, prices *Prices, w Window, o reader.Options, onErr func(path string, err error), detail bool) *Report {
	sorted := append([]Input(nil), inputs...)
	// A resumed session starts by replaying the old one's lines, so both
	// can have the same first timestamp: then the file written to last
	// later is the newer session.
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if !a.Started.Equal(b.Started) {
			return a.Started.Before(b.Started)
		}
		return a.Session.ModTime.Before(b.Session.ModTime)
	})

	rep := &Report{Prices: prices, Unpriced: map[string]int64{}, projectOf: map[string]string{}}
	// Sessions are read in parallel, each into its own counter, and merged
	// in start order so that a replayed response stays with the original.
	// GOMAXPROCS sessions are read at a time; a pending slot is freed only
	// when its counter has been merged, so a few counters exist at once,
	// however many sessions, and a slow session does not stall the rest.
	n := len(sorted)
	counters := make([]*Counter, n)
	firstIDs := make([]string, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	workers := make(chan struct{}, runtime.GOMAXPROCS(0))
	slots := make(chan struct{}, 8*runtime.GOMAXPROCS(0))
	go func() {
		for i, in := range sorted {
			slots <- struct{}{}
			workers <- struct{}{}
			go func() {
				defer func() { <-workers; close(done[i]) }()
				c := newCounter(detail)
				ReadSession(c, in.Session, in.Agents, o, func(e *reader.Entry, _ bool) {
					if firstIDs[i] == "" && e.SessionID != "" {
						firstIDs[i] = e.SessionID
					}
				}, onErr)
				counters[i] = c
			}()
		}
	}()
	c := newCounter(detail)
	for i, in := range sorted {
		<-done[i]
		sr := &SessionReport{Input: in, ID: in.Session.ID}
		if in.Session.Path == session.StdinPath {
			sr.ID = firstIDs[i]
			ci := counters[i]
			id := ci.name(sr.ID)
			for j := range int32(ci.rows.len()) {
				ci.rows.at(j).session = id
			}
		}
		c.Merge(counters[i])
		counters[i] = nil
		<-slots
		rep.projectOf[sr.ID] = in.Project
		rep.Sessions = append(rep.Sessions, sr)
	}
	// Attribute each response to the session that saw it first; the main
	// copy of a sidechain replay may move it to a later session, so use the
	// response's own session rather than the reading order. Sessions in
	// start order, each a timeline where subagent responses interleave
	// with the main ones.
	order := make([]int, len(c.names)) // name index of a session → its place, -1: not a session
	for i := range order {
		order[i] = -1
	}
	for i, sr := range rep.Sessions {
		order[c.name(sr.ID)] = i
	}
	when := func(r *row) int64 {
		if !r.hasTime {
			return math.MinInt64
		}
		return r.time
	}
	kept := make([]int32, 0, c.rows.len())
	for i := range int32(c.rows.len()) {
		r := c.rows.at(i)
		if int(r.session) >= len(order) || order[r.session] < 0 {
			continue
		}
		if !r.hasTime && (!w.Since.IsZero() || !w.Until.IsZero()) || r.hasTime && !w.contains(time.Unix(0, r.time)) {
			continue
		}
		kept = append(kept, i)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := c.rows.at(kept[i]), c.rows.at(kept[j])
		if oa, ob := order[a.session], order[b.session]; oa != ob {
			return oa < ob
		}
		return when(a) < when(b)
	})
	rep.counter, rep.kept = c, kept
	if detail {
		rep.Responses = make([]Response, len(kept))
		for i, k := range kept {
			rep.Responses[i] = c.response(k)
		}
	}
	for start := 0; start < len(kept); {
		sid := c.rows.at(kept[start]).session
		end := start
		for end < len(kept) && c.rows.at(kept[end]).session == sid {
			end++
		}
		sr := rep.Sessions[order[sid]]
		if detail {
			sr.Responses = rep.Responses[start:end:end]
		}
		agents, models := map[string]*Total{}, map[string]*Total{}
		for _, k := range kept[start:end] {
			r := c.response(k)
			sr.Total.Add(&r, prices)
			groupAdd(agents, r.AgentID, &r, prices)
			groupAdd(models, r.Model, &r, prices)
			if _, ok := prices.Cost(&r); !ok {
				rep.Unpriced[r.Model]++
			}
		}
		sr.Agents = groups(agents, func(a, b Group) bool {
			if (a.Key == "") != (b.Key == "") {
				return a.Key == ""
			}
			return a.Key < b.Key
		})
		sr.Models = groups(models, byTokens)
		rep.Total.Merge(sr.Total)
		start = end
	}
	return rep
}

// DropEmpty removes sessions without any counted response (metadata-only
// files, or nothing inside the window).
func (r *Report) DropEmpty() {
	kept := r.Sessions[:0]
	for _, s := range r.Sessions {
		if s.Total.APICalls > 0 {
			kept = append(kept, s)
		}
	}
	r.Sessions = kept
}

func groupAdd(m map[string]*Total, key string, r *Response, p *Prices) {
	t := m[key]
	if t == nil {
		t = &Total{}
		m[key] = t
	}
	t.Add(r, p)
}

func groups(m map[string]*Total, less func(a, b Group) bool) []Group {
	out := make([]Group, 0, len(m))
	for k, t := range m {
		out = append(out, Group{Key: k, Total: *t})
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

func byTokens(a, b Group) bool {
	if a.Total.Tokens != b.Total.Tokens {
		return a.Total.Tokens > b.Total.Tokens
	}
	return a.Key < b.Key
}

// Grouping names a --by choice.
type Grouping string

const (
	ByResponse Grouping = "response"
	BySession  Grouping = "session"
	ByAgent    Grouping = "agent"
	ByModel    Grouping = "model"
	ByDay      Grouping = "day"
	ByProject  Grouping = "project"
)

// Groupings lists the valid --by values.
var Groupings = []Grouping{ByResponse, BySession, ByAgent, ByModel, ByDay, ByProject}

// GroupBy totals the report's responses by agent, model, day (local time),
// project or session. Agent keys are "<session>/<agent>" when the report
// spans several sessions. Days sort in time order, everything else by
// tokens.
func (r *Report) GroupBy(g Grouping) []Group {
	m := map[string]*Total{}
	for _, k := range r.kept {
		rs := r.counter.response(k)
		resp := &rs
		var key string
		switch g {
		case ByAgent:
			key = resp.AgentID
			if len(r.Sessions) > 1 {
				key = resp.SessionID + "/" + resp.AgentID
			}
		case ByModel:
			key = resp.Model
		case ByDay:
			if !resp.Time.IsZero() {
				key = resp.Time.Local().Format("2006-01-02")
			}
		case ByProject:
			key = r.projectOf[resp.SessionID]
		default:
			key = resp.SessionID
		}
		groupAdd(m, key, resp, r.Prices)
	}
	if g == ByDay {
		return groups(m, func(a, b Group) bool { return a.Key < b.Key })
	}
	return groups(m, byTokens)
}
