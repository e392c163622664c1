package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Agents prints a session's agents: on a terminal a table (AGENT, TYPE,
// DESCRIPTION, MODEL, STATUS, CALLS, TOKENS, COST, TIME, TOOLS, PARENT, and
// with verbose PROMPT and PATH), a total row and the main conversation's
// own usage; in a pipe one agent a line, tab-separated, exact values.
func Agents(w io.Writer, res *agents.Result, ro Options, verbose bool) error {
	th := ro.Theme
	if !ro.TTY {
		// One agent a line, exact values: id, tool_use id, parent, depth,
		// type, description, models, status, api calls, tokens, cost,
		// duration ms, tool uses (then prompt's first line and path with -v).
		t := NewTable(ro, "AGENT", "TOOL_USE", "PARENT", "DEPTH", "TYPE", "DESCRIPTION", "MODELS", "STATUS",
			"CALLS", "TOKENS", "COST", "DURATION_MS", "TOOLS", "PROMPT", "PATH")
		for _, a := range res.Agents {
			id := Safe(a.ID)
			if id == "" {
				id = "-" // no agent: an empty cell would read as the main conversation, as in tokens
			}
			calls, tok, cost := strconv.FormatInt(a.Total.APICalls, 10), strconv.FormatInt(a.Total.Tokens, 10), agentsCost(a.Total, false)
			if a.UsageUnknown() { // no transcript read: not 0, unknown (empty, as an unknown cost is)
				calls, tok, cost = "", "", ""
			}
			row := []string{id, agentsToolUse(a), Safe(a.ParentID), strconv.Itoa(a.Depth),
				Safe(a.Type), Safe(a.Description), Safe(strings.Join(a.Models, ",")), a.Status,
				calls, tok, cost, strconv.FormatInt(a.DurationMs, 10), strconv.Itoa(a.ToolUses)}
			if verbose {
				row = append(row, Safe(agentsFirstLine(a.Prompt)), Safe(a.Path))
			}
			t.Row(row...)
		}
		return t.Render(w)
	}

	if len(res.Agents) == 0 {
		return nil // said on stderr
	}
	cols := []string{"AGENT", "TYPE", "DESCRIPTION", "MODEL", "STATUS", "CALLS>", "TOKENS>", "COST>", "TIME>", "TOOLS>", "PARENT"}
	if verbose {
		cols = append(cols, "PROMPT", "PATH")
	}
	t := NewTable(ro, cols...)
	// At 80 columns the table was 140 wide: the texts are cut first (to
	// the widths the table had before it fitted the terminal, then
	// further), then the columns a person needs least are left out.
	t.Shrink(2, 36, false) // DESCRIPTION
	t.Shrink(1, 18, false) // TYPE
	t.Shrink(3, 18, false) // MODEL
	if verbose {
		t.Shrink(11, 40, false) // PROMPT
		t.Shrink(12, 31, true)  // PATH: …/agent-<id>.jsonl kept
	}
	t.Shrink(2, 12, false)
	t.Shrink(1, 8, false)
	t.Shrink(3, 8, false)
	if verbose {
		t.Shrink(11, 12, false)
	}
	t.Optional(10, 9, 8, 3, 1, 5) // PARENT, TOOLS, TIME, MODEL, TYPE, CALLS
	if verbose {
		t.Optional(12, 11) // PATH (cut, it says the agent id again), PROMPT
	}
	t.Optional(2, 4) // DESCRIPTION, STATUS, on the narrowest
	var sum tokens.Total
	for _, a := range res.Agents {
		sum.Merge(a.Total)
		id := Safe(a.ID)
		if id == "" {
			id = th.Dim("(" + Cut(agentsToolUse(a), 14) + ")")
		}
		if a.Depth > 0 {
			id = strings.Repeat("  ", a.Depth-1) + "└ " + id
		}
		desc := Safe(ro.Redacted(a.Description))
		if a.Name != "" {
			desc = Safe("@"+a.Name) + " " + desc
		}
		dur := ""
		if a.DurationMs > 0 {
			dur = Duration(time.Duration(a.DurationMs) * time.Millisecond)
		}
		calls, tok, cost := agentsCount(a.Total.APICalls), Count(a.Total.Tokens), agentsCost(a.Total, true)
		if a.UsageUnknown() { // no transcript read: its usage is not known, not 0 (its result says its tools)
			calls, tok, cost = "–", "–", "–"
		}
		row := []string{id, Safe(a.Type), desc, agentsModels(a.Models),
			agentsStatus(a, th), calls, tok, cost, dur, strconv.Itoa(a.ToolUses), Cut(Safe(a.ParentID), 12)}
		if verbose {
			row = append(row, Safe(agentsFirstLine(ro.Redacted(a.Prompt))), Safe(TildePath(a.Path, ro.Home)))
		}
		t.Row(row...)
	}
	// The total row counts subagents as every command counts them (a
	// transcript that is not Claude Code's own); the other rows are said
	// apart, under the table.
	label := Plural(res.Subagents, "subagent", "subagents")
	if len(res.Agents) != res.Subagents {
		label = "total" // the rows hold agents of Claude Code's own, or calls without one
	}
	foot := []string{label, "", "", "", "", agentsCount(sum.APICalls), Count(sum.Tokens), agentsCost(sum, true), "", "", ""}
	if !slices.ContainsFunc(res.Agents, func(a *agents.Agent) bool { return !a.UsageUnknown() }) {
		foot[5], foot[6], foot[7] = "–", "–", "–" // no agent's usage is known: the sum of none is not 0
	}
	if verbose {
		foot = append(foot, "", "")
	}
	t.Footer(foot...)
	if err := t.Render(w); err != nil {
		return err
	}
	// Why calls failed: the reason often follows the first line.
	for _, a := range res.Agents {
		for _, c := range a.Calls {
			if c.ErrorText == "" {
				continue
			}
			who := Safe(a.ID)
			if who == "" {
				who = "(" + Safe(c.ToolUseID) + ")"
			}
			line := fmt.Sprintf("%s %s: %s", who, agents.CallStatus(c), OneLine(ro.Redacted(c.ErrorText)))
			if ro.TTY {
				line = Cut(line, ro.Width-1) // redacted before it is cut: no part of a secret shows
			}
			if _, err := fmt.Fprintln(w, line); err != nil {
				return err
			}
		}
	}
	// The notes under the table, wrapped to a terminal as the table fits it.
	note := func(s string) error {
		lines := []string{s}
		if ro.TTY {
			lines = wrapWords(s, ro.Width-1)
		}
		for _, l := range lines {
			if _, err := fmt.Fprintln(w, th.Dim(l)); err != nil {
				return err
			}
		}
		return nil
	}
	if other := otherRows(res); other != "" {
		if err := note("also: " + other); err != nil {
			return err
		}
	}
	for _, a := range res.Agents {
		if agentsFlagged(a) && !slices.Contains(t.Dropped, "STATUS") { // the mark of agentsStatus, said once
			if _, err := fmt.Fprintln(w, th.Dim("! a problem, said on stderr")); err != nil {
				return err
			}
			break
		}
	}
	// Data, so stdout: the share of the session the table does not show.
	return note(fmt.Sprintf("main conversation: %s tokens in %d API calls", Count(res.Main.Tokens), res.Main.APICalls))
}

