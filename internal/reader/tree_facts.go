package reader

import (
	"bytes"
	"hash/fnv"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// TreeFacts are the few content facts the conversation model (internal/tree)
// needs besides the envelope: which tool calls a line makes or answers, the
// links Claude Code records between them, and partial-compaction metadata.
// They are small, so the model can keep them for every line without keeping
// the line.
type TreeFacts struct {
	ToolUses    []ToolUseFact // tool_use blocks of an assistant line
	ToolResults []string      // tool_use_id of each tool_result block of a user line
	ResultError bool          // some tool_result block has is_error

	// SourceToolAssistantUUID is the uuid of the assistant line whose
	// tool_use a user tool_result line answers (2.1.x).
	SourceToolAssistantUUID string
	// AttachmentType is attachment.type of an attachment line.
	AttachmentType string
	// ProgressAgentID and ParentToolUseID link an agent_progress line
	// (2.1.x) to the subagent it reports on and the Agent call behind it.
	ProgressAgentID string
	ParentToolUseID string

	// Prompt is the beginning of the typed text of a user line (string
	// content or its text blocks), at most PromptRunes runes; "" for tool
	// results. PromptHash hashes the whole trimmed text, to match an inline
	// sidechain's first prompt with the Task call that sent it.
	Prompt     string
	PromptHash uint64

	// Partial compaction (compactMetadata of a compact_boundary).
	PreservedSegment  *PreservedSegment
	PreservedMessages *PreservedMessages

	// toolUseResult of an Agent/Task result line.
	AgentTotalTokens int64
	AgentToolCalls   int64
	AgentType        string
}

// ToolUseFact is one tool_use block. Description, SubagentType and
// PromptHash are read from the input of Agent/Task calls only.
type ToolUseFact struct {
	ID           string
	Name         string
	Description  string
	SubagentType string
	PromptHash   uint64
}

// PreservedSegment is compactMetadata.preservedSegment: the kept run
// head…tail that belongs after anchor.
type PreservedSegment struct {
	HeadUUID, AnchorUUID, TailUUID string
}

// PreservedMessages is compactMetadata.preservedMessages (newer; it
// supersedes PreservedSegment): the kept uuids, in order, after anchor.
type PreservedMessages struct {
	AnchorUUID string
	UUIDs      []string
}

// PromptRunes is the length Prompt is cut to.
const PromptRunes = 200

// IsSpawnTool reports whether a tool starts a subagent (Task before 2.1,
// Agent after).
func IsSpawnTool(name string) bool { return name == "Task" || name == "Agent" }

// HashPrompt hashes a prompt the way TreeFacts does (trimmed, FNV-1a).
func HashPrompt(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(s)))
	return h.Sum64()
}

