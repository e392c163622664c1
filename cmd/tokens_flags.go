package cmd

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/tokens"
)

func (o *TokensOptions) addFlags(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&o.By, "by", "", "group by `KIND`: "+tokens.GroupingNames())
	fl.StringVar(&o.Project, "project", "", "only sessions whose cwd is `PATH` or inside it")
	fl.StringVar(&o.Since, "since", "", "only responses since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.StringVar(&o.Until, "until", "", "only responses until `DATE` (a bare date includes that day)")
	fl.StringVar(&o.Pricing, "pricing", "", "price table `FILE` (JSON) instead of the embedded one")
	fl.StringVar(&o.TZ, "tz", "", "time `ZONE` of hours, days, weeks, months and blocks (IANA name such as Europe/Paris, UTC, or local; default local)")
	fl.StringVar(&o.Format, "format", "", "output `FORMAT`: table (aligned on a terminal, tab-separated in a pipe), json, markdown, ndjson (--by response)")
	fl.StringVar(&o.Watch, "watch", "", "redraw the current block (--by day: today) every `SECONDS` (default "+tokens.DefaultWatch+") until Ctrl-C")
	fl.Lookup("watch").NoOptDefVal = tokens.DefaultWatch
	fl.StringVar(&o.MaxTokens, "max-tokens", "", "fail (exit 3) above `N` total tokens")
	fl.StringVar(&o.MaxOutput, "max-output-tokens", "", "fail (exit 3) above `N` output tokens")
	fl.StringVar(&o.MaxContext, "max-context", "", "fail (exit 3) when any response's context exceeds `N` tokens")
	fl.StringVar(&o.MaxCalls, "max-api-calls", "", "fail (exit 3) above `N` API calls")
	fl.StringVar(&o.MaxCost, "max-cost", "", "fail (exit 3) above `USD`")
	fl.BoolVar(&o.BudgetTotal, "budget-total", false, "check budgets against the sum of all sessions, not each session (or group of --by)")
}

// takeWatchArg returns the session arguments. --watch takes an optional
// value: `--watch 2` is read as its interval when the 2 follows --watch
// on the command line (pflag would take it for a session argument).
func (o *TokensOptions) takeWatchArg(c *cobra.Command, args []string) []string {
	fl := c.Flags().Lookup("watch")
	if fl == nil || !fl.Changed || o.Watch != tokens.DefaultWatch || len(args) == 0 {
		return args
	}
	raw := o.F.Args
	for i, a := range raw {
		if a == "--" {
			break
		}
		if a == "--watch" && i+1 < len(raw) && tokens.IsSeconds(raw[i+1]) {
			// pflag keeps the arguments in order: the value of --watch
			// is the last argument equal to it.
			for j := len(args) - 1; j >= 0; j-- {
				if args[j] == raw[i+1] {
					o.Watch = args[j]
					return append(append([]string{}, args[:j]...), args[j+1:]...)
				}
			}
		}
	}
	return args
}

// validate checks the flags and parses their values (tokens.Query.Parse).
func (o *TokensOptions) validate() (err error) {
	o.JSON, o.Stdin = o.F.Globals.JSON, slices.Contains(o.Sessions, "-")
	if o.plan, err = o.Query.Parse(o.F.Now()); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

// filtered says, for an empty report, that the filters left nothing.
func (o *TokensOptions) filtered() string {
	if o.Project != "" || o.Since != "" || o.Until != "" {
		return " that match --since, --until or --project"
	}
	return ""
}