func agentsToolUse(a *agents.Agent) string {
	if len(a.Calls) == 0 {
		return ""
	}
	return Safe(a.Calls[0].ToolUseID)
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
	return USDMicros(t.Micros())
}

func agentsStatus(a *agents.Agent, th Theme) string {
	s := a.Status
	if a.Background && s != agents.StatusBackground {
		s += " (bg)"
	}
	if agentsFlagged(a) {
		s += " !"
	}
	switch a.Status {
	case agents.StatusCompleted:
		return th.Green(s)
	case agents.StatusFailed, agents.StatusMissing, agents.StatusOrphan, agents.StatusAPIError:
		return th.Red(s)
	case agents.StatusInterrupted, agents.StatusRunning, agents.StatusBackground, agents.StatusTeammate, agents.StatusRejected:
		return th.Yellow(s)
	}
	return s
}

// agentsFlagged reports whether a row's status is marked "!": its
// tokens disagree with its call's count, or a warning said a problem.
func agentsFlagged(a *agents.Agent) bool {
	return a.TokenCheck == agents.CheckMismatch || len(a.Problems) > 0
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
		out[i] = Safe(m)
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

// otherRows says what the table lists besides the subagents it counts:
// calls whose transcript is not there, and Claude Code's own compaction
// agents.
func otherRows(res *agents.Result) string {
	missing, own := 0, 0
	for _, a := range res.Agents {
		switch {
		case a.Kind == agents.KindCompaction:
			own++
		case a.Path == "" && a.Kind != agents.KindSidechain:
			missing++
		}
	}
	var parts []string
	if missing > 0 {
		parts = append(parts, Plural(missing, "call", "calls")+" without a transcript")
	}
	if own > 0 {
		parts = append(parts, Plural(own, "compaction agent", "compaction agents")+" (Claude Code's own)")
	}
	return strings.Join(parts, " · ")
}
