package tokens

import (
	"github.com/cctx-dev/cctx/internal/reader"
	"math"
	"math/rand/v2"
	"testing"
)

// A cost written from its millionths is what the float's shortest form
// gives (encoding/json's), for every size of cost.
func TestAppendMicrosAsFloat(t *testing.T) {
	values := []int64{0, 1, 9, 10, 100, 999_999, 1_000_000, 1_000_001, 1_234_500, 7_332_530, 120_000_000,
		999_999_999_999_999, 1e15, 1e15 + 1, 123_456_789_012_345_678, -1, -1_500_000}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		digits := r.IntN(16)
		n := int64(1)
		for range digits {
			n *= 10
		}
		values = append(values, r.Int64N(n))
	}
	for _, m := range values {
		got, want := string(appendMicros(nil, m)), string(appendFloat(nil, float64(m)/1e6))
		if got != want {
			t.Fatalf("appendMicros(%d) = %s, appendFloat = %s", m, got, want)
		}
	}
}

// A cost past what a total holds stays at the cap, never wraps below it:
// usage is read up to 2^40 tokens a number, so a crafted transcript can
// price a response at $80M, and a total that wrapped negative let a
// --max-cost budget pass.
func TestCostSaturatesInsteadOfWrapping(t *testing.T) {
	huge := Response{Model: "claude-opus-4-1", Usage: reader.Usage{Input: 1<<40 - 1, Output: 1<<40 - 1}}
	small := Response{Model: "claude-opus-4-1", Usage: reader.Usage{Input: 1000, Output: 1000}}
	p := DefaultPrices()
	for _, tc := range []struct {
		name string
		rs   []Response
	}{
		{"one response past the cap", []Response{huge}},
		{"three", []Response{huge, huge, huge}},
		{"a small one after the cap", []Response{huge, small}},
		{"a small one before", []Response{small, huge, huge}},
	} {
		tot := Sum(tc.rs, p)
		if tot.pico != maxPico || tot.Cost <= 0 || tot.Micros() != maxPico/1_000_000 {
			t.Errorf("%s: pico %d, cost %v, micros %d; want the cap %d", tc.name, tot.pico, tot.Cost, tot.Micros(), int64(maxPico))
		}
		var merged Total
		merged.Merge(tot)
		merged.Merge(tot)
		if merged.pico != maxPico {
			t.Errorf("%s: two merged: pico %d, want the cap", tc.name, merged.pico)
		}
		for _, limit := range []float64{1, 1e7, 1e12} { // a limit above the cap too: the cost is more
			b := NoBudget
			b.CostUSD = limit
			if v := b.Check(tot); len(v) == 0 || !v[0].LowerBound {
				t.Errorf("%s: a $%g budget on a capped total: %+v; want exceeded, at least", tc.name, limit, v)
			}
		}
	}
}

// Counts saturate: a sum or a rate past an int64 stays at its largest
// value, never wraps negative (a negative total passes every budget).
func TestCountsSaturate(t *testing.T) {
	const max = math.MaxInt64
	for _, tc := range []struct {
		v    float64
		want int64
	}{{0, 0}, {-5, 0}, {math.NaN(), 0}, {2.5, 3}, {1e18, 1e18}, {9.3e18, max}, {math.Inf(1), max}} {
		if got := CountOf(tc.v); got != tc.want {
			t.Errorf("CountOf(%v) = %d, want %d", tc.v, got, tc.want)
		}
	}
	for _, tc := range [][3]int64{{1, 2, 3}, {max - 1, 1, max}, {max, 1, max}, {max - 10, max - 10, max}, {5, 0, 5}} {
		if got := AddCount(tc[0], tc[1]); got != tc[2] {
			t.Errorf("AddCount(%d, %d) = %d, want %d", tc[0], tc[1], got, tc[2])
		}
	}
	// Token totals too: 2^40 tokens a number, a few million responses.
	huge := Response{Model: "claude-opus-4-1", Usage: reader.Usage{Input: 1<<40 - 1, Output: 1<<40 - 1, CacheRead: 1<<40 - 1}}
	var tot Total
	for range 3_000_000 / 1000 {
		var part Total
		for range 1000 {
			part.Add(&huge, nil)
		}
		tot.Merge(part)
	}
	if tot.Tokens != max || tot.Input <= 0 || tot.Output <= 0 {
		t.Errorf("3M responses of 3·2^40 tokens: total %d, input %d, output %d; want the cap, never negative", tot.Tokens, tot.Input, tot.Output)
	}
}

// A limit or an amount too large for millionths in an int64 is written in
// whole dollars, never wrapped negative.
func TestUSDOfHugeAmounts(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{5, "5"}, {0.4451234, "0.445123"}, {9223372.036854775, "9223372.036855"}, {1e12, "1000000000000"}, {1e20, "100000000000000000000"}} {
		if got := string(usd(tc.v)); got != tc.want {
			t.Errorf("usd(%g) = %s, want %s", tc.v, got, tc.want)
		}
	}
	if s := string(usd(1e308)); s[0] != '1' || len(s) != 309 {
		t.Errorf("usd(1e308) = %.20s… (%d digits)", s, len(s))
	}
}
