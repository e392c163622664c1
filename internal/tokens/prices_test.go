package tokens

import (
	"math"
	"slices"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
)

func TestCost(t *testing.T) {
	p := DefaultPrices()
	tests := []struct {
		name  string
		model string
		u     reader.Usage
		want  float64
		known bool
	}{
		// 100k tokens: under the 200k long-context threshold.
		{"input and output", "claude-sonnet-4-5-20250929", reader.Usage{Input: 1e5, Output: 1e5}, 0.3 + 1.5, true},
		{"cache read is 0.1x input", "claude-sonnet-4-5", reader.Usage{CacheRead: 1e5}, 0.03, true},
		{"cache write without split is a 5-minute write", "claude-sonnet-4-5", reader.Usage{CacheCreation: 1e5}, 0.375, true},
		{"5m and 1h writes priced apart", "claude-opus-4-5-20251101",
			reader.Usage{CacheCreation: 2e6, CacheCreation5m: 1e6, CacheCreation1h: 1e6}, 5*1.25 + 5*2, true},
		{"long context prices the whole request", "claude-sonnet-4-20250514",
			reader.Usage{Input: 10_000, CacheRead: 200_000, Output: 1e3}, (10_000*6 + 200_000*0.6 + 1e3*22.5) / 1e6, true},
		{"at the threshold it is not long context", "claude-sonnet-4",
			reader.Usage{Input: 200_000}, 0.6, true},
		{"fast responses pay the multiplier", "claude-opus-4-6",
			reader.Usage{Input: 1e5, Speed: "fast"}, 3, true},
		{"web searches cost per thousand", "claude-haiku-4-5-20251001", reader.Usage{WebSearch: 3}, 0.03, true},
		{"opus 4.1 is not opus 4.5", "claude-opus-4-1-20250805", reader.Usage{Input: 1e6}, 15, true},
		{"provider prefixes and suffixes", "us.anthropic.claude-3-5-haiku-20241022-v1:0", reader.Usage{Input: 1e6}, 0.8, true},
		{"absolute cache price of haiku 3", "claude-3-haiku-20240307", reader.Usage{CacheRead: 1e6}, 0.03, true},
		{"unknown model", "gpt-5", reader.Usage{Input: 1e6}, 0, false},
		// Not priced as claude-opus-4 (15/75): estimated at the newest opus.
		{"a newer model is not priced as an older one", "claude-opus-4-9-20270101", reader.Usage{Input: 1e5}, 0.4, true},
		{"nor is a variant", "claude-sonnet-4-5-turbo", reader.Usage{Input: 1e5}, 0.2, true},
		{"latest alias", "claude-3-5-haiku-latest", reader.Usage{Input: 1e6}, 0.8, true},
		{"no model", "", reader.Usage{Input: 1e6}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := p.Cost(&Response{Model: tt.model, Usage: tt.u})
			if ok != tt.known || math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Cost = %v, %v; want %v, %v", got, ok, tt.want, tt.known)
			}
		})
	}
	var nilPrices *Prices
	if _, ok := nilPrices.Cost(&Response{Model: "claude-opus-4-5"}); ok {
		t.Error("nil prices priced something")
	}
}

