package session

import "testing"

// TestFilterNames: the line that says why nothing matched names the flags
// given, and no other; --project with the folder it was resolved to.
func TestFilterNames(t *testing.T) {
	for _, c := range []struct {
		fl     Filters
		window bool
		want   string
	}{
		{Filters{}, false, ""},
		{Filters{Since: true}, false, "--since"},
		{Filters{Until: true}, true, "--until"},
		{Filters{Since: true, Until: true}, false, "--since and --until"},
		{Filters{Project: "/home/u/app"}, false, "--project /home/u/app"},
		{Filters{Project: "/home/u/app"}, true, ""},
		{Filters{true, true, "/a"}, false, "--since and --until and --project /a"},
		{Filters{true, true, "/a"}, true, "--since and --until"},
	} {
		if got := c.fl.Names(c.window); got != c.want {
			t.Errorf("%+v (window %v): %q, want %q", c.fl, c.window, got, c.want)
		}
	}
}
