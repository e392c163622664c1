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
		res             Result
		filters, window []string
		terminal        bool
		want            string
	}{
		{named(), []string{"--project"}, nil, false, "no sessions to count in /p that match --project"},
		{named(), []string{"--since"}, []string{"--since"}, true, "no sessions to count in /p that match --since"},
		{named(), []string{"--since", "--until", "--project"}, []string{"--since", "--until"}, true, "no sessions to count in /p that match --since and --until and --project"},
		{named(), nil, nil, false, "no sessions to count in /p"},
		{named("ef95"), []string{"--until"}, []string{"--until"}, false, "no API call of the session(s) named falls within --until"},
		{named("ef95"), []string{"--since", "--until"}, []string{"--since", "--until"}, true, "no API call of the session(s) named falls within --since and --until"},
		{named("ef95"), nil, nil, true, "session ef95 has no API call"},
		{named("ef95"), nil, nil, false, ""},
		{named(""), nil, nil, true, "the transcript has no API call"},
		{named("ef95", "b3ed"), nil, nil, true, "none of the 2 sessions named has an API call"},
		{named("ef95", "b3ed"), []string{"--project"}, nil, false, ""},
	} {
		if got := c.res.NothingNote(" in /p", c.filters, c.window, c.terminal); got != c.want {
			t.Errorf("%d sessions, filters %v, window %v, terminal %v: %q, want %q", len(c.res.Sessions), c.filters, c.window, c.terminal, got, c.want)
		}
	}
}
