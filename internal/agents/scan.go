package agents

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// transcript is what one agent's own lines say about it: a subagent file,
// or one inline sidechain chain of the main file.
type transcript struct {
	started, ended time.Time
	toolUses       int
	lastAssistant  bool   // the last user/assistant line is an assistant line
	firstPrompt    string // the text of the first user line
	sawUser        bool
	sent           int // SendMessage calls made
}

func (t *transcript) see(e *reader.Entry) {
	if !e.Timestamp.IsZero() {
		if t.started.IsZero() || e.Timestamp.Before(t.started) {
			t.started = e.Timestamp
		}
		if e.Timestamp.After(t.ended) {
			t.ended = e.Timestamp
		}
	}
	if e.IsConversation() {
		t.lastAssistant = e.Type == "assistant"
	}
}

// message is one SendMessage call: who sent it to which name.
type message struct {
	from, to string
	time     time.Time
}

// scan is the state of one pass over a session's files. Every file is
// streamed once; only facts about agents are kept, never lines.
type scan struct {
	counter *tokens.Counter

	calls   []*Call
	callIdx map[string]*Call // tool_use id → call

	stats     map[string]*transcript // agent id → its lines' facts
	chains    []string               // inline sidechain ids, in order of appearance
	toolSeen  map[string]bool        // owner + tool_use id: content lines are never counted twice
	messages  []message
	notices   map[string]string // background task id → status of its <task-notification>
	sessionID string

	// Inline sidechains are named after their chain's root uuid, exactly as
	// tokens.File names them (the ids must agree).
	sideRoot map[string]string

	unreadable map[string]bool // paths that could not be read (whole or in part)
}

func newScan() *scan {
	return &scan{
		counter:  tokens.NewCounter(),
		callIdx:  map[string]*Call{},
		stats:    map[string]*transcript{},
		toolSeen: map[string]bool{},
		notices:  map[string]string{},
		sideRoot: map[string]string{},

		unreadable: map[string]bool{},
	}
}

func (s *scan) stat(id string) *transcript {
	t := s.stats[id]
	if t == nil {
		t = &transcript{}
		s.stats[id] = t
	}
	return t
}

// owner is the agent a line belongs to, by tokens.File's rule: the file's
// agent, else the line's agentId, else the inline sidechain chain.
func (s *scan) owner(fileAgent string, e *reader.Entry) string {
	if fileAgent != "" {
		return fileAgent
	}
	if e.AgentID != "" {
		return e.AgentID
	}
	if !e.Sidechain || e.UUID == "" {
		return ""
	}
	root, ok := s.sideRoot[e.ParentUUID]
	if !ok || e.ParentUUID == "" {
		root = e.UUID
	}
	s.sideRoot[e.UUID] = root
	if len(root) > 8 {
		root = root[:8]
	}
	id := "sidechain-" + root
	if _, seen := s.stats[id]; !seen {
		s.chains = append(s.chains, id)
	}
	return id
}

// add takes one entry of a file whose agent is fileAgent ("" = the main
// file).
func (s *scan) add(file, fileAgent string, e *reader.Entry) {
	if s.sessionID == "" && e.SessionID != "" {
		s.sessionID = e.SessionID
	}
	owner := s.owner(fileAgent, e)
	var t *transcript
	if owner != "" {
		t = s.stat(owner)
		t.see(e)
	}
	switch {
	case e.Type == "assistant" && e.Content&reader.HasToolUse != 0 && e.Raw != nil:
		for _, b := range reader.Blocks(e.Raw) {
			if b.Type != "tool_use" || b.ID == "" {
				continue
			}
			if s.toolSeen[owner+"\x00"+b.ID] {
				continue
			}
			s.toolSeen[owner+"\x00"+b.ID] = true
			if t != nil {
				t.toolUses++
			}
			switch b.Name {
			case "Agent", "Task":
				if _, dup := s.callIdx[b.ID]; dup {
					continue
				}
				c := &Call{ToolUseID: b.ID, Tool: b.Name, ParentAgentID: owner, Input: reader.ParseAgentInput(b.Input),
					Time: e.Timestamp, File: file, Line: e.Line}
				s.calls = append(s.calls, c)
				s.callIdx[b.ID] = c
			case "SendMessage":
				if to := reader.SendMessageTarget(b.Input); to != "" {
					s.messages = append(s.messages, message{from: owner, to: to, time: e.Timestamp})
				}
				if t != nil {
					t.sent++
				}
			}
		}
	case e.Type == "user" && e.Raw != nil:
		if t != nil && !t.sawUser && e.Content&reader.HasToolResult == 0 {
			t.sawUser = true
			t.firstPrompt = strings.TrimSpace(strings.Join(reader.Texts(e.Raw), "\n"))
		}
		if e.Content&reader.HasToolResult != 0 {
			s.result(file, e)
		} else if e.Content&reader.HasText != 0 {
			for _, text := range reader.Texts(e.Raw) {
				if id, st, ok := reader.TaskNotification(text); ok && id != "" {
					s.notices[id] = st
				}
			}
		}
	}
}

// result joins a tool_result to the Agent call it answers. toolUseResult
// belongs to the whole line, so it is read only when the line answers one
// call.
func (s *scan) result(file string, e *reader.Entry) {
	var results []reader.Block
	for _, b := range reader.Blocks(e.Raw) {
		if b.Type == "tool_result" {
			results = append(results, b)
		}
	}
	for _, b := range results {
		c := s.callIdx[b.ToolUseID]
		if c == nil || c.Answered {
			continue
		}
		c.Answered, c.ResultTime, c.IsError = true, e.Timestamp, b.IsError
		c.ResultFile, c.ResultLine = file, e.Line
		if b.IsError {
			c.ErrorText = errorText(b.Text)
		}
		if len(results) == 1 {
			c.Result = reader.ParseAgentResult(e.Raw)
		}
	}
}

// MaxErrorRunes caps the error text kept for a call. The reason often comes
// after the first line ("InputValidationError: Task failed due to the
// following issue:\nThe required parameter `prompt` is missing"), so the
// whole text is kept, but a failed result can be long and one is held per
// call.
const MaxErrorRunes = 2000

// errorText is a tool_result error as a person reads it: without the
// <tool_use_error> tags Claude Code wraps it in, cut to MaxErrorRunes
// (ending in "…").
func errorText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<tool_use_error>")
	s = strings.TrimSuffix(s, "</tool_use_error>")
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxErrorRunes {
		s = string([]rune(s)[:MaxErrorRunes-1]) + "…"
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
