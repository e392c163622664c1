package render

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// TokensJSON is the schema of `cctx tokens --json` (schema_version 1).
type TokensJSON struct {
	SchemaVersion int             `json:"schema_version"`
	Pricing       PricingJSON     `json:"pricing"`
	GroupBy       string          `json:"group_by"`
	Total         tokens.Total    `json:"total"`
	Sessions      []SessionTokens `json:"sessions"`
	Groups        []GroupJSON     `json:"groups,omitzero"`
	Responses     []ResponseJSON  `json:"responses,omitzero"`
	Budget        *BudgetJSON     `json:"budget,omitempty"`
	// With a time grouping, the group that holds now (AddCurrent); with
	// --by tool, the tools (AddTools).
	Current    *CurrentJSON `json:"current,omitempty"`
	Tools      []ToolJSON   `json:"tools,omitzero"`
	ToolsTotal *ToolJSON    `json:"tools_total,omitempty"`
}

// PricingJSON says which price table priced the report.
type PricingJSON struct {
	Date           string   `json:"date"`
	UnpricedModels []string `json:"unpriced_models"`
	// EstimatedModels are the models without a row of their own, priced
	// at their family's newest row.
	EstimatedModels []EstimatedModelJSON `json:"estimated_models"`
}

// EstimatedModelJSON is a model priced by an estimate, and the row it was
// priced as.
type EstimatedModelJSON struct {
	Model    string `json:"model"`
	PricedAs string `json:"priced_as"`
}

// SessionTokens is one session of the report.
type SessionTokens struct {
	SessionID string        `json:"session_id"`
	Project   string        `json:"project"`
	Path      string        `json:"path"`
	StartedAt string        `json:"started_at"`
	Total     *tokens.Total `json:"total"`
	Agents    []AgentJSON   `json:"agents"`
	Models    []ModelJSON   `json:"models"`
	// MissingAgentTranscripts: the agents its results name whose
	// transcript is missing, whose tokens Total lacks ([] for none).
	MissingAgentTranscripts []string `json:"missing_agent_transcripts"`
}

// noMissing is every session's list of missing agents when it has none:
// [] in the JSON, one array for all.
var noMissing = []string{}

// AgentJSON is an agent's share ("" is the main conversation).
type AgentJSON struct {
	AgentID string        `json:"agent_id"`
	Total   *tokens.Total `json:"total"`
}

// ModelJSON is a model's share.
type ModelJSON struct {
	Model string        `json:"model"`
	Total *tokens.Total `json:"total"`
}

// GroupJSON is one row of --by (every value but response and tool).
// Time groupings add their bounds (GroupTimesJSON), agent-type its runs.
type GroupJSON struct {
	Key   string       `json:"key"`
	Total tokens.Total `json:"total"`
	*GroupTimesJSON
	Runs *int `json:"runs,omitempty"`
}

// ResponseJSON is one deduplicated API response.
type ResponseJSON struct {
	Timestamp       string   `json:"timestamp"`
	SessionID       string   `json:"session_id"`
	AgentID         string   `json:"agent_id"`
	Model           string   `json:"model"`
	MessageID       string   `json:"message_id"`
	RequestID       string   `json:"request_id"`
	Input           int64    `json:"input_tokens"`
	Output          int64    `json:"output_tokens"`
	CacheCreation   int64    `json:"cache_creation_input_tokens"`
	CacheCreation5m int64    `json:"cache_creation_5m_input_tokens"`
	CacheCreation1h int64    `json:"cache_creation_1h_input_tokens"`
	CacheRead       int64    `json:"cache_read_input_tokens"`
	Context         int64    `json:"context_tokens"`
	WebSearch       int64    `json:"web_search_requests"`
	Speed           string   `json:"speed"`
	CostUSD         *float64 `json:"cost_usd"`
	CostEstimated   bool     `json:"cost_estimated"`
	File            string   `json:"file"`
	Line            int      `json:"line"`
	Lines           int      `json:"lines_merged"`
}

// BudgetJSON lists the budgets that were exceeded (exit 3) and those that
// could not be checked (exit 1 when none was exceeded).
type BudgetJSON struct {
	Exceeded  []BudgetViolationJSON `json:"exceeded"`
	Unchecked []BudgetUncheckedJSON `json:"unchecked"`
}

// BudgetViolationJSON is one exceeded budget of one scope. Limit and
// Actual are numbers (a count, or USD for --max-cost) that a script can
// compare; LowerBound says Actual is the priced part of a cost that has
// unpriced calls too.
type BudgetViolationJSON struct {
	Scope      string      `json:"scope"` // "session <id>", "<by> <key>" (a group of --by), or "total"
	Flag       string      `json:"flag"`
	Limit      json.Number `json:"limit"`
	Actual     json.Number `json:"actual"`
	LowerBound bool        `json:"lower_bound"`
	Estimated  bool        `json:"estimated"`
}

