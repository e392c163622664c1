// Package tokens counts the usage of API responses in transcripts, once
// each.
//
// Claude Code writes each content block of one API response as its own
// assistant line; every line repeats message.usage, and early lines carry a
// partial output_tokens. Summing lines over-counts 1.4–2.4×. The rule, in
// one place (Counter.put):
//
//   - A response's fingerprint is (message.id, requestId); message.id alone
//     when requestId is missing (such a line joins the response of its
//     message.id, and a response first seen without requestId takes the
//     one its later lines bring); when both are missing, the usage of
//     consecutive such lines in one file (identical usage = same response).
//   - Of the lines of one response, the largest usage is kept (the last,
//     final one).
//   - A sidechain line that replays a main line's response loses to the
//     main copy.
//   - Lines of the client-side "<synthetic>" model carry no tokens.
//   - Every response counts, on every branch and in every file given to the
//     same Counter, once: a resumed session that replays another session's
//     lines adds nothing for them to a multi-session total. The response
//     belongs to the session its line names in sessionId when that
//     session's file has it, else to the session that was added first.
package tokens

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strconv"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/cctx-dev/cctx/internal/reader"
)

// Response is one API response, deduplicated.
type Response struct {
	MessageID string
	RequestID string
	SessionID string // the session it belongs to
	// LineSessionID is the sessionId the kept line records. A resumed
	// session's file replays lines of the one it continues; when those
	// keep their old sessionId, it names the session they belong to.
	LineSessionID string
	AgentID       string // "" for the main conversation
	Model         string
	Time          time.Time
	Usage         reader.Usage
	Sidechain     bool   // every line seen so far was a sidechain line
	File          string // file and line of the kept usage
	Line          int
	Lines         int // transcript lines merged into this response
	// StreamingStart: the kept usage is the one the response began with
	// (Claude Code ≤ 2.1.49 wrote no final count): its output is
	// understated.
	StreamingStart bool
}

// Source says where the lines given to a File come from.
type Source struct {
	SessionID string
	AgentID   string // the agent of a subagent file; "" for a main file
	Path      string
}

// Counter deduplicates responses across every file added to it.
//
// A history holds a response for every few kilobytes, and a total over
// many sessions must keep each one until the last file is read (a
// resumed session may replay it). So a response is a fixed-size row of
// about 128 bytes: its fingerprint as hashes, its strings as indices into
// one table of names, its usage as numbers. The ids themselves are kept
// only when a caller will print them (keepIDs).
type Counter struct {
	rows    rows
	ids     []ids             // the ids of each row, when keepIDs
	byMID   map[hash128]int32 // message.id (or anonymous key) → first row
	names   []string          // index 0 is ""
	nameIdx map[string]int32
	keepIDs bool
	// anonLine is, for a row of lines with neither id, the line its run
	// began at (its key): what a cache entry stores instead of the key.
	anonLine map[hash128]int32
	// unindexed: rows were appended without byMID and next (a file's
	// rows from the cache, most often all its session has); index makes
	// them before any lookup.
	unindexed bool
}

// index makes byMID and the next links of rows appended unindexed, as put
// would have made them.
func (c *Counter) index() {
	c.unindexed = false
	for n := range int32(c.rows.len()) {
		r := c.rows.at(n)
		r.next = -1
		c.link(r.mid, n)
	}
}

// rows is a growing list of rows in blocks: growing copies at most the
// first block's rows, so a history of a million responses costs its rows
// and not twice as much while the list grows.
type rows struct {
	blocks [][]row
	n      int
}

const rowBlock = 1024

// reserve makes room for n rows in an empty list's first block.
func (rs *rows) reserve(n int) {
	if rs.n == 0 && len(rs.blocks) == 0 && n > 0 {
		rs.blocks = append(rs.blocks, make([]row, 0, min(n, rowBlock)))
	}
}

func (rs *rows) at(i int32) *row { return &rs.blocks[i/rowBlock][i%rowBlock] }

func (rs *rows) len() int { return rs.n }

