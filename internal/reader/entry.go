package reader

import (
	"bytes"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// Entry is the envelope of one transcript line: the fields every command
// needs to place, count and filter it. Content stays in the line (Raw, when
// kept; otherwise reachable through Offset and Size).
type Entry struct {
	Line   int   // 1-based line number in its file
	Offset int64 // byte offset of the line in its file
	Size   int   // bytes in the line, without its terminator

	Type    string // user, assistant, system, attachment, progress, summary, ...
	Subtype string // for system entries: compact_boundary, turn_duration, ...

	UUID              string
	ParentUUID        string
	LogicalParentUUID string
	SessionID         string
	AgentID           string
	TeamName          string
	PromptID          string

	Sidechain      bool
	Meta           bool
	CompactSummary bool
	APIError       bool
	// StopReasonNull: message.stop_reason is null, as on a line Claude
	// Code wrote while the response was still streaming.
	StopReasonNull bool

	Timestamp time.Time
	CWD       string
	GitBranch string
	Version   string

	MessageID string // message.id: shared by the lines of one API response
	RequestID string
	Model     string
	Role      string
	HasUsage  bool
	Usage     Usage
	Content   ContentFlags // what message.content holds (for a queued input, attachment.prompt)
	TextHead  string       // the start of the first text a person typed in a user message (see IsTypedPrompt)

	// Queued is set on an attachment line that delivered a queued input
	// (attachment.type queued_command): a user message, whose Role is
	// user and whose Content and TextHead are read from attachment.prompt
	// (see QueuedKind). Type stays attachment.
	Queued QueuedKind

	// Compaction metadata of a system/compact_boundary entry.
	CompactTrigger   string
	CompactPreTokens int64

	// ToolUseResultAgentID is toolUseResult.agentId on the user entry that
	// carries an Agent/Task tool's result: the link to the subagent file.
	ToolUseResultAgentID string

	// Of message.content, what tells which results name an agent: the
	// ids of its Agent/Task tool_use blocks, and the tool_use_id of each
	// of its tool_result blocks ("" for one without), as the tree facts
	// read them (ToolUses, ToolResults). Read in every mode but
	// EnvelopeOnly, from the first content of the first message.
	SpawnIDs  []string
	ResultIDs []string

	// Raw is the line itself (BOM and CR removed), only with Options.KeepRaw.
	Raw []byte

	// Facts are the line's tree facts, only with Options.Facts; they are
	// the Reader's until the next call to Next.
	Facts *TreeFacts

	odd string // a value Claude Code would not write, for an OddValue issue
}

// Usage is message.usage of an assistant entry.
type Usage struct {
	Input           int64
	Output          int64
	CacheCreation   int64 // cache_creation_input_tokens: 5m + 1h
	CacheCreation5m int64 // cache_creation.ephemeral_5m_input_tokens
	CacheCreation1h int64 // cache_creation.ephemeral_1h_input_tokens
	CacheRead       int64
	WebSearch       int64 // server_tool_use.web_search_requests
	Speed           string
	ServiceTier     string

	implausible bool // a count was over MaxTokenCount (reported by the Reader)
	negative    bool // a count was negative (read as 0; reported by the Reader)
	notObject   bool // message.usage was there but not an object
	// coerced: a count that is not a plain integer (a fraction, a
	// string, 1.5 or "12"), read as the number it holds; the raw value
	// and what it was read as, for an OddValue issue.
	coerced string
}

// MaxTokenCount bounds a token count of one response: far above any real
// context window, far below where sums of a long history could overflow.
const MaxTokenCount = 1 << 40

// Total is every token the response consumed or produced.
func (u Usage) Total() int64 { return u.Input + u.Output + u.CacheCreation + u.CacheRead }

// Context is the size of the prompt the model saw: input plus cache.
func (u Usage) Context() int64 { return u.Input + u.CacheCreation + u.CacheRead }

// IsUser reports whether the entry is a user message (UserMessage).
func (e *Entry) IsUser() bool { return UserMessage(e.Type, e.Queued) }

// UserMessage reports whether a line of type typ, delivering queued input
// of kind queued, is a user message: a user line, or the attachment line
// of a delivered queued input, which the TS SDK makes a user message too.
// Every reading of a line (Entry, SearchLine, tree.Node) asks this one.
func UserMessage(typ string, queued QueuedKind) bool { return typ == "user" || queued != NotQueued }

// MayTitle reports whether a line of type typ, delivering queued input of
// kind queued, is one a session's first prompt may come from: a user
// line, or a queued prompt (a notification, or a mode cctx does not know,
// is a user message that never titles a session).
func MayTitle(typ string, queued QueuedKind) bool { return typ == "user" || queued == QueuedPrompt }

// IsConversation reports whether the entry is a user or assistant message.
func (e *Entry) IsConversation() bool { return e.IsUser() || e.Type == "assistant" }

// Synthetic reports whether the entry is a client-side placeholder (an error
// or an interruption written by Claude Code, not by the API).
func (e *Entry) Synthetic() bool { return e.Model == SyntheticModel }

// StreamingStart reports whether an assistant line's usage is the one a
// response has when it begins to stream (stop_reason null, 1–4 output
// tokens), in a file of Claude Code 2.1.49 or older: those versions often
// wrote no line with the final count, so the output of such a response is
// understated.
func (e *Entry) StreamingStart() bool {
	return e.StopReasonNull && e.Usage.Output >= 1 && e.Usage.Output <= 4 && versionAtMost(e.Version, 2, 1, 49)
}

// versionAtMost reports whether a Claude Code version (2.1.49) is at most
// major.minor.patch; "" or an unreadable version is not.
func versionAtMost(v string, major, minor, patch int) bool {
	var n [3]int
	i := 0
	for k := 0; k < 3; k++ {
		start := i
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			n[k] = n[k]*10 + int(v[i]-'0')
			i++
		}
		if i == start {
			return false
		}
		if k < 2 {
			if i >= len(v) || v[i] != '.' {
				return false
			}
			i++
		}
	}
	switch {
	case n[0] != major:
		return n[0] < major
	case n[1] != minor:
		return n[1] < minor
	}
	return n[2] <= patch
}

