package tokenreport

import (
	"testing"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// TestNothingNote: why a report counted no API call. On a terminal the
// report itself is then not printed, so every case has a line, a session
// named that made no call too (its empty table said it); in a pipe its
// rows still do.
func TestNothingNote(t *testing.T) {
	named := func(ids ...string) Result {
		rep := &tokens.Report{}
		for _, id := range ids {
			rep.Sessions = append(rep.Sessions, &tokens.SessionReport{Input: tokens.Input{Session: &session.Session{ID: id}}, ID: id})
		}
		return Result{Report: rep}
	}
	for _, c := range []struct {
		res                          Result
		filtered, windowed, terminal bool
		want                         string
	}{
		{named(), true, false, false, "no sessions to count in /p that match --since, --until or --project"},
		{named(), true, true, true, "no sessions to count in /p that match --since, --until or --project"},
		{named(), false, false, false, "no sessions to count in /p"},
		{named("ef95"), true, true, false, "no API call of the session(s) named falls within --since and --until"},
		{named("ef95"), true, true, true, "no API call of the session(s) named falls within --since and --until"},
		{named("ef95"), false, false, true, "session ef95 has no API call"},
		{named("ef95"), false, false, false, ""},
		{named(""), false, false, true, "the transcript has no API call"},
		{named("ef95", "b3ed"), false, false, true, "none of the 2 sessions named has an API call"},
		{named("ef95", "b3ed"), true, false, false, ""},
	} {
		if got := c.res.NothingNote(" in /p", c.filtered, c.windowed, c.terminal); got != c.want {
			t.Errorf("%d sessions, filtered %v, windowed %v, terminal %v: %q, want %q", len(c.res.Sessions), c.filtered, c.windowed, c.terminal, got, c.want)
		}
	}
}
