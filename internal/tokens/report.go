package tokens

import (
	"cmp"
	"io"
	"iter"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Input is one session to count, with what a report says about it.
type Input struct {
	Session *session.Session
	Agents  []session.Agent
	Project string    // the first cwd in the main file ("" if none; --by project then groups by the folder's name)
	Started time.Time // the first timestamp in the main file (zero if none); orders sessions so that a resumed session's replayed lines belong to the original
	// startKnown: Project and Started were read (or come from the cache),
	// so the main file's cache entry can keep them.
	startKnown bool
	// Elsewhere finds the transcript of an agent among the other sessions
	// of the project folder (session.Finder.AgentElsewhere; nil: none): a
	// resumed session replays the results of the calls of the session it
	// continues, whose agents' transcripts are not its own.
	Elsewhere func(agentID string) string
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
	Estimated map[string]int64  // model → responses priced by an estimate (Prices.EstimatedAs)
	projectOf map[string]string // session id → project
	all       []*SessionReport  // Sessions before DropEmpty: what buckets index
	buckets   []bucket          // totals by session, agent and model, in the order first met
	// summed are the buckets of the sessions taken from folder sums with
	// their lists made (sessionSum.grouped): kept as the sums hold them,
	// not copied into buckets, which only a grouping reads (eachBucket).
	summed   []summedBuckets
	bucketAt map[bucketKey]int
	// slots are the folders' totals by quarter hour (addSlotPriced), one
	// list a folder: only a time grouping merges them (timeline).
	slots [][]slotTotal
	// groupBlock is where the sessions' lists of agents and models are
	// cut from (groupSpace).
	groupBlock groupBlock

	// Zone is the time zone of the hour, day, week, month and block
	// groups (nil: local time).
	Zone *time.Location
	// AgentType names the type of a session's agent, for --by
	// agent-type ("" or nil: not known).
	AgentType func(sessionID, agentID string) string
	// StdinEmpty: standard input, a session named "-", held no byte (a
	// pipe from a command that failed).
	StdinEmpty bool
}

// SessionReport is one session's share of a Report.
type SessionReport struct {
	Input
	ID        string    // the session id ("" from stdin without a sessionId)
	Last      time.Time // its latest counted response (zero: none)
	Total     Total
	Agents    []Group // "" (main) first, then subagents by id
	Models    []Group // by tokens, largest first
	Responses []Response
	// MissingAgents are the agents its Agent/Task results name whose
	// transcript is not there (or not read, from standard input): their
	// tokens are not in Total. Each is also a warning (reader.UnlinkedAgent).
	MissingAgents []string
}

// Group is a total under a key (an agent id, a model, a day, a project).
// Groups of time (TimeGrouping) also say when they start and end, and
// when their first and last response was.
type Group struct {
	Key         string
	Total       Total
	Start, End  time.Time
	First, Last time.Time
	// Runs is, for --by agent-type, the agents of the type.
	Runs int
}

// Build reads every session in inputs (oldest first, each response counted
// once across all of them), keeps the responses inside w, and totals them.
// Report.Responses lists every counted response.
func Build(inputs []Input, prices *Prices, w Window, o ReadOptions) *Report {
	return build(inputs, prices, w, o.reader(), o.Cache, o.WriteBehind, o.OnError, true)
}

// BuildTotals is Build for a report that prints totals and groups only:
// Report.Responses and SessionReport.Responses stay empty, and a response
// costs a fixed-size row while the sessions are read, not its ids.
func BuildTotals(inputs []Input, prices *Prices, w Window, o ReadOptions) *Report {
	return build(inputs, prices, w, o.reader(), o.Cache, o.WriteBehind, o.OnError, false)
}

// Count is Build with detail (every response listed, with its ids), else
// BuildTotals.
func Count(inputs []Input, prices *Prices, w Window, o ReadOptions, detail bool) *Report {
	return build(inputs, prices, w, o.reader(), o.Cache, o.WriteBehind, o.OnError, detail)
}

// ReadOptions say how a report reads its files.
type ReadOptions struct {
	// OnIssue receives each line that was skipped or is odd.
	OnIssue func(reader.Issue)
	// OnError receives each file that could not be read (the rest count).
	OnError func(path string, err error)
	// Strict validates every line, so that a report fails on exactly the
	// lines show and tree would skip. Otherwise only the lines a counter
	// needs (Wanted) are parsed, the others checked for shape.
	Strict bool
	// Stdin is read for the session path "-" (default os.Stdin).
	Stdin io.Reader
	// Cache holds what earlier runs counted of each file (nil: none).
	Cache *cache.Store
	// WriteBehind: what the report adds to Cache is written while the
	// caller prints it (cache.Store.FlushBehind), not before it returns;
	// the caller waits for it (Cache.Wait) before it exits. A run after a
	// session grew spent 5 ms writing its folder's file first.
	WriteBehind bool
}

func (o ReadOptions) reader() reader.Options {
	ro := reader.Options{OnIssue: o.OnIssue, Want: Wanted, Stdin: o.Stdin}
	if o.Strict {
		ro.Want = nil
	}
	return ro
}

func build(inputs []Input, prices *Prices, w Window, o reader.Options, store *cache.Store, behind bool, onErr func(path string, err error), detail bool) *Report {
	if o.Want == nil { // --strict: every line validated; the cache holds the issues of the lines a counter wants
		store = nil
	}
	o.Count = true // a counter reads no content (the lines and issues are a full read's)
	// What is live while sessions are read is small (a few counters, the
	// folders' sums) and what is made is soon garbage: collecting each
	// time the heap doubles ran ~45 times over a real-shaped 1.4 GB
	// history, each stopping both readers. The soft memory limit of the
	// command (cmd's boundMemory) still bounds the heap: peak RSS 39 ->
	// 54 MiB there.
	defer debug.SetGCPercent(debug.SetGCPercent(countPace()))
	if behind {
		defer store.FlushBehind()
	} else {
		defer store.Flush()
	}
	sorted := byStart(inputs)
	all := make([]int, len(sorted))
	for i := range all {
		all[i] = i
	}
	if detail {
		rep, _, _ := buildGroups(sorted, [][]int{all}, prices, w, o, store, onErr, true, nil)
		return rep
	}
	// Claude Code resumes and forks a session within its project folder,
	// so responses are deduplicated a folder at a time and a folder's
	// table is dropped once its totals are taken: memory follows the
	// largest folder, not the whole history. A message.id met in two
	// folders (a folder renamed, a session copied) would make that
	// inexact: then the report is made again, the folders that share
	// message ids in one table (responses without a common id never meet
	// in a table: a table of them all counts each as theirs does). A
	// folder whose files are all unchanged since its sum was kept
	// (foldersum.go) is not counted again.
	groups := byFolder(sorted)
	var counted map[string]*folderSum // by the first pass, each folder alone
	for range 2 {
		rep, joined, sums := buildGroups(sorted, groups, prices, w, o, store, onErr, false, counted)
		if rep != nil {
			return rep
		}
		groups, counted = joinGroups(groups, joined), sums
	}
	rep, _, _ := buildGroups(sorted, [][]int{all}, prices, w, o, store, onErr, false, nil)
	return rep
}

// joinGroups makes each set of groups (indices into groups) one group, in the
// place of its first; members stay in reading order.
func joinGroups(groups [][]int, sets [][]int) [][]int {
	into := make([]int, len(groups)) // a group → the set it joins, -1 none
	for g := range into {
		into[g] = -1
	}
	for s, set := range sets {
		for _, g := range set {
			into[g] = s
		}
	}
	var out [][]int
	for g, members := range groups {
		switch s := into[g]; {
		case s < 0:
			out = append(out, members)
		case sets[s][0] == g:
			var all []int
			for _, h := range sets[s] {
				all = append(all, groups[h]...)
			}
			sort.Ints(all)
			out = append(out, all)
		}
	}
	return out
}

// byStart is a copy of inputs in the order they are counted: by start,
// then by the file written to first (which mergeOrder falls back on for
// sessions that start together: a resumed session replays the old one's
// lines from its first, and mergeOrder orders those by what they hold).
func byStart(inputs []Input) []Input {
	// Sorted as keys (an Input is large: a stable sort moving them was a
	// tenth of a warm report over 5,000 sessions), the index last: as
	// stable.
	type key struct {
		start, mod [2]int64 // seconds, nanoseconds
		i          int
	}
	keys := make([]key, len(inputs))
	for i := range inputs {
		t, m := inputs[i].orderTime(), inputs[i].Session.ModTime
		keys[i] = key{[2]int64{t.Unix(), int64(t.Nanosecond())}, [2]int64{m.Unix(), int64(m.Nanosecond())}, i}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(a.start[0], b.start[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.start[1], b.start[1]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.mod[0], b.mod[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.mod[1], b.mod[1]); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	sorted := make([]Input, len(inputs))
	for j, k := range keys {
		sorted[j] = inputs[k.i]
	}
	return sorted
}

// mergeOrder yields a group's sessions in the order they are added to its
// table, which decides the session a response that several replay is
// counted in (Counter.Merge): start order (byStart), and among sessions
// that start together, the one whose own last response is earlier first.
// A resumed session replays the old one from its first line, so both
// start together; the old one ended before the other went on from it.
// The files' modification times, which byStart falls back on, are what a
// copy or a backup restored without -p sets, not what the sessions did.
// The counters of such a run are read before any of it is yielded (a run
// is a session and its resumptions: a few; each is read when the sessions
// before it are taken, as readInOrder needs); a longer run keeps
// byStart's order, so that the counters held stay few.
func mergeOrder(sorted []Input, members []int, counter func(i int) *Counter) iter.Seq[int] {
	const maxRun = 32
	return func(yield func(int) bool) {
		for k := 0; k < len(members); {
			e := k + 1
			for e < len(members) && sorted[members[e]].orderTime().Equal(sorted[members[k]].orderTime()) {
				e++
			}
			run := members[k:e]
			if len(run) > 1 && len(run) <= maxRun {
				run = slices.Clone(run)
				last := make(map[int]row, len(run))
				for _, i := range run {
					last[i] = latestRow(counter(i))
				}
				// A total order (a session without a timed response
				// first), else byStart's: the file written to first.
				slices.SortStableFunc(run, func(a, b int) int {
					ra, rb := last[a], last[b]
					switch {
					case ra.hasTime != rb.hasTime:
						if rb.hasTime {
							return -1
						}
						return 1
					case ra.hasTime && ra.before(&rb):
						return -1
					case ra.hasTime && rb.before(&ra):
						return 1
					}
					return 0
				})
			}
			for _, i := range run {
				if !yield(i) {
					return
				}
			}
			k = e
		}
	}
}

// latestRow is the time of c's latest response (hasTime false: none has
// one).
func latestRow(c *Counter) row {
	var r row
	if c == nil {
		return r
	}
	for j := range int32(c.rows.len()) {
		if x := c.rows.at(j); x.hasTime && (!r.hasTime || r.before(x)) {
			r = row{sec: x.sec, nsec: x.nsec, hasTime: true}
		}
	}
	return r
}

// orderTime places a session among others: its start, or for a file
// without a timestamp its last write.
func (in Input) orderTime() time.Time {
	if in.Started.IsZero() {
		return in.Session.ModTime
	}
	return in.Started
}

// byFolder groups the sessions (indices into sorted, in order) by their
// project folder.
func byFolder(sorted []Input) [][]int {
	var groups [][]int
	at := map[string]int{}
	for i, in := range sorted {
		// The project folder, which a folder's sum is kept under
		// (folderKey): a session whose main transcript is gone (no Path)
		// is its folder's too.
		dir := in.Session.ProjectDir
		if dir == "" {
			dir = filepath.Dir(in.Session.Path)
		}
		g, ok := at[dir]
		if !ok {
			g = len(groups)
			at[dir] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// buildGroups counts each group of sessions in a table of its own, in
// start order within the group. With more than one group it checks that
// no message.id is in two of them, and returns nil, the sets of groups
// that share one and the sum of each folder counted alone (of the groups
// that are one folder) if one is. The issues and errors of the sessions
// are given to o.OnIssue and onErr at the end, in start order whatever
// the groups: the same warnings in the same order in every kind of
// report, and none twice when the report is made again. Without detail,
// a group that is one folder is taken from its sum in counted (a first
// pass's: folders non-nil) or in the cache, when there is one that still
// holds; and the sum of each folder counted is kept in the cache.
func buildGroups(sorted []Input, groups [][]int, prices *Prices, w Window, o reader.Options, store *cache.Store, onErr func(path string, err error),
	detail bool, counted map[string]*folderSum) (*Report, [][]int, map[string]*folderSum) {
	rep := &Report{Prices: prices, Unpriced: map[string]int64{}, Estimated: map[string]int64{}, projectOf: make(map[string]string, len(sorted)), bucketAt: map[bucketKey]int{}}
	rep.Sessions = make([]*SessionReport, len(sorted))
	for i, in := range sorted {
		rep.Sessions[i] = &SessionReport{Input: in, ID: in.Session.ID}
	}
	keys := make([]string, len(groups)) // the folder of each group that is one ("": not one)
	if !detail {
		for g, members := range groups {
			keys[g] = folderKey(sorted, members)
		}
	}
	var sm *sums
	if !detail && store != nil {
		sm = loadSums(sorted, groups, store, prices, w, func(g int) bool { return keys[g] != "" && counted[keys[g]] == nil })
	}
	summed := func(g int) *folderSum {
		if fs := counted[keys[g]]; fs != nil && keys[g] != "" && len(fs.sessions) == len(groups[g]) {
			return fs
		}
		if sm == nil {
			return nil
		}
		return sm.got[g]
	}
	sums := map[string]*folderSum{} // of the folders, for a second pass
	var order []int                 // sessions to read, in reading order: group after group
	readAt := make([]int, len(sorted))
	for g, members := range groups {
		for _, i := range members {
			readAt[i] = -1
			if summed(g) == nil {
				readAt[i] = len(order)
				order = append(order, i)
			}
		}
	}
	nb, ns := 0, 0 // the buckets of the sums appended below, the sessions kept in summed
	for g := range groups {
		if fs := summed(g); fs != nil {
			for n := range fs.sessions {
				if fs.sessions[n].grouped {
					ns++
				} else {
					nb += len(fs.sessions[n].buckets)
				}
			}
		}
	}
	rep.buckets = make([]bucket, 0, nb)
	rep.summed = make([]summedBuckets, 0, ns)
	var done folderIDs                            // the message ids of each group, when there are several
	issues := make([][]reader.Issue, len(sorted)) // of the sessions of sums

	read := readInOrder(sorted, order, o, store, detail)
	for g, members := range groups {
		if fs := summed(g); fs != nil {
			for n, i := range members {
				ss := &fs.sessions[n]
				sr := rep.Sessions[i]
				sr.Last = ss.last.when()
				if ss.grouped { // by loadSums's workers, in parallel
					sr.Total, sr.Agents, sr.Models = ss.total, ss.agents, ss.models
					rep.summed = append(rep.summed, summedBuckets{i, ss.buckets})
				} else {
					// A sum's buckets are a session's, each key once (as
					// counted): appended, not looked up in bucketAt, which
					// only a count needs.
					first := len(rep.buckets)
					for _, b := range ss.buckets {
						rep.buckets = append(rep.buckets, bucket{key: bucketKey{i, b.key.agent, b.key.model}})
						rep.buckets[len(rep.buckets)-1].total.Merge(b.total)
					}
					rep.sessionGroups(sr, first)
				}
				issues[i] = ss.issues
			}
			rep.merge(&fs.part)
			done.sets = append(done.sets, fs.ids)
			sums[keys[g]] = fs
			continue
		}
		var c *Counter
		clean := true // no file of the group went unread
		for i := range mergeOrder(sorted, members, func(i int) *Counter { return read(readAt[i]).c }) {
			one := read(readAt[i])
			clean = clean && len(one.errs) == 0
			sr := rep.Sessions[i]
			if sorted[i].Session.Path == session.StdinPath {
				rep.StdinEmpty = one.stdin.r != nil && one.stdin.n == 0
				sr.ID = one.firstID
				sr.Started, sr.Project = one.firstTime, one.firstCWD
				id := one.c.name(sr.ID)
				for j := range int32(one.c.rows.len()) {
					one.c.rows.at(j).session = id
				}
			}
			if c == nil {
				c = newCounter(detail)
			}
			c.Merge(one.c)
			one.c = nil
		}
		if c == nil {
			c = newCounter(detail)
		}
		firstBucket := len(rep.buckets)
		var part folderPart
		rep.total(c, members, w, detail, &part)
		rep.merge(&part)
		if len(groups) == 1 && keys[g] == "" {
			continue
		}
		ids := idsOf(c)
		done.sets = append(done.sets, ids)
		if keys[g] == "" {
			continue
		}
		var fs *folderSum
		if clean {
			fs = rep.sumOf(members, firstBucket, ids, part, func(i int) []reader.Issue { return read(readAt[i]).issues })
			sums[keys[g]] = fs
		}
		if sm != nil {
			sm.save(sorted, g, members, fs)
		}
	}
	// A response in two folders makes them counted again, in one table.
	// The cache says which folders' sums were found to share none before
	// (changedSinceDisjoint): only those since changed are looked for.
	changed, keyed := sm.changedSinceDisjoint()
	switch {
	case keyed && len(changed) == 0:
	case keyed && len(changed) <= maxChangedFolders && !done.sharesWithOthers(changed):
		sm.rememberDisjoint()
	default:
		if joined := done.joined(); joined != nil {
			return nil, joined, sums
		}
		if keyed {
			sm.rememberDisjoint()
		}
	}
	for _, sr := range rep.Sessions {
		// A session with no recorded cwd still needs a key to group by:
		// its folder's name (the session's project stays "").
		rep.projectOf[sr.ID] = driveUpper(sr.Project)
		if sr.Project == "" {
			rep.projectOf[sr.ID] = sr.Session.ProjectKey()
		}
		rep.Total.Merge(sr.Total)
	}
	rep.all = append([]*SessionReport(nil), rep.Sessions...) // DropEmpty filters Sessions in place
	// Newest activity first, as ls lists sessions: the reading order (by
	// start, for the attribution of replayed responses) is not the order
	// a person looks for a session in.
	slices.SortStableFunc(rep.Sessions, func(a, b *SessionReport) int {
		if c := b.Last.Compare(a.Last); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	// The agents whose transcripts this report counts, by id: a session
	// copied or resumed into another folder names the agents of the one
	// it replays, whose tokens are counted there.
	// Made at the first such warning: most reports have none.
	var countedAgents map[string]bool
	countedHere := func(id string) bool {
		if countedAgents == nil {
			countedAgents = map[string]bool{}
			for i := range sorted {
				for _, a := range sorted[i].Agents {
					countedAgents[a.ID] = true
				}
			}
		}
		return countedAgents[id]
	}
	for i := range sorted {
		var one *readSession
		if readAt[i] < 0 {
			one = &readSession{issues: issues[i]}
		} else {
			one = read(readAt[i])
		}
		// A window leaves out a session without a response in it, and
		// what its agents lack with it: an old session's missing agent
		// does not fail tokens --since 1d --strict.
		outside := (!w.Since.IsZero() || !w.Until.IsZero()) && rep.all[i].Total.APICalls == 0
		for _, is := range one.issues {
			agent := is.Kind == reader.UnlinkedAgent || is.Kind == reader.UnreadAgent
			if agent && (outside || is.Kind == reader.UnlinkedAgent && (countedHere(is.Detail) || sorted[i].Elsewhere != nil && sorted[i].Elsewhere(is.Detail) != "")) {
				continue // it ran in a session counted here, or in the one this one resumed (checked now: other sessions' files are not in this one's sum)
			}
			if agent {
				rep.all[i].MissingAgents = append(rep.all[i].MissingAgents, is.Detail)
			}
			if o.OnIssue != nil {
				o.OnIssue(is)
			}
		}
		if onErr != nil {
			for _, e := range one.errs {
				onErr(e.path, e.err)
			}
		}
	}
	return rep, nil, nil
}

// sumOf is the sum of the group of members just totalled: its sessions'
// buckets from firstBucket on.
func (rep *Report) sumOf(members []int, firstBucket int, ids []uint64, part folderPart, issuesOf func(i int) []reader.Issue) *folderSum {
	fs := &folderSum{ids: ids, part: part, sessions: make([]sessionSum, len(members))}
	at := map[int]int{} // session → its place in members
	for n, i := range members {
		at[i] = n
		sr := rep.Sessions[i]
		ss := &fs.sessions[n]
		if !sr.Last.IsZero() {
			ss.last.hasTime, ss.last.sec, ss.last.nsec = true, sr.Last.Unix(), int32(sr.Last.Nanosecond())
		}
		ss.issues = issuesOf(i)
	}
	for _, b := range rep.buckets[firstBucket:] {
		n, ok := at[b.key.session]
		if !ok {
			return nil
		}
		fs.sessions[n].buckets = append(fs.sessions[n].buckets, b)
	}
	return fs
}

// readSession is one session read into a counter of its own, with what
// its reading had to say.
type readSession struct {
	c       *Counter
	firstID string // the first sessionId of its lines (stdin has no name)
	// The first timestamp and cwd of standard input, which cannot be read
	// ahead as a file's head is.
	firstTime time.Time
	firstCWD  string
	stdin     countingReader // standard input as it was read
	issues    []reader.Issue
	errs      []fileErr
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type fileErr struct {
	path string
	err  error
}

// readInOrder reads the sessions order names (indices into sorted) in
// parallel and returns read: read(k) waits for the k-th and returns it;
// read(-1) stops the reading early. GOMAXPROCS sessions are read at a
// time, and a slot is freed only when its session is taken with read(k),
// so that a few counters exist at once, however many sessions, and a
// slow session does not stall the rest. Sessions are taken in order so
// that a replayed response stays with the original.
func readInOrder(sorted []Input, order []int, o reader.Options, store *cache.Store, detail bool) func(k int) *readSession {
	n := len(order)
	out := make([]readSession, n)
	done := make([]chan struct{}, n)
	for k := range done {
		done[k] = make(chan struct{})
	}
	workers := make(chan struct{}, runtime.GOMAXPROCS(0))
	slots := make(chan struct{}, 8*runtime.GOMAXPROCS(0))
	stop := make(chan struct{})
	go func() {
		for k, i := range order {
			select { // a stop is seen before any new slot or worker
			case <-stop:
				return
			default:
			}
			select {
			case <-stop:
				return
			case slots <- struct{}{}:
			}
			select {
			case <-stop:
				return
			case workers <- struct{}{}:
			}
			go func() {
				defer func() { <-workers; close(done[k]) }()
				rs := &out[k]
				rs.c = newCounter(detail)
				so := o
				if o.OnIssue != nil {
					so.OnIssue = func(is reader.Issue) { rs.issues = append(rs.issues, is) }
				}
				stdin := sorted[i].Session.Path == session.StdinPath
				if want := o.Want; stdin && want != nil {
					// Every line is parsed until the first timestamp and
					// cwd are found: those lines may be none a counter needs.
					so.Want = func(line []byte) bool { return rs.firstTime.IsZero() || rs.firstCWD == "" || want(line) }
				}
				if !stdin {
					// Kept even when no one asks: a folder's sum keeps them.
					rs.c, rs.issues, rs.errs = countSession(sorted[i], o, store, detail)
					return
				}
				if so.Stdin != nil {
					rs.stdin.r = so.Stdin
					so.Stdin = &rs.stdin
				}
				unread := ReadSession(rs.c, sorted[i].Session, sorted[i].Agents, so, func(e *reader.Entry, _ bool) {
					if rs.firstID == "" {
						rs.firstID = e.SessionID
					}
					if stdin && rs.firstTime.IsZero() {
						rs.firstTime = e.Timestamp
					}
					if stdin && rs.firstCWD == "" {
						rs.firstCWD = e.CWD
					}
				}, func(path string, err error) { rs.errs = append(rs.errs, fileErr{path, err}) })
				rs.issues = append(rs.issues, unread...)
			}()
		}
	}()
	taken := make([]bool, n)
	return func(k int) *readSession {
		if k < 0 {
			close(stop)
			return nil
		}
		<-done[k]
		if !taken[k] {
			taken[k] = true
			<-slots
		}
		return &out[k]
	}
}

// total takes the totals of one group's table: each session's responses
// inside w, by agent and model, and the buckets GroupBy sums.
func (rep *Report) total(c *Counter, members []int, w Window, detail bool, part *folderPart) {
	// Attribute each response to the session that saw it first; the main
	// copy of a sidechain replay may move it to a later session, so use the
	// response's own session rather than the reading order. Sessions in
	// start order, each a timeline where subagent responses interleave
	// with the main ones.
	for _, i := range members {
		// A session whose files could not be read has no name yet.
		c.name(rep.Sessions[i].ID)
	}
	order := make([]int, len(c.names)) // name index of a session → its index in rep.Sessions, -1: none
	for i := range order {
		order[i] = -1
	}
	for _, i := range members {
		order[c.name(rep.Sessions[i].ID)] = i
	}
	kept := make([]int32, 0, c.rows.len())
	for i := range int32(c.rows.len()) {
		r := c.rows.at(i)
		if int(r.session) >= len(order) || order[r.session] < 0 {
			continue
		}
		if !r.hasTime && (!w.Since.IsZero() || !w.Until.IsZero()) || r.hasTime && !w.contains(r.when()) {
			continue
		}
		kept = append(kept, i)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := c.rows.at(kept[i]), c.rows.at(kept[j])
		if oa, ob := order[a.session], order[b.session]; oa != ob {
			return oa < ob
		}
		// A response without a time comes first, as the zero time would.
		return !a.hasTime && b.hasTime || a.hasTime && b.hasTime && a.before(b)
	})
	var rs []Response
	if detail {
		rs = make([]Response, len(kept))
		for i, k := range kept {
			rs[i] = c.response(k)
		}
		rep.Responses = append(rep.Responses, rs...)
	}
	for start := 0; start < len(kept); {
		sid := c.rows.at(kept[start]).session
		end := start
		for end < len(kept) && c.rows.at(kept[end]).session == sid {
			end++
		}
		si := order[sid]
		sr := rep.Sessions[si]
		if detail {
			sr.Responses = rs[start:end:end]
		}
		// Every total is a sum of buckets: a session's total, its agents
		// and models, and every --by group. Costs are summed as integers
		// (Total's pico) and MaxContext is a maximum, so the order of the
		// sum does not matter (eachBucket gives the sums' buckets last):
		// the cost of a session reads the same wherever it is printed.
		first := len(rep.buckets)
		for _, k := range kept[start:end] {
			r := c.response(k)
			// Priced once, counted three times.
			cost, ok, est := rep.Prices.price(&r)
			if !ok {
				part.count(&part.unpriced, r.Model)
			} else if est {
				part.count(&part.estimated, r.Model)
			}
			rep.bucket(bucketKey{si, r.AgentID, r.Model}).addPriced(&r, cost, ok, est)
			part.addSlotPriced(&r, cost, ok, est)
			if r.Time.After(sr.Last) {
				sr.Last = r.Time
			}
		}
		rep.sessionGroups(sr, first)
		start = end
	}
}

// sessionGroups gives sr its total and its lists of agents and models:
// of its buckets, rep.buckets[first:].
func (rep *Report) sessionGroups(sr *SessionReport, first int) {
	sr.Total, sr.Agents, sr.Models = groupsOf(rep.buckets[first:], rep.groupSpace)
}

// groupsOf is the total of a session's buckets and its lists of agents
// ("" first, then by id) and models (by tokens), each list cut from space.
func groupsOf(bs []bucket, space func(n int) []Group) (total Total, agents, models []Group) {
	// A session has a few agents and models: lists, not maps (two maps a
	// session were a tenth of a warm report over 5,000 sessions), cut
	// from one block (growing two lists a session, and the page faults
	// of what they grew into, were most of what this function cost).
	agents, models = space(len(bs)), space(len(bs))
	for _, b := range bs {
		total.Merge(b.total)
		agents = addToGroup(agents, b.key.agent, b.total)
		models = addToGroup(models, b.key.model, b.total)
	}
	// Most sessions have one agent and one model, which need no sort;
	// slices.SortFunc, not sort.Slice, which makes a reflected swapper
	// each call. The keys of a list are unique: any sort gives the one
	// order.
	if len(agents) > 1 {
		slices.SortFunc(agents, func(a, b Group) int {
			if (a.Key == "") != (b.Key == "") {
				if a.Key == "" {
					return -1
				}
				return 1
			}
			return strings.Compare(a.Key, b.Key)
		})
	}
	if len(models) > 1 {
		slices.SortFunc(models, compareByTokens)
	}
	return total, agents, models
}

// groupSpace is an empty list with room for n groups, from a block the
// report keeps (a session's agents or models: at most one a bucket).
func (rep *Report) groupSpace(n int) []Group { return rep.groupBlock.space(n) }

// groupBlock hands out lists of groups cut from large blocks.
type groupBlock []Group

// space is an empty list with room for n groups.
func (gb *groupBlock) space(n int) []Group {
	if cap(*gb)-len(*gb) < n {
		*gb = make([]Group, 0, max(n, 1024))
	}
	at := len(*gb)
	*gb = (*gb)[:at+n]
	return (*gb)[at : at : at+n]
}

// addToGroup adds t to the group of key in gs (a new one at the end).
func addToGroup(gs []Group, key string, t Total) []Group {
	for i := range gs {
		if gs[i].Key == key {
			gs[i].Total.Merge(t)
			return gs
		}
	}
	g := Group{Key: key}
	g.Total.Merge(t) // as the sum of one, the same as any other group's
	return append(gs, g)
}

// summedBuckets are the buckets of the session of index session, as
// its folder's sum holds them.
type summedBuckets struct {
	session int
	buckets []bucket
}

// eachBucket gives fn every bucket of the report with the index of its
// session: those counted, then those of the sums (in no order a grouping
// depends on: it merges them by key, and sorts).
func (r *Report) eachBucket(fn func(session int, b *bucket)) {
	for i := range r.buckets {
		fn(r.buckets[i].key.session, &r.buckets[i])
	}
	for _, s := range r.summed {
		for i := range s.buckets {
			fn(s.session, &s.buckets[i])
		}
	}
}

func groupMerge(m map[string]*Total, key string, t Total) {
	g := m[key]
	if g == nil {
		g = &Total{}
		m[key] = g
	}
	g.Merge(t)
}

// bucketKey is the finest grouping a report keeps once a table is
// dropped: GroupBy sums buckets. Times are kept apart, by quarter hour
// across sessions (addSlotPriced).
type bucketKey struct {
	session      int // index in Report.Sessions
	agent, model string
}

type bucket struct {
	key   bucketKey
	total Total
}

func (rep *Report) bucket(k bucketKey) *Total {
	i, ok := rep.bucketAt[k]
	if !ok {
		i = len(rep.buckets)
		rep.bucketAt[k] = i
		rep.buckets = append(rep.buckets, bucket{key: k})
	}
	return &rep.buckets[i].total
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

func groups(m map[string]*Total, less func(a, b Group) bool) []Group {
	out := make([]Group, 0, len(m))
	for k, t := range m {
		out = append(out, Group{Key: k, Total: *t})
	}
	sort.Slice(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

func byTokens(a, b Group) bool { return compareByTokens(a, b) < 0 }

// compareByTokens orders groups by tokens, most first, then by key.
func compareByTokens(a, b Group) int {
	if c := cmp.Compare(b.Total.Tokens, a.Total.Tokens); c != 0 {
		return c
	}
	return strings.Compare(a.Key, b.Key)
}

// Grouping names a --by choice.
type Grouping string

const (
	ByResponse Grouping = "response"
	BySession  Grouping = "session"
	ByAgent    Grouping = "agent"
	ByModel    Grouping = "model"
	ByHour     Grouping = "hour"
	ByDay      Grouping = "day"
	ByWeek     Grouping = "week"
	ByMonth    Grouping = "month"
	ByBlock    Grouping = "block"
	ByProject  Grouping = "project"
)

// Groupings lists the --by values that GroupBy sums buckets for.
var Groupings = []Grouping{ByResponse, BySession, ByAgent, ByModel, ByHour, ByDay, ByWeek, ByMonth, ByBlock, ByProject, ByAgentType}

// GroupBy totals the report's responses by agent, model, project or
// session, or by a time (TimeGrouping: hour, day, week, month or 5-hour
// block in r.Zone). Agent keys are "<session>/<agent>" when the report
// spans several sessions. Times sort in time order, everything else by
// tokens.
func (r *Report) GroupBy(g Grouping) []Group {
	if g.Time() {
		return r.timeGroups(g)
	}
	if g == ByAgentType {
		return r.agentTypeGroups()
	}
	m := map[string]*Total{}
	kept := map[*SessionReport]bool{} // DropEmpty may have removed some
	for _, sr := range r.Sessions {
		kept[sr] = true
	}
	r.eachBucket(func(session int, b *bucket) {
		sr := r.all[session]
		if !kept[sr] {
			return
		}
		var key string
		switch g {
		case ByAgent:
			key = b.key.agent
			if len(r.Sessions) > 1 {
				key = sr.ID + "/" + b.key.agent
			}
		case ByModel:
			key = b.key.model
		case ByProject:
			key = r.projectOf[sr.ID]
		default:
			key = sr.ID
		}
		groupMerge(m, key, b.total)
	})
	return groups(m, byTokens)
}

// GCPercent is the garbage collector's pace while a report is read (see
// build) with no small soft memory limit in force: a collection when the
// heap has grown 4× past what was live.
const GCPercent = 400

// SmallMemoryLimit is the largest soft memory limit (runtime/debug's)
// under which a count leaves collecting to the limit alone.
const SmallMemoryLimit = 64 << 20

// countPace is the collector's pace while sessions are listed and
// counted. Under a small soft memory limit (cmd's 48 MiB) it is off: the
// limit alone starts a collection. What a count keeps is small and what
// it makes is soon garbage, so collecting before the limit is work for
// nothing: 4–6 % of the wall time of a warm run over 5,000 sessions or a
// real-shaped history (paired runs; a cold run within the noise), at the
// same peak RSS.
// Under no limit, or a large one (GOMEMLIMIT), off would let the heap
// grow with the history: GCPercent.
func countPace() int {
	if debug.SetMemoryLimit(-1) <= SmallMemoryLimit { // a negative limit reads it
		return -1
	}
	return GCPercent
}

// driveUpper is a Windows path with its drive letter in upper case: VS
// Code and a terminal record one folder as c:\src and C:\src, one project.
func driveUpper(p string) string {
	if len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && p[0] >= 'a' && p[0] <= 'z' {
		return string(p[0]-'a'+'A') + p[1:]
	}
	return p
}
