package reader

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
)

// AgentInput is the input of an Agent (formerly Task) tool call: what the
// parent asked a subagent to do.
type AgentInput struct {
	Description  string
	Prompt       string
	SubagentType string
	Model        string // an override: sonnet, opus, haiku
	Name         string // a teammate's display name
	TeamName     string
	Resume       string // the agentId of the agent this call resumes
	Isolation    string // "worktree"
	Background   bool   // run_in_background
}

// ParseAgentInput reads the raw input object of an Agent/Task tool_use.
// Fields of the wrong type are left empty.
func ParseAgentInput(input string) AgentInput {
	var in AgentInput
	gjson.Parse(input).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "description":
			in.Description = str(v)
		case "prompt":
			in.Prompt = str(v)
		case "subagent_type":
			in.SubagentType = str(v)
		case "model":
			in.Model = str(v)
		case "name":
			in.Name = str(v)
		case "team_name":
			in.TeamName = str(v)
		case "resume":
			in.Resume = str(v)
		case "isolation":
			in.Isolation = str(v)
		case "run_in_background":
			in.Background = v.Type == gjson.True
		}
		return true
	})
	return in
}

// SendMessageTarget is the recipient of a SendMessage tool call ("to" in
// 2.1.x, "recipient" in earlier team builds), or "" for a broadcast.
func SendMessageTarget(input string) string {
	r := gjson.Parse(input)
	if v := r.Get("to"); v.Type == gjson.String {
		return v.Str
	}
	return str(r.Get("recipient"))
}

// AgentResult is toolUseResult of the user line that answers an Agent/Task
// call: how the subagent ended and what Claude Code counted for it.
type AgentResult struct {
	Object bool   // toolUseResult is an object (a failed call often has a string)
	Status string // completed, async_launched, remote_launched, teammate_spawned, ...
	// AgentID is the link to the transcript: agentId, or agent_id of a
	// teammate ("name@team").
	AgentID   string
	AgentType string
	IsAsync   bool

	HasTotalTokens    bool
	TotalTokens       int64 // the size of the agent's last API call, not a sum
	TotalDurationMs   int64
	TotalToolUseCount int64
	HasToolUseCount   bool
	HasUsage          bool
	Usage             Usage // message.usage of the agent's last API call
}

// ParseAgentResult reads toolUseResult of a raw line.
func ParseAgentResult(raw []byte) AgentResult {
	v := gjson.GetBytes(raw, "toolUseResult")
	var r AgentResult
	if !v.IsObject() {
		return r
	}
	r.Object = true
	v.ForEach(func(k, f gjson.Result) bool {
		switch k.Str {
		case "status":
			r.Status = str(f)
		case "agentId":
			r.AgentID = str(f)
		case "agent_id":
			if r.AgentID == "" {
				r.AgentID = str(f)
			}
		case "agentType":
			r.AgentType = str(f)
		case "agent_type":
			if r.AgentType == "" {
				r.AgentType = str(f)
			}
		case "isAsync":
			r.IsAsync = f.Type == gjson.True
		case "totalTokens":
			r.HasTotalTokens = f.Type == gjson.Number
			r.TotalTokens = count(f)
		case "totalDurationMs":
			r.TotalDurationMs = count(f)
		case "totalToolUseCount":
			r.HasToolUseCount = f.Type == gjson.Number
			r.TotalToolUseCount = count(f)
		case "usage":
			if f.IsObject() {
				r.HasUsage = true
				r.Usage = usageOf([]byte(f.Raw))
			}
		}
		return true
	})
	return r
}

// AgentMeta is the agent-<id>.meta.json sidecar of a 2.1.x subagent
// transcript: the link from the transcript back to the call that spawned it.
type AgentMeta struct {
	AgentType     string
	Description   string
	ToolUseID     string // the Agent tool_use in the parent that spawned it
	ParentAgentID string // for nested agents; "" = spawned by the main thread
	Model         string
	Name          string
	TeamName      string
	SpawnDepth    int64
	WorktreePath  string
}

