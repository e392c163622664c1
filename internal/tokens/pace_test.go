package tokens

import (
	"math"
	"runtime/debug"
	"testing"
)

// A count collects near a small soft memory limit only (cmd's 48 MiB);
// with no limit, or a large one, at GCPercent: never unbounded.
func TestCountPace(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	tests := []struct {
		limit int64
		want  int
	}{
		{48 << 20, -1},
		{SmallMemoryLimit, -1},
		{SmallMemoryLimit + 1, GCPercent},
		{1 << 30, GCPercent},
		{math.MaxInt64, GCPercent},
	}
	for _, tc := range tests {
		debug.SetMemoryLimit(tc.limit)
		if got := countPace(); got != tc.want {
			t.Errorf("limit %d: pace %d, want %d", tc.limit, got, tc.want)
		}
	}
}
