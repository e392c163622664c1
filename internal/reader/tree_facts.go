package reader

import (
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
// fields it needs and never fails: odd shapes give empty facts.
func ExtractTreeFacts(raw []byte) TreeFacts {
	var f TreeFacts
	s := view(raw)
	res := gjson.GetMany(s, "type", "message.content", "sourceToolAssistantUUID", "attachment.type", "compactMetadata", "toolUseResult", "parentToolUseID", "data.agentId")
	typ := res[0].Str
	content := res[1]
	f.SourceToolAssistantUUID = str(res[2])
	f.AttachmentType = str(res[3])
	f.ParentToolUseID = str(res[6])
	f.ProgressAgentID = str(res[7])

	switch {
	case content.Type == gjson.String:
		if typ == "user" {
			f.setPrompt(content.Str)
		}
	case content.IsArray():
		var texts []string
		content.ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "tool_use":
				tu := ToolUseFact{ID: str(b.Get("id")), Name: str(b.Get("name"))}
				if IsSpawnTool(tu.Name) {
					in := b.Get("input")
					tu.Description = str(in.Get("description"))
					tu.SubagentType = str(in.Get("subagent_type"))
					if p := in.Get("prompt"); p.Type == gjson.String {
						tu.PromptHash = HashPrompt(p.Str)
					}
				}
				f.ToolUses = append(f.ToolUses, tu)
			case "tool_result":
				f.ToolResults = append(f.ToolResults, str(b.Get("tool_use_id")))
				if b.Get("is_error").Bool() {
					f.ResultError = true
				}
			case "text":
				if typ == "user" {
					texts = append(texts, b.Get("text").Str)
				}
			}
			return true
		})
		if len(texts) > 0 && len(f.ToolResults) == 0 {
			f.setPrompt(strings.Join(texts, "\n"))
		}
	}

	if cm := res[4]; cm.IsObject() {
		if ps := cm.Get("preservedSegment"); ps.IsObject() {
			f.PreservedSegment = &PreservedSegment{
				HeadUUID:   str(ps.Get("headUuid")),
				AnchorUUID: str(ps.Get("anchorUuid")),
				TailUUID:   str(ps.Get("tailUuid")),
			}
		}
		if pm := cm.Get("preservedMessages"); pm.IsObject() {
			m := &PreservedMessages{AnchorUUID: str(pm.Get("anchorUuid"))}
			pm.Get("uuids").ForEach(func(_, u gjson.Result) bool {
				m.UUIDs = append(m.UUIDs, str(u))
				return true
			})
			f.PreservedMessages = m
		}
	}
	if tr := res[5]; tr.IsObject() {
		f.AgentTotalTokens = count(tr.Get("totalTokens"))
		f.AgentToolCalls = count(tr.Get("totalToolUseCount"))
		f.AgentType = str(tr.Get("agentType"))
	}
	return f
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
