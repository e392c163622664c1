package reader

import (
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
	Content   ContentFlags // what message.content holds

	// Compaction metadata of a system/compact_boundary entry.
	CompactTrigger   string
	CompactPreTokens int64

	// ToolUseResultAgentID is toolUseResult.agentId on the user entry that
	// carries an Agent/Task tool's result: the link to the subagent file.
	ToolUseResultAgentID string

	// Raw is the line itself (BOM and CR removed), only with Options.KeepRaw.
	Raw []byte
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
}

// Total is every token the response consumed or produced.
func (u Usage) Total() int64 { return u.Input + u.Output + u.CacheCreation + u.CacheRead }

// Context is the size of the prompt the model saw: input plus cache.
func (u Usage) Context() int64 { return u.Input + u.CacheCreation + u.CacheRead }

// IsConversation reports whether the entry is a user or assistant message.
func (e *Entry) IsConversation() bool { return e.Type == "user" || e.Type == "assistant" }

// Synthetic reports whether the entry is a client-side placeholder (an error
// or an interruption written by Claude Code, not by the API).
func (e *Entry) Synthetic() bool { return e.Model == SyntheticModel }

// SyntheticModel is the model name of client-side placeholder messages.
const SyntheticModel = "<synthetic>"

// parseEnvelope walks the top level of a valid JSON object once and keeps
// the envelope fields. Strings are cloned: line is reused by the reader.
func parseEnvelope(line []byte) Entry {
	var e Entry
	gjson.Parse(view(line)).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			e.Type = str(v)
		case "subtype":
			e.Subtype = str(v)
		case "uuid":
			e.UUID = str(v)
		case "parentUuid":
			e.ParentUUID = str(v)
		case "logicalParentUuid":
			e.LogicalParentUUID = str(v)
		case "sessionId":
			e.SessionID = str(v)
		case "agentId":
			e.AgentID = str(v)
		case "teamName":
			e.TeamName = str(v)
		case "promptId":
			e.PromptID = str(v)
		case "isSidechain":
			e.Sidechain = v.Bool()
		case "isMeta":
			e.Meta = v.Bool()
		case "isCompactSummary":
			e.CompactSummary = v.Bool()
		case "isApiErrorMessage":
			e.APIError = v.Bool()
		case "timestamp":
			e.Timestamp = parseTime(v)
		case "cwd":
			e.CWD = str(v)
		case "gitBranch":
			e.GitBranch = str(v)
		case "version":
			e.Version = str(v)
		case "requestId":
			e.RequestID = str(v)
		case "message":
			if v.IsObject() {
				parseMessage(v, &e)
			}
		case "compactMetadata":
			if v.IsObject() {
				e.CompactTrigger = str(v.Get("trigger"))
				e.CompactPreTokens = v.Get("preTokens").Int()
			}
		case "toolUseResult":
			if v.IsObject() {
				e.ToolUseResultAgentID = str(v.Get("agentId"))
			}
		}
		return true
	})
	return e
}

func parseMessage(m gjson.Result, e *Entry) {
	m.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			e.MessageID = str(v)
		case "model":
			e.Model = str(v)
		case "role":
			e.Role = str(v)
		case "usage":
			if v.IsObject() {
				e.HasUsage = true
				e.Usage = parseUsage(v)
			}
		case "content":
			e.Content = contentFlags(v)
		}
		return true
	})
}

func parseUsage(u gjson.Result) Usage {
	var us Usage
	u.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "input_tokens":
			us.Input = count(v)
		case "output_tokens":
			us.Output = count(v)
		case "cache_creation_input_tokens":
			us.CacheCreation = count(v)
		case "cache_read_input_tokens":
			us.CacheRead = count(v)
		case "cache_creation":
			us.CacheCreation5m = count(v.Get("ephemeral_5m_input_tokens"))
			us.CacheCreation1h = count(v.Get("ephemeral_1h_input_tokens"))
		case "server_tool_use":
			us.WebSearch = count(v.Get("web_search_requests"))
		case "speed":
			us.Speed = str(v)
		case "service_tier":
			us.ServiceTier = str(v)
		}
		return true
	})
	return us
}

// count reads a token count. Numbers written as strings or floats are
// accepted; anything negative or not a number counts as zero.
func count(v gjson.Result) int64 {
	n := v.Int()
	if n < 0 {
		return 0
	}
	return n
}

// str returns a string field, cloned so it outlives the line buffer. Values
// that are not strings (null, numbers, objects) give "".
func str(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	return strings.Clone(v.Str)
}

func parseTime(v gjson.Result) time.Time {
	if v.Type != gjson.String {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.Str)
	if err != nil {
		return time.Time{}
	}
	return t
}
