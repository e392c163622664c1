package tokens

import (
	"strings"
	"testing"
)

// A budget over no session at all is not kept: an error, unless the
// sessions were narrowed (named, --project, a window) to none, or there
// is no budget.
func TestNothingChecked(t *testing.T) {
	cost := NoBudget
	cost.CostUSD = 5
	for _, tc := range []struct {
		name     string
		budget   Budget
		sessions int
		narrowed bool
		err      bool
	}{
		{"no session anywhere", cost, 0, false, true},
		{"sessions to check", cost, 3, false, false},
		{"narrowed to none", cost, 0, true, false},
		{"no budget", NoBudget, 0, false, false},
	} {
		err := tc.budget.NothingChecked(tc.sessions, func() bool { return tc.narrowed }, " in /p")
		if (err != nil) != tc.err || err != nil && !strings.Contains(err.Error(), "nothing to check: no session to count in /p") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
