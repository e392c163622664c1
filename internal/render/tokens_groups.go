package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// tokenCells are the numbers of a total as the tokens tables show them:
// calls, input, output, cache write, cache read, total, cost.
func tokenCells(t tokens.Total, o Options) []string {
	return appendTokenCells(make([]string, 0, len(tokenColumns)), t, o)
}

// appendTokenCells appends the cells of tokenCells to row (a row of
// 5,000 sessions made in one slice, not grown from two).
func appendTokenCells(row []string, t tokens.Total, o Options) []string {
	for i, n := range [...]int64{t.APICalls, t.Input, t.Output, t.CacheCreation, t.CacheRead, t.Tokens} {
		if o.TTY && i > 0 { // tokens, in human units; calls whole, as agents and the notes under the table say them
			row = append(row, Count(n))
		} else {
			row = append(row, strconv.FormatInt(n, 10))
		}
	}
	var cost string
	switch {
	case !o.TTY && t.CostKnown():
		cost = USDMicros(t.Micros())
	case o.TTY:
		cost = costText(t)
	}
	return append(row, cost)
}

var tokenColumns = []string{"CALLS>", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "TOTAL>", "COST>"}

// optionalTokenColumns are the columns of tokenColumns (from column
// first) a terminal's table leaves out, in this order, when it is wider
// than the terminal: the parts before their sum, TOTAL, that people come
// for: INPUT (the smallest: most input is read from the cache), CACHE W,
// CACHE R; then the columns of before (the table's own), and on the
// narrowest (40 columns) CALLS and OUTPUT (the dearest part): the total
// and cost stay.
func optionalTokenColumns(t *Table, first int, before ...int) {
	t.Optional(first+1, first+3, first+4)
	t.Optional(before...)
	t.Optional(first, first+2)
}

// tokensGroups writes the table of --by: one row per group, then (on a
// terminal) the total and, for a time grouping, the group that holds now.
func tokensGroups(w io.Writer, rep *tokens.Report, o Options, to TokensOptions) error {
	if to.By == tokens.ByTool {
		return toolsTable(w, to.Tools, o)
	}
	cols := []string{strings.ToUpper(string(to.By))}
	if to.By == tokens.ByAgentType {
		cols = []string{"TYPE", "RUNS>"}
	}
	zone := zoneOf(rep)
	groups := rep.GroupBy(to.By)
	// An hour or a block names its zone once, in the header, when every
	// row has the same (a key cut to fit lost it from every row).
	abbr := ""
	if o.TTY && (to.By == tokens.ByBlock || to.By == tokens.ByHour) && len(groups) > 0 {
		abbr = groups[0].Start.In(zone).Format("MST")
		for _, g := range groups {
			if g.Key != "" && (g.Start.In(zone).Format("MST") != abbr || g.End.In(zone).Format("MST") != abbr) {
				abbr = ""
				break
			}
		}
		if abbr != "" {
			cols[0] += " (" + abbr + ")"
		}
	}
	header := append(cols, tokenColumns...)
	t := NewTable(o, header...)
	var rows [][]string
	for _, g := range groups {
		key := g.Key
		if o.TTY {
			key = groupLabel(to.By, g, zone, o.Now)
			if abbr != "" {
				key = strings.Replace(key, " "+abbr, "", 1)
			}
		}
		row := []string{Safe(key)}
		if to.By == tokens.ByAgentType {
			row = append(row, strconv.Itoa(g.Runs))
		}
		rows = append(rows, append(row, tokenCells(g.Total, o)...))
	}
	var foot []string
	if o.TTY {
		foot = []string{"total"}
		if to.By == tokens.ByAgentType {
			foot = append(foot, "")
		}
		foot = append(foot, tokenCells(rep.Total, o)...)
	}
	// A project is cut from the left, its telling end kept; no key is
	// cut so far that two rows read the same.
	t.ShrinkDistinct(0, 12, to.By == tokens.ByProject)
	optionalTokenColumns(t, len(cols))
	for _, r := range rows {
		t.Row(r...)
	}
	if foot != nil {
		t.Footer(foot...)
	}
	if err := t.Render(w); err != nil {
		return err
	}
	if o.TTY && to.By.Time() {
		if st, ok := rep.Current(to.By, o.Now); ok && st.Total.APICalls > 0 {
			fmt.Fprintln(w)
			return StatusLines(w, st, to.By, zone, o)
		}
	}
	return nil
}

