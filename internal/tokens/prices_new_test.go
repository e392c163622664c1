package tokens

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
)

// The rates of issue 16 ($ per million tokens): input, output, 5-minute
// and 1-hour cache writes, cache read. Cache reads are not 0.1x input for
// every model (opus-5-5, fable-5-1), so each rate is checked on its own.
var issue16Rates = []struct {
	model                   string
	in, out, w5m, w1h, read float64
}{
	{"claude-opus-5", 5, 25, 6.25, 10, 0.5},
	{"claude-opus-4-8", 5, 25, 6.25, 10, 0.5},
	{"claude-opus-5-5", 4, 20, 5, 8, 0.2},
	{"claude-sonnet-5", 2, 10, 2.5, 4, 0.2},
	{"claude-sonnet-5-5", 2, 10, 2.5, 4, 0.2},
	{"claude-fable-5", 10, 50, 12.5, 20, 1},
	{"claude-fable-5-1", 10, 50, 12.5, 20, 0.25},
	{"claude-haiku-5-5", 0.1, 0.5, 0.125, 0.2, 0.01},
}

func TestNewModelRates(t *testing.T) {
	p := DefaultPrices()
	// 100k tokens of each kind: not above any long-context threshold
	// (haiku-5-5's is 100k prompt tokens; output is not prompt).
	const n = 100_000
	for _, r := range issue16Rates {
		for _, k := range []struct {
			kind string
			u    reader.Usage
			rate float64
		}{
			{"input", reader.Usage{Input: n}, r.in},
			{"output", reader.Usage{Output: n}, r.out},
			{"5m cache write", reader.Usage{CacheCreation: n, CacheCreation5m: n}, r.w5m},
			{"1h cache write", reader.Usage{CacheCreation: n, CacheCreation1h: n}, r.w1h},
			{"cache write without split (5m)", reader.Usage{CacheCreation: n}, r.w5m},
			{"cache read", reader.Usage{CacheRead: n}, r.read},
		} {
			for _, id := range []string{r.model, r.model + "-20261015"} {
				t.Run(id+"/"+k.kind, func(t *testing.T) {
					got, ok := p.Cost(&Response{Model: id, Usage: k.u})
					want := k.rate * n / 1e6
					if !ok || math.Abs(got-want) > 1e-12 {
						t.Errorf("Cost = %v, %v; want %v", got, ok, want)
					}
					if as := p.EstimatedAs(id); as != "" {
						t.Errorf("priced as %s: an estimate, want a row of its own", as)
					}
				})
			}
		}
	}
}

// ccusage 20.0.24 (--offline) prices an opus-5 session of these tokens at
// $11.4790005; so must cctx.
func TestCcusageOpus5Session(t *testing.T) {
	u := reader.Usage{Input: 157, Output: 90_378, CacheCreation: 223_427, CacheCreation1h: 223_427, CacheRead: 13_968_991}
	var tot Total
	tot.Add(&Response{Model: "claude-opus-5", Usage: u}, DefaultPrices())
	if math.Abs(tot.Cost-11.4790005) > 1e-9 || fmt.Sprintf("%.3f", tot.Cost) != "11.479" {
		t.Errorf("cost %.9f, want 11.4790005 ($11.479)", tot.Cost)
	}
	if b, _ := tot.MarshalJSON(); !contains(string(b), `"cost_usd":11.479001,"cost_estimated":false`) {
		t.Errorf("JSON %s", b)
	}
}

// claude-haiku-5-5 is dearer above 100k prompt tokens (input + cache
// writes + cache reads): then the whole request, output and cache too,
// pays 0.5 / 2.5 / 0.625 / 1 / 0.05.
func TestHaiku55LongContext(t *testing.T) {
	p := DefaultPrices()
	tests := []struct {
		name string
		u    reader.Usage
		want float64 // USD per million of the whole request
	}{
		{"input at exactly 100k", reader.Usage{Input: 100_000}, 100_000 * 0.1},
		{"input at 100,001", reader.Usage{Input: 100_001}, 100_001 * 0.5},
		{"mixed at exactly 100k", reader.Usage{Input: 0, CacheCreation: 50_000, CacheCreation1h: 50_000, CacheRead: 50_000, Output: 1000},
			50_000*0.2 + 50_000*0.01 + 1000*0.5},
		{"mixed at 100,001: every token at the higher rate", reader.Usage{Input: 1, CacheCreation: 50_000, CacheCreation1h: 50_000, CacheRead: 50_000, Output: 1000},
			1*0.5 + 50_000*1 + 50_000*0.05 + 1000*2.5},
		{"5-minute writes above", reader.Usage{CacheCreation: 100_001, CacheCreation5m: 100_001}, 100_001 * 0.625},
		{"unsplit writes above", reader.Usage{CacheCreation: 100_001}, 100_001 * 0.625},
		{"reads at exactly 100k", reader.Usage{CacheRead: 100_000}, 100_000 * 0.01},
		{"reads above", reader.Usage{CacheRead: 100_001}, 100_001 * 0.05},
		{"output does not count as prompt", reader.Usage{Input: 10, Output: 200_000}, 10*0.1 + 200_000*0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := p.Cost(&Response{Model: "claude-haiku-5-5-20261101", Usage: tt.u})
			if want := tt.want / 1e6; !ok || math.Abs(got-want) > 1e-12 {
				t.Errorf("Cost = %v, %v; want %v", got, ok, want)
			}
		})
	}
}