// SyntheticModel is the model name of client-side placeholder messages.
const SyntheticModel = "<synthetic>"

// parseEnvelope walks the object on a line once, validating it, and keeps
// the envelope fields. It reports false for a line that is not a complete,
// well-formed object. Strings are copied (line is reused by the reader),
// but through ls: a string equal to the last one of its field is shared.
//
// With fp, the tree facts are gathered in the same walk. The caller has
// refused a line holding a NUL byte (Reader.Next looks for one in every
// line anyway, for a crash's residue; ParseLine looks itself): the scanner
// does not look for them inside strings.
func parseEnvelope(line []byte, ls *lineStrings, fp *factsPass) (Entry, bool) {
	return parseEntry(line, ls, fp, readFull)
}

// readMode says how much of a line parseEntry reads. Every mode checks the
// whole line alike: a line one mode rejects, every mode rejects.
type readMode uint8

const (
	readFull      readMode = iota // the envelope and what the message holds
	readNoMessage                 // no message: it is checked and skipped as an unknown key's value is (EnvelopeOnly)
	readForCount                  // what a counter reads (Options.Count): no content, uuids only on an inline sidechain line
)

// parseEntry is parseEnvelope, reading as much as mode says (with fp,
// readForCount reads as readFull).
func parseEntry(line []byte, ls *lineStrings, fp *factsPass, mode readMode) (Entry, bool) {
	var e Entry
	calls := callState{e: &e}
	if fp != nil && mode == readForCount {
		mode = readFull
	}
	// readForCount: where the uuid and parentUuid strings are, read once the
	// line is known to be an inline sidechain's (the one use a counter
	// has for them).
	var uuidAt, parentAt []byte
	var attach []byte // the first attachment value: a queued input's (setQueued)
	end := members(line, skipSpace(line, 0), func(k []byte, vs int) int {
		if fp != nil && string(k) != "message" && isTreeKey(k) {
			// Read for the facts here; the envelope reads its own fields
			// of the value again below (they are short).
			ve := skipValue(line, vs)
			if ve < 0 {
				return ve
			}
			fp.top(k, line[vs:ve])
		}
		switch string(k) {
		case "message":
			if mode == readNoMessage {
				return -1 // skipped, and validated, by members
			}
			mfp := fp
			if fp != nil && !fp.first(k) {
				mfp = nil // the facts read the first message only
			}
			ve := parseMessage(line, vs, &e, ls, mfp, &calls, mode == readForCount)
			calls.read = true // the calls of the first message only, as the facts
			return ve
		case "isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage", "timestamp":
		case "type", "subtype", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "agentId",
			"teamName", "promptId", "cwd", "gitBranch", "version", "requestId":
			if vs >= len(line) || line[vs] != '"' {
				if e.odd == "" && vs < len(line) && line[vs] != 'n' && (string(k) == "uuid" || string(k) == "parentUuid" || string(k) == "sessionId") {
					e.odd = string(k) + " is not a string: ignored" // null is how a root says it has no parent
				}
				break
			}
			ve := skipString(line, vs)
			if ve < 0 {
				return ve
			}
			v := line[vs:ve]
			switch string(k) {
			case "type":
				e.Type = ls.word(v)
			case "subtype":
				e.Subtype = ls.str(fSubtype, v)
			case "uuid":
				if mode == readForCount {
					uuidAt = v
					break
				}
				e.UUID = ls.str(fUUID, v)
			case "parentUuid":
				if mode == readForCount {
					parentAt = v
					break
				}
				// Mostly the uuid of the line before.
				e.ParentUUID = ls.str(fUUID, v)
			case "logicalParentUuid":
				e.LogicalParentUUID = ls.str(fLogicalParent, v)
			case "sessionId":
				e.SessionID = ls.str(fSession, v)
			case "agentId":
				e.AgentID = ls.str(fAgent, v)
			case "teamName":
				e.TeamName = ls.str(fTeam, v)
			case "promptId":
				e.PromptID = ls.str(fPrompt, v)
			case "cwd":
				e.CWD = ls.str(fCWD, v)
			case "gitBranch":
				e.GitBranch = ls.str(fBranch, v)
			case "version":
				e.Version = ls.str(fVersion, v)
			case "requestId":
				e.RequestID = ls.str(fRequest, v)
			}
			return ve
		case "toolUseResult":
			// Walked once (a tool's output is most of a user line): its
			// agentId read on the way, the rest skipped as members skips.
			if vs >= len(line) || line[vs] != '{' {
				return -1
			}
			// The last toolUseResult object, its first agentId.
			e.ToolUseResultAgentID = ""
			found := false
			return members(line, vs, func(k []byte, vs int) int {
				if found || string(k) != "agentId" {
					return -1
				}
				ve := skipValue(line, vs)
				if ve >= 0 {
					e.ToolUseResultAgentID, found = rawStr(line[vs:ve]), true
				}
				return ve
			})
		case "attachment":
			ve := skipValue(line, vs)
			if ve >= 0 && attach == nil {
				attach = line[vs:ve]
			}
			return ve
		case "compactMetadata":
		default:
			return -1 // skipped, and validated, by members
		}
		ve := skipValue(line, vs)
		if ve < 0 {
			return ve
		}
		v := line[vs:ve]
		switch string(k) {
		case "isSidechain":
			e.Sidechain = isTrue(v)
		case "isMeta":
			e.Meta = isTrue(v)
		case "isCompactSummary":
			e.CompactSummary = isTrue(v)
		case "isApiErrorMessage":
			e.APIError = isTrue(v)
		case "timestamp":
			if e.Timestamp = rawTime(v); e.Timestamp.IsZero() && string(v) != "null" && e.odd == "" {
				e.odd = "timestamp " + clipRaw(v, 40) + " is not a time: ignored"
			}
		case "compactMetadata":
			eachMember(v, func(k, v []byte) bool {
				switch string(k) {
				case "trigger":
					e.CompactTrigger = rawStr(v)
				case "preTokens":
					e.CompactPreTokens = rawNumber(v)
				}
				return true
			})
		}
		return ve
	})
	ok := end >= 0 && skipSpace(line, end) == len(line)
	if ok && attach != nil && e.Type == "attachment" {
		if k, prompt := queuedAttachment(attach); k != NotQueued {
			e.setQueued(k, prompt, mode == readFull)
		}
	}
	if ok && fp != nil {
		fp.finish()
	}
	if ok && e.Sidechain && e.AgentID == "" { // readForCount: an inline sidechain's line
		if parentAt != nil {
			e.ParentUUID = ls.str(fUUID, parentAt)
		}
		if uuidAt != nil {
			e.UUID = ls.str(fUUID, uuidAt)
		}
	}
	switch {
	case e.Usage.notObject && e.Type == "assistant":
		e.odd = "message.usage is not an object: this response is not counted"
	case e.Usage.negative:
		e.odd = "a token count in message.usage is negative: read as 0"
	case e.Usage.coerced != "":
		e.odd = "a token count in message.usage is not written as an integer: " + e.Usage.coerced
	}
	return e, ok
}