func TestParsePricesRejectsBadTables(t *testing.T) {
	for _, in := range []string{``, `{}`, `{"models":[]}`, `{"models":[{"match":"","input":1}]}`, `{"models":[{"match":"x","input":-1}]}`,
		`{"models":[{"match":"x","input":1,"cache_read":-1}]}`,
		`{"models":[{"match":"x","input":1,"long_context":{"above":100,"input":2,"cache_write_1h":-2}}]}`,
		`{"models":[{"match":"x","input":1,"long_context":{"above":-1,"input":2}}]}`} {
		if _, err := ParsePrices([]byte(in)); err == nil {
			t.Errorf("accepted %q", in)
		}
	}
	p, err := ParsePrices([]byte(`{"models":[{"match":"my-model","input":1,"output":2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.Cost(&Response{Model: "my-model-20260101", Usage: reader.Usage{CacheCreation: 1e6}}); !ok || c != 1.25 {
		t.Errorf("default multipliers not applied: %v %v", c, ok)
	}
}

func TestTotalCostIsUnknownWhenAnyCallIsUnpriced(t *testing.T) {
	var tot Total
	tot.Add(&Response{Model: "claude-sonnet-4-5", Usage: reader.Usage{Input: 1e5}}, DefaultPrices())
	if b, _ := tot.MarshalJSON(); !contains(string(b), `"cost_usd":0.3`) {
		t.Errorf("priced total: %s", b)
	}
	tot.Add(&Response{Model: "mystery", Usage: reader.Usage{Input: 1}}, DefaultPrices())
	if b, _ := tot.MarshalJSON(); !contains(string(b), `"cost_usd":null`) || !contains(string(b), `"unpriced_api_calls":1`) {
		t.Errorf("unpriced total: %s", b)
	}
}

func TestBudget(t *testing.T) {
	tot := Total{Tokens: 500_000, Output: 20_000, APICalls: 12, MaxContext: 160_000, Cost: 4.2}
	tests := []struct {
		name string
		b    Budget
		want string
	}{
		{"nothing set", NoBudget, ""},
		{"under every limit", Budget{Tokens: 500_000, Output: 20_000, APICalls: 12, Context: 160_000, CostUSD: 4.2}, ""},
		{"tokens over", Budget{Tokens: 400_000, Output: -1, APICalls: -1, Context: -1, CostUSD: -1}, "tokens 500000 > 400000 (--max-tokens)"},
		{"context and cost over", Budget{Tokens: -1, Output: -1, APICalls: -1, Context: 150_000, CostUSD: 4},
			"context 160000 > 150000 (--max-context); cost $4.20 > $4 (--max-cost)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, v := range tt.b.Check(tot) {
				got = append(got, v.String())
			}
			if s := join(got); s != tt.want {
				t.Errorf("got %q, want %q", s, tt.want)
			}
		})
	}
	unpriced := tot
	unpriced.UnpricedCalls = 2
	if v := (Budget{Tokens: -1, Output: -1, APICalls: -1, Context: -1, CostUSD: 10}).Check(unpriced); len(v) != 1 {
		t.Errorf("an unpriced cost passed a cost budget: %v", v)
	} else if v[0].Limit != "10" || v[0].Actual != "" {
		t.Errorf("an unknown cost: limit %q actual %q, want 10 and none", v[0].Limit, v[0].Actual)
	}
}

func TestParseCount(t *testing.T) {
	good := map[string]int64{"400000": 400000, "400k": 400000, "1.5M": 1500000, "2G": 2e9, "400_000": 400000, "0": 0, " 12K ": 12000}
	for in, want := range good {
		if got, err := ParseCount(in); err != nil || got != want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "-5", "abc", "1e400", "NaN"} {
		if _, err := ParseCount(in); err == nil {
			t.Errorf("ParseCount(%q) accepted", in)
		}
	}
	if v, err := ParseUSD("$2.50"); err != nil || v != 2.5 {
		t.Errorf("ParseUSD: %v %v", v, err)
	}
	if _, err := ParseUSD("-1"); err == nil {
		t.Error("negative cost accepted")
	}
}

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func join(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

// A total does not depend on the order its responses were summed in:
// tokens, agents and show sum the same responses in different orders, and
// float sums gave costs a millionth of a dollar apart. The exact sum is
// rounded half up.
func TestCostDoesNotDependOnTheOrder(t *testing.T) {
	p := DefaultPrices()
	var rs []Response
	// Six responses whose float sum, rounded to the millionth, differed
	// forwards and backwards.
	for _, u := range [][4]int64{{0, 984, 368247, 18010}, {5, 162, 236829, 7920}, {8, 756, 395695, 18666}, {0, 1456, 156629, 1092}, {1, 1577, 7886, 5320}, {9, 1162, 243447, 10292}} {
		rs = append(rs, Response{Model: "claude-opus-4-7", Usage: reader.Usage{Input: u[0], Output: u[1], CacheRead: u[2], CacheCreation: u[3]}})
	}
	fwd := Sum(rs, p)
	slices.Reverse(rs)
	back := Sum(rs, p)
	var merged Total
	for i := range rs {
		var one Total
		one.Add(&rs[i], p)
		merged.Merge(one)
	}
	if fwd.Micros() != back.Micros() || fwd.Micros() != merged.Micros() {
		t.Errorf("micros %d forwards, %d backwards, %d merged", fwd.Micros(), back.Micros(), merged.Micros())
	}
	// $0.0000015 exactly rounds up to 2 millionths.
	var half Total
	half.Add(&Response{Model: "claude-haiku-4-5", Usage: reader.Usage{CacheRead: 15}}, p)
	if got := half.Micros(); got != 2 {
		t.Errorf("15 cache reads of haiku 4.5 ($0.1/M) = %d µ$, want 2 (1.5 rounded half up)", got)
	}
}