func (rs *rows) add(r row) int32 {
	if rs.n%rowBlock == 0 && (rs.n > 0 || len(rs.blocks) == 0) {
		// The first block starts small and grows by doubling (most files
		// of a history hold a few responses: a subagent's, one per
		// counter); the next ones are whole.
		size := rowBlock
		if rs.n == 0 {
			size = 8
		}
		rs.blocks = append(rs.blocks, make([]row, 0, size))
	}
	b := &rs.blocks[len(rs.blocks)-1]
	*b = append(*b, r)
	rs.n++
	return int32(rs.n - 1)
}

// row is a response in a Counter.
type row struct {
	mid       hash128 // hash of message.id, or of the anonymous key
	rid       uint64  // hash of requestId, when hasRID
	next      int32   // next row with this mid and another requestId; -1 none
	hasRID    bool
	sidechain bool
	hasTime   bool
	start     bool  // the kept usage is a streaming start (reader.Entry.StreamingStart)
	speed     int32 // names
	tier      int32
	session   int32
	lineSess  int32
	agent     int32
	model     int32
	file      int32
	line      int32
	lines     int32
	nsec      int32 // time: seconds and nanoseconds, so that any year fits
	sec       int64
	u         counts
}

// before reports whether r's time comes before o's (both have one).
func (r *row) before(o *row) bool {
	return r.sec < o.sec || r.sec == o.sec && r.nsec < o.nsec
}

// when is r's time, the zero time when it has none.
func (r *row) when() time.Time {
	if !r.hasTime {
		return time.Time{}
	}
	return time.Unix(r.sec, int64(r.nsec)).UTC()
}

// counts are the numbers of a reader.Usage.
type counts struct{ input, output, cacheCreation, cc5m, cc1h, cacheRead, webSearch int64 }

type ids struct{ message, request string }

type hash128 [2]uint64

// key is the fingerprint of the response a line belongs to:
// (message.id, requestId), message.id alone when requestId is missing, or
// for lines with neither, the file and line where a run of identical usage
// began. Hashes: 128 bits for the identity, so that two responses of one
// history collide with a probability below 2^-90.
type key struct {
	mid    hash128
	rid    uint64
	hasRID bool
}

var seedA, seedB = maphash.MakeSeed(), maphash.MakeSeed()

// hashString is a fingerprint's 128 bits: its first half is xxhash, the
// same in every run (a project folder's summary keeps the first halves of
// its message ids, so that a later run can tell whether another folder
// has one: folderIDs), its second maphash.
func hashString(s string) hash128 {
	return hash128{xxhash.Sum64String(s), maphash.String(seedB, s)}
}

func keyOf(messageID, requestID string) key {
	k := key{mid: hashString("m" + messageID)}
	if requestID != "" {
		k.rid, k.hasRID = maphash.String(seedA, requestID), true
	}
	return k
}

func anonKey(path string, line int) key {
	return key{mid: hashString("a" + path + "\x00" + strconv.Itoa(line))}
}

// NewCounter returns an empty Counter that keeps the ids of its responses.
func NewCounter() *Counter { return newCounter(true) }

// Grow makes room for n more responses in an empty counter's index, for a
// caller that knows how many lines it will add (growing the index a step
// at a time cost more than filling it).
func (c *Counter) Grow(n int) {
	if len(c.byMID) == 0 {
		c.byMID = make(map[hash128]int32, n)
		c.rows.reserve(n)
		if c.keepIDs {
			// Grown by appends, half a million ids left ~70 MB of garbage.
			c.ids = slices.Grow(c.ids, n)
		}
	}
}

func newCounter(keepIDs bool) *Counter {
	return &Counter{byMID: map[hash128]int32{}, names: []string{""}, nameIdx: map[string]int32{"": 0}, keepIDs: keepIDs}
}

// name returns the index of s in the counter's table of names.
func (c *Counter) name(s string) int32 {
	if i, ok := c.nameIdx[s]; ok {
		return i
	}
	i := int32(len(c.names))
	c.names = append(c.names, s)
	c.nameIdx[s] = i
	return i
}

