package cmd

import (
	"math"
	"runtime/debug"
	"testing"
)

// boundMemory sets the soft memory limit unless GOMEMLIMIT is set, and with
// atLimit turns the collector's pace off under it unless GOGC is set; its
// restore puts both back.
func TestBoundMemory(t *testing.T) {
	gcPercent := func() int { p := debug.SetGCPercent(100); debug.SetGCPercent(p); return p }
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // a negative limit reads it
	tests := []struct {
		name             string
		atLimit          bool
		gogc, gomemlimit string
		offGC, limited   bool
	}{
		{"ls", true, "", "", true, true},
		{"ls, GOGC set", true, "200", "", false, true},
		{"ls, GOMEMLIMIT set", true, "", "1GiB", false, false},
		{"ls, both set", true, "200", "1GiB", false, false},
		{"tokens", false, "", "", false, true},
		{"tokens, GOGC set", false, "200", "", false, true},
		{"tokens, GOMEMLIMIT set", false, "", "1GiB", false, false},
	}
	// From a known state: in-process runs of other tests may have left the
	// limit set (a run restores what it found, which may be another's).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.gomemlimit)
			gc0, lim0 := gcPercent(), limit()
			restore := boundMemory(tc.atLimit)
			gc, lim := gcPercent(), limit()
			restore()
			if (gc < 0) != tc.offGC || !tc.offGC && gc != gc0 {
				t.Errorf("GC percent %d during (before %d), want off: %v", gc, gc0, tc.offGC)
			}
			if (lim == memoryLimit) != tc.limited || !tc.limited && lim != lim0 {
				t.Errorf("memory limit %d during (before %d), want %d: %v", lim, lim0, memoryLimit, tc.limited)
			}
			if g, l := gcPercent(), limit(); g != gc0 || l != lim0 {
				t.Errorf("after: GC percent %d, limit %d; before %d, %d", g, l, gc0, lim0)
			}
		})
	}
}
