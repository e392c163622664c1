package tokens

import (
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// SessionStats are the counts `cctx ls --long` shows of one session, its
// subagents included.
type SessionStats struct {
	Prompts  int   // typed prompts of the main conversation, on every branch
	APICalls int   // API responses, each once
	Tokens   int64 // their total tokens
	Size     int64 // bytes of the main file and the subagent files
}

// Stats reads each session whole, subagents included, in parallel, and
// counts what ls --long shows. Each session is counted on its own, as
// `cctx tokens <session>` counts it.
func Stats(finder *session.Finder, ss []*session.Session, o ReadOptions) []SessionStats {
	out := make([]SessionStats, len(ss))
	var store *cache.Store
	if !o.Strict { // --strict validates every line: no cache (as tokens)
		store = o.Cache.Sub("stats")
	}
	// The issues of each session are said once all are read, in the
	// sessions' order: the same warnings in the same order on every run.
	issues := make([][]reader.Issue, len(ss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range ss {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			so := o
			if o.OnIssue != nil {
				so.OnIssue = func(is reader.Issue) { issues[i] = append(issues[i], is) }
			}
			out[i] = cachedStats(finder, s, so, store)
		}()
	}
	wg.Wait()
	for _, is := range slices.Concat(issues...) {
		o.OnIssue(is)
	}
	store.Flush()
	return out
}

// ListStats is Stats of the sessions of a listing. With --strict, which
// promises that every line was checked, the files the listing hid as
// without conversation are read too: their lines are warned about (a file
// of garbage is hidden as empty), their counts not shown.
func ListStats(finder *session.Finder, list session.Listing, o ReadOptions) []SessionStats {
	if o.Strict && len(list.Hidden) > 0 {
		Stats(finder, list.Hidden, o)
	}
	return Stats(finder, list.Files(), o)
}

// cachedStats is sessionStats from the cache while the session's files
// (its main file and every subagent file) are all unchanged; a session
// with any file changed, added or gone is read again whole.
func cachedStats(finder *session.Finder, s *session.Session, o ReadOptions, store *cache.Store) SessionStats {
	if store == nil || s.Orphan || s.Path == session.StdinPath {
		got, unlinked := sessionStats(s, finder.Agents(s), o)
		sayUnlinked(finder, s, unlinked, o.OnIssue)
		return got
	}
	agents := finder.Agents(s)
	if e, st := store.Lookup(s.ProjectDir, s.Path); st == cache.Same {
		if got, unlinked, ok := statsFrom(e.Data, s, agents); ok {
			sayUnlinked(finder, s, unlinked, o.OnIssue)
			return got
		}
	}
	var errs int
	so := o
	so.OnError = func(path string, err error) {
		errs++
		if o.OnError != nil {
			o.OnError(path, err)
		}
	}
	var issues []reader.Issue
	so.OnIssue = func(is reader.Issue) { issues = append(issues, is) }
	// Each file is stamped before it is read, and the counts are kept
	// only if every file is still the one stamped once all are read: a
	// file replaced by another of the same size while it was read (or
	// after) is not described by counts of the old one.
	main, stamped := cache.Stamp(s.Path, s.Size, 0, nil)
	subs := make([]*cache.Entry, len(agents))
	for i, a := range agents {
		var ok bool
		subs[i], ok = cache.Stamp(a.Path, a.Size, 0, nil)
		stamped = stamped && ok
	}
	got, unlinked := readStats(s, agents, so)
	if o.OnIssue != nil {
		for _, is := range issues {
			o.OnIssue(is)
		}
	}
	sayUnlinked(finder, s, unlinked, o.OnIssue)
	// Only a session read without a problem is kept: a line skipped or a
	// file unreadable is said again on every run. The agents its results
	// name without a transcript are kept with it, and said on every run
	// (another session's files may hold them: sayUnlinked looks again).
	if errs == 0 && len(issues) == 0 && stamped && unchanged(main, subs) {
		data := encodeStats(got, s, agents, subs, unlinked)
		main.Data, main.Brief = data, len(data) // small: all in the index, no folder file read
		store.Put(s.ProjectDir, main)
		return got
	}
	store.Forget(s.ProjectDir, s.Path)
	return got
}

// readStats is sessionStats (a test makes files change while they are
// read).
var readStats = sessionStats

// unchanged reports whether each file is still the one its entry stamped.
func unchanged(main *cache.Entry, subs []*cache.Entry) bool {
	for _, e := range append([]*cache.Entry{main}, subs...) {
		if cache.Check(e.Path, e) != cache.Same {
			return false
		}
	}
	return true
}

// statsFormat is the version of the counts' encoding, and of the rules
// that made them: 5 since a queued prompt delivered as an attachment
// (reader.Entry.Queued) is a typed prompt (counts of 4 may hold fewer
// prompts).
const statsFormat = 5

// sayUnlinked says the agents a session's results name that have none of
// its files as their transcript (ReadSession), but those that ran in the
// session it resumed, as tokens says them: its count lacks their tokens.
func sayUnlinked(finder *session.Finder, s *session.Session, unlinked []reader.Issue, say func(reader.Issue)) {
	for _, is := range unlinked {
		if say != nil && (is.Kind != reader.UnlinkedAgent || finder == nil || finder.AgentElsewhere(s, is.Detail) == "") {
			say(is)
		}
	}
}

// encodeStats is a session's counts with the stamp of each subagent file
// they were read from, and the agents its results name that have no
// transcript among them. Each of those is kept with the file it is in
// as an index into the session's files (0: its main file, i: agents[i-1]),
// not as a path: the same file is spelled from another --dir or
// directory in a later run, and a warning names it as that run does.
func encodeStats(st SessionStats, s *session.Session, agents []session.Agent, subs []*cache.Entry, unlinked []reader.Issue) []byte {
	var e cache.Encoder
	e.Uvarint(statsFormat)
	e.Uvarint(uint64(len(subs)))
	for _, ae := range subs {
		e.String(filepath.Base(ae.Path)) // its name: the folder is spelled as each run's --dir spells it
		e.Varint(ae.Size)
		e.Varint(ae.ModTime)
		e.Uvarint(ae.Inode)
		e.Uvarint(uint64(ae.Head))
		e.Uvarint(uint64(ae.Tail))
	}
	e.Varint(int64(st.Prompts))
	e.Varint(int64(st.APICalls))
	e.Varint(st.Tokens)
	e.Uvarint(uint64(len(unlinked)))
	for _, is := range unlinked {
		e.Uvarint(uint64(fileIndex(is.File, s, agents)))
		e.Varint(int64(is.Line))
		e.Varint(int64(is.Kind))
		e.String(is.Detail)
	}
	return e.Buf()
}

// fileIndex is the index of path among a session's files (0: its main
// file, i: agents[i-1]); len(agents)+1 when it is none of them, which
// statsFrom takes for an entry it cannot use.
func fileIndex(path string, s *session.Session, agents []session.Agent) int {
	if path == s.Path {
		return 0
	}
	for i, a := range agents {
		if a.Path == path {
			return i + 1
		}
	}
	return len(agents) + 1
}

// statsFrom is a session's counts from its cache entry, when its subagent
// files are the same ones, each unchanged.
func statsFrom(data []byte, s *session.Session, agents []session.Agent) (SessionStats, []reader.Issue, bool) {
	d := cache.NewDecoder(data)
	if d.Uvarint() != statsFormat || d.Uvarint() != uint64(len(agents)) {
		return SessionStats{}, nil, false
	}
	st := SessionStats{Size: s.Size}
	for _, a := range agents {
		ae := &cache.Entry{Path: d.String(), Size: d.Varint(), ModTime: d.Varint(), Inode: d.Uvarint(),
			Head: uint32(d.Uvarint()), Tail: uint32(d.Uvarint())}
		ae.Offset = ae.Size
		if d.Err() != nil || ae.Path != filepath.Base(a.Path) || ae.Size != a.Size || cache.Check(a.Path, ae) != cache.Same {
			return SessionStats{}, nil, false
		}
		st.Size += a.Size
	}
	st.Prompts, st.APICalls, st.Tokens = int(d.Varint()), int(d.Varint()), d.Varint()
	n := d.Uvarint()
	if n > uint64(d.Len()) {
		return SessionStats{}, nil, false
	}
	var unlinked []reader.Issue
	for range n {
		file := s.Path
		switch k := d.Uvarint(); {
		case k > uint64(len(agents)):
			return SessionStats{}, nil, false
		case k > 0:
			file = agents[k-1].Path
		}
		unlinked = append(unlinked, reader.Issue{File: file, Line: int(d.Varint()), Kind: reader.IssueKind(d.Varint()), Detail: d.String()})
	}
	return st, unlinked, d.Err() == nil && d.Len() == 0
}

// sessionStats reads a session's counts, and the agents its results name
// that have no transcript among agents (ReadSession; not said yet).
func sessionStats(s *session.Session, agents []session.Agent, o ReadOptions) (SessionStats, []reader.Issue) {
	var st SessionStats
	st.Size = s.Size
	for _, a := range agents {
		st.Size += a.Size
	}
	c := NewCounter()
	ro := o.reader()
	if !o.Strict {
		ro.Want = statsWanted
	}
	onErr := o.OnError
	if onErr == nil {
		onErr = func(string, error) {}
	}
	// A line written twice (the same uuid) is one prompt, as in the tree
	// (tree.Prompts), which keeps the later line.
	seen := map[string]bool{}
	unlinked := ReadSession(c, s, agents, ro, func(e *reader.Entry, agent bool) {
		if !agent && e.IsTypedPrompt() && !e.Sidechain && (e.UUID == "" || !seen[e.UUID]) {
			if e.UUID != "" {
				seen[e.UUID] = true
			}
			st.Prompts++
		}
	}, onErr)
	for _, r := range c.Responses() {
		st.APICalls++
		st.Tokens += r.Usage.Total()
	}
	return st, unlinked
}

// statsWanted picks the lines Stats reads: those a counter needs and the
// user messages that may be typed prompts (user lines, and the attachment
// lines of queued inputs: reader.Entry.Queued). Tool results, the bulk of
// a transcript, are skipped unparsed (and a long one is never held).
func statsWanted(line []byte) bool {
	if Wanted(line) {
		return true
	}
	typ, role, _ := reader.Peek(line)
	if typ == "attachment" {
		return reader.MayBeQueued(line)
	}
	return (typ == "user" || role == "user") && !reader.StartsWithToolResult(line)
}