// clipRaw shows at most n bytes of a raw value in a message.
func clipRaw(v []byte, n int) string {
	if len(v) <= n {
		return string(v)
	}
	return string(v[:n]) + "…"
}

// parseMessage reads the message value at b[vs] and returns the index just
// past it (or -1 when malformed). The content, the bulk of the line, is
// read once: its blocks are only looked at for their type, and for the
// ids of calls and results (calls). With count, the content is checked
// and skipped, but for those ids.
func parseMessage(b []byte, vs int, e *Entry, ls *lineStrings, fp *factsPass, calls *callState, count bool) int {
	if vs >= len(b) || b[vs] != '{' {
		return -1 // not an object: skipped as any other value
	}
	return members(b, vs, func(k []byte, vs int) int {
		switch string(k) {
		case "content":
			if count {
				return countContent(b, vs, calls.first())
			}
			cfp := fp
			if fp != nil {
				if fp.contentSeen {
					cfp = nil // the facts read the first content only
				}
				fp.contentSeen = true
			}
			// A user line without message.role is still a user's.
			user := e.Role == "user" || e.Role == "" && e.Type == "user"
			f, head, end := contentFlags(b, vs, user, cfp, calls.first())
			e.Content, e.TextHead = f, head
			return end
		case "usage":
			if vs >= len(b) || b[vs] != '{' {
				e.Usage.notObject = true // odd on an assistant line: see parseEnvelope
				return -1
			}
			e.HasUsage = true
			return parseUsage(b, vs, &e.Usage, ls)
		case "stop_reason":
			ve := skipValue(b, vs)
			e.StopReasonNull = ve > 0 && string(b[vs:ve]) == "null"
			return ve
		case "id", "model", "role":
		default:
			return -1
		}
		ve := skipValue(b, vs)
		if ve < 0 {
			return ve
		}
		v := b[vs:ve]
		switch string(k) {
		case "id":
			e.MessageID = ls.str(fMessage, v)
		case "model":
			e.Model = ls.str(fModel, v)
		case "role":
			e.Role = ls.word(v)
		}
		return ve
	})
}