// BudgetUncheckedJSON is a budget of one scope that could not be checked:
// a cost with calls of models that have no price, under the limit so far.
type BudgetUncheckedJSON struct {
	Scope  string      `json:"scope"`
	Flag   string      `json:"flag"`
	Limit  json.Number `json:"limit"`
	Reason string      `json:"reason"`
}

// NewBudgetJSON sorts violations, each in its scope, into the two lists.
func NewBudgetJSON(vs []tokens.ScopedViolation) *BudgetJSON {
	b := &BudgetJSON{Exceeded: []BudgetViolationJSON{}, Unchecked: []BudgetUncheckedJSON{}}
	for _, v := range vs {
		if v.Unchecked() {
			b.Unchecked = append(b.Unchecked, BudgetUncheckedJSON{Scope: v.Scope, Flag: v.Flag, Limit: v.Limit, Reason: "cost unknown: " + v.Unknown})
			continue
		}
		b.Exceeded = append(b.Exceeded, BudgetViolationJSON{Scope: v.Scope, Flag: v.Flag, Limit: v.Limit, Actual: v.Actual, LowerBound: v.LowerBound,
			Estimated: v.Estimated})
	}
	return b
}

// NewTokensJSON builds the JSON document of a report.
func NewTokensJSON(rep *tokens.Report, by tokens.Grouping, withResponses bool) TokensJSON {
	out := TokensJSON{SchemaVersion: SchemaVersion, GroupBy: string(by), Total: rep.Total, Sessions: make([]SessionTokens, 0, len(rep.Sessions))}
	out.Pricing.UnpricedModels = []string{}
	if rep.Prices != nil {
		out.Pricing.Date = rep.Prices.Date
	}
	for m := range rep.Unpriced {
		out.Pricing.UnpricedModels = append(out.Pricing.UnpricedModels, m)
	}
	sortStrings(out.Pricing.UnpricedModels)
	out.Pricing.EstimatedModels = []EstimatedModelJSON{}
	var estimated []string
	for m := range rep.Estimated {
		estimated = append(estimated, m)
	}
	sortStrings(estimated)
	for _, m := range estimated {
		out.Pricing.EstimatedModels = append(out.Pricing.EstimatedModels, EstimatedModelJSON{m, rep.Prices.EstimatedAs(m)})
	}
	// The sessions' agents and models share two arrays: two slices a
	// session were 10,000 allocations in a report of 5,000. Their totals
	// are the report's, pointed to: copied, they were 3 MB to write.
	var nAgents, nModels int
	for _, s := range rep.Sessions {
		nAgents, nModels = nAgents+len(s.Agents), nModels+len(s.Models)
	}
	agents, models := make([]AgentJSON, 0, nAgents), make([]ModelJSON, 0, nModels)
	for _, s := range rep.Sessions {
		st := SessionTokens{SessionID: s.ID, Project: s.Project, Path: s.Session.Path, StartedAt: JSONTime(s.Started), Total: &s.Total,
			MissingAgentTranscripts: noMissing}
		if len(s.MissingAgents) > 0 {
			st.MissingAgentTranscripts = s.MissingAgents
		}
		for j := range s.Agents {
			agents = append(agents, AgentJSON{s.Agents[j].Key, &s.Agents[j].Total})
		}
		for j := range s.Models {
			models = append(models, ModelJSON{s.Models[j].Key, &s.Models[j].Total})
		}
		// Full slices: an append to one session's list cannot run into
		// the next one's.
		st.Agents, agents = agents[:len(agents):len(agents)], agents[len(agents):]
		st.Models, models = models[:len(models):len(models)], models[len(models):]
		out.Sessions = append(out.Sessions, st)
	}
	if by != tokens.ByResponse && by != "" && by != tokens.ByTool {
		out.Groups = []GroupJSON{} // [] when no group: a script's .groups[] reads it
		for _, g := range rep.GroupBy(by) {
			out.Groups = append(out.Groups, groupJSON(by, g))
		}
	}
	if withResponses {
		out.Responses = []ResponseJSON{}
		for i := range rep.Responses {
			out.Responses = append(out.Responses, NewResponseJSON(&rep.Responses[i], rep.Prices))
		}
	}
	return out
}

