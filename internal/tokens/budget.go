package tokens

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Budget holds the --max-* limits; a negative limit is unset.
type Budget struct {
	Tokens   int64
	Output   int64
	APICalls int64
	Context  int64
	CostUSD  float64
}

// NoBudget has every limit unset.
var NoBudget = Budget{Tokens: -1, Output: -1, APICalls: -1, Context: -1, CostUSD: -1}

// Set reports whether any limit is set.
func (b Budget) Set() bool {
	return b.Tokens >= 0 || b.Output >= 0 || b.APICalls >= 0 || b.Context >= 0 || b.CostUSD >= 0
}

// Violation is one exceeded limit. Limit and Actual are plain decimal
// numbers, so that JSON carries them as numbers and stderr prints the same
// digits: a count for the token and call budgets, USD for --max-cost.
type Violation struct {
	Flag   string      // the flag that set the limit
	Limit  json.Number // the limit
	Actual json.Number // the value over it; "" when a cost is unknown (some model has no price)
	// Unknown says, for an unknown cost, what could be priced.
	Unknown string
	// LowerBound is set when Actual is the priced part of a cost that has
	// unpriced calls too: already over the limit, and the cost is more.
	LowerBound bool
	// Estimated is set when Actual includes responses of a model without
	// a row of its own, priced at its family's newest rates.
	Estimated bool
}

// Unchecked reports whether the limit could not be checked (a cost with
// some model unpriced) rather than found exceeded.
func (v Violation) Unchecked() bool { return v.Actual == "" }

func (v Violation) String() string {
	unit := ""
	if v.Flag == "--max-cost" {
		unit = "$"
	}
	name := strings.TrimPrefix(strings.TrimPrefix(v.Flag, "--max-"), "-")
	if v.Unchecked() {
		return fmt.Sprintf("%s unknown (%s): %s %s%s cannot be checked", name, v.Unknown, v.Flag, unit, v.Limit)
	}
	atLeast, estimated := "", ""
	if v.LowerBound {
		atLeast = "at least "
	}
	if v.Estimated {
		estimated = " (estimated)"
	}
	actual := string(v.Actual)
	if unit == "$" {
		actual = Cents(v.Actual, v.Limit)
	}
	return fmt.Sprintf("%s %s%s%s%s > %s%s (%s)", name, atLeast, unit, actual, estimated, unit, v.Limit, v.Flag)
}

// Cents is a cost in USD as the tables show it, to the cent, when that
// still tells it from limit ("": none); else as exact as it is ($1.004
// over $1 is not "$1.00 > $1").
func Cents(cost, limit json.Number) string {
	c, err := cost.Float64()
	if err != nil {
		return string(cost)
	}
	s := strconv.FormatFloat(c, 'f', 2, 64)
	if l, err := limit.Float64(); limit != "" && err == nil {
		if r, _ := strconv.ParseFloat(s, 64); (r > l) != (c > l) || r == l {
			return string(cost)
		}
	}
	return s
}

// Check compares a total with the limits. A cost limit cannot be checked
// when some responses have no price: that is a violation too, so a CI job
// never passes on a number it could not compute. An estimated cost (a
// model priced at its family's newest rates) is checked as any other.
func (b Budget) Check(t Total) []Violation {
	var out []Violation
	num := func(flag string, limit, actual int64) {
		if limit >= 0 && actual > limit {
			out = append(out, Violation{Flag: flag, Limit: count(limit), Actual: count(actual)})
		}
	}
	num("--max-tokens", b.Tokens, t.Tokens)
	num("--max-output-tokens", b.Output, t.Output)
	num("--max-api-calls", b.APICalls, t.APICalls)
	num("--max-context", b.Context, t.MaxContext)
	if b.CostUSD >= 0 {
		switch {
		case t.Cost > b.CostUSD || t.CostCapped(): // at the cap the cost is more than any limit
			out = append(out, Violation{Flag: "--max-cost", Limit: usd(b.CostUSD), Actual: usd(t.Cost),
				LowerBound: !t.CostKnown() || t.CostCapped(), Estimated: t.CostEstimated()})
		case !t.CostKnown():
			out = append(out, Violation{Flag: "--max-cost", Limit: usd(b.CostUSD),
				Unknown: fmt.Sprintf("$%s priced, %d call(s) of unpriced models; see --pricing", usd(t.Cost), t.UnpricedCalls)})
		}
	}
	return out
}

func count(n int64) json.Number { return json.Number(strconv.FormatInt(n, 10)) }

// usd writes an amount in USD with the digits it needs, to six decimals as
// cost_usd is: 5, 0.445, 0.451234 (not cents, which would print a value
// just over a limit as the limit).
func usd(v float64) json.Number {
	if v >= 1e9 { // whole dollars: millionths of it pass an int64 (a --max-cost 1e308 wrapped negative)
		return json.Number(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	}
	return json.Number(strconv.FormatFloat(float64(int64(v*1e6+0.5))/1e6, 'f', -1, 64))
}

// ParseCount reads a budget count: 400000, 400k, 1.5M, 2G (also 400_000).
func ParseCount(s string) (int64, error) {
	t := strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			mult, t = 1e3, t[:n-1]
		case 'm', 'M':
			mult, t = 1e6, t[:n-1]
		case 'g', 'G', 'b', 'B':
			mult, t = 1e9, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a count (use 400000, 400k or 1.5M)", s)
	}
	return int64(math.Round(v * mult)), nil
}

// ParseUSD reads a cost limit: 5, 5.50, $5.
func ParseUSD(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimPrefix(strings.TrimSpace(s), "$"), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is not an amount in USD (use 5 or 2.50)", s)
	}
	return v, nil
}
