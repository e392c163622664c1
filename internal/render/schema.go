package render

// The --json documents of ls, tree and agents. Every --json document
// (also tokens' in tokens.go and tokens_json.go, grep's in grep.go,
// archive's in archive.go, and show's, streamed, in show/json.go) has
// "schema_version" SchemaVersion, and is documented in docs/json.md (a
// test reads that file). A field is added, never renamed or retyped,
// without a new version.

import (
	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// SchemaVersion is the version of every --json document.
const SchemaVersion = 1

// strPtr is s, or null when it is empty.
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ---- cctx ls --json

// LsJSON is the document of `cctx ls --json`.
type LsJSON struct {
	SchemaVersion int     `json:"schema_version"`
	Sessions      []LsRow `json:"sessions"`
}

// LsRow is one session.
type LsRow struct {
	SessionID   string  `json:"session_id"`
	Project     string  `json:"project"`
	ProjectKey  string  `json:"project_key"`
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	TitleSource string  `json:"title_source"`
	FirstPrompt string  `json:"first_prompt"`
	StartedAt   string  `json:"started_at"`
	UpdatedAt   string  `json:"updated_at"`
	GitBranch   string  `json:"git_branch"`
	Version     string  `json:"version"`
	Subagents   int     `json:"subagents"`
	SizeBytes   int64   `json:"size_bytes"`
	Live        *LsLive `json:"live"`
	// Archived: read from the cctx archive, because no live root has the
	// session (Claude Code deleted it) or its main transcript
	// (docs/archive.md).
	Archived bool `json:"archived"`
	// MainTranscript: false when the session's main transcript is gone
	// (or empty: 0 bytes) and only its subagent transcripts are left: path
	// is "", the title and first prompt are "" (docs/sessions.md).
	MainTranscript bool   `json:"main_transcript"`
	Prompts        *int   `json:"prompts,omitempty"`
	APICalls       *int   `json:"api_calls,omitempty"`
	TotalTokens    *int64 `json:"total_tokens,omitempty"`
}

// LsLive is a running session's state.
type LsLive struct {
	PID    int    `json:"pid"`
	Status string `json:"status"`
}

// NewLsJSON builds the document; stats are the --long counts (nil
// without --long), one per session.
func NewLsJSON(list []*session.Info, stats []tokens.SessionStats) LsJSON {
	rows := make([]LsRow, len(list))
	for i, in := range list {
		rows[i] = LsRow{
			SessionID: in.ID, Project: in.Project, ProjectKey: in.ProjectKey(), Path: in.Path,
			Title: in.Title, TitleSource: in.TitleSource, FirstPrompt: in.FirstPrompt,
			StartedAt: JSONTime(in.StartedAt), UpdatedAt: JSONTime(in.UpdatedAt),
			GitBranch: in.GitBranch, Version: in.Version, Subagents: in.Subagents, SizeBytes: in.Size,
			Archived: in.Archived, MainTranscript: !in.Orphan,
		}
		if in.Live != nil {
			rows[i].Live = &LsLive{PID: in.Live.PID, Status: in.Live.Status}
		}
		if stats != nil {
			st := stats[i]
			rows[i].Prompts, rows[i].APICalls, rows[i].TotalTokens = &st.Prompts, &st.APICalls, &st.Tokens
			rows[i].SizeBytes = st.Size
		}
	}
	return LsJSON{SchemaVersion: SchemaVersion, Sessions: rows}
}

// ---- cctx tree --json

// TreeJSON is the document of `cctx tree --json`: a flat list of nodes.
type TreeJSON struct {
	SchemaVersion int     `json:"schema_version"`
	SessionID     string  `json:"session_id"`
	ActiveLeaf    *string `json:"active_leaf"`
	// ContinuesFrom is the parent, not in the file, of the main file's
	// first entry: the session continues one recorded elsewhere.
	ContinuesFrom *string        `json:"continues_from"`
	Roots         []string       `json:"roots"`
	Leaves        []string       `json:"leaves"`
	Nodes         []TreeJSONNode `json:"nodes"`
	Warnings      []string       `json:"warnings"`
}

// TreeJSONNode is one entry of the DAG.
type TreeJSONNode struct {
	UUID              string   `json:"uuid"`
	ParentUUID        *string  `json:"parent_uuid"`
	LogicalParentUUID *string  `json:"logical_parent_uuid"`
	Type              string   `json:"type"`
	Subtype           *string  `json:"subtype"`
	Timestamp         *string  `json:"timestamp"`
	AgentID           *string  `json:"agent_id"`
	MessageID         *string  `json:"message_id"`
	Children          []string `json:"children"`
	Active            bool     `json:"active"`
	Fork              bool     `json:"fork"`
	// Bridged: the parent (or logical parent) the line names was never
	// written; parent_uuid is the entry before it in the file.
	Bridged bool `json:"bridged"`
	// Foreign: a leading line of another session (carried-over context).
	Foreign bool `json:"foreign"`
}

// NewTreeJSON flattens the model. A subagent's root names the node that
// spawned it as parent_uuid, and is listed among that node's children, so
// the flat list links agents under their tool call; an agent nothing links
// is a root. Without agents, their nodes are left out.
func NewTreeJSON(t *tree.Tree, agents bool) TreeJSON {
	doc := TreeJSON{SchemaVersion: SchemaVersion, SessionID: t.SessionID, Roots: []string{}, Leaves: []string{}, Nodes: []TreeJSONNode{}, Warnings: []string{}}
	if t.Leaf != nil {
		doc.ActiveLeaf = &t.Leaf.UUID
	}
	if t.Continues != nil {
		doc.ContinuesFrom = &t.Continues.ParentUUID
	}
	for _, n := range t.Roots {
		doc.Roots = append(doc.Roots, n.UUID)
	}
	for _, n := range t.Leaves() {
		doc.Leaves = append(doc.Leaves, n.UUID)
	}
	agentRoot := map[*tree.Node]*tree.Agent{}
	if agents {
		for _, a := range t.Agents {
			for _, r := range a.Roots {
				agentRoot[r] = a
				if a.Spawn == nil {
					doc.Roots = append(doc.Roots, r.UUID)
				}
			}
		}
	}
	for _, n := range t.Nodes {
		if n.Agent() != nil && !agents {
			continue
		}
		jn := TreeJSONNode{
			UUID: n.UUID, Type: n.Type, Subtype: strPtr(n.Subtype),
			MessageID: strPtr(n.MessageID), Children: []string{}, Active: n.Active, Fork: n.Fork,
			Bridged: n.Bridged, Foreign: n.Foreign,
		}
		if n.Parent != nil {
			jn.ParentUUID = &n.Parent.UUID
		} else if a := agentRoot[n]; a != nil && a.Spawn != nil {
			jn.ParentUUID = &a.Spawn.UUID
		}
		if n.LogicalParent() != nil {
			jn.LogicalParentUUID = &n.LogicalParent().UUID
		} else {
			jn.LogicalParentUUID = strPtr(n.LogicalParentUUID())
		}
		jn.Timestamp = JSONTimeOrNull(n.Timestamp())
		if n.Agent() != nil {
			jn.AgentID = &n.Agent().ID
		}
		for _, c := range n.Children() {
			jn.Children = append(jn.Children, c.UUID)
		}
		if agents {
			for _, a := range n.Agents() {
				for _, r := range a.Roots {
					jn.Children = append(jn.Children, r.UUID)
				}
			}
		}
		doc.Nodes = append(doc.Nodes, jn)
	}
	for _, w := range t.Warnings {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	return doc
}

// ---- cctx agents --json

// SubagentJSON is one agent in --json.
type SubagentJSON struct {
	// AgentID is null for a call that never got an agent (it failed before
	// one was spawned): "" is the main conversation's key in
	// `tokens --by agent`, and a script joining on it must not match.
	AgentID          *string            `json:"agent_id"`
	ToolUseID        string             `json:"tool_use_id"`
	ParentAgentID    string             `json:"parent_agent_id"`
	Depth            int                `json:"depth"`
	Kind             string             `json:"kind"`
	SubagentType     string             `json:"subagent_type"`
	Description      string             `json:"description"`
	Name             string             `json:"name"`
	TeamName         string             `json:"team_name"`
	Prompt           string             `json:"prompt"`
	Model            string             `json:"model"`
	Models           []string           `json:"models"`
	Status           string             `json:"status"`
	Background       bool               `json:"background"`
	Path             string             `json:"path"`
	MetaPath         string             `json:"meta_path"`
	Link             string             `json:"link"`
	StartedAt        string             `json:"started_at"`
	EndedAt          string             `json:"ended_at"`
	DurationMs       int64              `json:"duration_ms"`
	APICalls         int64              `json:"api_calls"`
	ToolUses         int                `json:"tool_uses"`
	MessagesSent     int                `json:"messages_sent"`
	MessagesReceived int                `json:"messages_received"`
	Total            tokens.Total       `json:"total"`
	UsageKnown       bool               `json:"usage_known"` // false: api_calls and total are zeros kept for the schema (agents.Agent.UsageUnknown)
	ReportedTokens   *int64             `json:"reported_total_tokens"`
	TokenCheck       string             `json:"token_check"`
	Calls            []SubagentCallJSON `json:"calls"`
	Problems         []string           `json:"problems"`
}

// SubagentCallJSON is one call that spawned or resumed an agent.
type SubagentCallJSON struct {
	ToolUseID     string  `json:"tool_use_id"`
	Tool          string  `json:"tool"`
	ParentAgentID string  `json:"parent_agent_id"`
	Status        string  `json:"status"`
	Resume        string  `json:"resume"`
	Background    bool    `json:"background"`
	Error         string  `json:"error"`
	File          string  `json:"file"`
	Line          int     `json:"line"`
	At            string  `json:"at"`
	ResultAgentID *string `json:"result_agent_id"` // null, as agent_id, when the result names none
	ResultStatus  string  `json:"result_status"`
	TotalTokens   *int64  `json:"reported_total_tokens"`
	DurationMs    *int64  `json:"reported_duration_ms"`
	ToolUses      *int64  `json:"reported_tool_uses"`
}

// AgentsJSON is the document of `cctx agents --json`.
type AgentsJSON struct {
	SchemaVersion int    `json:"schema_version"`
	SessionID     string `json:"session_id"`
	// Subagents counts the subagents with a transcript, not Claude Code's
	// compaction agents: the number ls, show and tree give.
	Subagents int            `json:"subagents"`
	Agents    []SubagentJSON `json:"agents"`
	Main      tokens.Total   `json:"main"`
	Warnings  []string       `json:"warnings"`
}

// NewAgentsJSON builds the document of one session's agents.
func NewAgentsJSON(res *agents.Result) AgentsJSON {
	doc := AgentsJSON{SchemaVersion: SchemaVersion, SessionID: res.SessionID, Subagents: res.Subagents, Agents: []SubagentJSON{}, Main: res.Main, Warnings: []string{}}
	// Every warning of stderr: the file errors (said as they were met),
	// then the rest.
	for _, w := range append(append([]agents.Warning(nil), res.FileErrors...), res.Warnings...) {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	for _, a := range res.Agents {
		j := SubagentJSON{
			ParentAgentID: a.ParentID, Depth: a.Depth, Kind: a.Kind, SubagentType: a.Type,
			Description: a.Description, Name: a.Name, TeamName: a.TeamName, Prompt: a.Prompt,
			Models: a.Models, Status: a.Status, Background: a.Background, Path: a.Path, MetaPath: a.MetaPath,
			Link: a.Link, StartedAt: JSONTime(a.Started), EndedAt: JSONTime(a.Ended),
			DurationMs: a.DurationMs, APICalls: a.Total.APICalls, ToolUses: a.ToolUses,
			MessagesSent: a.MessagesSent, MessagesReceived: a.MessagesIn, Total: a.Total,
			UsageKnown: !a.UsageUnknown(), TokenCheck: a.TokenCheck, Calls: []SubagentCallJSON{}, Problems: a.Problems,
		}
		if a.ID != "" {
			j.AgentID = &a.ID
		}
		if j.Models == nil {
			j.Models = []string{}
		}
		if len(a.Models) > 0 {
			j.Model = a.Models[0]
		}
		if j.Problems == nil {
			j.Problems = []string{}
		}
		if a.HasReportedTokens {
			v := a.ReportedTokens
			j.ReportedTokens = &v
		}
		if len(a.Calls) > 0 {
			j.ToolUseID = a.Calls[0].ToolUseID
		}
		for _, c := range a.Calls {
			cj := SubagentCallJSON{
				ToolUseID: c.ToolUseID, Tool: c.Tool, ParentAgentID: c.ParentAgentID, Status: agents.CallStatus(c),
				Resume: c.Input.Resume, Background: c.Input.Background, Error: c.ErrorText, File: c.File, Line: c.Line,
				At: JSONTime(c.Time), ResultStatus: c.Result.Status,
			}
			if c.Result.AgentID != "" {
				id := c.Result.AgentID
				cj.ResultAgentID = &id
			}
			if c.Result.HasTotalTokens {
				v := c.Result.TotalTokens
				cj.TotalTokens = &v
			}
			if c.Result.Object && c.Result.TotalDurationMs > 0 {
				v := c.Result.TotalDurationMs
				cj.DurationMs = &v
			}
			if c.Result.HasToolUseCount {
				v := c.Result.TotalToolUseCount
				cj.ToolUses = &v
			}
			j.Calls = append(j.Calls, cj)
		}
		doc.Agents = append(doc.Agents, j)
	}
	return doc
}
