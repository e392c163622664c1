package tokenreport

import (
	"testing"
	"time"

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
	stdinEmpty := func() Result { r := named(""); r.StdinEmpty = true; return r }
	since := time.Date(2026, 11, 1, 9, 30, 0, 0, time.Local)
	until := since.Add(time.Hour)
	now := since.Add(24 * time.Hour)
	for _, c := range []struct {
		res      Result
		filters  session.Filters
		terminal bool
		want     string
		unread   string
	}{
		{named(), session.Filters{Project: "/p/app"}, false, "no sessions to count in /p that match --project /p/app", ""},
		{named(), session.Filters{Since: since, Now: now}, true, "no sessions to count in /p that match --since 2026-11-01 09:30", ""},
		{named(), session.Filters{Since: since, Until: until, Project: "/p/app", Now: now}, true, "no sessions to count in /p that match --since 2026-11-01 09:30 and --until and --project /p/app", ""},
		{named(), session.Filters{}, false, "no sessions to count in /p", ""},
		{named("ef95"), session.Filters{Until: until, Now: now}, false, "no API call of the session(s) named falls within --until", ""},
		{named("ef95"), session.Filters{Since: since, Until: until, Now: now}, true, "no API call of the session(s) named falls within --since 2026-11-01 09:30 and --until", ""},
		{named("ef95"), session.Filters{}, true, "session ef95 has no API call", ""},
		{named("ef95"), session.Filters{}, false, "", ""},
		{named(""), session.Filters{}, true, "the transcript has no API call", ""},
		{named("ef95", "b3ed"), session.Filters{}, true, "none of the 2 sessions named has an API call", ""},
		{named("ef95", "b3ed"), session.Filters{Project: "/p/app"}, false, "", ""},
		// Files it could not read are said with the warnings above: an
		// empty count says they were there.
		{named(), session.Filters{}, true, "no sessions to count in /p (1 transcript file(s) skipped as UTF-16, said above)", session.UnreadNote("transcript", 1, 1)},
		{named(), session.Filters{Project: "/p/app"}, true, "no sessions to count in /p that match --project /p/app (2 transcript file(s) could not be read, said above)", session.UnreadNote("transcript", 2, 0)},
		{named("ef95"), session.Filters{}, true, "session ef95 has no API call", session.UnreadNote("transcript", 1, 0)},
		// Standard input that held no byte: said in a pipe too.
		{stdinEmpty(), session.Filters{}, false, "standard input is empty (0 bytes)", ""},
		{stdinEmpty(), session.Filters{Since: since, Now: now}, true, "standard input is empty (0 bytes)", ""},
	} {
		if got := c.res.NothingNote(" in /p", c.filters, c.terminal, c.unread); got != c.want {
			t.Errorf("%d sessions, filters %+v, terminal %v: %q, want %q", len(c.res.Sessions), c.filters, c.terminal, got, c.want)
		}
	}
}