// The start of the blocks Claude Code writes most (the first of a key is
// the one read: such a block is neither a call nor a result).
var textBlock, thinkingBlock = []byte(`{"type":"text"`), []byte(`{"type":"thinking"`)

// toolUseHead and nameKey are how Claude Code starts a tool_use block:
// {"type":"tool_use","id":"…","name":"…".
var toolUseHead, nameKey = []byte(`{"type":"tool_use","id":"`), []byte(`,"name":"`)

// otherToolUse reports whether the block at b starts as Claude Code
// writes a tool_use block and names a tool other than Agent or Task
// (the first of each key is the one read: such a block is no call). Any
// other start is walked.
func otherToolUse(b []byte) bool {
	rest, ok := bytes.CutPrefix(b, toolUseHead)
	if !ok {
		return false
	}
	q := bytes.IndexByte(rest, '"')
	if q < 0 || bytes.IndexByte(rest[:q], '\\') >= 0 {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest[q+1:], nameKey); !ok {
		return false
	}
	q = bytes.IndexByte(rest, '"')
	if q < 0 || bytes.IndexByte(rest[:q], '\\') >= 0 {
		return false
	}
	return !IsSpawnTool(string(rest[:q]))
}

// countContent reads, of a content array at b[vs], the ids a counter
// needs (Entry.SpawnIDs, Entry.ResultIDs) and returns the index just past
// it. Any other value is left to members, which skips it: every byte is
// validated as a skip would.
func countContent(b []byte, vs int, calls *callState) int {
	if calls == nil || vs >= len(b) || b[vs] != '[' { // not the first content, or no array
		return -1
	}
	return elements(b, vs, func(i int) int {
		if b[i] != '{' || bytes.HasPrefix(b[i:], textBlock) || bytes.HasPrefix(b[i:], thinkingBlock) || otherToolUse(b[i:]) {
			return -1 // most blocks: skipped whole, which is faster than a walk
		}
		var bk blockKeys
		end := bk.walk(b, i)
		if end >= 0 {
			calls.block(&bk)
		}
		return end
	})
}