// A long-context row without its own cache prices takes the multipliers
// of its long-context input (Sonnet 4.5 above 200k: reads at 0.6, not 0.3).
func TestLongContextCacheFollowsItsInput(t *testing.T) {
	p, err := ParsePrices([]byte(`{"models":[{"match":"claude-sonnet-9","input":3,"output":15,"cache_read":0.3,
		"long_context":{"above":200000,"input":6,"output":22.5}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := p.Cost(&Response{Model: "claude-sonnet-9", Usage: reader.Usage{CacheRead: 200_001}}); math.Abs(c-200_001*0.6/1e6) > 1e-12 {
		t.Errorf("long-context read: %v", c)
	}
	if c, _ := p.Cost(&Response{Model: "claude-sonnet-9", Usage: reader.Usage{CacheRead: 200_000}}); math.Abs(c-200_000*0.3/1e6) > 1e-12 {
		t.Errorf("read at the threshold: %v", c)
	}
	// Its own long-context cache prices, when it gives them.
	p, err = ParsePrices([]byte(`{"models":[{"match":"claude-sonnet-9","input":3,"output":15,
		"long_context":{"above":200000,"input":6,"output":22.5,"cache_write_5m":7,"cache_write_1h":11,"cache_read":0.45}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	u := reader.Usage{CacheCreation: 200_000, CacheCreation5m: 100_000, CacheCreation1h: 100_000, CacheRead: 1}
	if c, _ := p.Cost(&Response{Model: "claude-sonnet-9", Usage: u}); math.Abs(c-(100_000*7+100_000*11+0.45)/1e6) > 1e-12 {
		t.Errorf("long-context cache prices: %v", c)
	}
}

// A model id without a row of its own is priced at the newest row of its
// family, and says so; one without a family has no price.
func TestEstimate(t *testing.T) {
	p := DefaultPrices()
	tests := []struct {
		model string
		u     reader.Usage
		as    string  // the row it is estimated at; "" none
		want  float64 // cost; -1: no price
	}{
		{"claude-opus-6", reader.Usage{Input: 1e6, CacheRead: 1e6}, "claude-opus-5-5", 4 + 0.2},
		{"claude-opus-6-20270301", reader.Usage{Output: 1e6}, "claude-opus-5-5", 20},
		{"us.anthropic.claude-opus-6-v1:0", reader.Usage{Output: 1e6}, "claude-opus-5-5", 20},
		{"claude-sonnet-6", reader.Usage{Input: 1e6, CacheCreation: 1e6, CacheCreation1h: 1e6}, "claude-sonnet-5-5", 2 + 4},
		{"claude-fable-6", reader.Usage{CacheRead: 1e6}, "claude-fable-5-1", 0.25},
		{"claude-haiku-6", reader.Usage{Input: 50_000}, "claude-haiku-5-5", 0.005},
		{"claude-haiku-6-20270101", reader.Usage{Input: 200_000}, "claude-haiku-5-5", 0.1}, // its long-context rule too
		{"claude-3-9-opus", reader.Usage{Input: 1e6}, "claude-opus-5-5", 4},
		{"claude-opus-4-8-fast-preview", reader.Usage{Input: 1e6}, "claude-opus-5-5", 4},
		{"gpt-4", reader.Usage{Input: 1e6}, "", -1},
		{"", reader.Usage{Input: 1e6}, "", -1},
		{"claude-2", reader.Usage{Input: 1e6}, "", -1},
		{"claude-instant-1", reader.Usage{Input: 1e6}, "", -1},
		{"opus-6", reader.Usage{Input: 1e6}, "", -1},
		{"acme-opus-6", reader.Usage{Input: 1e6}, "", -1}, // not a Claude model
		{"claude-opusx-6", reader.Usage{Input: 1e6}, "", -1},
		{"claude-opus-5", reader.Usage{Input: 1e6}, "", 5},
		{reader.SyntheticModel, reader.Usage{Input: 1e6}, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			model := tt.model
			got, ok := p.Cost(&Response{Model: model, Usage: tt.u})
			if tt.want < 0 {
				if ok {
					t.Errorf("priced at %v, want no price", got)
				}
			} else if !ok || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Cost = %v, %v; want %v", got, ok, tt.want)
			}
			if as := p.EstimatedAs(model); as != tt.as {
				t.Errorf("EstimatedAs = %q, want %q", as, tt.as)
			}
			var tot Total
			tot.Add(&Response{Model: model, Usage: tt.u}, p)
			if tot.CostEstimated() != (tt.as != "") {
				t.Errorf("total estimated %v", tot.CostEstimated())
			}
		})
	}
	if got := p.Estimated(); fmt.Sprint(got) != "[claude-3-9-opus claude-fable-6 claude-haiku-6 claude-haiku-6-20270101 claude-opus-4-8-fast-preview claude-opus-6 claude-opus-6-20270301 claude-sonnet-6 us.anthropic.claude-opus-6-v1:0]" {
		t.Errorf("Estimated() = %v", got)
	}
	if got := p.EstimateNote("claude-opus-6"); got != "model claude-opus-6 has no price: its cost is estimated at the claude-opus-5-5 rates (the newest opus in the price table; set one with --pricing FILE)" {
		t.Errorf("note %q", got)
	}
}

// "Newest" is the highest version, numbers compared as numbers, whatever
// the order of the rows; a family without a row estimates nothing.
func TestEstimateUsesTheNewestRowOfItsFamily(t *testing.T) {
	p, err := ParsePrices([]byte(`{"models":[
		{"match":"claude-opus-4-10","input":3,"output":1},
		{"match":"claude-opus-4-9","input":2,"output":1},
		{"match":"claude-3-opus","input":9,"output":1},
		{"match":"claude-haiku-4","input":1,"output":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if as := p.EstimatedAs("claude-opus-5"); as != "claude-opus-4-10" {
		t.Errorf("opus estimated at %q, want claude-opus-4-10", as)
	}
	if c, ok := p.Cost(&Response{Model: "claude-sonnet-5", Usage: reader.Usage{Input: 1e6}}); ok {
		t.Errorf("sonnet priced at %v in a table without sonnet", c)
	}
}

// Every row of the embedded table says where its prices come from and
// when they were checked.
func TestEmbeddedRowsHaveSourceAndDate(t *testing.T) {
	p := DefaultPrices()
	date := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	for _, m := range p.Models {
		if m.Source == "" || !date.MatchString(m.Date) {
			t.Errorf("%s: source %q, date %q", m.Match, m.Source, m.Date)
		}
	}
	if !date.MatchString(p.Date) {
		t.Errorf("table date %q", p.Date)
	}
}

// A price file of the format before per-row sources, explicit cache rates
// and long-context cache rates (the embedded table of 2026-11-01) still
// loads and prices as it did.
func TestOldPriceFileStillLoads(t *testing.T) {
	b, err := os.ReadFile("testdata/prices-2026-11-01.json")
	if err != nil {
		t.Fatal(err)
	}
	old, err := ParsePrices(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		model string
		u     reader.Usage
		want  float64
	}{
		{"claude-sonnet-4-5", reader.Usage{Input: 5e4, Output: 1e5, CacheRead: 5e4, CacheCreation: 5e4}, 0.15 + 1.5 + 0.015 + 0.1875},
		{"claude-sonnet-4", reader.Usage{Input: 10_000, CacheRead: 200_000, Output: 1e3}, (10_000*6 + 200_000*0.6 + 1e3*22.5) / 1e6},
		{"claude-3-haiku-20240307", reader.Usage{CacheRead: 1e6, CacheCreation: 1e6}, 0.03 + 0.3},
		{"claude-opus-4-5", reader.Usage{CacheCreation: 2e6, CacheCreation5m: 1e6, CacheCreation1h: 1e6}, 5*1.25 + 5*2},
	} {
		if got, ok := old.Cost(&Response{Model: tt.model, Usage: tt.u}); !ok || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v, %v; want %v", tt.model, got, ok, tt.want)
		}
		if got, _ := DefaultPrices().Cost(&Response{Model: tt.model, Usage: tt.u}); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: the embedded table gives %v, the old one %v", tt.model, got, tt.want)
		}
	}
	// The old table has no opus-5: estimated at its newest opus.
	if as := old.EstimatedAs("claude-opus-5"); as != "claude-opus-4-7" {
		t.Errorf("old table: opus-5 estimated at %q", as)
	}
}

func TestTotalCostEstimated(t *testing.T) {
	p := DefaultPrices()
	var a, b Total
	a.Add(&Response{Model: "claude-opus-5", Usage: reader.Usage{Input: 1e6}}, p)
	if js, _ := a.MarshalJSON(); !contains(string(js), `"cost_usd":5,"cost_estimated":false`) {
		t.Errorf("priced total: %s", js)
	}
	b.Add(&Response{Model: "claude-opus-7", Usage: reader.Usage{Input: 1e6}}, p)
	a.Merge(b)
	if js, _ := a.MarshalJSON(); !contains(string(js), `"cost_usd":9,"cost_estimated":true`) {
		t.Errorf("merged total with an estimate: %s", js)
	}
}

// An estimated cost is checked like any other: over the limit it is
// exceeded (and says estimated), under it the budget passes.
func TestBudgetOnAnEstimatedCost(t *testing.T) {
	var tot Total
	tot.Add(&Response{Model: "claude-opus-7", Usage: reader.Usage{Input: 1e6}}, DefaultPrices()) // $4 estimated
	b := Budget{Tokens: -1, Output: -1, APICalls: -1, Context: -1, CostUSD: 3}
	v := b.Check(tot)
	if len(v) != 1 || !v[0].Estimated || v[0].LowerBound || v[0].String() != "cost $4.00 (estimated) > $3 (--max-cost)" {
		t.Errorf("over: %+v", v)
	}
	b.CostUSD = 5
	if v := b.Check(tot); len(v) != 0 {
		t.Errorf("under: %+v", v)
	}
}

// docs/pricing.md lists every row of the embedded table with its prices,
// source and date.
func TestPricingDocListsTheTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/pricing.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	p := DefaultPrices()
	f := func(v float64) string { return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64) }
	for _, m := range p.Models {
		w5, w1, rd := m.CacheWrite5m, m.CacheWrite1h, m.CacheReadAbs
		if w5 == 0 {
			w5 = m.Input * p.CacheWrite5m
		}
		if w1 == 0 {
			w1 = m.Input * p.CacheWrite1h
		}
		if rd == 0 {
			rd = m.Input * p.CacheRead
		}
		lc := ""
		if l := m.LongContext; l != nil {
			lw5, lw1, lrd := l.CacheWrite5m, l.CacheWrite1h, l.CacheRead
			if lw5 == 0 {
				lw5 = l.Input * p.CacheWrite5m
			}
			if lw1 == 0 {
				lw1 = l.Input * p.CacheWrite1h
			}
			if lrd == 0 {
				lrd = l.Input * p.CacheRead
			}
			lc = fmt.Sprintf("above %dk: %s / %s / %s / %s / %s", l.Above/1000, f(l.Input), f(l.Output), f(lw5), f(lw1), f(lrd))
		}
		row := fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s | %s | %s, %s |", m.Match, f(m.Input), f(m.Output), f(w5), f(w1), f(rd), lc, m.Source, m.Date)
		row = strings.ReplaceAll(row, "|  |", "| |") // an empty cell
		if !strings.Contains(doc, row+"\n") {
			t.Errorf("docs/pricing.md has no row\n%s", row)
		}
	}
}

// A cost over a budget is said to the cent, as the tables show it, unless
// the cents would not tell it from the limit: then as exact as it is.
func TestCents(t *testing.T) {
	for _, c := range []struct{ cost, limit, want string }{
		{"5.451318", "1", "5.45"},
		{"4", "3", "4.00"},
		{"1.004", "1", "1.004"},
		{"1.0049", "1", "1.0049"},
		{"1.01", "1", "1.01"},
		{"2.5", "", "2.50"},
		{"x", "1", "x"},
	} {
		if got := Cents(json.Number(c.cost), json.Number(c.limit)); got != c.want {
			t.Errorf("Cents(%s, %s) = %s, want %s", c.cost, c.limit, got, c.want)
		}
	}
}