// File is the per-file state of a Counter.
type File struct {
	c       *Counter
	src     Source
	session int32
	file    int32

	// Lines with neither message.id nor requestId: consecutive lines with
	// the same usage are one response.
	anonKey   key
	anonUsage reader.Usage
	anonSeen  bool

	// Inline sidechains (Claude Code ≤1.0) have no agentId: each chain is
	// named after its root entry.
	sideRoot map[string]string

	// Agent/Task calls: the ids of those whose result is not read yet and
	// of those whose result was (a call written again is not waited on
	// again), and the agents the results named (toolUseResult.agentId),
	// each of which should have its transcript (countSession checks).
	pending, answered map[string]bool
	named             []namedAgent

	// The last line's names and key: consecutive lines repeat them (the
	// reader shares a string equal to the last one of its field, so
	// comparing is cheap), and looking them up again cost a map lookup
	// or a hash each.
	speed, tier, lineSess, agent, model lastName
	lastMID, lastRID                    string
	lastKey                             key
}

// lastName is a name a File looked up last, with its index.
type lastName struct {
	s   string
	i   int32
	set bool
}

// name is c.name(s), through the File's last lookup of the field.
func (f *File) name(l *lastName, s string) int32 {
	if !l.set || l.s != s {
		*l = lastName{s, f.c.name(s), true}
	}
	return l.i
}

// File starts reading one transcript file.
func (c *Counter) File(src Source) *File {
	return &File{c: c, src: src, session: c.name(src.SessionID), file: c.name(src.Path)}
}

// Add counts one entry; entries that are not assistant lines with usage
// are ignored apart from the chain bookkeeping of inline sidechains and
// the Agent/Task calls and results (calls).
func (f *File) Add(e *reader.Entry) {
	if len(e.SpawnIDs) > 0 || len(e.ResultIDs) > 0 {
		f.calls(e)
	}
	agent := f.src.AgentID
	if agent == "" {
		agent = e.AgentID
	}
	if agent == "" && e.Sidechain && e.UUID != "" {
		agent = f.inlineAgent(e)
	}
	if e.Type != "assistant" {
		return
	}
	if !e.HasUsage || e.Synthetic() {
		return
	}
	var k key
	if e.MessageID != "" { // requestId may be "": then message.id alone identifies it
		if e.MessageID != f.lastMID || e.RequestID != f.lastRID || f.lastMID == "" {
			f.lastMID, f.lastRID, f.lastKey = e.MessageID, e.RequestID, keyOf(e.MessageID, e.RequestID)
		}
		k = f.lastKey
		f.anonSeen = false // a line with an id ends a run of anonymous ones
	} else {
		if !f.anonSeen || e.Usage != f.anonUsage {
			f.anonKey = anonKey(f.src.Path, e.Line)
			f.c.noteAnon(f.anonKey.mid, int32(e.Line))
		}
		f.anonSeen, f.anonUsage = true, e.Usage
		k = f.anonKey
	}
	c := f.c
	u := e.Usage
	in := row{
		sidechain: e.Sidechain, hasTime: !e.Timestamp.IsZero(), start: e.StreamingStart(),
		speed: f.name(&f.speed, u.Speed), tier: f.name(&f.tier, u.ServiceTier),
		session: f.session, lineSess: f.name(&f.lineSess, e.SessionID), agent: f.name(&f.agent, agent), model: f.name(&f.model, e.Model),
		file: f.file, line: int32(e.Line), lines: 1,
		u: counts{u.Input, u.Output, u.CacheCreation, u.CacheCreation5m, u.CacheCreation1h, u.CacheRead, u.WebSearch},
	}
	if in.hasTime {
		in.sec, in.nsec = e.Timestamp.Unix(), int32(e.Timestamp.Nanosecond())
	}
	c.put(k, in, ids{e.MessageID, e.RequestID})
}

// namedAgent is an agent an Agent/Task result names, and the line of the
// result in its file.
type namedAgent struct {
	id   string
	line int32
}

// calls follows the Agent/Task calls of the file, as the conversation
// model links them: a call's first result names the agent that ran
// (toolUseResult.agentId) when its line holds no other result. Calls are
// read on assistant lines and results on user lines, where Claude Code
// writes them: a counter parses no other line for them, so that --strict
// (every line parsed) says the same.
func (f *File) calls(e *reader.Entry) {
	switch e.Type {
	case "assistant":
		for _, id := range e.SpawnIDs {
			if !f.pending[id] && !f.answered[id] {
				if f.pending == nil {
					f.pending = map[string]bool{}
				}
				f.pending[id] = true
			}
		}
	case "user":
		for _, id := range e.ResultIDs {
			if id == "" || !f.pending[id] {
				continue
			}
			delete(f.pending, id)
			if f.answered == nil {
				f.answered = map[string]bool{}
			}
			f.answered[id] = true
			if len(e.ResultIDs) == 1 && e.ToolUseResultAgentID != "" {
				f.named = append(f.named, namedAgent{e.ToolUseResultAgentID, int32(e.Line)})
			}
		}
	}
}

