package cmd

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/dates"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/tokens"
)

func (o *TokensOptions) addFlags(c *cobra.Command) {
	fl := c.Flags()
	fl.Var(flagval.OneOf(&o.By, tokens.GroupingNames()), "by", "group by `KIND`: "+tokens.GroupingNames())
	fl.Var(flagval.New(&o.Project, flagval.Folder), "project", "only sessions whose cwd is `PATH` or inside it")
	fl.Var(dates.Date(&o.Since), "since", "only responses since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.Var(dates.Date(&o.Until), "until", "only responses until `DATE` (a bare date includes that day)")
	fl.Var(flagval.New(&o.Pricing, flagval.File), "pricing", "price table `FILE` (JSON) instead of the embedded one")
	fl.Var(dates.Zone(&o.TZ), "tz", "time `ZONE` of hours, days, weeks, months and blocks (IANA name such as Europe/Paris, UTC, or local; default local)")
	fl.Var(flagval.OneOf(&o.Format, strings.Join(tokens.Formats, ", ")), "format", "output `FORMAT`: table (aligned on a terminal, tab-separated in a pipe), json, markdown, ndjson (the responses: --by response)")
	fl.Var(tokens.WatchFlag(&o.Watch), "watch", "redraw the current block (--by day: today) until Ctrl-C, every N seconds given as --watch=N (alone: every "+tokens.DefaultWatch+")")
	fl.Lookup("watch").NoOptDefVal = tokens.DefaultWatch
	fl.Var(flagval.New(&o.MaxTokens, flagval.Count), "max-tokens", "fail (exit 3) above `N` total tokens")
	fl.Var(flagval.New(&o.MaxOutput, flagval.Count), "max-output-tokens", "fail (exit 3) above `N` output tokens")
	fl.Var(flagval.New(&o.MaxContext, flagval.Count), "max-context", "fail (exit 3) when any response's context exceeds `N` tokens")
	fl.Var(flagval.New(&o.MaxCalls, flagval.Count), "max-api-calls", "fail (exit 3) above `N` API calls")
	fl.Var(flagval.New(&o.MaxCost, flagval.USD), "max-cost", "fail (exit 3) above `USD`")
	fl.BoolVar(&o.Query.BudgetTotal, "budget-total", false, "check budgets against the sum of all sessions, not each session (or group of --by)")
}

// validate checks the flags and parses their values (tokens.Query.Parse).
func (o *TokensOptions) validate() (err error) {
	o.JSON, o.Stdin = o.F.Globals.JSON, slices.Contains(o.Sessions, "-")
	if o.plan, err = o.Query.Parse(o.F.Now()); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}
