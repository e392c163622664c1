package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// futureTree writes one session a case: its last activity (the timestamp
// its line records) and its file's modification time, both relative to
// now. It returns the root.
func futureTree(t *testing.T, now time.Time, cases map[string][2]time.Duration) string {
	t.Helper()
	files := map[string]string{}
	for name := range cases {
		id := fmt.Sprintf("%s-0000-4000-8000-000000000000", strings.Repeat(name, 8)[:8])
		at := now.Add(cases[name][0]).UTC().Format(time.RFC3339)
		files["-p/"+id+".jsonl"] = fmt.Sprintf(`{"type":"user","cwd":"/w","timestamp":%q,"message":{"content":"hi"}}`+"\n", at)
	}
	root := write(t, files)
	for name, c := range cases {
		id := fmt.Sprintf("%s-0000-4000-8000-000000000000", strings.Repeat(name, 8)[:8])
		mod := now.Add(c[1])
		if err := os.Chtimes(filepath.Join(root, "-p", id+".jsonl"), mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A session whose times are in the future (a clock that ran ahead) does
// not stay on the first row of ls until that time comes: it is placed by
// its file's last write when that is not in the future, else after every
// session whose time can be placed. A time up to ClockSlack ahead (clocks
// of machines sharing a folder) is taken as it is.
func TestListOrderWithTimesInTheFuture(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	cases := map[string][2]time.Duration{ // activity, file time
		"a": {-time.Hour, -time.Hour},                             // an hour ago
		"b": {70 * year, -2 * day},                                // lines in 2096, file written 2 days ago: 2 days ago
		"c": {73 * year, 73 * year},                               // both in 2099: after every other
		"d": {-3 * day, -3 * day},                                 // 3 days ago
		"e": {30 * time.Minute, 30 * time.Minute},                 // half an hour ahead, within the slack: first
		"f": {72 * year, 72 * year},                               // both in 2098: after c, newest first
		"9": {2 * time.Hour, -5 * day},                            // two hours ahead: its file's time, 5 days ago
		"8": {-10 * day, 2 * time.Hour},                           // a file time in the future does not matter when its activity is past
		"7": {ClockSlack + time.Minute, ClockSlack + time.Minute}, // just past the slack: after every other
	}
	f := NewFinder([]Root{{ProjectsDir: futureTree(t, now, cases)}}, nil)
	var got []string
	l := f.List(ListOptions{Now: now})
	for _, in := range l.Sessions {
		got = append(got, in.ID[:1])
	}
	if want := "e,a,b,d,9,8,c,f,7"; strings.Join(got, ",") != want {
		t.Errorf("order %s, want %s", strings.Join(got, ","), want)
	}
	// The row still says when its lines say it was active.
	for _, in := range l.Sessions {
		if in.ID[0] == 'b' && in.UpdatedAt.Year() != now.Add(70*year).Year() {
			t.Errorf("b's last activity is %v: the order changed it", in.UpdatedAt)
		}
	}
	// Without a clock, List orders by the time now.
	g := NewFinder([]Root{{ProjectsDir: futureTree(t, time.Now(), cases)}}, nil)
	if l := g.List(ListOptions{Limit: 1}); len(l.Sessions) != 1 || l.Sessions[0].ID[0] != 'e' {
		t.Errorf("first row without a clock: %v", l.Sessions)
	}
}

// latest, the first row of ls, is not a session dated in the future: it is
// the one last worked on.
func TestLatestIsNotASessionFromTheFuture(t *testing.T) {
	root := futureTree(t, time.Now(), map[string][2]time.Duration{
		"a": {-time.Minute, -time.Minute},
		"f": {3 * 365 * 24 * time.Hour, 3 * 365 * 24 * time.Hour},
	})
	s, err := NewFinder([]Root{{ProjectsDir: root}}, nil).Resolve("latest")
	if err != nil || s.ID[0] != 'a' {
		t.Errorf("latest = %v (%v), want the session of a minute ago", s, err)
	}
	if got := NewFinder([]Root{{ProjectsDir: root}}, nil).Recent("", 2); len(got) != 2 || got[0].ID[0] != 'a' {
		t.Errorf("completion's order: %v", got)
	}
}

// The rows of a listing are read big files first (a MiB or more, largest
// first), then the others in the listing's order.
func TestBigFirst(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		sizes []int64
		want  []int
	}{
		{nil, []int{}},
		{[]int64{10, 20, 30}, []int{0, 1, 2}},
		{[]int64{10, 2 * mib, 30, 5 * mib, mib, mib - 1}, []int{3, 1, 4, 0, 2, 5}},
		{[]int64{mib, mib, 3 * mib}, []int{2, 0, 1}}, // ties keep the listing's order
	}
	for _, c := range cases {
		var ss []*Session
		for _, n := range c.sizes {
			ss = append(ss, &Session{Size: n})
		}
		if got := bigFirst(ss); !slices.Equal(got, c.want) {
			t.Errorf("sizes %v: order %v, want %v", c.sizes, got, c.want)
		}
	}
}
