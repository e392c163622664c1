package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

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

	// What the flags say, parsed by validate.
	by     tokens.Grouping
	budget tokens.Budget
	dates  dateRange
	prices *tokens.Prices
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
			if err := o.validate(); err != nil {
				return err
			}
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

func (o *TokensOptions) parseBudget() (tokens.Budget, error) {
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
	by, budget, dates, prices := o.by, o.budget, o.dates, o.prices
	finder, inputs, err := o.inputs(dates)
	if err != nil {
		return err
	}
	// The shape of the report follows the arguments, not how many sessions
	// had responses: one session argument is a per-response report.
	single := len(o.Sessions) == 1
	withResponses := single || by == tokens.ByResponse
	rep := tokens.Count(inputs, prices, tokens.Window{Since: dates.Since, Until: dates.Until}, f.readOptions(), withResponses)
	if len(o.Sessions) == 0 {
		rep.DropEmpty()
	}
	f.warnPrices(rep.UnpricedModels(), prices)
	f.sayUnderstated(rep.Total)
	violations := rep.CheckBudgets(budget, o.BudgetTotal || single)
	if f.Globals.JSON {
		doc := render.NewTokensJSON(rep, by, withResponses)
		if budget.Set() {
			doc.Budget = render.NewBudgetJSON(violations)
		}
		err = render.JSON(f.Out(), doc, f.Render())
	} else {
		if len(rep.Sessions) == 0 {
			f.Report().Info("no sessions to count%s%s", finder.Where(), o.filtered())
		}
		// A pipe gets one table: the responses, or the groups of --by.
		rows := withResponses && (f.IO.IsStdoutTTY() || by == "" || by == tokens.ByResponse)
		err = render.Tokens(f.Out(), rep, f.Render(), render.TokensOptions{By: by, Responses: rows, Single: single})
	}
	if err != nil {
		return err
	}
	if len(violations) > 0 {
		return budgetError(violations)
	}
	// Counts that leave out a file are not an answer for the sessions the
	// user named, nor a budget that passed: that is an error. Over every
	// session (no budget), an unreadable file is a warning, as in ls.
	if len(o.Sessions) > 0 || budget.Set() {
		return unreadableFiles(f)
	}
	return nil
}

// inputs are the sessions to count: those named, or every session under
// the roots (which must then all be there), narrowed by --project.
func (o *TokensOptions) inputs(dates dateRange) (*session.Finder, []tokens.Input, error) {
	f := o.F
	find := f.Finder
	if len(o.Sessions) == 0 {
		find = f.listing
	}
	finder, err := find()
	if err != nil {
		return nil, nil, err
	}
	sel := tokens.Selection{Args: o.Sessions, Since: dates.Since}
	if o.Project != "" {
		sel.Project = session.ProjectPath(o.Project, f.Env.Home)
	}
	inputs, err := tokens.Inputs(finder, sel)
	return finder, inputs, err
}

// validate checks the flags and parses their values.
func (o *TokensOptions) validate() error {
	o.by = tokens.Grouping(o.By)
	if o.By != "" && !slices.Contains(tokens.Groupings, o.by) {
		return usageErrorf("--by %q: choose one of response, session, agent, model, day, project", o.By)
	}
	var err error
	if o.budget, err = o.parseBudget(); err != nil {
		return err
	}
	if o.dates, err = parseRange(o.Since, o.Until, o.F.Now()); err != nil {
		return err
	}
	o.prices, err = loadPrices(o.Pricing)
	return err
}

// filtered says, for an empty report, that the filters left nothing.
func (o *TokensOptions) filtered() string {
	if o.Project != "" || o.Since != "" || o.Until != "" {
		return " that match --since, --until or --project"
	}
	return ""
}

// loadPrices is the embedded price table, or the --pricing file.
func loadPrices(path string) (*tokens.Prices, error) {
	if path == "" {
		return tokens.DefaultPrices(), nil
	}
	prices, err := tokens.LoadPrices(path)
	if err != nil {
		return nil, usageErrorf("--pricing: %v", err)
	}
	return prices, nil
}

// budgetError is the error of a run with exceeded or unchecked budgets:
// the report was printed; Run says why on stderr and exits 3 (or 1).
func budgetError(vs []tokens.ScopedViolation) error {
	be := &BudgetError{}
	for _, v := range vs {
		if v.Unchecked() {
			be.Unchecked = append(be.Unchecked, v.Scope+": "+v.String())
		} else {
			be.Lines = append(be.Lines, v.Scope+": "+v.String())
		}
	}
	return be
}