// toolUseIDKey is the key of a tool result's call.
var toolUseIDKey = []byte(`"tool_use_id"`)

// wants is want (Options.Want) of the line, or a user line that may hold
// the result of a call the file is waiting on: a counter reads the result
// of each Agent/Task call, which few are, and no other tool's. The line's
// tool_use_id values are looked up in one pass, however many calls wait;
// one written with an escape is parsed to be sure.
func (f *File) wants(want func(line []byte) bool, line []byte) bool {
	if want(line) {
		return true
	}
	if len(f.pending) == 0 || !userLine(line) {
		return false
	}
	for rest := line; ; {
		i := bytes.Index(rest, toolUseIDKey)
		if i < 0 {
			return false
		}
		rest = bytes.TrimLeft(rest[i+len(toolUseIDKey):], " \t\r\n")
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n")
		if len(rest) == 0 || rest[0] != '"' {
			continue
		}
		end := bytes.IndexByte(rest[1:], '"')
		if end < 0 {
			return true // cut short: parsed to be sure
		}
		v := rest[1 : 1+end]
		if bytes.IndexByte(v, '\\') >= 0 || f.pending[string(v)] {
			return true
		}
		rest = rest[1+end:]
	}
}

// wantsHead is wants of the start of a longer line (reader.Options.
// WantHead): while a call waits, a user line that long is parsed, as what
// it holds past its start cannot be told.
func (f *File) wantsHead(want func(line []byte) bool, head []byte) bool {
	return want(head) || len(f.pending) > 0 && userLine(head)
}

// userLine reports whether a line may be a user line, by its start.
func userLine(line []byte) bool {
	typ, role, _ := reader.Peek(line)
	return typ == "user" || typ == "" && role == "user"
}

// inlineAgent names the inline sidechain an entry belongs to after the
// chain's root (reader.InlineAgentID). Every sidechain line is read
// (Wanted), so the chain is followed whatever order a line's keys are in.
func (f *File) inlineAgent(e *reader.Entry) string {
	if f.sideRoot == nil {
		f.sideRoot = map[string]string{}
	}
	root, ok := f.sideRoot[e.ParentUUID]
	if !ok || e.ParentUUID == "" {
		root = e.UUID
	}
	f.sideRoot[e.UUID] = root
	return reader.InlineAgentID(root)
}

// noteAnon records the line a run of anonymous lines began at.
func (c *Counter) noteAnon(mid hash128, line int32) {
	if c.anonLine == nil {
		c.anonLine = map[hash128]int32{}
	}
	c.anonLine[mid] = line
}

// restore adds a row read back from a cache entry; false when the
// counter already has its key (the entry is not one a counter made).
func (c *Counter) restore(k key, in row, id ids) bool {
	if _, seen := c.find(k); seen {
		return false
	}
	c.put(k, in, id)
	return true
}

// find looks a fingerprint up. A line without requestId belongs to the
// first response of its message.id; a line with one joins the response
// with the same requestId, or a first response that has none yet, but
// never one that has another requestId.
func (c *Counter) find(k key) (int32, bool) {
	if c.unindexed {
		c.index()
	}
	head, ok := c.byMID[k.mid]
	if !ok {
		return -1, false
	}
	if !k.hasRID {
		return head, true
	}
	for i := head; i >= 0; i = c.rows.at(i).next {
		if r := c.rows.at(i); r.hasRID && r.rid == k.rid {
			return i, true
		}
	}
	if !c.rows.at(head).hasRID {
		return head, true
	}
	return -1, false
}

// link puts row n at the end of the rows of its message id (the list
// find walks).
func (c *Counter) link(mid hash128, n int32) {
	head, ok := c.byMID[mid]
	if !ok {
		c.byMID[mid] = n
		return
	}
	last := head
	for c.rows.at(last).next >= 0 {
		last = c.rows.at(last).next
	}
	c.rows.at(last).next = n
}

