package tokens

import (
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
