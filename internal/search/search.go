// Package search is cctx grep's engine: it finds a pattern in the text a
// person reads in Claude Code sessions (prompts, replies, tool calls and
// their results, thinking), never in JSON keys, ids, signatures, base64
// data or usage numbers.
//
// Files are searched in parallel. Each is first scanned raw, a window at a
// time, for the literals every match must hold (prefilter.go, scan.go);
// only the lines that may hold a match are parsed and decoded (by
// internal/reader), and the regular expression runs on their decoded text.
// Results come back a session at a time, in the order of the targets, so
// that the output streams and memory does not grow with the files.
package search

import (
	"io"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
)

// Role is who a text is from, as --role names it.
type Role string

// The roles of a text.
const (
	RoleUser      Role = "user"      // text of a user message (a prompt, a slash command)
	RoleAssistant Role = "assistant" // text of a reply
	RoleTool      Role = "tool"      // a tool call's input or a tool's result
	RoleThinking  Role = "thinking"  // the model's thinking
)

// Roles lists every role, in the order they are documented.
var Roles = []Role{RoleUser, RoleAssistant, RoleTool, RoleThinking}

// RoleSet is a set of roles.
type RoleSet uint8

// Has reports whether r is in the set.
func (s RoleSet) Has(r Role) bool { return s&roleBit(r) != 0 }

// With adds r to the set.
func (s RoleSet) With(r Role) RoleSet { return s | roleBit(r) }

func roleBit(r Role) RoleSet {
	for i, x := range Roles {
		if x == r {
			return 1 << i
		}
	}
	return 0
}

// ParseRole reads a --role value.
func ParseRole(s string) (Role, bool) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	return r, roleBit(r) != 0
}

// DefaultRoles are searched when no --role is given: all but thinking.
const DefaultRoles = RoleSet(1<<0 | 1<<1 | 1<<2)

// Mode says how much of each session's hits is wanted.
type Mode int

const (
	// Hits: every hit, with its text.
	Hits Mode = iota
	// Sessions: only whether a session has a hit (-l): a session's files
	// stop at the first.
	Sessions
	// Counts: how many hits (-c), without their text.
	Counts
)

// Options say what to search for and how.
type Options struct {
	Pattern  *Pattern
	Roles    RoleSet
	Mode     Mode
	MaxCount int       // hits kept per session (0: all): the first ones, main file first, then each agent's
	Since    time.Time // hits before are left out (a line without a time is kept)
	Until    time.Time
	// Details loads each session with hits as a conversation (internal/tree)
	// to say which hits lie on an abandoned branch, name the tool a result
	// came from and the inline sidechain a line belongs to, and find the
	// context messages (Context).
	Details bool
	Context int // messages before and after each hit (needs Details)
	// MatchText keeps the text of each match (Match.Text), for JSON; the
	// other views show the excerpt.
	MatchText bool
	// Every reads every line, without the prefilter (--strict: every line
	// is then checked).
	Every bool
	// Redact (--redact) masks each line a match may be in before it is
	// searched: what is found and shown is the redacted text.
	Redact  func([]byte) []byte
	Workers int // files searched at once (0: one per core)
	Report  *diag.Reporter
	Stdin   io.Reader // what "-" reads
	Stats   *Stats    // when set, filled in as the search goes
}

// Stats count what a search read.
type Stats struct {
	Sessions int   // sessions searched
	Files    int   // files searched
	Bytes    int64 // bytes scanned
	Lines    int64 // lines parsed (the others were passed over by the prefilter)
}

// Target is a session to search.
type Target struct {
	Session *session.Session
	Info    *session.Info // its title, project and times (nil when its main file could not be read)
}

// Result is what one session holds.
type Result struct {
	Target
	Hits  []*Hit // in time order (empty in Counts and Sessions modes, but for the first)
	Count int    // hits (with MaxCount, at most MaxCount)
	// Agents says whether a hit is in a subagent, Abandoned whether one is
	// on an abandoned branch, Thinking whether one is in thinking: what the
	// next commands need to show them.
	Agents, Abandoned, Thinking bool
}

// Hit is one decoded text of a line that matches: a message's text, one
// field of a tool call, a tool's result, a thinking block.
type Hit struct {
	SessionID string
	AgentID   string // the subagent whose transcript holds it; "" for the main conversation
	UUID      string
	Time      time.Time
	Role      Role
	Kind      string // text, tool_use, tool_result, thinking
	Tool      string // the tool called, or whose result it is ("" when not known)
	Field     string // which text of the block: "text", "command", "content", ...
	File      string
	Line      int
	Abandoned bool // on a branch the conversation left (a rewind, an edited prompt); needs Details
	Sidechain bool // an inline sidechain line (Claude Code ≤ 1.0 subagents)

	TextBytes int     // length of the whole decoded text
	Matches   []Match // up to 100, offsets into the decoded text
	More      bool    // the text holds more matches than Matches
	// Excerpt is the decoded text around the first match, ExcerptAt its
	// offset in the text.
	Excerpt   string
	ExcerptAt int

	Before, After []Context // context messages (Options.Context)

	order     int       // where it was found: file order
	at        time.Time // its time, or the time of a line before it in its file: the order of hits
	toolUseID string    // a tool result's call
}

// Match is one match in a decoded text: [Start, End) bytes, and, with
// Options.MatchText, the text matched (cut to maxMatchText bytes).
type Match struct {
	Start, End int
	Text       string
}

// Context is a message near a hit.
type Context struct {
	UUID    string
	Time    time.Time
	Role    Role
	Kind    string // as Hit.Kind
	Tool    string // a tool call's tool ("" for a result)
	Field   string
	Excerpt string // the start of its first text
}