// put merges one line (or one response of another counter) into the
// counter. This is the dedup rule; see the package comment.
func (c *Counter) put(k key, in row, id ids) {
	i, seen := c.find(k)
	if !seen {
		in.mid, in.rid, in.hasRID, in.next = k.mid, k.rid, k.hasRID, -1
		n := int32(c.rows.len())
		c.rows.add(in)
		c.link(k.mid, n)
		if c.keepIDs {
			c.ids = append(c.ids, id)
		}
		return
	}
	r := c.rows.at(i)
	if k.hasRID && !r.hasRID {
		r.rid, r.hasRID = k.rid, true
		if c.keepIDs {
			c.ids[i].request = id.request
		}
	}
	lines := r.lines + in.lines
	// The earliest time of the copies, kept whichever copy wins.
	sec, nsec, hasTime := r.sec, r.nsec, r.hasTime
	if in.hasTime && (!r.hasTime || in.before(r)) {
		sec, nsec, hasTime = in.sec, in.nsec, true
	}
	switch {
	case r.sidechain && !in.sidechain:
		// The main copy wins over a sidechain replay, whatever its size.
		in.mid, in.rid, in.hasRID, in.next = r.mid, r.rid, r.hasRID, r.next
		*r = in
	case !r.sidechain && in.sidechain:
		// A replay of a main response: nothing new.
	default:
		if larger(in.u, r.u) {
			r.u, r.speed, r.tier, r.file, r.line, r.start = in.u, in.speed, in.tier, in.file, in.line, in.start
			if in.model != 0 {
				r.model = in.model
			}
		}
		// A copy in the session its line names is the original.
		if r.session != in.session && r.session != r.lineSess && in.session == in.lineSess {
			r.session, r.lineSess, r.agent = in.session, in.lineSess, in.agent
		}
	}
	r.lines, r.sec, r.nsec, r.hasTime = lines, sec, nsec, hasTime
}

// Merge adds the responses of another counter, as if its lines had been
// added after this counter's: a response both have is counted once, and
// stays with the session that was added first.
func (c *Counter) Merge(o *Counter) {
	c.Grow(o.rows.len())
	remap := make([]int32, len(o.names))
	for i, s := range o.names {
		remap[i] = c.name(s)
	}
	for j := range int32(o.rows.len()) {
		in := *o.rows.at(j)
		k := key{mid: in.mid, rid: in.rid, hasRID: in.hasRID}
		in.speed, in.tier = remap[in.speed], remap[in.tier]
		in.session, in.lineSess, in.agent, in.model, in.file =
			remap[in.session], remap[in.lineSess], remap[in.agent], remap[in.model], remap[in.file]
		var id ids
		if o.keepIDs {
			id = o.ids[j]
		}
		c.put(k, in, id)
	}
}

// larger reports whether usage a supersedes b: more tokens in all, or as
// many with more output (the final line of a streamed response).
func larger(a, b counts) bool {
	ta, tb := a.input+a.output+a.cacheCreation+a.cacheRead, b.input+b.output+b.cacheCreation+b.cacheRead
	if ta != tb {
		return ta > tb
	}
	return a.output > b.output
}

// response is row i as a Response; its strings are the counter's, so it
// costs no allocation.
func (c *Counter) response(i int32) Response {
	r := c.rows.at(i)
	out := Response{
		SessionID: c.names[r.session], LineSessionID: c.names[r.lineSess], AgentID: c.names[r.agent],
		Model: c.names[r.model], Sidechain: r.sidechain, File: c.names[r.file], Line: int(r.line), Lines: int(r.lines),
		StreamingStart: r.start,
		Usage: reader.Usage{
			Input: r.u.input, Output: r.u.output, CacheCreation: r.u.cacheCreation,
			CacheCreation5m: r.u.cc5m, CacheCreation1h: r.u.cc1h, CacheRead: r.u.cacheRead, WebSearch: r.u.webSearch,
			Speed: c.names[r.speed], ServiceTier: c.names[r.tier],
		},
	}
	out.Time = r.when()
	if c.keepIDs {
		out.MessageID, out.RequestID = c.ids[i].message, c.ids[i].request
	}
	return out
}

// Responses returns the responses in the order they were first seen.
func (c *Counter) Responses() []Response {
	out := make([]Response, c.rows.len())
	for i := range out {
		out[i] = c.response(int32(i))
	}
	return out
}
