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

	// Prompt is the beginning of the typed text of a user message (string
	// content or its text blocks; a queued input's attachment.prompt), at
	// most PromptRunes runes; "" for tool results. PromptHash hashes the
	// whole trimmed text, to match an inline sidechain's first prompt with
	// the Task call that sent it.
	Prompt     string
	PromptHash uint64
	// Label is the line's prompt as a listing shows it (PromptOf): the
	// typed text on one line ("/name args" for a slash command), skipping
	// the IDE selection or reminder blocks before it; for a local command
	// or bash input, that; "" when the line is only context.
	Label string

	// Partial compaction (compactMetadata of a compact_boundary).
	PreservedSegment  *PreservedSegment
	PreservedMessages *PreservedMessages

	// toolUseResult of an Agent/Task result line.
	AgentTotalTokens int64
	AgentToolCalls   int64
	AgentType        string
}

// ToolUseFact is one tool_use block. Description, SubagentType, Resume
// and PromptHash are read from the input of Agent/Task calls only.
type ToolUseFact struct {
	ID           string
	Name         string
	Description  string
	SubagentType string
	Resume       string // the agentId of the agent the call resumes
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
	var p factsPass
	b := raw
	members(b, skipSpace(b, 0), func(k []byte, vs int) int {
		if string(k) == "message" {
			if !p.first(k) || vs >= len(b) || b[vs] != '{' {
				return -1
			}
			return members(b, vs, func(k []byte, vs int) int {
				if string(k) != "content" || p.contentSeen {
					return -1
				}
				p.contentSeen = true
				if vs < len(b) && b[vs] == '[' {
					return p.f.contentBlocks(b, vs, &p.texts)
				}
				ve := skipValue(b, vs)
				if ve > 0 && b[vs] == '"' {
					p.strContent = b[vs:ve] // the type may come later: decided in finish
				}
				return ve
			})
		}
		if !isTreeKey(k) {
			return -1
		}
		ve := skipValue(b, vs)
		if ve >= 0 {
			p.top(k, b[vs:ve])
		}
		return ve
	})
	p.finish()
	return p.f
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

// blockAt reads the content block (an object) at b[i] in one walk and
// returns the index just past it, or -1 when malformed.
func (f *TreeFacts) blockAt(b []byte, i int, texts *[][]byte) int {
	var bk blockKeys
	end := bk.walk(b, i)
	if end >= 0 {
		bk.apply(f, texts)
	}
	return end
}

// walk reads the block (an object) at b[i] into bk in one walk, and
// returns the index just past it, or -1 when malformed.
func (bk *blockKeys) walk(b []byte, i int) int {
	return members(b, i, func(k []byte, vs int) int {
		if !bk.wants(k) {
			return -1
		}
		ve := skipValue(b, vs)
		if ve >= 0 {
			bk.capture(k, b[vs:ve])
		}
		return ve
	})
}

// blockKeys are the raw values of the keys of a content block the tree
// facts use. Of duplicate keys the first counts, as with firstMember.
type blockKeys struct {
	typ, id, name, input, toolUseID, isError, text []byte
	seen                                           uint8
}

func (bk *blockKeys) wants(k []byte) bool {
	switch string(k) {
	case "type", "id", "name", "input", "tool_use_id", "is_error", "text":
		return true
	}
	return false
}

func (bk *blockKeys) capture(k, v []byte) {
	var dst *[]byte
	var bit uint8
	switch string(k) {
	case "type":
		dst, bit = &bk.typ, 1<<0
	case "id":
		dst, bit = &bk.id, 1<<1
	case "name":
		dst, bit = &bk.name, 1<<2
	case "input":
		dst, bit = &bk.input, 1<<3
	case "tool_use_id":
		dst, bit = &bk.toolUseID, 1<<4
	case "is_error":
		dst, bit = &bk.isError, 1<<5
	case "text":
		dst, bit = &bk.text, 1<<6
	default:
		return
	}
	if bk.seen&bit == 0 {
		bk.seen |= bit
		*dst = v
	}
}

// apply adds the block to the facts: a tool call, a tool result, or a text
// (kept raw until the line is known to be a user line).
func (bk *blockKeys) apply(f *TreeFacts, texts *[][]byte) {
	switch string(bk.typ) {
	case `"tool_use"`:
		tu := ToolUseFact{ID: rawStr(bk.id), Name: rawStr(bk.name)}
		if IsSpawnTool(tu.Name) && len(bk.input) > 0 && bk.input[0] == '{' {
			tu.Description = rawStr(firstMember(bk.input, "description"))
			tu.SubagentType = rawStr(firstMember(bk.input, "subagent_type"))
			tu.Resume = rawStr(firstMember(bk.input, "resume"))
			if p := firstMember(bk.input, "prompt"); len(p) > 0 && p[0] == '"' {
				tu.PromptHash = HashPrompt(jsonString(p))
			}
		}
		f.ToolUses = append(f.ToolUses, tu)
	case `"tool_result"`:
		f.ToolResults = append(f.ToolResults, rawStr(bk.toolUseID))
		if isTrue(bk.isError) {
			f.ResultError = true
		}
	case `"text"`:
		*texts = append(*texts, bk.text)
	}
}

// factsPass gathers the tree facts of a line while the envelope parser
// walks it (Options.Facts): one walk of the line instead of two. It
// follows ExtractTreeFacts: of duplicate keys the first counts.
type factsPass struct {
	f           TreeFacts
	seen        uint16 // top-level keys read (treeKeyBit)
	typ         []byte
	attach      []byte // the attachment object: a queued input's prompt (finish)
	strContent  []byte
	texts       [][]byte
	contentSeen bool
}

func (p *factsPass) first(k []byte) bool {
	bit := treeKeyBit(k)
	if p.seen&bit != 0 {
		return false
	}
	p.seen |= bit
	return true
}

// isTreeKey reports whether a top-level key other than message feeds the
// tree facts.
func isTreeKey(k []byte) bool {
	switch string(k) {
	case "compactMetadata", "toolUseResult", "type", "sourceToolAssistantUUID", "parentToolUseID", "attachment", "data":
		return true
	}
	return false
}

// top reads a top-level member (not message) for the facts.
func (p *factsPass) top(k, v []byte) {
	if !isTreeKey(k) || !p.first(k) {
		return
	}
	f := &p.f
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
		p.typ = v
	case "sourceToolAssistantUUID":
		f.SourceToolAssistantUUID = rawStr(v)
	case "parentToolUseID":
		f.ParentToolUseID = rawStr(v)
	case "attachment":
		f.AttachmentType = memberStr(v, "type")
		p.attach = v
	case "data":
		f.ProgressAgentID = memberStr(v, "agentId")
	}
}

