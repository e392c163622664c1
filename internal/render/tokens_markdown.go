package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// TokensMarkdown writes a report as GitHub Markdown, for
// $GITHUB_STEP_SUMMARY or a pull-request comment: the table of --by (the
// models of one session, the sessions of several), its total, and each
// budget with ✔ or ✘. Text from transcripts is escaped: it cannot start
// a link, an HTML tag or a new cell.
func TokensMarkdown(w io.Writer, rep *tokens.Report, to TokensOptions, budget []tokens.BudgetLine, o Options) error {
	var b strings.Builder
	sessions := Plural(len(rep.Sessions), "session", "sessions")
	fmt.Fprintf(&b, "### Claude Code usage\n\n%s, %s API calls, %s tokens, %s (prices of %s)\n\n",
		sessions, Thousands(rep.Total.APICalls), Thousands(rep.Total.Tokens), mdCost(rep.Total), mdText(rep.Prices.Date))
	if n := rep.Total.OutputUnderstated; n > 0 { // the summary's reader sees no stderr
		fmt.Fprintf(&b, "> Output understated on %s of %s: they kept only the usage they began streaming with (Claude Code 2.1.49 or older wrote no final count).\n\n",
			Plural(int(n), "call", "calls"), Thousands(rep.Total.APICalls))
	}
	switch {
	case to.By == tokens.ByTool:
		mdTools(&b, to.Tools)
	case to.By.PerGroup():
		first := []string{string(to.By)}
		if to.By == tokens.ByAgentType {
			first = append(first, "runs")
		}
		rows := [][]string{}
		for _, g := range rep.GroupBy(to.By) {
			key := g.Key
			switch {
			case to.By == tokens.ByAgent && key == "":
				key = "(main)"
			case key == "":
				key = "-"
			}
			row := []string{mdCode(key)}
			if to.By == tokens.ByAgentType {
				row = append(row, strconv.Itoa(g.Runs))
			}
			rows = append(rows, append(row, mdCells(g.Total)...))
		}
		mdTable(&b, first, rows, rep.Total)
	case len(rep.Sessions) == 1:
		var rows [][]string
		for _, m := range rep.Sessions[0].Models {
			rows = append(rows, append([]string{mdCode(m.Key)}, mdCells(m.Total)...))
		}
		mdTable(&b, []string{"model"}, rows, rep.Total)
	default:
		var rows [][]string
		for _, s := range rep.Sessions {
			rows = append(rows, append([]string{mdCode(Short(s.ID)), mdText(TildePath(s.Project, o.Home))}, mdCells(s.Total)...))
		}
		mdTable(&b, []string{"session", "project"}, rows, rep.Total)
	}
	if len(budget) > 0 {
		b.WriteString("\n**Budgets**\n\n| | budget | limit | highest | where |\n|---|---|--:|--:|---|\n")
		for _, l := range budget {
			mark, note := "✔", ""
			switch {
			case l.Over > 0:
				mark, note = "✘", fmt.Sprintf(" (%d of %d over)", l.Over, l.Scopes)
			case l.Unchecked > 0:
				mark, note = "✘", fmt.Sprintf(" (%d of %d cannot be checked: unpriced models)", l.Unchecked, l.Scopes)
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s%s |\n", mark, l.Flag, budgetValue(l, l.Limit), budgetMax(l), mdText(l.MaxScope), note)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func budgetValue(l tokens.BudgetLine, v any) string {
	s := fmt.Sprint(v)
	if l.Flag == "--max-cost" {
		return "$" + s
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Thousands(n)
	}
	return s
}

func budgetMax(l tokens.BudgetLine) string {
	if l.Max == "" {
		return "-"
	}
	s := budgetValue(l, l.Max)
	if l.Flag == "--max-cost" {
		s = "$" + tokens.Cents(l.Max, l.Limit) // as the table above shows costs
	}
	if l.MaxIsBound {
		s = "≥ " + s
	}
	return s
}

// mdTable writes a table: the first columns, then the token columns, and
// a bold total row.
func mdTable(b *strings.Builder, first []string, rows [][]string, total tokens.Total) {
	cols := append(append([]string{}, first...), "calls", "input", "output", "cache write", "cache read", "total", "cost")
	b.WriteString("| " + strings.Join(cols, " | ") + " |\n|")
	for i := range cols {
		if i < len(first) {
			b.WriteString("---|")
		} else {
			b.WriteString("--:|")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	foot := []string{"**total**"}
	for range first[1:] {
		foot = append(foot, "")
	}
	for _, c := range mdCells(total) {
		foot = append(foot, "**"+c+"**")
	}
	b.WriteString("| " + strings.Join(foot, " | ") + " |\n")
}

func mdCells(t tokens.Total) []string {
	return []string{Thousands(t.APICalls), Thousands(t.Input), Thousands(t.Output), Thousands(t.CacheCreation), Thousands(t.CacheRead), Thousands(t.Tokens), mdCost(t)}
}

func mdCost(t tokens.Total) string {
	c := Cost(t.Cost, t.CostKnown())
	if t.CostEstimated() && c != "?" {
		c = "~" + c
	}
	return c
}

func mdTools(b *strings.Builder, tr *tokens.ToolReport) {
	if tr == nil {
		tr = &tokens.ToolReport{}
	}
	b.WriteString("| tool | calls | errors | result bytes | ~tokens | images |\n|---|--:|--:|--:|--:|--:|\n")
	row := func(name string, g tokens.ToolGroup) {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", name, Thousands(g.Calls), Thousands(g.Errors), Thousands(g.ResultBytes),
			Thousands(g.EstimatedTokens()), Thousands(g.ResultImages))
	}
	for _, g := range tr.Tools {
		row(mdCode(g.Tool), g)
	}
	row("**total**", tr.Total)
}

// mdText escapes text for a Markdown table cell: no control character,
// no cell or line break, and no character that starts a link, emphasis,
// code or an HTML tag.
func mdText(s string) string {
	s = Safe(strings.Join(strings.Fields(s), " "))
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '|', '\\', '`', '*', '_', '[', ']', '#', '~', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCode is text in a code span: a model, a tool, a key. A backtick in
// it, which would end the span, makes it plain escaped text.
func mdCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`|\n\r") || Safe(s) != s {
		return mdText(s)
	}
	return "`" + s + "`"
}
