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
	num := func(n int64) string {
		if o.TTY {
			return Count(n)
		}
		return strconv.FormatInt(n, 10)
	}
	var cost string
	switch {
	case !o.TTY && t.CostKnown():
		cost = USDMicros(t.Micros())
	case o.TTY:
		cost = Cost(t.Cost, t.CostKnown())
		if t.CostEstimated() && cost != "?" {
			cost = "~" + cost
		}
	}
	return []string{num(t.APICalls), num(t.Input), num(t.Output), num(t.CacheCreation), num(t.CacheRead), num(t.Tokens), cost}
}

var tokenColumns = []string{"CALLS>", "INPUT>", "OUTPUT>", "CACHE W>", "CACHE R>", "TOTAL>", "COST>"}

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
	header := append(cols, tokenColumns...)
	t := NewTable(o, header...)
	zone := zoneOf(rep)
	var rows [][]string
	for _, g := range rep.GroupBy(to.By) {
		key := g.Key
		if o.TTY {
			key = groupLabel(to.By, g, zone, o.Now)
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
	if o.TTY && to.By == tokens.ByProject {
		// A project is cut from the left, its telling end kept, to what
		// the numbers leave of the terminal (at least the 32 columns of
		// the per-session table's PROJECT).
		room := max(32, o.Width-2-otherColumnsWidth(header, append(rows, foot)))
		for _, r := range rows {
			r[0] = CutLeft(r[0], room)
		}
	}
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

// otherColumnsWidth is how many terminal columns every column but the
// first takes: its widest cell (or header) and the two spaces of padding
// after it (the first column has its two too: the rule under the rows
// spans them all).
func otherColumnsWidth(header []string, rows [][]string) int {
	used := 0
	for c := 1; c < len(header); c++ {
		w := Width(strings.TrimSuffix(header[c], ">"))
		for _, r := range rows {
			if c < len(r) {
				w = max(w, Width(stripSGR(r[c])))
			}
		}
		used += w + 2
	}
	return used
}

// groupLabel is a group's key as people read it on a terminal.
func groupLabel(by tokens.Grouping, g tokens.Group, zone *time.Location, now time.Time) string {
	switch {
	case by == tokens.ByModel:
		return ShortModel(g.Key)
	case by == tokens.ByAgent && g.Key == "":
		return "(main)"
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
				fmt.Sprintf("  burn rate  %s tokens/h, %s/h", num(int64(st.TokensPerHour)), Cost(st.CostPerHour, st.Total.CostKnown())),
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
	return c
}

// toolsTable writes --by tool: calls, errors, the bytes the results put
// into the context and their estimate in tokens.
func toolsTable(w io.Writer, tr *tokens.ToolReport, o Options) error {
	if tr == nil {
		tr = &tokens.ToolReport{}
	}
	num := func(n int64) string {
		if o.TTY {
			return Count(n)
		}
		return strconv.FormatInt(n, 10)
	}
	size := func(n int64) string {
		if o.TTY {
			return Bytes(n)
		}
		return strconv.FormatInt(n, 10)
	}
	cells := func(g tokens.ToolGroup) []string {
		return []string{num(g.Calls), num(g.Errors), size(g.ResultBytes), num(g.EstimatedTokens()), num(g.ResultImages)}
	}
	t := NewTable(o, "TOOL", "CALLS>", "ERRORS>", "RESULTS>", "~TOKENS>", "IMAGES>")
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