// callState gathers a line's Entry.SpawnIDs and Entry.ResultIDs from
// the first content of its first message, as the tree facts read them.
type callState struct {
	e    *Entry
	read bool // the first content was met
}

// first is c when this content is the line's first, nil for a later one.
func (c *callState) first() *callState {
	if c.read {
		return nil
	}
	c.read = true
	return c
}

// block adds one block of the line's first content.
func (c *callState) block(bk *blockKeys) {
	switch string(bk.typ) {
	case `"tool_use"`:
		if s := rawStr(bk.id); s != "" && IsSpawnTool(rawStr(bk.name)) {
			c.e.SpawnIDs = append(c.e.SpawnIDs, s)
		}
	case `"tool_result"`:
		c.e.ResultIDs = append(c.e.ResultIDs, rawStr(bk.toolUseID))
	}
}

// usageOf reads a usage object on its own.
func usageOf(raw []byte) Usage {
	var us Usage
	parseUsage(raw, skipSpace(raw, 0), &us, nil)
	return us
}

// parseUsage reads the usage object at b[vs] into us and returns the index
// just past it (-1 when malformed).
func parseUsage(b []byte, vs int, us *Usage, ls *lineStrings) int {
	return members(b, vs, func(k []byte, vs int) int {
		switch string(k) {
		case "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
			"speed", "service_tier":
		case "cache_creation", "server_tool_use":
			if vs >= len(b) || b[vs] != '{' {
				return -1
			}
			outer := string(k)
			return members(b, vs, func(k []byte, vs int) int {
				var dst *int64
				switch {
				case outer == "cache_creation" && string(k) == "ephemeral_5m_input_tokens":
					dst = &us.CacheCreation5m
				case outer == "cache_creation" && string(k) == "ephemeral_1h_input_tokens":
					dst = &us.CacheCreation1h
				case outer == "server_tool_use" && string(k) == "web_search_requests":
					dst = &us.WebSearch
				default:
					return -1
				}
				ve := skipValue(b, vs)
				if ve >= 0 {
					*dst = us.count(b[vs:ve]) // warned about as the top-level counts are
				}
				return ve
			})
		default:
			return -1
		}
		ve := skipValue(b, vs)
		if ve < 0 {
			return ve
		}
		v := b[vs:ve]
		switch string(k) {
		case "speed":
			us.Speed = ls.word(v)
			return ve
		case "service_tier":
			us.ServiceTier = ls.word(v)
			return ve
		}
		n := us.count(v)
		switch string(k) {
		case "input_tokens":
			us.Input = n
		case "output_tokens":
			us.Output = n
		case "cache_creation_input_tokens":
			us.CacheCreation = n
		case "cache_read_input_tokens":
			us.CacheRead = n
		}
		return ve
	})
}