// maxMetaBytes bounds a sidecar read: real ones are a few hundred bytes.
const maxMetaBytes = 1 << 20

// ReadAgentMeta reads a .meta.json sidecar. A file that is too large or is
// not a JSON object is an error.
func ReadAgentMeta(path string) (AgentMeta, error) {
	f, err := openRead(path)
	if err != nil {
		return AgentMeta{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxMetaBytes+1))
	if err != nil {
		return AgentMeta{}, err
	}
	if len(b) > maxMetaBytes {
		return AgentMeta{}, fmt.Errorf("larger than %s", humanBytes(maxMetaBytes))
	}
	b = trimSpace(bytes.TrimPrefix(b, utf8BOM)) // as a transcript's: an editor or PowerShell may add one
	if IsUTF16(b) {
		return AgentMeta{}, ErrUTF16
	}
	if !Valid(b) {
		return AgentMeta{}, fmt.Errorf("not a JSON object")
	}
	var m AgentMeta
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "agentType":
			m.AgentType = str(v)
		case "description":
			m.Description = str(v)
		case "toolUseId":
			m.ToolUseID = str(v)
		case "parentAgentId":
			m.ParentAgentID = str(v)
		case "model":
			m.Model = str(v)
		case "name":
			m.Name = str(v)
		case "teamName":
			m.TeamName = str(v)
		case "spawnDepth":
			m.SpawnDepth = count(v)
		case "worktreePath":
			m.WorktreePath = str(v)
		}
		return true
	})
	return m, nil
}

var (
	notifyTaskID = regexp.MustCompile(`<task-id>([^<]*)</task-id>`)
	notifyStatus = regexp.MustCompile(`<status>([^<]*)</status>`)
	notifyUsage  = regexp.MustCompile(`(?s)<usage>(.*?)</usage>`)
	usageField   = regexp.MustCompile(`<(duration_ms|tool_uses|subagent_tokens)>\s*([0-9]+)\s*</(?:duration_ms|tool_uses|subagent_tokens)>`)
)

// TaskNotice is what a <task-notification> says of the background task
// (a shell command or a background agent) that ended.
type TaskNotice struct {
	ID     string // <task-id>: a background agent's agentId
	Status string // <status>, as written (completed, failed, killed, …)
	// From its <usage>, when it has one (HasUsage; a count it lacks is
	// 0): the task's duration, its tool calls, and the tokens Claude Code
	// reports for an agent (<subagent_tokens>).
	DurationMs int64
	ToolUses   int64
	Tokens     int64
	HasUsage   bool
}

// TaskNotification reads a <task-notification> that Claude Code injects as
// a user message when a background task (a shell command or a background
// agent) ends — on a user line, or on the attachment line of a queued
// input (QueuedNotification): the task id, its final status, and its
// usage. The <usage> read is the notice's own, after the agent's
// <result> (whose text may quote anything), the last one of the notice.
func TaskNotification(text string) (TaskNotice, bool) {
	if !strings.Contains(text, "<task-notification>") {
		return TaskNotice{}, false
	}
	m, s := notifyTaskID.FindStringSubmatch(text), notifyStatus.FindStringSubmatch(text)
	if m == nil || s == nil {
		return TaskNotice{}, false
	}
	n := TaskNotice{ID: strings.TrimSpace(m[1]), Status: strings.TrimSpace(s[1])}
	tail := text
	if i := strings.LastIndex(tail, "</result>"); i >= 0 {
		tail = tail[i:]
	}
	if us := notifyUsage.FindAllStringSubmatch(tail, -1); us != nil {
		n.HasUsage = true
		for _, f := range usageField.FindAllStringSubmatch(us[len(us)-1][1], -1) {
			v, err := strconv.ParseInt(f[2], 10, 64)
			if err != nil || v > MaxTokenCount {
				continue // no real count
			}
			switch f[1] {
			case "duration_ms":
				n.DurationMs = v
			case "tool_uses":
				n.ToolUses = v
			case "subagent_tokens":
				n.Tokens = v
			}
		}
	}
	return n, true
}