// NewResponseJSON is one response as responses[] and --format ndjson
// give it.
func NewResponseJSON(r *tokens.Response, prices *tokens.Prices) ResponseJSON {
	var cost *float64
	estimated := false
	if c, ok := prices.Cost(r); ok {
		c = float64(int64(c*1e6+0.5)) / 1e6
		cost, estimated = &c, prices.EstimatedAs(r.Model) != ""
	}
	u := r.Usage
	return ResponseJSON{
		Timestamp: JSONTime(r.Time), SessionID: r.SessionID, AgentID: r.AgentID, Model: r.Model,
		MessageID: r.MessageID, RequestID: r.RequestID,
		Input: u.Input, Output: u.Output, CacheCreation: u.CacheCreation,
		CacheCreation5m: u.CacheCreation5m, CacheCreation1h: u.CacheCreation1h, CacheRead: u.CacheRead,
		Context: u.Context(), WebSearch: u.WebSearch, Speed: u.Speed, CostUSD: cost, CostEstimated: estimated,
		File: r.File, Line: r.Line, Lines: r.Lines,
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

var modelDate = regexp.MustCompile(`-\d{8}$`)

// ShortModel drops the "claude-" prefix and the date: opus-4-5.
func ShortModel(m string) string {
	if m == "" {
		return "-"
	}
	return modelDate.ReplaceAllString(strings.TrimPrefix(m, "claude-"), "")
}

// Cost formats a cost: $1.23, $0.0042, "?" when unknown.
func Cost(usd float64, known bool) string {
	if !known {
		return "?"
	}
	if usd != 0 && usd < 0.01 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// Bar draws v against full as a bar of width cells with eighth blocks.
func Bar(v, full int64, width int) string {
	if full <= 0 || width <= 0 {
		return ""
	}
	eighths := int(float64(v) / float64(full) * float64(width*8))
	eighths = min(max(eighths, 0), width*8)
	if v > 0 && eighths == 0 {
		eighths = 1
	}
	blocks := []rune(" ▏▎▍▌▋▊▉")
	var b strings.Builder
	b.WriteString(strings.Repeat("█", eighths/8))
	if r := eighths % 8; r > 0 {
		b.WriteRune(blocks[r])
	}
	return b.String()
}

// TokensOptions choose the terminal or TSV view.
type TokensOptions struct {
	By        tokens.Grouping // "" = default: responses for one session, sessions for several
	Responses bool            // show the per-response table
	Single    bool            // one session was asked for: totals by agent and model follow
	Tools     *tokens.ToolReport
}

// Tokens writes a report for people (terminal) or for cut/awk (pipe). On
// a terminal a report without any API call (nor tool call, --by tool)
// writes nothing: headers over no row and a total of 0 say less than the
// line the command writes on stderr (tokenreport's NothingNote). A pipe
// keeps its rows, of zeros for a session named.
func Tokens(w io.Writer, rep *tokens.Report, o Options, to TokensOptions) error {
	if o.TTY && rep.Total.APICalls == 0 && (to.Tools == nil || to.Tools.Total.Calls == 0) {
		return nil
	}
	if err := tokensTables(w, rep, o, to); err != nil {
		return err
	}
	if n := rep.Total.OutputUnderstated; n > 0 && o.TTY {
		msg := fmt.Sprintf("output understated on %s of %d: they kept only the usage they began streaming with (Claude Code 2.1.49 or older wrote no final count)",
			Plural(int(n), "call", "calls"), rep.Total.APICalls)
		lines := []string{msg}
		if o.Width > 0 {
			lines = wrapWords(msg, o.Width-1) // words the terminal would have broken
		}
		for _, l := range lines {
			if _, err := fmt.Fprintln(w, o.Theme.Yellow(l)); err != nil {
				return err
			}
		}
	}
	return nil
}

func tokensTables(w io.Writer, rep *tokens.Report, o Options, to TokensOptions) error {
	th := o.Theme
	num := func(n int64) string {
		if o.TTY {
			return Count(n)
		}
		return strconv.FormatInt(n, 10)
	}
	// On a terminal an estimated cost (a model priced at its family's
	// newest rates) reads ~$4.00; a pipe gets the plain number.
	estimated := func(c string, est bool) string {
		if est && c != "?" {
			return "~" + c
		}
		return c
	}
	totalCells := func(t tokens.Total) []string { return tokenCells(t, o) }
	// A section title, set apart from a table above it.
	section := func(title string) {
		if o.TTY {
			if to.Responses {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, th.Bold(title))
		}
	}

	if to.Responses {
		full := int64(200_000)
		for i := range rep.Responses {
			full = max(full, rep.Responses[i].Usage.Context())
		}
		// The session column, whenever the report is not of one session
		// named: a script reading --by response over every session gets
		// the same columns however many sessions had a response.
		multi := !to.Single
		cols := []string{"TIME"}
		if multi {
			cols = append(cols, "SESSION")
		}
		cols = append(cols, "AGENT", "MODEL", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "CONTEXT>", "COST>")
		if o.TTY {
			cols = append(cols, "")
		}
		t := NewTable(o, cols...)
		agentCol := len(cols) - 8 // AGENT: MODEL and six numbers follow it (and the bar)
		if o.TTY {
			agentCol--
			t.Optional(len(cols) - 1) // the bar first: CONTEXT has its number
		}
		t.Shrink(agentCol, 8, false)
		t.Optional(agentCol+2, agentCol+4, agentCol+5) // INPUT, CACHE W, CACHE R: CONTEXT sums them
		t.Optional(agentCol, agentCol+1)               // AGENT, MODEL, on the narrowest
		t.Optional(agentCol + 3)                       // OUTPUT: CONTEXT and COST stay
		if multi {
			t.Optional(1) // SESSION, last: a 40-column terminal has room for TIME, CONTEXT, COST
		}
		for i := range rep.Responses {
			r := &rep.Responses[i]
			u := r.Usage
			c, ok := rep.Prices.Cost(r)
			row := []string{}
			if o.TTY {
				row = append(row, r.Time.In(zoneOf(rep)).Format("01-02 15:04:05"))
			} else {
				row = append(row, Timestamp(r.Time))
			}
			if multi {
				row = append(row, shortID(r.SessionID, o.TTY))
			}
			// Safe in a pipe too: piped output often ends on a terminal.
			agent, model := Safe(r.AgentID), Safe(r.Model)
			if o.TTY {
				agent, model = Cut(agent, 20), Safe(ShortModel(r.Model))
			}
			var cs string
			if o.TTY {
				cs = estimated(Cost(c, ok), ok && rep.Prices.EstimatedAs(r.Model) != "")
			} else if ok {
				cs = USD(c)
			}
			row = append(row, agent, model, num(u.Input), num(u.Output), num(u.CacheCreation), num(u.CacheRead), num(u.Context()), cs)
			if o.TTY {
				row = append(row, th.Cyan(Bar(u.Context(), full, 12)))
			}
			t.Row(row...)
		}
		if err := t.Render(w); err != nil {
			return err
		}
		if !o.TTY {
			return nil // a pipe gets one table: a script reads its columns
		}
	}

	switch {
	case to.By != "" && to.By != tokens.ByResponse:
		section("By " + string(to.By))
		return tokensGroups(w, rep, o, to)
	case to.Single && len(rep.Sessions) == 1 && o.TTY:
		s := rep.Sessions[0]
		if len(s.Agents) > 1 {
			section("By agent")
			t := NewTable(o, "AGENT", "CALLS>", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "TOTAL>", "COST>")
			t.ShrinkDistinct(0, 12, false)
			optionalTokenColumns(t, 1)
			for _, a := range s.Agents {
				key := a.Key
				if key == "" {
					key = "(main)"
				}
				t.Row(append([]string{Safe(key)}, totalCells(a.Total)...)...)
			}
			if err := t.Render(w); err != nil {
				return err
			}
		}
		section("By model")
		t := NewTable(o, "MODEL", "CALLS>", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "TOTAL>", "COST>")
		optionalTokenColumns(t, 1)
		for _, m := range s.Models {
			t.Row(append([]string{Safe(ShortModel(m.Key))}, totalCells(m.Total)...)...)
		}
		t.Footer(append([]string{"total"}, totalCells(s.Total)...)...)
		return t.Render(w)
	}
	section("By session")
	t := NewTable(o, "SESSION", "PROJECT", "STARTED", "CALLS>", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "TOTAL>", "COST>")
	t.Shrink(1, 12, true)
	optionalTokenColumns(t, 3, 2) // STARTED before CALLS and OUTPUT
	t.Optional(1)                 // PROJECT, on the narrowest
	for _, s := range rep.Sessions {
		started := Timestamp(s.Started)
		project := Safe(o.Redacted(s.Project))
		if o.TTY {
			if !s.Started.IsZero() {
				started = s.Started.In(zoneOf(rep)).Format("2006-01-02 15:04")
			}
			if s.Project == "" && s.Session.Path != session.StdinPath {
				project = Safe(s.Session.ProjectKey()) // a hint for people, as ls shows it
			}
		}
		row := append(make([]string, 0, 3+len(tokenColumns)), shortID(s.ID, o.TTY), project, started)
		t.Row(appendTokenCells(row, s.Total, o)...)
	}
	if o.TTY {
		t.Footer(append([]string{"total", "", ""}, totalCells(rep.Total)...)...)
	}
	return t.Render(w)
}

// shortID is an id as a table shows it: short on a terminal, whole in a
// pipe.
func shortID(id string, tty bool) string {
	if tty {
		return Short(id)
	}
	return id
}

// USDMicros is USD for a cost counted in millionths of a dollar.
func USDMicros(m int64) string { return strconv.FormatFloat(float64(m)/1e6, 'f', -1, 64) }

// USD is a cost for tab-separated output: dollars rounded to the
// millionth, without trailing zeros (0.59586, 0), the same in every command.
func USD(v float64) string {
	return strconv.FormatFloat(float64(int64(v*1e6+0.5))/1e6, 'f', -1, 64)
}
