package tokens

import (
	"errors"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Each transcript file is counted in a Counter of its own, and a
// session's files are merged in order (main file, then subagents): the
// same way whether a file's counter comes from reading it, from the cache
// (internal/cache), or from the cache and the lines appended since, so
// that the cache changes no total. A file's entry holds its counter (rows
// with their ids, names), the state its File needs to go on (a run of
// anonymous lines, inline sidechain roots) and the issues its lines
// raised; never any message text.

// WantedAgent is Wanted for a subagent file: its agent is its file's, so
// only assistant lines are parsed (not the sidechain lines that name an
// inline agent).
func WantedAgent(line []byte) bool {
	typ, role, _ := reader.Peek(line)
	return role == "assistant" || typ == "assistant" || typ == "" && role == ""
}

// fileCount is one file counted.
type fileCount struct {
	c      *Counter
	issues []reader.Issue
	errs   []fileErr
	named  []namedAgent // the agents its Agent/Task results name
}

// countSession counts a session's files, each from the cache when it
// still describes it (store nil: none), and merges them into one counter
// (keepIDs: with the ids of its responses).
func countSession(in Input, o reader.Options, store *cache.Store, keepIDs bool) (c *Counter, issues []reader.Issue, errs []fileErr) {
	s, agents := in.Session, in.Agents
	var named []fileAgent
	one := func(src Source, o reader.Options) {
		var start *Input
		if src.AgentID == "" && in.startKnown {
			start = &in
		}
		fc := countFile(src, s.ProjectDir, o, store, &c, keepIDs, start)
		if fc.c != nil {
			if c == nil {
				c = fc.c
			} else {
				c.Merge(fc.c)
			}
		}
		issues = append(issues, fc.issues...)
		errs = append(errs, fc.errs...)
		for _, n := range fc.named {
			named = append(named, fileAgent{src.Path, n})
		}
	}
	if !s.Orphan {
		one(Source{SessionID: s.ID, Path: s.Path}, o)
	}
	for _, a := range agents {
		ao := o
		if ao.Want != nil {
			ao.Want = WantedAgent
		}
		one(Source{SessionID: s.ID, AgentID: a.ID, Path: a.Path}, ao)
	}
	if c == nil {
		c = newCounter(keepIDs)
	}
	return c, append(issues, unlinkedAgents(agents, named)...), errs
}

// fileAgent is an agent an Agent/Task result names, in the file of the
// result.
type fileAgent struct {
	path string
	namedAgent
}

// unlinkedAgents are the issues of the agents the results of a session
// name that have none of its files (agents) as their transcript: their
// tokens are not in its total. Each agent is said once, as the
// conversation model says it (tree's unlinkedResults); one that ran in
// another session is dropped later (Input.Elsewhere).
func unlinkedAgents(agents []session.Agent, named []fileAgent) []reader.Issue {
	if len(named) == 0 {
		return nil // most sessions: no map made
	}
	var out []reader.Issue
	said := map[string]bool{}
	for _, n := range named {
		if said[n.id] || slices.ContainsFunc(agents, func(a session.Agent) bool { return a.ID == n.id }) {
			continue
		}
		said[n.id] = true
		is := reader.Issue{File: n.path, Line: int(n.line), Kind: reader.UnlinkedAgent, Detail: n.id}
		if !session.SafeAgentID(n.id) {
			is.Kind = reader.OddValue
			is.Detail = reader.UnsafeAgentText(session.QuoteAgentID(n.id)) + ", and its tokens are not counted"
		}
		out = append(out, is)
	}
	return out
}

// countFile counts one file: from its cache entry, reading only what was
// appended since, or whole. An unchanged file's rows go straight into
// *into (made when nil), as Merge would add them; otherwise the file's
// own counter is returned in fileCount.c, for the caller to merge.
func countFile(src Source, key string, o reader.Options, store *cache.Store, into **Counter, keepIDs bool, first *Input) fileCount {
	var fc fileCount
	var f *File
	var start, base int64
	e, st := store.Lookup(key, src.Path)
	if st == cache.Same {
		if *into == nil {
			*into = newCounter(keepIDs)
		}
		if _, named, issues, err := decodeInto(e.Data, src, *into, false); err == nil {
			fc.issues, fc.named = issues, named
			return fc
		}
		st = cache.Miss // nothing was added
	}
	if st == cache.Grown {
		var err error
		if fc.c, f, fc.issues, err = decodeFile(e.Data, src); err != nil {
			st = cache.Miss
		} else {
			start, base = e.Offset, e.Lines
		}
	}
	if st == cache.Miss {
		fc.c = newCounter(true)
		f = fc.c.File(src)
		fc.issues = nil
	}
	so := o
	so.OnIssue = func(is reader.Issue) {
		is.Line += int(base)
		fc.issues = append(fc.issues, is)
	}
	if want := o.Want; want != nil { // f as it is then: it is made again below if the file was replaced
		so.Want = func(line []byte) bool { return f.wants(want, line) }
		so.WantHead = func(head []byte) bool { return f.wantsHead(want, head) }
	}
	r, closer, err := reader.OpenRange(src.Path, start, -1, so)
	if err == nil && start > 0 && cache.CheckOS(r.File(), e) == cache.Miss {
		// The file opened is not the one the entry describes (replaced
		// since it was checked): its lines past the offset are not what
		// follows the entry's. It is counted whole.
		closer.Close()
		fc.c = newCounter(true)
		f = fc.c.File(src)
		fc.issues, start, base = nil, 0, 0
		r, closer, err = reader.OpenRange(src.Path, 0, -1, so)
	}
	if err != nil {
		fc.errs = append(fc.errs, fileErr{src.Path, err})
		store.Forget(key, src.Path)
		return fc
	}
	defer closer.Close()
	var ent reader.Entry
	for {
		var ok bool
		if ent, ok = r.Next(); !ok {
			break
		}
		ent.Line += int(base)
		f.Add(&ent)
	}
	fc.named = f.named
	if err := r.Err(); err != nil {
		fc.errs = append(fc.errs, fileErr{src.Path, err})
		store.Forget(key, src.Path)
		return fc
	}
	if store != nil {
		done, lines := r.Done()
		data, brief := encodeFile(fc.c, f, fc.issues, first)
		if ne, ok := cache.StampOS(r.File(), src.Path, done, base+int64(lines), data); ok {
			ne.Brief = brief
			store.Put(key, ne)
		} else if st == cache.Miss {
			store.Forget(key, src.Path)
		}
	}
	return fc
}

// The kinds of a name in a cache entry.
const (
	nameLiteral = iota
	nameSession
	namePath
)

// Row flags in a cache entry.
const (
	flagRID = 1 << iota
	flagSidechain
	flagTime
	flagStart
	flagAnon
)

// encodeFile is a file's counter, File state and issues as an entry's
// data; its first brief bytes are what cachedStart reads (Entry.Brief).
func encodeFile(c *Counter, f *File, issues []reader.Issue, start *Input) (data []byte, brief int) {
	var e cache.Encoder
	e.String(f.src.SessionID)
	e.String(f.src.AgentID)
	// A main file's project and start (session.Start), as Inputs reads
	// them; kept only for a time in UTC, which is rebuilt exactly.
	keep := start != nil && (start.Started.IsZero() || start.Started.Location() == time.UTC)
	e.Bool(keep)
	if keep {
		e.Bool(!start.Started.IsZero())
		if !start.Started.IsZero() {
			e.Varint(start.Started.UnixNano())
		}
		e.String(start.Project)
	}
	brief = len(e.Buf()) // what cachedStart reads
	// The file's own session id and path are in its entry already: a
	// name is a kind (nameLiteral, nameSession, namePath), then the
	// literal's text.
	e.Uvarint(uint64(len(c.names) - 1))
	for _, s := range c.names[1:] {
		switch s {
		case f.src.SessionID:
			e.Uvarint(nameSession)
		case f.src.Path:
			e.Uvarint(namePath)
		default:
			e.Uvarint(nameLiteral)
			e.String(s)
		}
	}
	e.Bool(f.anonSeen)
	if f.anonSeen {
		e.Varint(int64(c.anonLine[f.anonKey.mid]))
		encodeUsage(&e, f.anonUsage)
	}
	e.Uvarint(uint64(len(f.sideRoot)))
	for _, k := range slices.Sorted(maps.Keys(f.sideRoot)) { // the same file, the same bytes
		e.String(k)
		e.String(f.sideRoot[k])
	}
	for _, ids := range []map[string]bool{f.pending, f.answered} {
		e.Uvarint(uint64(len(ids)))
		for _, id := range slices.Sorted(maps.Keys(ids)) {
			e.String(id)
		}
	}
	e.Uvarint(uint64(len(f.named)))
	for _, n := range f.named {
		e.String(n.id)
		e.Varint(int64(n.line))
	}
	e.Uvarint(uint64(c.rows.len()))
	for i := range int32(c.rows.len()) {
		r := c.rows.at(i)
		id := c.ids[i]
		var fl uint64
		if r.hasRID {
			fl |= flagRID
		}
		if r.sidechain {
			fl |= flagSidechain
		}
		if r.hasTime {
			fl |= flagTime
		}
		if r.start {
			fl |= flagStart
		}
		if id.message == "" {
			fl |= flagAnon
		}
		e.Uvarint(fl)
		if id.message == "" {
			e.Varint(int64(c.anonLine[r.mid]))
		} else {
			e.String(id.message)
		}
		if r.hasRID {
			e.String(id.request)
		}
		for _, n := range [...]int32{r.speed, r.tier, r.session, r.lineSess, r.agent, r.model, r.file} {
			e.Uvarint(uint64(n))
		}
		e.Varint(int64(r.line))
		e.Varint(int64(r.lines))
		if r.hasTime {
			e.Varint(r.sec)
			e.Varint(int64(r.nsec))
		}
		for _, n := range [...]int64{r.u.input, r.u.output, r.u.cacheCreation, r.u.cc5m, r.u.cc1h, r.u.cacheRead, r.u.webSearch} {
			e.Varint(n)
		}
	}
	e.Uvarint(uint64(len(issues)))
	for _, is := range issues {
		e.Varint(int64(is.Line))
		e.Varint(int64(is.Kind))
		e.Varint(int64(is.Size))
		e.String(is.Detail)
		e.Varint(int64(is.Limit))
	}
	return e.Buf(), brief
}

func encodeUsage(e *cache.Encoder, u reader.Usage) {
	for _, n := range [...]int64{u.Input, u.Output, u.CacheCreation, u.CacheCreation5m, u.CacheCreation1h, u.CacheRead, u.WebSearch} {
		e.Varint(n)
	}
	e.String(u.Speed)
	e.String(u.ServiceTier)
}

func decodeUsage(d *cache.Decoder) reader.Usage {
	return reader.Usage{Input: d.Varint(), Output: d.Varint(), CacheCreation: d.Varint(), CacheCreation5m: d.Varint(),
		CacheCreation1h: d.Varint(), CacheRead: d.Varint(), WebSearch: d.Varint(), Speed: d.String(), ServiceTier: d.String()}
}

var errEntry = errors.New("cache entry does not fit its file")

// decodeFile rebuilds what encodeFile wrote, for the file src: a counter
// of its own with its ids, the File to go on with, and the issues.
func decodeFile(b []byte, src Source) (*Counter, *File, []reader.Issue, error) {
	c := newCounter(true)
	f, _, issues, err := decodeInto(b, src, c, true)
	if err != nil {
		return nil, nil, nil, err
	}
	return c, f, issues, nil
}

// decodedRows are the buffers of decodeInto.
var decodedRows = sync.Pool{New: func() any { return new([]decodedRow) }}

// decodedRow is a row read from an entry, not yet in a counter.
type decodedRow struct {
	k  key
	r  row
	id ids
}

// decodeInto adds the rows of an entry to c as Merge adds another
// counter's, and returns the file's File state (own: c is a new counter
// for this file alone, which the File goes on counting into), the agents
// its results name and its issues. Nothing is added when the entry is
// not whole.
func decodeInto(b []byte, src Source, c *Counter, own bool) (*File, []namedAgent, []reader.Issue, error) {
	d := cache.NewDecoder(b)
	if d.String() != src.SessionID || d.String() != src.AgentID {
		return nil, nil, nil, errEntry
	}
	if d.Bool() { // the project and start: Inputs'
		if d.Bool() {
			d.Varint()
		}
		d.Bytes()
	}
	n := d.Uvarint()
	if n > uint64(d.Len()) {
		return nil, nil, nil, errEntry
	}
	names := make([]int32, n+1) // an entry's name index → c's
	seen := make(map[string]bool, n)
	for i := range n {
		var s string
		switch d.Uvarint() {
		case nameLiteral:
			s = d.String()
		case nameSession:
			s = src.SessionID
		case namePath:
			s = src.Path
		default:
			return nil, nil, nil, errEntry
		}
		if seen[s] || s == "" {
			return nil, nil, nil, errEntry
		}
		seen[s] = true
		names[i+1] = c.name(s)
	}
	if !seen[src.SessionID] && src.SessionID != "" || !seen[src.Path] {
		return nil, nil, nil, errEntry
	}
	var f *File
	if own {
		f = c.File(src)
	}
	if anon := d.Bool(); anon {
		line := d.Varint()
		u := decodeUsage(d)
		if own {
			f.anonSeen, f.anonKey, f.anonUsage = true, anonKey(src.Path, int(line)), u
			c.noteAnon(f.anonKey.mid, int32(line))
		}
	}
	if m := d.Uvarint(); m > 0 {
		if m > uint64(d.Len()) {
			return nil, nil, nil, errEntry
		}
		side := make(map[string]string, m)
		for range m {
			k := d.String()
			side[k] = d.String()
		}
		if own {
			f.sideRoot = side
		}
	}
	var calls [2]map[string]bool // pending, answered
	for c := range calls {
		if m := d.Uvarint(); m > 0 {
			if m > uint64(d.Len()) {
				return nil, nil, nil, errEntry
			}
			calls[c] = make(map[string]bool, m)
			for range m {
				calls[c][d.String()] = true
			}
		}
	}
	var named []namedAgent
	if m := d.Uvarint(); m > 0 {
		if m > uint64(d.Len()) {
			return nil, nil, nil, errEntry
		}
		named = make([]namedAgent, m)
		for k := range named {
			named[k] = namedAgent{d.String(), int32(d.Varint())}
		}
	}
	if own {
		f.pending, f.answered, f.named = calls[0], calls[1], named
	}
	rowsN := d.Uvarint()
	if rowsN > uint64(d.Len()) {
		return nil, nil, nil, errEntry
	}
	buf := decodedRows.Get().(*[]decodedRow)
	defer decodedRows.Put(buf)
	if uint64(cap(*buf)) < rowsN {
		*buf = make([]decodedRow, rowsN)
	}
	rows := (*buf)[:rowsN]
	for i := range rows {
		x := &rows[i]
		*x = decodedRow{}
		fl := d.Uvarint()
		if fl&flagAnon != 0 {
			line := d.Varint()
			x.k = anonKey(src.Path, int(line))
			x.r.line = int32(line) // its key's line, until the row's own is read
		} else {
			msg := d.Bytes()
			x.k.mid = hashBytes('m', msg)
			if c.keepIDs {
				x.id.message = string(msg)
			}
		}
		if fl&flagRID != 0 {
			req := d.Bytes()
			x.k.rid, x.k.hasRID = maphash.Bytes(seedA, req), true
			if c.keepIDs {
				x.id.request = string(req)
			}
		}
		x.r.sidechain, x.r.hasTime, x.r.start = fl&flagSidechain != 0, fl&flagTime != 0, fl&flagStart != 0
		for _, p := range [...]*int32{&x.r.speed, &x.r.tier, &x.r.session, &x.r.lineSess, &x.r.agent, &x.r.model, &x.r.file} {
			v := d.Uvarint()
			if v >= uint64(len(names)) {
				return nil, nil, nil, errEntry
			}
			*p = names[v]
		}
		if fl&flagAnon != 0 && own {
			c.noteAnon(x.k.mid, x.r.line)
		}
		x.r.line, x.r.lines = int32(d.Varint()), int32(d.Varint())
		if x.r.hasTime {
			x.r.sec, x.r.nsec = d.Varint(), int32(d.Varint())
		}
		for _, p := range [...]*int64{&x.r.u.input, &x.r.u.output, &x.r.u.cacheCreation, &x.r.u.cc5m, &x.r.u.cc1h, &x.r.u.cacheRead, &x.r.u.webSearch} {
			*p = d.Varint()
		}
		if d.Err() != nil {
			return nil, nil, nil, d.Err()
		}
	}
	m := d.Uvarint()
	if m > uint64(d.Len()) {
		return nil, nil, nil, errEntry
	}
	var issues []reader.Issue
	for range m {
		issues = append(issues, reader.Issue{File: src.Path, Line: int(d.Varint()), Kind: reader.IssueKind(d.Varint()),
			Size: int(d.Varint()), Detail: d.String(), Limit: int(d.Varint())})
	}
	if d.Err() != nil {
		return nil, nil, nil, d.Err()
	}
	if d.Len() != 0 {
		return nil, nil, nil, errEntry
	}
	if own {
		c.Grow(len(rows))
		for i := range rows {
			if !c.restore(rows[i].k, rows[i].r, rows[i].id) {
				return nil, nil, nil, errEntry
			}
		}
	} else if c.rows.len() == 0 && !c.unindexed && len(c.byMID) == 0 {
		// The session's first file: its rows as they are, indexed only
		// if another file is merged into them.
		c.rows.reserve(len(rows))
		for i := range rows {
			x := &rows[i]
			x.r.mid, x.r.rid, x.r.hasRID, x.r.next = x.k.mid, x.k.rid, x.k.hasRID, -1
			c.rows.add(x.r)
			if c.keepIDs {
				c.ids = append(c.ids, x.id)
			}
		}
		c.unindexed = true
	} else {
		c.Grow(len(rows))
		for i := range rows {
			c.put(rows[i].k, rows[i].r, rows[i].id)
		}
	}
	return f, named, issues, nil
}

// hashBytes is hashString(string(prefix)+string(b)), without making the
// string.
func hashBytes(prefix byte, b []byte) hash128 {
	var a uint64
	var buf [128]byte
	if len(b) < len(buf) {
		buf[0] = prefix
		n := copy(buf[1:], b)
		a = xxhash.Sum64(buf[:n+1])
	} else {
		d := xxhash.New()
		d.Write([]byte{prefix})
		d.Write(b)
		a = d.Sum64()
	}
	var h maphash.Hash
	h.SetSeed(seedB)
	h.WriteByte(prefix)
	h.Write(b)
	return hash128{a, h.Sum64()}
}

// cachedStart is the project and start of an unchanged main file, from its
// cache entry.
func cachedStart(store *cache.Store, s *session.Session) (started time.Time, project string, ok bool) {
	return cachedStartOpen(store, s, nil)
}

// cachedStartOpen is cachedStart of a file its caller holds open (fh, nil:
// none), which the check of its entry reads.
func cachedStartOpen(store *cache.Store, s *session.Session, fh *rawfile.File) (started time.Time, project string, ok bool) {
	if store == nil || s.Orphan || s.Path == session.StdinPath {
		return started, "", false
	}
	var open cache.File
	if fh != nil {
		open = fh
	}
	e, st := store.LookupBriefOpen(s.ProjectDir, s.Path, s.ListedStat(), open)
	if st != cache.Same {
		return started, "", false
	}
	d := cache.NewDecoder(e.Data)
	if d.String() != s.ID || d.String() != "" || !d.Bool() {
		return started, "", false
	}
	if d.Bool() {
		started = time.Unix(0, d.Varint()).UTC()
	}
	project = d.String()
	return started, project, d.Err() == nil
}
