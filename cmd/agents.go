package cmd

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// AgentsOptions are the flags of cctx agents.
type AgentsOptions struct {
	F       *Factory
	Session string
	Pricing string
}

// NewCmdAgents builds `cctx agents`. runF replaces the run function in tests.
func NewCmdAgents(f *Factory, runF func(*AgentsOptions) error) *cobra.Command {
	o := &AgentsOptions{F: f}
	c := &cobra.Command{
		Use:   "agents <session>",
		Short: "Every subagent of a session, linked from the call that spawned it to its transcript",
		Long: `Every subagent of a session, linked from the Agent/Task call that spawned it
to its transcript, nested agents under their parent.

Calls are read in the main transcript and, recursively, in each subagent's
transcript. A call is linked to its transcript by the .meta.json sidecar
(toolUseId), else by toolUseResult.agentId among the agent-<id>.jsonl files of
the session (both the <session>/subagents/ layout and the flat 2.0.x one),
else, for the inline sidechains of 1.0.x, by the exact prompt text. Nothing is
guessed: a call without a transcript is "missing_transcript", a transcript
that no call spawned is an "orphan", and an agentId that could not be a file
name is reported and never looked up. Compaction agents (agent-acompact-*)
and 2.0.x warm-up agents are spawned by Claude Code itself and listed with
their own type.

Status: completed, failed, interrupted, running (no result yet), background
(launched in background, no completion seen), teammate, no_reply (a warm-up
agent that got no reply: nothing waits for one), missing_transcript, orphan.

Tokens, API calls and cost are deduplicated exactly as cctx tokens counts
them: an agent's numbers equal its row in "cctx tokens <session> --by agent".
toolUseResult.totalTokens (the size of the agent's last API call) is checked
against the transcript; a mismatch is a warning.

-v adds the first line of each prompt and the transcript's path.`,
		Example: `  cctx agents latest
  cctx agents 3f2a -v
  cctx agents 3f2a --json | jq -r '.agents[] | [.agent_id, .status, .total.total_tokens] | @tsv'`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			if runF != nil {
				return runF(o)
			}
			return agentsRun(o)
		},
	}
	c.Flags().StringVar(&o.Pricing, "pricing", "", "price table `FILE` (JSON) instead of the embedded one")
	return c
}

func agentsRun(o *AgentsOptions) error {
	f := o.F
	prices := tokens.DefaultPrices()
	if o.Pricing != "" {
		var err error
		if prices, err = tokens.LoadPrices(o.Pricing); err != nil {
			return usageErrorf("--pricing: %v", err)
		}
	}
	finder, err := f.Finder()
	if err != nil {
		return err
	}
	s, err := finder.Resolve(o.Session)
	if err != nil {
		return err
	}
	var files []session.Agent
	if s.Path != session.StdinPath { // a transcript on stdin has no folder to hold agent files
		files = finder.Agents(s)
	}
	rep := f.Report()
	var mainErr error
	var fileErrs []agents.Warning
	res := agents.Find(s, files, agents.Options{
		Prices:  prices,
		OnIssue: rep.Line,
		OnError: func(path string, err error) {
			if path == s.Path {
				mainErr = err // nothing to link from: an error, as in show and tree
				return
			}
			rep.FileError(path, err)
			fileErrs = append(fileErrs, agents.Warning{File: path, Msg: diag.FileErrorText(path, err)})
		},
		Stdin:     f.IO.In,
		Elsewhere: func(id string) string { return finder.AgentElsewhere(s, id) },
	})
	if mainErr != nil {
		return mainErr
	}
	// The JSON document repeats every warning of stderr, file errors too.
	res.Warnings = append(fileErrs, res.Warnings...)
	for _, w := range res.Warnings[len(fileErrs):] { // file errors were printed as met
		rep.Warn("%s", render.Safe(w.String()))
	}
	for _, n := range res.Notes {
		rep.Note("%s", render.Safe(n.String()))
	}
	unpriced := map[string]bool{}
	for _, m := range res.MainUnpriced {
		unpriced[m] = true
	}
	for _, a := range res.Agents {
		if !a.Total.CostKnown() {
			for _, m := range a.Models {
				if prices.Model(m) == nil {
					unpriced[m] = true
				}
			}
		}
	}
	if len(unpriced) > 0 {
		var ms []string
		for m := range unpriced {
			if m == "" {
				m = "(no model)"
			}
			ms = append(ms, m)
		}
		sort.Strings(ms)
		rep.Warn("no price for model(s) %s: their cost is unknown (add them with --pricing FILE)", strings.Join(ms, ", "))
	}
	for _, m := range prices.Estimated() {
		rep.Warn("%s", prices.EstimateNote(m))
	}

	if f.Globals.JSON {
		err = render.JSON(f.IO.Out, agentsDoc(res), f.Render())
	} else {
		err = agentsTable(f, res)
	}
	if err != nil {
		return err
	}
	return unreadableFiles(f)
}

