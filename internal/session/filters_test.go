package session

import (
	"testing"
	"time"
)

// TestFilterNames: the line that says why nothing matched names the flags
// given, and no other; --since with the time it was taken for (said to be
// in the future when it is), --project with the folder it was resolved to.
func TestFilterNames(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.Local)
	ago := now.Add(-time.Minute)
	later := time.Date(2099, 1, 1, 0, 0, 0, 0, time.Local)
	until := now.Add(-time.Hour)
	tokyo := time.FixedZone("JST", 9*3600)
	for _, c := range []struct {
		fl     Filters
		window bool
		want   string
	}{
		{Filters{Now: now}, false, ""},
		{Filters{Since: ago, Now: now}, false, "--since 2026-11-22 11:59"},
		{Filters{Since: later, Now: now}, true, "--since 2099-01-01 00:00 (in the future)"},
		{Filters{Until: until, Now: now}, true, "--until"},
		{Filters{Since: ago, Until: until, Now: now}, false, "--since 2026-11-22 11:59 and --until"},
		{Filters{Project: "/home/u/app", Now: now}, false, "--project /home/u/app"},
		{Filters{Project: "/home/u/app", Now: now}, true, ""},
		{Filters{ago, until, "/a", now, nil}, false, "--since 2026-11-22 11:59 and --until and --project /a"},
		{Filters{ago, until, "/a", now, nil}, true, "--since 2026-11-22 11:59 and --until"},
		// tokens --tz: read in that zone, said in it.
		{Filters{Since: time.Date(2030, 1, 1, 0, 0, 0, 0, tokyo), Now: now, Zone: tokyo}, false, "--since 2030-01-01 00:00 (in the future)"},
	} {
		if got := c.fl.Names(c.window); got != c.want {
			t.Errorf("%+v (window %v): %q, want %q", c.fl, c.window, got, c.want)
		}
	}
}
