package tokens

import (
	"slices"
	"strings"
	"testing"
)

// What follows a bare --watch: a number is its interval, a session
// argument stays one, and a word that is neither says how to write the
// interval (it was "no such session" or "a session prefix needs at least
// 4 characters", and -1 "unknown shorthand flag").
func TestWatchArgs(t *testing.T) {
	for _, tc := range []struct {
		raw      []string // the command line after "tokens"
		args     []string // what pflag left as arguments
		watch    string   // what pflag gave --watch
		sessions []string
		interval string
		wantErr  string
	}{
		{raw: []string{"--watch"}, watch: "5", interval: "5"},
		{raw: []string{"--watch", "2"}, args: []string{"2"}, watch: "5", interval: "2"},
		{raw: []string{"--watch", "1.5", "ef95"}, args: []string{"1.5", "ef95"}, watch: "5", interval: "1.5", sessions: []string{"ef95"}},
		{raw: []string{"2", "--watch", "2"}, args: []string{"2", "2"}, watch: "5", interval: "2", sessions: []string{"2"}},
		{raw: []string{"--watch=3", "1234"}, args: []string{"1234"}, watch: "3", interval: "3", sessions: []string{"1234"}},
		{raw: []string{"abcd", "--watch"}, args: []string{"abcd"}, watch: "5", interval: "5", sessions: []string{"abcd"}},
		{raw: []string{"--since", "1d"}, watch: "", interval: ""},
		// A session after --watch is watched.
		{raw: []string{"--watch", "ef958aa1"}, args: []string{"ef958aa1"}, watch: "5", interval: "5", sessions: []string{"ef958aa1"}},
		{raw: []string{"--watch", "1e30"}, args: []string{"1e30"}, watch: "5", interval: "5", sessions: []string{"1e30"}},
		{raw: []string{"--watch", "latest"}, args: []string{"latest"}, watch: "5", interval: "5", sessions: []string{"latest"}},
		{raw: []string{"--watch", "-"}, args: []string{"-"}, watch: "5", interval: "5", sessions: []string{"-"}},
		{raw: []string{"--watch", "x/5s.jsonl"}, args: []string{"x/5s.jsonl"}, watch: "5", interval: "5", sessions: []string{"x/5s.jsonl"}},
		{raw: []string{"--watch", "5s.jsonl"}, args: []string{"5s.jsonl"}, watch: "5", interval: "5", sessions: []string{"5s.jsonl"}},
		{raw: []string{"--watch", "-v", "ef95"}, args: []string{"ef95"}, watch: "5", interval: "5", sessions: []string{"ef95"}},
		{raw: []string{"--watch", "--", "2"}, args: []string{"2"}, watch: "5", interval: "5", sessions: []string{"2"}},
		// The value of another flag is not an argument.
		{raw: []string{"--project", "--watch", "abc"}, watch: "", interval: ""},
		// Neither a number nor a session.
		{raw: []string{"--watch", "abc"}, args: []string{"abc"}, watch: "5", wantErr: `--watch "abc": neither seconds between redraws nor a session (a prefix has 4 characters at least`},
		{raw: []string{"--watch", "5s"}, args: []string{"5s"}, watch: "5", wantErr: `--watch "5s": not a number of seconds: write the interval as --watch=5`},
		{raw: []string{"--watch", "2min"}, args: []string{"2min"}, watch: "5", wantErr: `--watch "2min": not a number of seconds: write the interval as --watch=N`},
		{raw: []string{"--watch", "1e3"}, args: []string{"1e3"}, watch: "5", wantErr: `--watch "1e3": not a number of seconds`},
		{raw: []string{"--watch", "1,5", "ef95"}, args: []string{"1,5", "ef95"}, watch: "5", wantErr: `--watch "1,5": not a number of seconds`},
		// A negative number, which pflag reads as flags.
		{raw: []string{"--watch", "-1"}, watch: "5", wantErr: `--watch "-1": the seconds between redraws are 1 or more: write the interval as --watch=N`},
		{raw: []string{"--watch", "-0.5s"}, watch: "5", wantErr: `--watch "-0.5s": the seconds between redraws are 1 or more`},
	} {
		t.Run(strings.Join(tc.raw, " "), func(t *testing.T) {
			sessions, interval, err := WatchArgs(append([]string{"tokens"}, tc.raw...), tc.args, tc.watch)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || interval != tc.interval || !slices.Equal(sessions, tc.sessions) {
				t.Errorf("= %q, %q, %v; want %q, %q", sessions, interval, err, tc.sessions, tc.interval)
			}
		})
	}
}

// --watch= is refused (an empty interval turned the watch off), and help
// shows the flag as --watch[=5]: its value has no type name.
func TestWatchFlag(t *testing.T) {
	for _, tc := range []struct {
		in      string
		wantErr string
	}{
		{"", "empty: write --watch=N for a redraw every N seconds, or --watch alone for every 5"},
		{" ", "empty"},
		{"2", ""},
		{"soon", ""}, // read (and refused) with the other flags, by Query.Parse
	} {
		s := "before"
		v := WatchFlag(&s)
		err := v.Set(tc.in)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || s != "before" {
				t.Errorf("Set(%q) = %v, kept %q; want %q", tc.in, err, s, tc.wantErr)
			}
		case err != nil || s != tc.in || v.String() != tc.in:
			t.Errorf("Set(%q) = %v, kept %q", tc.in, err, s)
		}
	}
	if WatchFlag(new(string)).Type() != "" || (*WatchValue)(nil).String() != "" {
		t.Error("--watch's value has a type name, or a nil one prints")
	}
}