// agentJSON is one agent in --json.
type agentJSON struct {
	// AgentID is null for a call that never got an agent (it failed before
	// one was spawned): "" is the main conversation's key in
	// `tokens --by agent`, and a script joining on it must not match.
	AgentID          *string      `json:"agent_id"`
	ToolUseID        string       `json:"tool_use_id"`
	ParentAgentID    string       `json:"parent_agent_id"`
	Depth            int          `json:"depth"`
	Kind             string       `json:"kind"`
	SubagentType     string       `json:"subagent_type"`
	Description      string       `json:"description"`
	Name             string       `json:"name"`
	TeamName         string       `json:"team_name"`
	Prompt           string       `json:"prompt"`
	Model            string       `json:"model"`
	Models           []string     `json:"models"`
	Status           string       `json:"status"`
	Background       bool         `json:"background"`
	Path             string       `json:"path"`
	MetaPath         string       `json:"meta_path"`
	Link             string       `json:"link"`
	StartedAt        string       `json:"started_at"`
	EndedAt          string       `json:"ended_at"`
	DurationMs       int64        `json:"duration_ms"`
	APICalls         int64        `json:"api_calls"`
	ToolUses         int          `json:"tool_uses"`
	MessagesSent     int          `json:"messages_sent"`
	MessagesReceived int          `json:"messages_received"`
	Total            tokens.Total `json:"total"`
	ReportedTokens   *int64       `json:"reported_total_tokens"`
	TokenCheck       string       `json:"token_check"`
	Calls            []callJSON   `json:"calls"`
	Problems         []string     `json:"problems"`
}

