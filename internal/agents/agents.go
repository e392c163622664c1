// Package agents reports on the subagents of one session: for each, the
// calls that spawned and resumed it, how it ended, its usage, and what does
// not add up. It is a report over the conversation model: the links
// between calls and transcripts are internal/tree's (its one linker, on
// evidence only: the .meta.json sidecar's toolUseId, toolUseResult.agentId,
// agent_progress lines, the exact prompt); this package reads nothing but
// the few lines it quotes (a call's input, a result's toolUseResult, a
// task notification), re-read by offset.
//
// Anything that does not link is reported, never guessed: a call without a
// transcript, a transcript without a call, an agentId that cannot be a file
// name (never looked up), a totalTokens that the transcript does not show.
//
// Tokens per agent come from tokens.CountTree, keyed exactly as
// `cctx tokens --by agent` keys them.
package agents

import (
	"fmt"
	"sort"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Kinds of agent.
const (
	KindSubagent   = "subagent"   // its own transcript file
	KindSidechain  = "sidechain"  // inline isSidechain lines of the main file (≤1.0.x)
	KindCompaction = "compaction" // agent-acompact-*: spawned by compaction, not by a call
	KindWarmup     = "warmup"     // a 2.0.x cache warm-up agent ("Warmup"), not spawned by a call
)

// Statuses.
const (
	StatusCompleted   = "completed"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
	StatusRunning     = "running"    // the call has no result yet (or the session died)
	StatusBackground  = "background" // launched in background; no completion seen
	StatusTeammate    = "teammate"   // spawned as a team member; runs on its own
	StatusMissing     = "missing_transcript"
	StatusOrphan      = "orphan" // a transcript no call spawned
	// StatusNoReply is a warm-up agent whose transcript holds no reply:
	// Claude Code did not wait for one, so it is not running, and a
	// warm-up is never a problem.
	StatusNoReply = "no_reply"
	// StatusRejected is a call the user rejected (its result is Claude
	// Code's rejection text); its agent may have run meanwhile.
	StatusRejected = "rejected"
	// StatusAPIError is an agent whose transcript ends on an API error or
	// a rate limit (a client-side <synthetic> message): it stopped there,
	// and Claude Code reports no tokens for it.
	StatusAPIError = "api_error"
	// StatusOther is a result status cctx does not know; the JSON keeps
	// the raw one (calls[].result_status).
	StatusOther = "other"
)

// Token checks: how toolUseResult.totalTokens compares with the transcript.
const (
	CheckOK           = "ok"                  // the transcript holds the API call Claude Code reported
	CheckFinalMissing = "final_usage_missing" // same call, but the transcript kept only a partial output count
	CheckMismatch     = "mismatch"            // no API call of the transcript has the reported usage
)

// Call is one Agent/Task tool call and its result.
type Call struct {
	ToolUseID     string
	Tool          string // Agent or Task
	ParentAgentID string // the agent whose transcript holds the call; "" = main
	Input         reader.AgentInput
	Time          time.Time
	File          string
	Line          int

	Answered   bool // a tool_result answers it
	ResultTime time.Time
	ResultFile string
	ResultLine int
	IsError    bool
	ErrorText  string // an error result's text, unwrapped and cut (errorText)
	Result     reader.AgentResult
}

// Agent is one subagent: its transcript, the calls that spawned or resumed
// it, and its deduplicated usage.
type Agent struct {
	// ID is the key tokens uses: the file's agent id, "sidechain-<root>"
	// for inline sidechains, or the reported agentId of a call whose
	// transcript is missing. "" for a call that never got an id.
	ID          string
	Kind        string
	Type        string // subagent_type, agentType, or the kind for agents no call spawned
	Description string
	Name        string // teammate name
	TeamName    string
	Prompt      string // the full prompt (the call's, else the transcript's first user text)
	Status      string
	Background  bool
	Path        string // transcript file ("" for inline sidechains and missing ones)
	MetaPath    string
	Link        string // how call and transcript were linked: meta, agent_id, progress, prompt, parent_uuid, resume, or ""
	ParentID    string // the parent agent's ID; "" = the main conversation
	Depth       int    // nesting level in Agents' order (0 = spawned by the main thread)
	Calls       []*Call

	Started, Ended    time.Time
	DurationMs        int64 // totalDurationMs summed over the calls, else a background agent's notice's, else the transcript's span
	Models            []string
	ToolUses          int // tool_use blocks in its transcript (reported count when there is none: the calls', else a notice's)
	MessagesSent      int // SendMessage calls it made
	MessagesIn        int // SendMessage calls addressed to its name
	Total             tokens.Total
	ReportedTokens    int64  // toolUseResult.totalTokens of its last call that has one, else a background agent's notice's <subagent_tokens>
	HasReportedTokens bool   // some call (or the notice) reported tokens
	TokenCheck        string // CheckOK, CheckFinalMissing, CheckMismatch, or "" (nothing to check)
	Problems          []string

	hasTranscript bool
	unreadable    bool   // its transcript could not be read (transcript.unreadable)
	firstSeen     int    // creation order, for a stable display order
	elsewhere     string // its transcript, in the session this one resumed
	said          bool   // why it has no transcript is said (the tree's warning, or an unsafe resume id)
}

// UsageUnknown reports whether the agent's usage is not known here: no
// transcript of it was read (missing, in the session this one resumed,
// counted there, or one that could not be read: UTF-16, no permission):
// its calls, tokens and cost are not 0 but unknown. The one rule behind
// `–` on a terminal, an empty cell in a pipe and "usage_known": false in
// JSON.
func (a *Agent) UsageUnknown() bool {
	return a.Status == StatusMissing || a.elsewhere != "" && !a.hasTranscript || a.unreadable
}

// Warning is a problem found while linking, with the file and line it is
// about when there is one.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	file := w.File
	if file == session.StdinPath {
		file = reader.StdinName
	}
	switch {
	case file != "" && w.Line > 0:
		return fmt.Sprintf("%s:%d: %s", file, w.Line, w.Msg)
	case file != "":
		return file + ": " + w.Msg
	}
	return w.Msg
}