// ExtractTreeFacts reads the tree facts of a raw line. It parses only the
// fields it needs, in one pass over the line with the scanner (see
// scan.go), and never fails: odd shapes give empty facts.
func ExtractTreeFacts(raw []byte) TreeFacts {
	var f TreeFacts
	b := raw
	typ := ""
	// The text is decoded only once the line is known to be a user line
	// (the type may come after the message): until then, raw values.
	var texts [][]byte
	var strContent []byte
	// As gjson.Get reads them: the first of duplicate keys counts.
	var seen uint16
	first := func(k []byte) bool {
		bit := treeKeyBit(k)
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	members(b, skipSpace(b, 0), func(k []byte, vs int) int {
		switch string(k) {
		case "message":
			if !first(k) || vs >= len(b) || b[vs] != '{' {
				return -1
			}
			contentSeen := false
			return members(b, vs, func(k []byte, vs int) int {
				if string(k) != "content" || contentSeen {
					return -1
				}
				contentSeen = true
				ve := skipValue(b, vs)
				if ve < 0 {
					return ve
				}
				content := b[vs:ve]
				switch content[0] {
				case '"':
					strContent = content
				case '[':
					eachElement(content, func(blk []byte) { f.block(blk, &texts) })
				}
				return ve
			})
		case "compactMetadata", "toolUseResult", "type", "sourceToolAssistantUUID", "parentToolUseID", "attachment", "data":
		default:
			return -1
		}
		ve := skipValue(b, vs)
		if ve < 0 || !first(k) {
			return ve
		}
		v := b[vs:ve]
		switch string(k) {
		case "compactMetadata":
			f.compactMetadata(v)
		case "toolUseResult":
			if v[0] == '{' {
				f.AgentTotalTokens = rawCount(firstMember(v, "totalTokens"))
				f.AgentToolCalls = rawCount(firstMember(v, "totalToolUseCount"))
				f.AgentType = rawStr(firstMember(v, "agentType"))
			}
		case "type":
			typ = rawStr(v)
		case "sourceToolAssistantUUID":
			f.SourceToolAssistantUUID = rawStr(v)
		case "parentToolUseID":
			f.ParentToolUseID = rawStr(v)
		case "attachment":
			f.AttachmentType = memberStr(v, "type")
		case "data":
			f.ProgressAgentID = memberStr(v, "agentId")
		}
		return ve
	})
	switch {
	case typ != "user":
	case strContent != nil:
		f.setPrompt(jsonString(strContent))
	case len(texts) > 0 && len(f.ToolResults) == 0:
		parts := make([]string, len(texts))
		for i, t := range texts {
			if len(t) > 0 && t[0] == '"' {
				parts[i] = jsonString(t)
			}
		}
		f.setPrompt(strings.Join(parts, "\n"))
	}
	return f
}

// treeKeyBit is the bit of a top-level key ExtractTreeFacts reads, for
// telling the first of duplicate keys.
func treeKeyBit(k []byte) uint16 {
	switch string(k) {
	case "message":
		return 1 << 0
	case "compactMetadata":
		return 1 << 1
	case "toolUseResult":
		return 1 << 2
	case "type":
		return 1 << 3
	case "sourceToolAssistantUUID":
		return 1 << 4
	case "parentToolUseID":
		return 1 << 5
	case "attachment":
		return 1 << 6
	case "data":
		return 1 << 7
	}
	return 1 << 15
}

// block reads one content block.
func (f *TreeFacts) block(blk []byte, texts *[][]byte) {
	typ := rawStr(firstMember(blk, "type"))
	switch typ {
	case "tool_use":
		tu := ToolUseFact{ID: rawStr(firstMember(blk, "id")), Name: rawStr(firstMember(blk, "name"))}
		if input := firstMember(blk, "input"); IsSpawnTool(tu.Name) && len(input) > 0 && input[0] == '{' {
			tu.Description = rawStr(firstMember(input, "description"))
			tu.SubagentType = rawStr(firstMember(input, "subagent_type"))
			if p := firstMember(input, "prompt"); len(p) > 0 && p[0] == '"' {
				tu.PromptHash = HashPrompt(jsonString(p))
			}
		}
		f.ToolUses = append(f.ToolUses, tu)
	case "tool_result":
		f.ToolResults = append(f.ToolResults, rawStr(firstMember(blk, "tool_use_id")))
		if isTrue(firstMember(blk, "is_error")) {
			f.ResultError = true
		}
	case "text":
		*texts = append(*texts, firstMember(blk, "text"))
	}
}

func (f *TreeFacts) compactMetadata(cm []byte) {
	if len(cm) == 0 || cm[0] != '{' {
		return
	}
	if v := firstMember(cm, "preservedSegment"); len(v) > 0 && v[0] == '{' {
		f.PreservedSegment = &PreservedSegment{
			HeadUUID:   rawStr(firstMember(v, "headUuid")),
			AnchorUUID: rawStr(firstMember(v, "anchorUuid")),
			TailUUID:   rawStr(firstMember(v, "tailUuid")),
		}
	}
	if v := firstMember(cm, "preservedMessages"); len(v) > 0 && v[0] == '{' {
		m := &PreservedMessages{AnchorUUID: rawStr(firstMember(v, "anchorUuid"))}
		if u := firstMember(v, "uuids"); len(u) > 0 && u[0] == '[' {
			eachElement(u, func(e []byte) { m.UUIDs = append(m.UUIDs, rawStr(e)) })
		}
		f.PreservedMessages = m
	}
}

// memberStr is the string member name of the object v ("" if none).
func memberStr(v []byte, name string) string { return rawStr(firstMember(v, name)) }

// firstMember is the raw value of the first member called name of the
// object v (nil if v is not an object or has none), as gjson.Get reads it.
func firstMember(v []byte, name string) []byte {
	var out []byte
	if len(v) > 0 && v[0] == '{' {
		eachMember(v, func(k, m []byte) bool {
			if string(k) == name {
				out = m
				return false
			}
			return true
		})
	}
	return out
}

// jsonString decodes a JSON string value without keeping it: the result
// may alias the line.
func jsonString(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 {
		return view(v[1 : len(v)-1])
	}
	return gjson.Parse(view(v)).Str
}

func (f *TreeFacts) setPrompt(text string) {
	t := strings.TrimSpace(text)
	if t == "" {
		return
	}
	f.PromptHash = HashPrompt(t)
	if utf8.RuneCountInString(t) > PromptRunes {
		r := []rune(t)
		t = string(r[:PromptRunes])
	}
	f.Prompt = strings.Clone(t)
}