type callJSON struct {
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

type agentsJSON struct {
	SchemaVersion int          `json:"schema_version"`
	SessionID     string       `json:"session_id"`
	Agents        []agentJSON  `json:"agents"`
	Main          tokens.Total `json:"main"`
	Warnings      []string     `json:"warnings"`
}

func agentsDoc(res *agents.Result) agentsJSON {
	doc := agentsJSON{SchemaVersion: 1, SessionID: res.SessionID, Agents: []agentJSON{}, Main: res.Main, Warnings: []string{}}
	for _, w := range res.Warnings {
		doc.Warnings = append(doc.Warnings, w.String())
	}
	for _, a := range res.Agents {
		j := agentJSON{
			ParentAgentID: a.ParentID, Depth: a.Depth, Kind: a.Kind, SubagentType: a.Type,
			Description: a.Description, Name: a.Name, TeamName: a.TeamName, Prompt: a.Prompt,
			Models: a.Models, Status: a.Status, Background: a.Background, Path: a.Path, MetaPath: a.MetaPath,
			Link: a.Link, StartedAt: render.JSONTime(a.Started), EndedAt: render.JSONTime(a.Ended),
			DurationMs: a.DurationMs, APICalls: a.Total.APICalls, ToolUses: a.ToolUses,
			MessagesSent: a.MessagesSent, MessagesReceived: a.MessagesIn, Total: a.Total,
			TokenCheck: a.TokenCheck, Calls: []callJSON{}, Problems: a.Problems,
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
			cj := callJSON{
				ToolUseID: c.ToolUseID, Tool: c.Tool, ParentAgentID: c.ParentAgentID, Status: agents.CallStatus(c),
				Resume: c.Input.Resume, Background: c.Input.Background, Error: c.ErrorText, File: c.File, Line: c.Line,
				At: render.JSONTime(c.Time), ResultStatus: c.Result.Status,
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

func agentsTable(f *Factory, res *agents.Result) error {
	ro := f.Render()
	th := ro.Theme
	verbose := f.Globals.Verbose
	if !ro.TTY {
		// One agent a line, exact values: id, tool_use id, parent, depth,
		// type, description, models, status, api calls, tokens, cost,
		// duration ms, tool uses (then prompt's first line and path with -v).
		t := render.NewTable(ro, "AGENT", "TOOL_USE", "PARENT", "DEPTH", "TYPE", "DESCRIPTION", "MODELS", "STATUS",
			"CALLS", "TOKENS", "COST", "DURATION_MS", "TOOLS", "PROMPT", "PATH")
		for _, a := range res.Agents {
			id := render.Safe(a.ID)
			if id == "" {
				id = "-" // no agent: an empty cell would read as the main conversation, as in tokens
			}
			row := []string{id, agentsToolUse(a), render.Safe(a.ParentID), strconv.Itoa(a.Depth),
				render.Safe(a.Type), render.Safe(a.Description), render.Safe(strings.Join(a.Models, ",")), a.Status,
				strconv.FormatInt(a.Total.APICalls, 10), strconv.FormatInt(a.Total.Tokens, 10), agentsCost(a.Total, false),
				strconv.FormatInt(a.DurationMs, 10), strconv.Itoa(a.ToolUses)}
			if verbose {
				row = append(row, render.Safe(agentsFirstLine(a.Prompt)), render.Safe(a.Path))
			}
			t.Row(row...)
		}
		return t.Render(f.IO.Out)
	}

	if len(res.Agents) == 0 {
		fmt.Fprintln(f.IO.ErrOut, th.Dim("session "+res.SessionID+" has no subagents"))
		return nil
	}
	cols := []string{"AGENT", "TYPE", "DESCRIPTION", "MODEL", "STATUS", "CALLS>", "TOKENS>", "COST>", "TIME>", "TOOLS>", "PARENT"}
	if verbose {
		cols = append(cols, "PROMPT", "PATH")
	}
	t := render.NewTable(ro, cols...)
	var sum tokens.Total
	for _, a := range res.Agents {
		sum.Merge(a.Total)
		id := render.Safe(a.ID)
		if id == "" {
			id = th.Dim("(" + render.Cut(agentsToolUse(a), 14) + ")")
		}
		if a.Depth > 0 {
			id = strings.Repeat("  ", a.Depth-1) + "└ " + id
		}
		desc := render.Safe(a.Description)
		if a.Name != "" {
			desc = render.Safe("@"+a.Name) + " " + desc
		}
		dur := ""
		if a.DurationMs > 0 {
			dur = render.Duration(time.Duration(a.DurationMs) * time.Millisecond)
		}
		row := []string{id, render.Cut(render.Safe(a.Type), 18), render.Cut(desc, 36), render.Cut(agentsModels(a.Models), 18),
			agentsStatus(a, th), agentsCount(a.Total.APICalls), render.Count(a.Total.Tokens), agentsCost(a.Total, true),
			dur, strconv.Itoa(a.ToolUses), render.Cut(render.Safe(a.ParentID), 12)}
		if verbose {
			row = append(row, render.Cut(render.Safe(agentsFirstLine(a.Prompt)), 40), render.Safe(tildePath(a.Path, f.Env.Home)))
		}
		t.Row(row...)
	}
	n := fmt.Sprintf("%d agents", len(res.Agents))
	if len(res.Agents) == 1 {
		n = "1 agent"
	}
	foot := []string{n, "", "", "", "", agentsCount(sum.APICalls), render.Count(sum.Tokens), agentsCost(sum, true), "", "", ""}
	if verbose {
		foot = append(foot, "", "")
	}
	t.Footer(foot...)
	if err := t.Render(f.IO.Out); err != nil {
		return err
	}
	// Data, so stdout: the share of the session the table does not show.
	_, err := fmt.Fprintln(f.IO.Out, th.Dim(fmt.Sprintf("main conversation: %s tokens in %d API calls", render.Count(res.Main.Tokens), res.Main.APICalls)))
	return err
}

func agentsToolUse(a *agents.Agent) string {
	if len(a.Calls) == 0 {
		return ""
	}
	return render.Safe(a.Calls[0].ToolUseID)
}

func agentsCount(n int64) string { return strconv.FormatInt(n, 10) }

// costCell is the cost, "?" when some response has no price.
func agentsCost(t tokens.Total, human bool) string {
	if !t.CostKnown() {
		if human {
			return "?"
		}
		return ""
	}
	if human {
		return fmt.Sprintf("$%.2f", t.Cost)
	}
	return render.USD(t.Cost)
}

func agentsStatus(a *agents.Agent, th render.Theme) string {
	s := a.Status
	if a.Background && s != agents.StatusBackground {
		s += " (bg)"
	}
	if a.TokenCheck == agents.CheckMismatch || len(a.Problems) > 0 {
		s += " !"
	}
	switch a.Status {
	case agents.StatusCompleted:
		return th.Green(s)
	case agents.StatusFailed, agents.StatusMissing, agents.StatusOrphan:
		return th.Red(s)
	case agents.StatusInterrupted, agents.StatusRunning, agents.StatusBackground, agents.StatusTeammate:
		return th.Yellow(s)
	}
	return s
}

// shortModels drops the "claude-" prefix and a date suffix: the table has
// no room for "claude-sonnet-4-5-20250929".
func agentsModels(ms []string) string {
	out := make([]string, len(ms))
	for i, m := range ms {
		m = strings.TrimPrefix(m, "claude-")
		if j := strings.LastIndexByte(m, '-'); j > 0 && len(m)-j-1 == 8 && agentsDigits(m[j+1:]) {
			m = m[:j]
		}
		out[i] = render.Safe(m)
	}
	return strings.Join(out, ",")
}

func agentsDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func agentsFirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}