// Result is every agent of a session, in tree order: each agent is
// followed by the agents it spawned.
type Result struct {
	SessionID string
	// Subagents is how many subagents the session ran whose transcript is
	// there, not counting compaction agents (tree.Tree.Subagents): the
	// number every command gives.
	Subagents int
	Agents    []*Agent
	Main      tokens.Total // the main conversation's own usage
	// MainUnpriced are the models of main-conversation responses that have
	// no price (their cost is unknown).
	MainUnpriced []string
	// FileErrors are the transcripts that could not be read, whole or in
	// part, and a main transcript Claude Code deleted (said already, when
	// the tree was read).
	FileErrors []Warning
	Warnings   []Warning // mismatches that deserve attention
	Notes      []Warning // known recording gaps (shown with -v)
}

// UnpricedModels are the models without a price among the main
// conversation's and the agents' responses, sorted ("(no model)" for
// responses that name none).
func (r *Result) UnpricedModels(prices *tokens.Prices) []string {
	unpriced := map[string]bool{}
	for _, m := range r.MainUnpriced {
		unpriced[m] = true
	}
	for _, a := range r.Agents {
		if !a.Total.CostKnown() {
			for _, m := range a.Models {
				if prices.Model(m) == nil {
					unpriced[m] = true
				}
			}
		}
	}
	var ms []string
	for m := range unpriced {
		if m == "" {
			m = "(no model)"
		}
		ms = append(ms, m)
	}
	sort.Strings(ms)
	return ms
}

// order lays the agents out as a tree: each parent followed by its
// children, siblings by start time. Walked with an explicit stack, so depth
// is not bounded by Go's stack; a parent cycle is cut and reported.
func (r *reporter) order() {
	sorted := append([]*Agent(nil), r.list...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Started.IsZero() != b.Started.IsZero() {
			return !a.Started.IsZero()
		}
		if !a.Started.Equal(b.Started) {
			return a.Started.Before(b.Started)
		}
		return a.firstSeen < b.firstSeen
	})
	children := map[*Agent][]*Agent{}
	var roots []*Agent
	for _, a := range sorted {
		p := r.byID[a.ParentID]
		switch {
		case a.ParentID == "":
			roots = append(roots, a)
		case p == nil || p == a:
			a.Problems = append(a.Problems, fmt.Sprintf("parent agent %s not found", a.ParentID))
			r.warn(a.Path, 0, "agent %s: parent agent %s not found; shown at the top level", a.ID, a.ParentID)
			roots = append(roots, a)
		default:
			children[p] = append(children[p], a)
		}
	}
	done := map[*Agent]bool{}
	walk := func(root *Agent) {
		type item struct {
			a     *Agent
			depth int
		}
		stack := []item{{root, 0}}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if done[it.a] {
				continue
			}
			done[it.a] = true
			it.a.Depth = it.depth
			r.res.Agents = append(r.res.Agents, it.a)
			kids := children[it.a]
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, item{kids[i], it.depth + 1})
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	// Whatever is left hangs off a parent cycle.
	for _, a := range sorted {
		if !done[a] {
			a.Problems = append(a.Problems, "its parent chain is a cycle")
			r.warn(a.Path, 0, "agent %s: its parent chain is a cycle; shown at the top level", a.ID)
			walk(a)
		}
	}
}

func models(rs []tokens.Response) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		if r.Model != "" && !seen[r.Model] {
			seen[r.Model] = true
			out = append(out, r.Model)
		}
	}
	return out
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
