package tokens

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/dates"
)

// The --format values of cctx tokens.
const (
	FormatTable    = "table"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
	FormatNDJSON   = "ndjson"
)

// Formats lists the --format values, in the order help names them.
var Formats = []string{FormatTable, FormatJSON, FormatMarkdown, FormatNDJSON}

// DefaultWatch is the interval of --watch without a value, in seconds.
const DefaultWatch = "5"

// WatchWindow is how far back --watch reads without --since: the current
// block's start depends on the blocks before it, up to the last gap of 5
// hours, which a day of activity nearly always has.
const WatchWindow = 24 * time.Hour

// Query is what cctx tokens is asked, as its command line says it: the
// flag values as typed ("" when not given), --json, and whether a session
// is read from standard input.
type Query struct {
	By, Since, Until, Pricing, TZ, Format string
	Watch                                 string // seconds between frames ("" off)

	MaxTokens, MaxOutput, MaxContext, MaxCalls, MaxCost string
	BudgetTotal                                         bool // --budget-total

	JSON  bool // --json
	Stdin bool // a session argument is "-"
}

// Plan is a Query read: what to count and how to show it.
type Plan struct {
	By       Grouping
	Budget   Budget
	Window   Window // --since and --until (with --watch, the last WatchWindow)
	Prices   *Prices
	Zone     *time.Location
	Format   string        // one of Formats
	Interval time.Duration // --watch; 0: no watch
}

// Parse reads every value of the query, before anything is counted, in
// the order the flags are checked: --by, --tz, the budgets, --since and
// --until (in the zone of --tz), --format, --watch, then the price table.
// Its errors name the flag and are the user's to fix.
func (q Query) Parse(now time.Time) (Plan, error) {
	var p Plan
	p.By = Grouping(q.By)
	if q.By != "" && !slices.Contains(Groupings, p.By) && p.By != ByTool {
		return p, fmt.Errorf("--by %q: choose one of %s", q.By, GroupingNames())
	}
	var err error
	if p.Zone, err = dates.ParseZone(q.TZ); err != nil {
		return p, err
	}
	if p.Budget, err = q.budget(); err != nil {
		return p, err
	}
	if q.BudgetTotal && !p.Budget.Set() {
		return p, errors.New("--budget-total checks the --max-* budgets against the sum of the sessions: give one too (--max-cost 20, --max-tokens 2M)")
	}
	now = now.In(p.Zone)
	r, err := dates.ParseRange(q.Since, q.Until, now)
	if err != nil {
		return p, err
	}
	p.Window = Window{Since: r.Since, Until: r.Until}
	if err := q.format(&p); err != nil {
		return p, err
	}
	if err := q.watch(&p, now); err != nil {
		return p, err
	}
	if (p.By == ByTool || p.By == ByAgentType) && q.Stdin {
		return p, fmt.Errorf("--by %s reads each session twice: give the transcript as a file, not -", p.By)
	}
	p.Prices, err = PricesFrom(q.Pricing)
	return p, err
}

// format reads --format against --json and --by.
func (q Query) format(p *Plan) error {
	p.Format = q.Format
	if p.Format == "md" { // export's name for it
		p.Format = FormatMarkdown
	}
	switch {
	case p.Format == "":
		p.Format = FormatTable
		if q.JSON {
			p.Format = FormatJSON
		}
	case !slices.Contains(Formats, p.Format):
		return fmt.Errorf("--format %q: choose one of %s", q.Format, strings.Join(Formats, ", "))
	case q.JSON && p.Format != FormatJSON:
		return fmt.Errorf("--json and --format %s: choose one", q.Format)
	}
	if p.Format == FormatNDJSON {
		if p.By == "" {
			p.By = ByResponse // the one grouping it lists: implied
		}
		switch {
		case p.By != ByResponse:
			return fmt.Errorf("--format ndjson lists responses, not --by %s: drop --by (or give --by response)", p.By)
		case p.Budget.Set():
			return fmt.Errorf("--format ndjson prints no totals to check budgets on: drop the --max-* flags, or use --format json")
		}
	}
	return nil
}

// watch reads --watch: seconds between frames, for a status view of the
// current block (the default) or of today (--by day).
func (q Query) watch(p *Plan, now time.Time) error {
	if q.Watch == "" {
		return nil
	}
	secs, err := strconv.ParseFloat(q.Watch, 64)
	if err != nil || !IsSeconds(q.Watch) || secs < 1 || secs > 24*3600 {
		return fmt.Errorf("--watch %q: give the seconds between redraws, 1 or more", q.Watch)
	}
	p.Interval = time.Duration(secs * float64(time.Second))
	switch {
	case p.By == "":
		p.By = ByBlock
	case p.By != ByBlock && p.By != ByDay:
		return fmt.Errorf("--watch shows the current block or day: use it with --by block (the default) or --by day")
	}
	if p.Format == FormatMarkdown || p.Format == FormatNDJSON {
		return fmt.Errorf("--watch redraws a status view: use it without --format %s", p.Format)
	}
	if q.Since == "" {
		p.Window.Since = now.Add(-WatchWindow)
	}
	return nil
}

// IsSeconds reports whether s reads as a --watch interval: 2, 0.5, 30
// (not 1e3, NaN, Inf or 0x10, which ParseFloat takes too).
func IsSeconds(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "eEnNiIxX")
}

// budget reads the --max-* limits.
func (q Query) budget() (Budget, error) {
	b := NoBudget
	for _, lim := range []struct {
		flag, val string
		dst       *int64
	}{
		{"--max-tokens", q.MaxTokens, &b.Tokens},
		{"--max-output-tokens", q.MaxOutput, &b.Output},
		{"--max-context", q.MaxContext, &b.Context},
		{"--max-api-calls", q.MaxCalls, &b.APICalls},
	} {
		if lim.val == "" {
			continue
		}
		n, err := ParseCount(lim.val)
		if err != nil {
			return b, fmt.Errorf("%s: %v", lim.flag, err)
		}
		*lim.dst = n
	}
	if q.MaxCost != "" {
		v, err := ParseUSD(q.MaxCost)
		if err != nil {
			return b, fmt.Errorf("--max-cost: %v", err)
		}
		b.CostUSD = v
	}
	return b, nil
}

// PricesFrom is the price table of --pricing: the embedded one for "",
// else the file's.
func PricesFrom(path string) (*Prices, error) {
	if path == "" {
		return DefaultPrices(), nil
	}
	prices, err := LoadPrices(path)
	if err != nil {
		return nil, fmt.Errorf("--pricing: %v", err)
	}
	return prices, nil
}

// GroupingNames lists the --by values, for help and errors.
func GroupingNames() string {
	var names []string
	for _, g := range append(Groupings, ByTool) {
		names = append(names, string(g))
	}
	return strings.Join(names, ", ")
}
