package reader

import (
	"fmt"
	"io"
	"regexp"
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
	b = trimSpace(b)
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
)

// TaskNotification reads a <task-notification> that Claude Code injects as
// a user message when a background task (a shell command or a background
// agent) ends: the task id and its final status.
func TaskNotification(text string) (id, status string, ok bool) {
	if !strings.Contains(text, "<task-notification>") {
		return "", "", false
	}
	m, s := notifyTaskID.FindStringSubmatch(text), notifyStatus.FindStringSubmatch(text)
	if m == nil || s == nil {
		return "", "", false
	}
	return strings.TrimSpace(m[1]), strings.TrimSpace(s[1]), true
}