// count reads a token count of the usage: one that is negative or over
// MaxTokenCount is read as 0, and flagged (the reader reports it); one not
// written as a plain integer is noted (noteCoerced).
func (us *Usage) count(v []byte) int64 {
	n := rawNumber(v)
	switch {
	case n > MaxTokenCount:
		us.implausible = true
		return 0
	case n < 0:
		us.negative = true
		return 0
	}
	us.noteCoerced(v, n)
	return n
}

// noteCoerced records the first count of a usage that is not a plain
// integer (what every writer emits): 1.5, "12", "lots". It is read as the
// number it holds (0 when none), and the line gets a warning, so that
// --strict does not pass over it. null is taken as no count, silently.
func (us *Usage) noteCoerced(v []byte, n int64) {
	if us.coerced != "" || plainInt(v) || string(v) == "null" {
		return
	}
	us.coerced = clipRaw(v, 24) + " read as " + strconv.FormatInt(n, 10)
}

// plainInt reports whether v is an integer written as JSON digits, with
// an optional minus sign.
func plainInt(v []byte) bool {
	if len(v) > 0 && v[0] == '-' {
		v = v[1:]
	}
	if len(v) == 0 {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// lineStrings hands out the strings of parsed lines. Consecutive lines of
// a transcript repeat most of theirs (session, cwd, version, model, the
// ids of a split response, the parent that is the previous line's uuid),
// so a string equal to the last one of its field is shared, not copied.
// A nil *lineStrings copies every string.
type lineStrings struct {
	last [numFields]string
	// lastRaw is, for a last string that was written with escapes (a
	// Windows cwd: C:\\Users\\…), those raw bytes: the next line's are
	// compared with them instead of being decoded again.
	lastRaw [numFields]string
	// alloc makes a string of bytes (nil: string(b)); see Reader.SetStrings.
	alloc func(b []byte) string
}

type strField int

const (
	fUUID strField = iota
	fLogicalParent
	fSession
	fAgent
	fTeam
	fPrompt
	fCWD
	fBranch
	fVersion
	fRequest
	fMessage
	fModel
	fSubtype
	fWord
	numFields
)

// str returns the string value v (raw, with its quotes); "" for a value
// that is not a string.
func (ls *lineStrings) str(f strField, v []byte) string {
	if ls == nil || len(v) < 2 || v[0] != '"' {
		return rawStr(v)
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		// Escaped: the raw bytes are not the string; they are compared
		// with the last escaped value's.
		if ls.lastRaw[f] != "" && string(inner) == ls.lastRaw[f] {
			return ls.last[f]
		}
		s := rawStr(v)
		ls.last[f], ls.lastRaw[f] = s, string(inner)
		return s
	}
	if last := ls.last[f]; string(inner) == last {
		return last
	}
	var s string
	if ls.alloc != nil {
		s = ls.alloc(inner)
	} else {
		s = string(inner)
	}
	ls.last[f], ls.lastRaw[f] = s, ""
	return s
}

// word returns a short string value that takes one of a few values (an
// entry type, a role, a speed): the common ones are constants.
func (ls *lineStrings) word(v []byte) string {
	if w, ok := knownWord(v); ok {
		return w
	}
	return ls.str(fWord, v)
}

// knownWord returns the common values of types, roles and speeds as
// constants, so that reading one allocates nothing (Peek reads the type
// of every line: a fifth of a real history's lines are of the kinds
// Claude Code added later, from last-prompt to agent-color).
func knownWord(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	// A switch: the compiler finds the case by length, then by bytes.
	switch w := v[1 : len(v)-1]; string(w) {
	case "assistant":
		return "assistant", true
	case "user":
		return "user", true
	case "progress":
		return "progress", true
	case "attachment":
		return "attachment", true
	case "standard":
		return "standard", true
	case "last-prompt":
		return "last-prompt", true
	case "mode":
		return "mode", true
	case "ai-title":
		return "ai-title", true
	case "permission-mode":
		return "permission-mode", true
	case "queue-operation":
		return "queue-operation", true
	case "system":
		return "system", true
	case "bridge-session":
		return "bridge-session", true
	case "pr-link":
		return "pr-link", true
	case "file-history-snapshot":
		return "file-history-snapshot", true
	case "file-history-delta":
		return "file-history-delta", true
	case "agent-name":
		return "agent-name", true
	case "agent-setting":
		return "agent-setting", true
	case "agent-color":
		return "agent-color", true
	case "relocated":
		return "relocated", true
	case "worktree-state":
		return "worktree-state", true
	case "summary":
		return "summary", true
	case "custom-title":
		return "custom-title", true
	case "fast":
		return "fast", true
	}
	return "", false
}

// count reads a token count. Numbers written as strings or floats are
// accepted; anything negative or not a number counts as zero.
func rawCount(v []byte) int64 {
	n := rawNumber(v)
	if n < 0 || n > MaxTokenCount {
		return 0
	}
	return n
}

// number reads an integer the way gjson does: numbers, numeric strings and
// floats (truncated); anything else is zero.
func rawNumber(v []byte) int64 {
	if len(v) == 0 || !(v[0] == '-' || v[0] == '"' || (v[0] >= '0' && v[0] <= '9')) {
		return 0
	}
	// Plain digits, what every writer emits, need no float parser.
	if len(v) <= 15 {
		var n int64
		for _, c := range v {
			if c < '0' || c > '9' {
				return gjson.Parse(view(v)).Int()
			}
			n = n*10 + int64(c-'0')
		}
		return n
	}
	return gjson.Parse(view(v)).Int()
}

// wordStr is rawStr for a value that is most likely a known word.
func wordStr(v []byte) string {
	if w, ok := knownWord(v); ok {
		return w
	}
	return rawStr(v)
}

// str returns a string value, cloned so it outlives the line buffer.
// Values that are not strings (null, numbers, objects) give "".
func rawStr(v []byte) string {
	if len(v) < 2 || v[0] != '"' {
		return ""
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	return strings.Clone(gjson.Parse(view(v)).Str)
}

// utcMillis reads the one form of time Claude Code writes,
// 2026-08-12T12:02:08.998Z, as time.Parse(time.RFC3339Nano) does, at a
// fifth of its cost (every line has one). Anything else, or a day past
// the 28th (which time.Parse checks against the month), is not read
// here (ok false).
func utcMillis(s []byte) (t time.Time, ok bool) {
	if len(s) != 24 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return time.Time{}, false
	}
	n := func(i, w int) int {
		v := 0
		for _, c := range s[i : i+w] {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	y, mo, d, h, mi, sec, ms := n(0, 4), n(5, 2), n(8, 2), n(11, 2), n(14, 2), n(17, 2), n(20, 3)
	if y < 1 || mo < 1 || mo > 12 || d < 1 || d > 28 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 {
		return time.Time{}, false
	}
	// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
	// days_from_civil): time.Date's normalising is most of its cost.
	if mo <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	mp := (mo + 9) % 12 // March is 0
	doe := yoe*365 + yoe/4 - yoe/100 + (153*mp+2)/5 + d - 1
	days := int64(era)*146097 + int64(doe) - 719468
	return time.Unix(days*86400+int64(h*3600+mi*60+sec), int64(ms)*1e6).UTC(), true
}

func isTrue(v []byte) bool { return string(v) == "true" }

func rawTime(v []byte) time.Time {
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return time.Time{}
	}
	if t, ok := utcMillis(v[1 : len(v)-1]); ok {
		return t
	}
	t, err := time.Parse(time.RFC3339Nano, view(v[1:len(v)-1]))
	if err != nil {
		return time.Time{}
	}
	return t
}

// str returns a gjson string value, cloned so it outlives the line
// buffer; other values give "". For the content accessors that use gjson.
func str(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	return strings.Clone(v.Str)
}

// count reads a gjson token count: numbers, numeric strings and floats;
// anything negative or not a number counts as zero.
func count(v gjson.Result) int64 {
	n := v.Int()
	if n < 0 || n > MaxTokenCount {
		return 0
	}
	return n
}
