package cmd

import (
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --tz names zones on systems without a zone database (Windows)

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// The --format values of cctx tokens.
const (
	formatTable    = "table"
	formatJSON     = "json"
	formatMarkdown = "markdown"
	formatNDJSON   = "ndjson"
)

var tokensFormats = []string{formatTable, formatJSON, formatMarkdown, formatNDJSON}

// defaultWatch is the interval of --watch without a value.
const defaultWatch = "5"

// watchWindow is how far back --watch reads without --since: the current
// block's start depends on the blocks before it, up to the last gap of 5
// hours, which a day of activity nearly always has.
const watchWindow = 24 * time.Hour

func (o *TokensOptions) addFlags(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&o.By, "by", "", "group by `KIND`: "+groupingNames())
	fl.StringVar(&o.Project, "project", "", "only sessions whose cwd is `PATH` or inside it")
	fl.StringVar(&o.Since, "since", "", "only responses since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.StringVar(&o.Until, "until", "", "only responses until `DATE` (a bare date includes that day)")
	fl.StringVar(&o.Pricing, "pricing", "", "price table `FILE` (JSON) instead of the embedded one")
	fl.StringVar(&o.TZ, "tz", "", "time `ZONE` of hours, days, weeks, months and blocks (IANA name such as Europe/Paris, UTC, or local; default local)")
	fl.StringVar(&o.Format, "format", "", "output `FORMAT`: table (aligned on a terminal, tab-separated in a pipe), json, markdown, ndjson (--by response)")
	fl.StringVar(&o.Watch, "watch", "", "redraw the current block (--by day: today) every `SECONDS` (default "+defaultWatch+") until Ctrl-C")
	fl.Lookup("watch").NoOptDefVal = defaultWatch
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
	if fl == nil || !fl.Changed || o.Watch != defaultWatch || len(args) == 0 {
		return args
	}
	raw := o.F.Args
	for i, a := range raw {
		if a == "--" {
			break
		}
		if a == "--watch" && i+1 < len(raw) && isSeconds(raw[i+1]) {
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

// isSeconds reports whether s reads as a --watch interval: 2, 0.5, 30.
func isSeconds(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "eEnNiIxX")
}

// validate checks the flags and parses their values.
func (o *TokensOptions) validate() error {
	o.by = tokens.Grouping(o.By)
	if o.By != "" && !slices.Contains(tokens.Groupings, o.by) && o.by != tokens.ByTool {
		return usageErrorf("--by %q: choose one of %s", o.By, groupingNames())
	}
	var err error
	if o.zone, err = parseZone(o.TZ); err != nil {
		return err
	}
	if o.budget, err = o.parseBudget(); err != nil {
		return err
	}
	now := o.F.Now().In(o.zone)
	if o.dates, err = parseRange(o.Since, o.Until, now); err != nil {
		return err
	}
	if err := o.parseFormat(); err != nil {
		return err
	}
	if err := o.parseWatch(now); err != nil {
		return err
	}
	if (o.by == tokens.ByTool || o.by == tokens.ByAgentType) && slices.Contains(o.Sessions, "-") {
		return usageErrorf("--by %s reads each session twice: give the transcript as a file, not -", o.by)
	}
	o.prices, err = loadPrices(o.Pricing)
	return err
}

// parseFormat reads --format against --json and --by.
func (o *TokensOptions) parseFormat() error {
	o.format = o.Format
	switch {
	case o.Format == "":
		o.format = formatTable
		if o.F.Globals.JSON {
			o.format = formatJSON
		}
	case !slices.Contains(tokensFormats, o.Format):
		return usageErrorf("--format %q: choose one of %s", o.Format, strings.Join(tokensFormats, ", "))
	case o.F.Globals.JSON && o.Format != formatJSON:
		return usageErrorf("--json and --format %s: choose one", o.Format)
	}
	if o.format == formatNDJSON {
		switch {
		case o.by != tokens.ByResponse:
			return usageErrorf("--format ndjson lists responses: use it with --by response")
		case o.budget.Set():
			return usageErrorf("--format ndjson prints no totals to check budgets on: drop the --max-* flags, or use --format json")
		}
	}
	return nil
}

// parseWatch reads --watch: seconds between frames, for a status view of
// the current block (the default) or of today (--by day).
func (o *TokensOptions) parseWatch(now time.Time) error {
	if o.Watch == "" {
		return nil
	}
	secs, err := strconv.ParseFloat(o.Watch, 64)
	if err != nil || !isSeconds(o.Watch) || secs < 1 || secs > 24*3600 {
		return usageErrorf("--watch %q: give the seconds between redraws, 1 or more", o.Watch)
	}
	o.interval = time.Duration(secs * float64(time.Second))
	switch {
	case o.by == "":
		o.by = tokens.ByBlock
	case o.by != tokens.ByBlock && o.by != tokens.ByDay:
		return usageErrorf("--watch shows the current block or day: use it with --by block (the default) or --by day")
	}
	if o.format == formatMarkdown || o.format == formatNDJSON {
		return usageErrorf("--watch redraws a status view: use it without --format %s", o.format)
	}
	if o.Since == "" {
		o.dates.Since = now.Add(-watchWindow)
	}
	return nil
}

// parseZone reads --tz: an IANA zone name, UTC, or local (the default).
func parseZone(name string) (*time.Location, error) {
	switch strings.ToLower(name) {
	case "", "local":
		return time.Local, nil
	case "utc", "z":
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || strings.ContainsAny(name, " \t") {
		return nil, usageErrorf("--tz %q: not a time zone (use an IANA name such as Europe/Paris or America/New_York, UTC, or local)", name)
	}
	return loc, nil
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