// groupLabel is a group's key as people read it on a terminal.
func groupLabel(by tokens.Grouping, g tokens.Group, zone *time.Location, now time.Time) string {
	switch {
	case by == tokens.ByModel:
		return ShortModel(g.Key)
	case by == tokens.ByAgent && g.Key == "":
		return "(main)"
	case by == tokens.ByAgent && strings.Contains(g.Key, "/"):
		// session/agent over several sessions: the session's short id.
		id, agent, _ := strings.Cut(g.Key, "/")
		if agent == "" {
			agent = "(main)"
		}
		return Short(id) + "/" + agent
	case g.Key == "":
		return "-"
	}
	start := g.Start.In(zone)
	switch by {
	case tokens.ByHour:
		return start.Format("2006-01-02 15:04 MST")
	case tokens.ByWeek:
		return g.Key + start.Format(" (Jan 2)")
	case tokens.ByBlock:
		label := start.Format("2006-01-02 15:04") + "–" + g.End.In(zone).Format("15:04 MST")
		if !now.Before(g.Start) && now.Before(g.End) {
			label += " ●"
		}
		return label
	}
	return g.Key
}

// StatusLines say where the group that holds now stands: for a block,
// its time left, burn rate and projection; for a day (hour, week,
// month), its usage so far.
func StatusLines(w io.Writer, st tokens.Status, by tokens.Grouping, zone *time.Location, o Options) error {
	th := o.Theme
	num := func(n int64) string { return Count(n) }
	name := map[tokens.Grouping]string{tokens.ByBlock: "Current block", tokens.ByDay: "Today", tokens.ByHour: "This hour",
		tokens.ByWeek: "This week", tokens.ByMonth: "This month"}[by]
	start, end := st.Start.In(zone), st.End.In(zone)
	var span string
	switch by {
	case tokens.ByBlock, tokens.ByHour:
		span = start.Format("15:04") + " → " + end.Format("15:04 MST")
	case tokens.ByDay:
		span = start.Format("Mon 2006-01-02 MST")
	default:
		span = start.Format("2006-01-02") + " → " + end.Add(-time.Second).Format("2006-01-02")
	}
	full := st.End.Sub(st.Start)
	bar := Bar(int64(st.Elapsed), int64(full), 20)
	bar += strings.Repeat("·", max(0, 20-Width(bar)))
	lines := []string{
		fmt.Sprintf("%s  %s", th.Bold(name), span),
		fmt.Sprintf("  time       %s  %s elapsed, %s left", th.Cyan(bar), Duration(st.Elapsed), Duration(st.Remaining)),
		fmt.Sprintf("  used       %s tokens, %s in %s", num(st.Total.Tokens), costText(st.Total), Plural(int(st.Total.APICalls), "call", "calls")),
	}
	if by == tokens.ByBlock {
		if st.Rate {
			lines = append(lines,
				fmt.Sprintf("  burn rate  %s tokens/h, %s/h", num(tokens.CountOf(st.TokensPerHour)), Cost(st.CostPerHour, st.Total.CostKnown())),
				fmt.Sprintf("  projected  %s tokens, %s at %s", num(st.ProjectedTokens), Cost(st.ProjectedCost, st.Total.CostKnown()), end.Format("15:04")))
		} else {
			lines = append(lines, "  burn rate  - (one response so far)")
		}
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// costText is a total's cost for people, ~ when estimated.
func costText(t tokens.Total) string {
	c := Cost(t.Cost, t.CostKnown())
	if t.CostEstimated() && c != "?" {
		c = "~" + c
	}
	if t.CostCapped() && c != "?" {
		c = "≥" + c // at the most a total counts: more, not that
	}
	return c
}

// toolsTable writes --by tool: calls, errors, the bytes the results put
// into the context and their estimate in tokens.
func toolsTable(w io.Writer, tr *tokens.ToolReport, o Options) error {
	if tr == nil {
		tr = &tokens.ToolReport{}
	}
	whole := func(n int64) string { return strconv.FormatInt(n, 10) } // counts of calls, errors, images
	num := func(n int64) string {                                     // tokens: human units on a terminal
		if o.TTY {
			return Count(n)
		}
		return whole(n)
	}
	size := func(n int64) string {
		if o.TTY {
			return Bytes(n)
		}
		return strconv.FormatInt(n, 10)
	}
	cells := func(g tokens.ToolGroup) []string {
		return []string{whole(g.Calls), whole(g.Errors), size(g.ResultBytes), num(g.EstimatedTokens()), whole(g.ResultImages)}
	}
	t := NewTable(o, "TOOL", "CALLS>", "ERRORS>", "RESULTS>", "~TOKENS>", "IMAGES>")
	t.Shrink(0, 16, false)
	t.Optional(5, 3, 2) // IMAGES, RESULTS (~TOKENS estimates them), ERRORS: CALLS and ~TOKENS stay
	for _, g := range tr.Tools {
		t.Row(append([]string{Safe(g.Tool)}, cells(g)...)...)
	}
	if o.TTY {
		t.Footer(append([]string{"total"}, cells(tr.Total)...)...)
	}
	return t.Render(w)
}

// zoneOf is the time zone a report's times are shown in.
func zoneOf(rep *tokens.Report) *time.Location {
	if rep.Zone == nil {
		return time.Local
	}
	return rep.Zone
}
