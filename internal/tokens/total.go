package tokens

import (
	"fmt"
	"math"
	"strconv"
)

// Total sums responses. Its JSON form is the "total" object of every
// --json schema that reports tokens (tokens, agents, ls --long); cost_usd
// is null when any response's model has no price, and cost_estimated is
// true when some response's model was priced at its family's newest rates.
type Total struct {
	Input           int64 `json:"input_tokens"`
	Output          int64 `json:"output_tokens"`
	CacheCreation   int64 `json:"cache_creation_input_tokens"`
	CacheCreation5m int64 `json:"cache_creation_5m_input_tokens"`
	CacheCreation1h int64 `json:"cache_creation_1h_input_tokens"`
	CacheRead       int64 `json:"cache_read_input_tokens"`
	Tokens          int64 `json:"total_tokens"`
	WebSearch       int64 `json:"web_search_requests"`
	APICalls        int64 `json:"api_calls"`
	MaxContext      int64 `json:"max_context_tokens"`
	// Cost sums the priced responses; it is the whole cost only when
	// UnpricedCalls is zero.
	Cost          float64 `json:"-"`
	UnpricedCalls int64   `json:"unpriced_api_calls"`
	// OutputUnderstated counts the responses whose kept usage is the one
	// they began streaming with (Response.StreamingStart): their output
	// tokens, and the total, are less than was billed.
	OutputUnderstated int64 `json:"output_understated_calls"`
	// EstimatedCalls are the priced responses whose model has no row of
	// its own: their cost is an estimate (Prices.EstimatedAs).
	EstimatedCalls int64 `json:"-"`

	// pico is Cost in 10⁻¹² USD. Each response's cost is rounded to it
	// once and the sum kept as an integer, so that a total does not depend
	// on the order it was summed in: tokens, agents and show sum the same
	// responses in different orders, and a float sum differed by a
	// millionth of a dollar.
	pico int64
}

// Micros is the cost in millionths of a dollar, rounded half up from the
// exact sum: what cost_usd and every tab-separated cost say, the same
// however the total was summed.
func (t Total) Micros() int64 { return addPico(t.pico, 500_000) / 1_000_000 }

// CostCapped reports whether the cost reached the most a total holds
// (maxPico): the true cost is more.
func (t Total) CostCapped() bool { return t.pico == maxPico }

// CostKnown reports whether every response was priced.
func (t Total) CostKnown() bool { return t.UnpricedCalls == 0 }

// CostEstimated reports whether the cost includes estimated responses.
func (t Total) CostEstimated() bool { return t.EstimatedCalls > 0 }

// MarshalJSON adds cost_usd: a number, or null when not every response
// could be priced; and cost_estimated.
func (t Total) MarshalJSON() ([]byte, error) { return t.AppendJSON(nil), nil }

// AppendJSON appends the total's JSON object to b: what encoding/json
// makes of its fields, cost_usd and cost_estimated, byte for byte, built
// by hand (a report prints a total for each session, agent and model:
// through reflection they were most of what a warm report spent).
func (t Total) AppendJSON(b []byte) []byte {
	b = append(b, `{"input_tokens":`...)
	b = appendInt(b, t.Input)
	b = append(b, `,"output_tokens":`...)
	b = appendInt(b, t.Output)
	b = append(b, `,"cache_creation_input_tokens":`...)
	b = appendInt(b, t.CacheCreation)
	b = append(b, `,"cache_creation_5m_input_tokens":`...)
	b = appendInt(b, t.CacheCreation5m)
	b = append(b, `,"cache_creation_1h_input_tokens":`...)
	b = appendInt(b, t.CacheCreation1h)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = appendInt(b, t.CacheRead)
	b = append(b, `,"total_tokens":`...)
	b = appendInt(b, t.Tokens)
	b = append(b, `,"web_search_requests":`...)
	b = appendInt(b, t.WebSearch)
	b = append(b, `,"api_calls":`...)
	b = appendInt(b, t.APICalls)
	b = append(b, `,"max_context_tokens":`...)
	b = appendInt(b, t.MaxContext)
	b = append(b, `,"unpriced_api_calls":`...)
	b = appendInt(b, t.UnpricedCalls)
	b = append(b, `,"output_understated_calls":`...)
	b = appendInt(b, t.OutputUnderstated)
	b = append(b, `,"cost_usd":`...)
	if t.CostKnown() {
		b = appendMicros(b, t.Micros())
	} else {
		b = append(b, "null"...)
	}
	if t.CostEstimated() {
		return append(b, `,"cost_estimated":true}`...)
	}
	return append(b, `,"cost_estimated":false}`...)
}

// appendInt is strconv.AppendInt in base 10, a zero (a third of a
// report's counts) without the call.
func appendInt(b []byte, v int64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	return strconv.AppendInt(b, v, 10)
}

