package tokenreport

import (
	"testing"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// TestNothingNote: why a report counted no API call.
func TestNothingNote(t *testing.T) {
	none := Result{Report: &tokens.Report{}}
	one := Result{Report: &tokens.Report{Sessions: []*tokens.SessionReport{{}}}}
	for _, c := range []struct {
		res      Result
		windowed bool
		want     string
	}{
		{none, false, "no sessions to count in /p that match --project"},
		{none, true, "no sessions to count in /p that match --project"},
		{one, true, "no API call of the session(s) named falls within --since and --until"},
		{one, false, ""},
	} {
		if got := c.res.NothingNote(" in /p", " that match --project", c.windowed); got != c.want {
			t.Errorf("%d sessions, windowed %v: %q, want %q", len(c.res.Sessions), c.windowed, got, c.want)
		}
	}
}
