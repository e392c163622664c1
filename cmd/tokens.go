package cmd

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// TokensOptions are the flags of cctx tokens.
type TokensOptions struct {
	F        *Factory
	Sessions []string
	By       string
	Project  string
	Since    string
	Until    string
	Pricing  string

	MaxTokens, MaxOutput, MaxContext, MaxCalls, MaxCost string
	BudgetTotal                                         bool
}

// NewCmdTokens builds `cctx tokens`.
func NewCmdTokens(f *Factory, runF func(*TokensOptions) error) *cobra.Command {
	o := &TokensOptions{F: f}
	var names []string
	for _, g := range tokens.Groupings {
		names = append(names, string(g))
	}
	c := &cobra.Command{
		Use:   "tokens [<session>...]",
		Short: "Token usage per API call, deduplicated, with totals, cost and budgets",
		Long: `Token usage per API response, counted once, with totals and cost.

Claude Code writes one API response as several lines that repeat its usage,
early ones with a partial output count. cctx counts each response once: by
(message.id, requestId), keeping the largest usage. Every response counts: on
abandoned branches, in inline sidechains and in subagent transcripts (each
attributed to its agent). When several sessions are counted together, a
response that a resumed session replays from an earlier one counts once, in
the session that started first; a single session's report counts everything
its files hold.

With one session: a row per response, then totals by agent and by model.
With several, or none (every session under the roots, narrowed by --project,
--since and --until): a row per session. --by chooses another grouping.

Cost comes from an embedded, dated price table (--pricing FILE replaces it:
same JSON format, see docs/pricing.md). A model without a row of its own is
estimated at its family's newest row (flagged, with one warning); a model of
no known family gets no cost and one warning.

Budgets make a CI job fail: when any --max-* limit is exceeded the report is
printed all the same, stderr names each budget, and cctx exits 3. With several
sessions each is checked on its own, unless --budget-total checks the sum.
Counts accept k, M and G suffixes.`,
		Example: `  cctx tokens latest
  cctx tokens --since 7d --by day
  cctx tokens 3f2a --json | jq '.total.cost_usd'
  cctx tokens "$SESSION" --max-cost 5 --max-context 150k   # exit 3 when over`,
		Args: argsBetween(0, -1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Sessions = args
			if runF != nil {
				return runF(o)
			}
			return tokensRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.By, "by", "", "group by `KIND`: "+strings.Join(names, ", "))
	fl.StringVar(&o.Project, "project", "", "only sessions whose cwd is `PATH` or inside it")
	fl.StringVar(&o.Since, "since", "", "only responses since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.StringVar(&o.Until, "until", "", "only responses until `DATE` (a bare date includes that day)")
	fl.StringVar(&o.Pricing, "pricing", "", "price table `FILE` (JSON) instead of the embedded one")
	fl.StringVar(&o.MaxTokens, "max-tokens", "", "fail (exit 3) above `N` total tokens")
	fl.StringVar(&o.MaxOutput, "max-output-tokens", "", "fail (exit 3) above `N` output tokens")
	fl.StringVar(&o.MaxContext, "max-context", "", "fail (exit 3) when any response's context exceeds `N` tokens")
	fl.StringVar(&o.MaxCalls, "max-api-calls", "", "fail (exit 3) above `N` API calls")
	fl.StringVar(&o.MaxCost, "max-cost", "", "fail (exit 3) above `USD`")
	fl.BoolVar(&o.BudgetTotal, "budget-total", false, "check budgets against the sum of all sessions, not each session")
	return c
}

func (o *TokensOptions) budget() (tokens.Budget, error) {
	b := tokens.NoBudget
	for _, lim := range []struct {
		flag, val string
		dst       *int64
	}{
		{"--max-tokens", o.MaxTokens, &b.Tokens},
		{"--max-output-tokens", o.MaxOutput, &b.Output},
		{"--max-context", o.MaxContext, &b.Context},
		{"--max-api-calls", o.MaxCalls, &b.APICalls},
	} {
		if lim.val == "" {
			continue
		}
		n, err := tokens.ParseCount(lim.val)
		if err != nil {
			return b, usageErrorf("%s: %v", lim.flag, err)
		}
		*lim.dst = n
	}
	if o.MaxCost != "" {
		v, err := tokens.ParseUSD(o.MaxCost)
		if err != nil {
			return b, usageErrorf("--max-cost: %v", err)
		}
		b.CostUSD = v
	}
	return b, nil
}

func tokensRun(o *TokensOptions) error {
	f := o.F
	by := tokens.Grouping(o.By)
	if o.By != "" {
		valid := false
		for _, g := range tokens.Groupings {
			valid = valid || g == by
		}
		if !valid {
			return usageErrorf("--by %q: choose one of response, session, agent, model, day, project", o.By)
		}
	}
	budget, err := o.budget()
	if err != nil {
		return err
	}
	dates, err := parseRange(o.Since, o.Until, f.Now())
	if err != nil {
		return err
	}
	prices := tokens.DefaultPrices()
	if o.Pricing != "" {
		if prices, err = tokens.LoadPrices(o.Pricing); err != nil {
			return usageErrorf("--pricing: %v", err)
		}
	}
	find := f.Finder
	if len(o.Sessions) == 0 {
		find = f.listing // every session: the roots must all be there
	}
	finder, err := find()
	if err != nil {
		return err
	}
	inputs, err := tokenInputs(o, finder, dates)
	if err != nil {
		return err
	}

	// The shape of the report follows the arguments, not how many sessions
	// had responses: one session argument is a per-response report.
	single := len(o.Sessions) == 1
	withResponses := single || by == tokens.ByResponse
	build := tokens.BuildTotals // a response costs a small row, not its ids
	if withResponses {
		build = tokens.Build
	}
	rep := build(inputs, prices, tokens.Window{Since: dates.Since, Until: dates.Until},
		readerOptions(f),
		f.Report().FileError)
	if len(o.Sessions) == 0 {
		rep.DropEmpty()
	}
	if len(rep.Unpriced) > 0 {
		var models []string
		for m := range rep.Unpriced {
			if m == "" {
				m = "(no model)"
			}
			models = append(models, m)
		}
		sort.Strings(models)
		f.Report().Warn("no price for model(s) %s: their cost is unknown (add them with --pricing FILE)", strings.Join(models, ", "))
	}
	for _, m := range prices.Estimated() {
		f.Report().Warn("%s", prices.EstimateNote(m))
	}

	violations := checkBudgets(rep, budget, o.BudgetTotal || single)
	if f.Globals.JSON {
		doc := render.NewTokensJSON(rep, by, withResponses)
		if budget.Set() {
			scopes, vs := make([]string, len(violations)), make([]tokens.Violation, len(violations))
			for i, v := range violations {
				scopes[i], vs[i] = v.scope, v.Violation
			}
			doc.Budget = render.NewBudgetJSON(scopes, vs)
		}
		if err := render.JSON(f.IO.Out, doc, f.Render()); err != nil {
			return err
		}
	} else {
		if len(rep.Sessions) == 0 {
			msg := "cctx: no sessions to count" + finder.Where()
			if o.Project != "" || o.Since != "" || o.Until != "" {
				msg += " that match --since, --until or --project"
			}
			fmt.Fprintln(f.IO.ErrOut, msg)
		}
		// A pipe gets one table: the responses, or the groups of --by.
		rows := withResponses && (f.IO.IsStdoutTTY() || by == "" || by == tokens.ByResponse)
		if err := render.Tokens(f.IO.Out, rep, f.Render(), render.TokensOptions{By: by, Responses: rows, Single: single}); err != nil {
			return err
		}
	}
	if len(violations) > 0 {
		be := &BudgetError{}
		for _, v := range violations {
			if v.Unchecked() {
				be.Unchecked = append(be.Unchecked, v.scope+": "+v.String())
			} else {
				be.Lines = append(be.Lines, v.scope+": "+v.String())
			}
		}
		return be
	}
	// Counts that leave out a file are not an answer for the sessions the
	// user named, nor a budget that passed: that is an error. Over every
	// session (no budget), an unreadable file is a warning, as in ls.
	if len(o.Sessions) > 0 || budget.Set() {
		return unreadableFiles(f)
	}
	return nil
}

// readerOptions are how tokens reads: only the lines a counter needs are
// parsed, the others checked for shape. --strict validates every line, so
// that it fails on the same lines show and tree report.
func readerOptions(f *Factory) reader.Options {
	o := reader.Options{OnIssue: f.Report().Line, Want: tokens.Wanted, Stdin: f.IO.In}
	if f.Globals.Strict {
		o.Want = nil
	}
	return o
}

type scopedViolation struct {
	tokens.Violation
	scope string
}

// checkBudgets checks the sum, or each session on its own.
func checkBudgets(rep *tokens.Report, b tokens.Budget, total bool) []scopedViolation {
	single := total && len(rep.Sessions) == 1
	if !b.Set() {
		return nil
	}
	var out []scopedViolation
	if total {
		scope := "total"
		if single && len(rep.Sessions) == 1 {
			scope = "session " + rep.Sessions[0].ID
		}
		for _, v := range b.Check(rep.Total) {
			out = append(out, scopedViolation{v, scope})
		}
		return out
	}
	for _, s := range rep.Sessions {
		for _, v := range b.Check(s.Total) {
			out = append(out, scopedViolation{v, "session " + s.ID})
		}
	}
	return out
}

// tokenInputs resolves the session arguments, or lists every session under
// the roots, and reads each one's head and tail for its project and start.
func tokenInputs(o *TokensOptions, finder *session.Finder, dates dateRange) ([]tokens.Input, error) {
	var ss []*session.Session
	if len(o.Sessions) > 0 {
		seen := map[string]bool{}
		for _, arg := range o.Sessions {
			s, err := finder.Resolve(arg)
			if err != nil {
				return nil, err
			}
			if !seen[s.Path] {
				seen[s.Path] = true
				ss = append(ss, s)
			}
		}
	} else {
		for _, s := range finder.Sessions() {
			// A file last written before the window holds nothing in it.
			if !dates.Since.IsZero() && s.ModTime.Before(dates.Since) {
				continue
			}
			ss = append(ss, s)
		}
	}
	project := ""
	if o.Project != "" {
		project = projectPath(o.Project, o.F.Env.Home)
	}
	// The head of each file gives its project and start; read them in
	// parallel, keep the order.
	all := make([]tokens.Input, len(ss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0)*2)
	for i, s := range ss {
		all[i] = tokens.Input{Session: s}
		if s.Path == session.StdinPath {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			in := &all[i]
			in.Agents = finder.Agents(s)
			if started, project, err := session.Start(s); err == nil {
				// As ls and show give them: the first cwd and timestamp of
				// the main file, none when no line has one.
				// No skip when the first timestamp is after --until: entries
				// are not always in time order (clock changes, merged files),
				// and the window is applied to each response.
				in.Project, in.Started = project, started
			}
		}()
	}
	wg.Wait()
	var inputs []tokens.Input
	for _, in := range all {
		if project != "" && !session.InProject(in.Project, project) {
			continue
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}