// finish sets the prompt once the type is known: of a user line, or of
// a queued input's attachment line (its attachment.prompt).
func (p *factsPass) finish() {
	switch {
	case rawStr(p.typ) == "attachment" && p.f.AttachmentType == queuedCommand:
		if k, prompt := queuedAttachment(p.attach); k != NotQueued {
			p.f.setPrompt(promptTexts(prompt)...)
		}
	case rawStr(p.typ) != "user":
	case p.strContent != nil:
		p.f.setPrompt(jsonString(p.strContent))
	case len(p.texts) > 0 && len(p.f.ToolResults) == 0:
		parts := make([]string, len(p.texts))
		for i, t := range p.texts {
			if len(t) > 0 && t[0] == '"' {
				parts[i] = jsonString(t)
			}
		}
		p.f.setPrompt(parts...)
	}
}

// contentBlocks reads the content array at b[i], each block in one walk,
// and returns the index just past it (-1 when malformed).
func (f *TreeFacts) contentBlocks(b []byte, i int, texts *[][]byte) int {
	return elements(b, i, func(vs int) int {
		if b[vs] != '{' {
			return -1
		}
		return f.blockAt(b, vs, texts)
	})
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

// setPrompt sets the prompt facts of a user line from its texts (the
// string content, or the text blocks in order).
func (f *TreeFacts) setPrompt(texts ...string) {
	t := strings.TrimSpace(strings.Join(texts, "\n"))
	if t == "" {
		return
	}
	f.Label, _ = PromptOf(texts) // a copy: it never aliases the line
	f.PromptHash = HashPrompt(t)
	if utf8.RuneCountInString(t) > PromptRunes {
		r := []rune(t)
		t = string(r[:PromptRunes])
	}
	f.Prompt = strings.Clone(t)
}

// InlineAgentID names an inline sidechain (Claude Code ≤1.0.x writes a
// Task subagent's lines into the main file, with isSidechain and no
// agentId) after the uuid of its chain's first line: "sidechain-" and its
// first 8 characters. The tree, the token counter and the agents report
// all name one this way, so their keys agree.
func InlineAgentID(rootUUID string) string {
	if len(rootUUID) > 8 {
		rootUUID = rootUUID[:8]
	}
	return "sidechain-" + rootUUID
}
