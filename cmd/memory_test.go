package cmd

import (
	"cmp"
	"math"
	"runtime/debug"
	"testing"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// boundMemory sets the soft memory limit unless GOMEMLIMIT is set, and the
// collector's pace it is given unless GOGC is set (or GOMEMLIMIT); its
// restore puts both back.
func TestBoundMemory(t *testing.T) {
	gcPercent := func() int { p := debug.SetGCPercent(100); debug.SetGCPercent(p); return p }
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // a negative limit reads it
	const unchanged = 0
	tests := []struct {
		name             string
		pace             int
		gogc, gomemlimit string
		wantGC           int
		limited          bool
	}{
		{"ls", -1, "", "", -1, true},
		{"ls, GOGC set", -1, "200", "", unchanged, true},
		{"ls, GOMEMLIMIT set", -1, "", "1GiB", unchanged, false},
		{"ls, both set", -1, "200", "1GiB", unchanged, false},
		{"tokens", -1, "", "", -1, true},
		{"tokens, GOGC set", -1, "200", "", unchanged, true},
		{"tokens, GOMEMLIMIT set", -1, "", "1GiB", unchanged, false},
		{"ls --long", 0, "", "", unchanged, true},
	}
	// From a known state: in-process runs of other tests may have left the
	// limit set (a run restores what it found, which may be another's).
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	if memoryLimit > tokens.SmallMemoryLimit {
		t.Fatalf("the limit %d is over what a count collects near only (%d): it would collect at GOGC %d", memoryLimit, tokens.SmallMemoryLimit, tokens.GCPercent)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.gomemlimit)
			gc0, lim0 := gcPercent(), limit()
			restore := boundMemory(tc.pace)
			gc, lim := gcPercent(), limit()
			restore()
			if want := cmp.Or(tc.wantGC, gc0); gc != want {
				t.Errorf("GC percent %d during (before %d), want %d", gc, gc0, want)
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