// appendMicros appends m millionths as appendFloat appends m/1e6: below
// 10¹⁵ millionths, the decimal m/10⁶ has at most 15 digits, so no other
// decimal as short reads as the same float64 (DBL_DIG), and the shortest
// form is that decimal, its trailing zeros cut; it is written from the
// integer, without the float conversion's search.
func appendMicros(b []byte, m int64) []byte {
	if m < 0 || m >= 1e15 {
		return appendFloat(b, float64(m)/1e6)
	}
	b = strconv.AppendInt(b, m/1e6, 10)
	frac := m % 1e6
	if frac == 0 {
		return b
	}
	digits := 6
	for frac%10 == 0 {
		frac /= 10
		digits--
	}
	var d [6]byte
	for i := digits - 1; i >= 0; i-- {
		d[i] = byte('0' + frac%10)
		frac /= 10
	}
	b = append(b, '.')
	return append(b, d[:digits]...)
}

// appendFloat is a float64 as encoding/json writes it (as ES6 does).
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 as e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// Add counts one response, priced with p (nil: no prices).
func (t *Total) Add(r *Response, p *Prices) {
	cost, ok, est := p.price(r)
	t.addPriced(r, cost, ok, est)
}

// addPriced counts one response whose price is known (Prices.price).
func (t *Total) addPriced(r *Response, cost float64, priced, est bool) {
	u := r.Usage
	t.addTokens(u.Input, u.Output, u.CacheCreation, u.CacheCreation5m, u.CacheCreation1h, u.CacheRead, u.Total(), u.WebSearch)
	t.APICalls++
	t.MaxContext = max(t.MaxContext, u.Context())
	if r.StreamingStart {
		t.OutputUnderstated++
	}
	if priced {
		t.pico = addPico(t.pico, picoOf(cost))
		t.Cost = float64(t.pico) / 1e12
		if est {
			t.EstimatedCalls++
		}
	} else {
		t.UnpricedCalls++
	}
}

// maxPico is the largest cost a total holds, $9,223,372.04: a sum that
// would pass it stays there. Usage numbers are read up to 2^40 tokens each
// (reader), so a crafted transcript can price one response above it, and
// an int64 that wrapped would make a total negative and let a --max-cost
// budget pass; at the cap every budget is exceeded.
const maxPico = math.MaxInt64

// picoOf is a response's cost in 10⁻¹² USD, rounded, at most maxPico.
func picoOf(cost float64) int64 { return CountOf(cost * 1e12) }

// addPico adds two costs, at most maxPico.
func addPico(a, b int64) int64 { return AddCount(a, b) }

// CountOf is v rounded to a count: 0 for what is not above 0 (NaN too),
// math.MaxInt64 for what passes it (float64(MaxInt64) is 2^63, itself out
// of range: converted, it wrapped negative).
func CountOf(v float64) int64 {
	v = math.Round(v)
	switch {
	case !(v > 0):
		return 0
	case v >= math.MaxInt64:
		return math.MaxInt64
	}
	return int64(v)
}

// AddCount adds two counts that are not negative, at most math.MaxInt64:
// a crafted transcript's usage (up to 2^40 a number, reader) can sum past
// an int64, and a sum that wrapped negative would pass every budget.
func AddCount(a, b int64) int64 {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// addTokens adds the token counts of a response or a total, each at most
// math.MaxInt64 (AddCount): one place for both.
func (t *Total) addTokens(in, out, cc, cc5m, cc1h, cr, tokens, web int64) {
	t.Input = AddCount(t.Input, in)
	t.Output = AddCount(t.Output, out)
	t.CacheCreation = AddCount(t.CacheCreation, cc)
	t.CacheCreation5m = AddCount(t.CacheCreation5m, cc5m)
	t.CacheCreation1h = AddCount(t.CacheCreation1h, cc1h)
	t.CacheRead = AddCount(t.CacheRead, cr)
	t.Tokens = AddCount(t.Tokens, tokens)
	t.WebSearch = AddCount(t.WebSearch, web)
}

// Merge adds another total.
func (t *Total) Merge(o Total) {
	t.addTokens(o.Input, o.Output, o.CacheCreation, o.CacheCreation5m, o.CacheCreation1h, o.CacheRead, o.Tokens, o.WebSearch)
	t.APICalls += o.APICalls
	t.MaxContext = max(t.MaxContext, o.MaxContext)
	t.OutputUnderstated += o.OutputUnderstated
	t.pico = addPico(t.pico, o.pico)
	t.Cost = float64(t.pico) / 1e12
	t.UnpricedCalls += o.UnpricedCalls
	t.EstimatedCalls += o.EstimatedCalls
}

// Sum totals a list of responses.
func Sum(rs []Response, p *Prices) Total {
	var t Total
	for i := range rs {
		t.Add(&rs[i], p)
	}
	return t
}

// UnderstatedNote says, when some responses kept only the usage they began
// streaming with, that their output count is less than was billed ("" when
// none did). A command says it once (a terminal table says it under the
// table; JSON has the count in every total).
func (t Total) UnderstatedNote() string {
	if t.OutputUnderstated == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d API calls kept only the usage they began streaming with (Claude Code 2.1.49 or older wrote no final count): their output tokens are understated", t.OutputUnderstated, t.APICalls)
}
