package tokens

import (
	"encoding/json"
	"fmt"
)

// Scope is a total a budget is checked on, and its name in messages:
// "session <id>", "total", or a group of --by ("block <key>").
type Scope struct {
	Name  string
	Total Total
}

// PerGroup reports whether budgets are checked on each group of g: every
// grouping of responses but response and session (whose scopes are the
// sessions) and tool (whose groups are calls, not responses).
func (g Grouping) PerGroup() bool {
	return g != "" && g != ByResponse && g != BySession && g != ByTool
}

// BudgetScopes are what budgets are checked on: the sum of the sessions
// with total (a report of one session is that session), else each group
// of by when it has groups (PerGroup: --max-cost 20 --by block checks
// every block), else each session.
func (r *Report) BudgetScopes(by Grouping, total bool) []Scope {
	switch {
	case total:
		name := "total"
		if len(r.Sessions) == 1 {
			name = "session " + r.Sessions[0].ID
		}
		return []Scope{{name, r.Total}}
	case by.PerGroup():
		var out []Scope
		for _, g := range r.GroupBy(by) {
			key := g.Key
			if key == "" {
				key = `""`
			}
			out = append(out, Scope{string(by) + " " + key, g.Total})
		}
		return out
	}
	var out []Scope
	for _, s := range r.Sessions {
		out = append(out, Scope{"session " + s.ID, s.Total})
	}
	return out
}

// Scopes is what the budget is checked on in r (BudgetScopes): none
// when no budget is set (a scope a session was 5,000 strings made for
// nothing).
func (b Budget) Scopes(r *Report, by Grouping, total bool) []Scope {
	if !b.Set() {
		return nil
	}
	return r.BudgetScopes(by, total)
}

// CheckScopes checks each scope against the budget.
func (b Budget) CheckScopes(scopes []Scope) []ScopedViolation {
	if !b.Set() {
		return nil
	}
	var out []ScopedViolation
	for _, s := range scopes {
		for _, v := range b.Check(s.Total) {
			out = append(out, ScopedViolation{v, s.Name})
		}
	}
	return out
}

// BudgetLine is one limit checked on every scope, for a summary: the
// largest value found and where, and how many scopes were over the limit
// or could not be checked.
type BudgetLine struct {
	Flag       string
	Limit      json.Number
	Max        json.Number // "" when there is no scope
	MaxScope   string
	MaxIsBound bool // Max is the priced part of a cost with unpriced calls
	Scopes     int
	Over       int
	Unchecked  int // cost budgets of scopes with unpriced calls, within the limit so far
}

// OK reports whether every scope is within the limit.
func (l BudgetLine) OK() bool { return l.Over == 0 && l.Unchecked == 0 }

// Lines summarises each limit of the budget over the scopes.
func (b Budget) Lines(scopes []Scope) []BudgetLine {
	type limit struct {
		flag  string
		set   bool
		limit json.Number
		value func(Total) (float64, json.Number) // the value, and as text
	}
	n := func(f func(Total) int64) func(Total) (float64, json.Number) {
		return func(t Total) (float64, json.Number) { v := f(t); return float64(v), count(v) }
	}
	limits := []limit{
		{"--max-tokens", b.Tokens >= 0, count(b.Tokens), n(func(t Total) int64 { return t.Tokens })},
		{"--max-output-tokens", b.Output >= 0, count(b.Output), n(func(t Total) int64 { return t.Output })},
		{"--max-api-calls", b.APICalls >= 0, count(b.APICalls), n(func(t Total) int64 { return t.APICalls })},
		{"--max-context", b.Context >= 0, count(b.Context), n(func(t Total) int64 { return t.MaxContext })},
		{"--max-cost", b.CostUSD >= 0, usd(b.CostUSD), func(t Total) (float64, json.Number) { return t.Cost, usd(t.Cost) }},
	}
	var out []BudgetLine
	for _, lim := range limits {
		if !lim.set {
			continue
		}
		l := BudgetLine{Flag: lim.flag, Limit: lim.limit, Scopes: len(scopes)}
		best := -1.0
		for _, s := range scopes {
			v, text := lim.value(s.Total)
			if v > best {
				best, l.Max, l.MaxScope = v, text, s.Name
				l.MaxIsBound = lim.flag == "--max-cost" && !s.Total.CostKnown()
			}
			for _, viol := range b.Check(s.Total) {
				switch {
				case viol.Flag != lim.flag:
				case viol.Unchecked():
					l.Unchecked++
				default:
					l.Over++
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// NothingChecked is the error of a budget over no session at all: none
// to count where the finder looked, and none left out by names or
// filters (narrowed: asked only then, it may list the sessions), as with
// no projects directory, an empty one, a CI job with the wrong HOME (with
// --since too: no session is there to fall outside it). Not a budget
// kept. Nil without a budget, or with sessions.
func (b Budget) NothingChecked(sessions int, narrowed func() bool, where string) error {
	if !b.Set() || sessions > 0 || narrowed() {
		return nil
	}
	return fmt.Errorf("nothing to check: no session to count%s, so the budget was not checked (--dir or CLAUDE_CONFIG_DIR names where sessions are)", where)
}
