// Package tokens counts the usage of API responses in transcripts, once
// each.
//
// Claude Code writes each content block of one API response as its own
// assistant line; every line repeats message.usage, and early lines carry a
// partial output_tokens. Summing lines over-counts 1.4–2.4×. The rule, in
// one place (Counter.add):
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
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
)

// Response is one API response, deduplicated.
type Response struct {
	Key       Key // the fingerprint
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
}

// Key is a response's fingerprint: (message.id, requestId), or for lines
// with neither, the file and line where a run of identical usage began.
// It shares the strings of the response, so it costs no allocation.
type Key struct {
	MessageID, RequestID string
	AnonFile             string
	AnonLine             int
}

// KeyOf is the fingerprint of the response a line belongs to, when the
// line carries a message.id (lines without one are keyed by position, see
// File.Add).
func KeyOf(e *reader.Entry) (Key, bool) {
	if e.MessageID == "" {
		return Key{}, false
	}
	return Key{MessageID: e.MessageID, RequestID: e.RequestID}, true
}

// Source says where the lines given to a File come from.
type Source struct {
	SessionID string
	AgentID   string // the agent of a subagent file; "" for a main file
	Path      string
}

// Counter deduplicates responses across every file added to it.
type Counter struct {
	byKey     map[Key]int
	byMID     map[string]int // message.id → its first response
	responses []Response
	names     map[string]string // one copy of each model, agent, speed and tier name
}

// intern returns the counter's copy of s: every line clones its strings,
// and a model name kept once per response adds up on a large history.
func (c *Counter) intern(s string) string {
	if v, ok := c.names[s]; ok {
		return v
	}
	if c.names == nil {
		c.names = map[string]string{}
	}
	c.names[s] = s
	return s
}

// NewCounter returns an empty Counter.
func NewCounter() *Counter { return &Counter{byKey: map[Key]int{}, byMID: map[string]int{}} }

// File is the per-file state of a Counter.
type File struct {
	c   *Counter
	src Source

	// Lines with neither message.id nor requestId: consecutive lines with
	// the same usage are one response.
	anonKey   Key
	anonUsage reader.Usage
	anonSeen  bool

	// Inline sidechains (Claude Code ≤1.0) have no agentId: each chain is
	// named after its root entry.
	sideRoot map[string]string
}

// File starts reading one transcript file.
func (c *Counter) File(src Source) *File { return &File{c: c, src: src} }

// Add counts one entry; entries that are not assistant lines with usage
// are ignored apart from the chain bookkeeping of inline sidechains.
func (f *File) Add(e *reader.Entry) {
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
	key, ok := KeyOf(e) // requestId may be "": then message.id alone identifies it
	if ok {
		f.anonSeen = false // a line with an id ends a run of anonymous ones
	} else {
		if !f.anonSeen || e.Usage != f.anonUsage {
			f.anonKey = Key{AnonFile: f.src.Path, AnonLine: e.Line}
		}
		f.anonSeen, f.anonUsage = true, e.Usage
		key = f.anonKey
	}
	f.c.add(key, agent, f.src, e)
}

// inlineAgent names the inline sidechain an entry belongs to after the
// chain's root: "sidechain-" and the root uuid's first 8 characters.
func (f *File) inlineAgent(e *reader.Entry) string {
	if f.sideRoot == nil {
		f.sideRoot = map[string]string{}
	}
	root, ok := f.sideRoot[e.ParentUUID]
	if !ok || e.ParentUUID == "" {
		root = e.UUID
	}
	f.sideRoot[e.UUID] = root
	if len(root) > 8 {
		root = root[:8]
	}
	return "sidechain-" + root
}

func (c *Counter) add(key Key, agent string, src Source, e *reader.Entry) {
	u := e.Usage
	u.Speed, u.ServiceTier = c.intern(u.Speed), c.intern(u.ServiceTier)
	c.put(key, Response{
		MessageID: e.MessageID, RequestID: e.RequestID,
		SessionID: src.SessionID, LineSessionID: e.SessionID, AgentID: c.intern(agent), Model: c.intern(e.Model),
		Time: e.Timestamp, Usage: u, Sidechain: e.Sidechain, File: src.Path, Line: e.Line, Lines: 1,
	})
}

// find looks a fingerprint up. A line without requestId belongs to the
// response of its message.id; a line with one joins a response first seen
// without it, but never one that has another requestId.
func (c *Counter) find(k Key) (int, bool) {
	if i, ok := c.byKey[k]; ok {
		return i, true
	}
	if k.MessageID == "" {
		return 0, false
	}
	if k.RequestID == "" {
		i, ok := c.byMID[k.MessageID]
		return i, ok
	}
	if i, ok := c.byKey[Key{MessageID: k.MessageID}]; ok && c.responses[i].RequestID == "" {
		return i, true
	}
	return 0, false
}

// put merges one line (or one response of another counter) into the
// counter. This is the dedup rule; see the package comment.
func (c *Counter) put(k Key, in Response) {
	i, seen := c.find(k)
	if !seen {
		in.Key = k
		c.byKey[k] = len(c.responses)
		if _, ok := c.byMID[k.MessageID]; !ok && k.MessageID != "" {
			c.byMID[k.MessageID] = len(c.responses)
		}
		c.responses = append(c.responses, in)
		return
	}
	r := &c.responses[i]
	if k.RequestID != "" && r.RequestID == "" {
		r.RequestID, r.Key = k.RequestID, k
		c.byKey[k] = i
	}
	lines, key, rid := r.Lines+in.Lines, r.Key, r.RequestID
	earliest := r.Time
	if !in.Time.IsZero() && (earliest.IsZero() || in.Time.Before(earliest)) {
		earliest = in.Time
	}
	switch {
	case r.Sidechain && !in.Sidechain:
		// The main copy wins over a sidechain replay, whatever its size.
		*r = in
	case !r.Sidechain && in.Sidechain:
		// A replay of a main response: nothing new.
	default:
		if larger(in.Usage, r.Usage) {
			r.Usage, r.File, r.Line = in.Usage, in.File, in.Line
			if in.Model != "" {
				r.Model = in.Model
			}
		}
		// A copy in the session its line names is the original.
		if r.SessionID != in.SessionID && r.SessionID != r.LineSessionID && in.SessionID == in.LineSessionID {
			r.SessionID, r.LineSessionID, r.AgentID = in.SessionID, in.LineSessionID, in.AgentID
		}
	}
	r.Lines, r.Key, r.Time = lines, key, earliest
	if r.RequestID == "" {
		r.RequestID = rid
	}
}

// Merge adds the responses of another counter, as if its lines had been
// added after this counter's: a response both have is counted once, and
// stays with the session that was added first.
func (c *Counter) Merge(o *Counter) {
	for i := range o.responses {
		c.put(o.responses[i].Key, o.responses[i])
	}
}

// larger reports whether usage a supersedes b: more tokens in all, or as
// many with more output (the final line of a streamed response).
func larger(a, b reader.Usage) bool {
	if a.Total() != b.Total() {
		return a.Total() > b.Total()
	}
	return a.Output > b.Output
}

// Responses returns the responses in the order they were first seen.
func (c *Counter) Responses() []Response { return c.responses }
