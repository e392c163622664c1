package render

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// Every --json time has the same width, so times of different commands
// compare, sort and join as text.
func TestJSONTime(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		name string
		in   time.Time
		want string
	}{
		{"trailing zeros are kept (.8 is .800)", time.Date(2026, 2, 11, 21, 41, 44, 800e6, time.UTC), "2026-02-11T21:41:44.800Z"},
		{"a whole second still has three digits", time.Date(2026, 2, 11, 21, 41, 45, 0, time.UTC), "2026-02-11T21:41:45.000Z"},
		{"milliseconds as written", time.Date(2026, 2, 11, 21, 41, 46, 123e6, time.UTC), "2026-02-11T21:41:46.123Z"},
		{"finer precision is cut, not rounded into the next day", time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC), "2026-12-31T23:59:59.999Z"},
		{"another zone is written in UTC", time.Date(2026, 2, 11, 22, 41, 44, 800e6, paris), "2026-02-11T21:41:44.800Z"},
		{"the zero time is empty", time.Time{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := JSONTime(tc.in); got != tc.want {
				t.Errorf("JSONTime = %q, want %q", got, tc.want)
			}
			got := JSONTimeOrNull(tc.in)
			switch {
			case tc.want == "" && got != nil:
				t.Errorf("JSONTimeOrNull = %q, want nil", *got)
			case tc.want != "" && (got == nil || *got != tc.want):
				t.Errorf("JSONTimeOrNull = %v, want %q", got, tc.want)
			}
		})
	}
}

// Cut and CutLeft count terminal columns: a wide character takes two, so a
// Japanese title cut to a column's width fits that column.
func TestCutCountsColumns(t *testing.T) {
	tests := []struct {
		s        string
		n        int
		cut, lft string
	}{
		{"hello", 5, "hello", "hello"},
		{"hello world", 6, "hello…", "…world"},
		{"最新の状態", 10, "最新の状態", "最新の状態"}, // 5 wide runes: 10 columns
		{"最新の状態", 9, "最新の状…", "…新の状態"},
		{"最新の状態", 8, "最新の…", "…の状態"},
		{"ab最新", 4, "ab…", "…新"},
		{"x", 0, "", ""},
		// An emoji presented by its selector (U+FE0F) takes two columns.
		{"⚠️ done", 7, "⚠️ done", "⚠️ done"},
		{"⚠️ done", 6, "⚠️ do…", "… done"},
		{"⚠️ done", 3, "⚠️…", "…ne"},
		{"⚠️ done", 2, "…", "…e"},
		{"done ⚠️", 6, "done …", "…ne ⚠️"},
		{"done ⚠️", 2, "d…", "…"},
	}
	for _, tt := range tests {
		if got := Cut(tt.s, tt.n); got != tt.cut || Width(got) > max(tt.n, 0) {
			t.Errorf("Cut(%q, %d) = %q (%d columns), want %q", tt.s, tt.n, got, Width(got), tt.cut)
		}
		if got := CutLeft(tt.s, tt.n); got != tt.lft || Width(got) > max(tt.n, 0) {
			t.Errorf("CutLeft(%q, %d) = %q (%d columns), want %q", tt.s, tt.n, got, Width(got), tt.lft)
		}
	}
}

// Width counts terminal columns: an emoji presentation selector (U+FE0F)
// makes the narrow character before it an emoji, two columns wide, as a
// terminal shows it; after a wide emoji or alone it adds nothing.
func TestWidthOfEmojiPresentation(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"ok", 2},
		{"♻️", 2},
		{"⚠️ warn", 7},
		{"♻", 1},
		{"👍", 2},
		{"👍\uFE0F", 2},
		{"\uFE0F", 0},
		{"最新", 4},
	} {
		if got := Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// Where East Asian widths apply (a CJK locale, RUNEWIDTH_EASTASIAN=1), the
// ellipsis itself takes two columns, and a cut line must still fit.
func TestCutFitsWithEastAsianWidths(t *testing.T) {
	twwidth.SetEastAsian(true)
	defer twwidth.SetEastAsian(false)
	for _, s := range []string{"hello world, a long title", "最新の状態にアップデートしてください"} {
		for n := 3; n < 20; n++ {
			if got := Cut(s, n); Width(got) > n {
				t.Errorf("Cut(%q, %d) = %q: %d columns", s, n, got, Width(got))
			}
			if got := CutLeft(s, n); Width(got) > n {
				t.Errorf("CutLeft(%q, %d) = %q: %d columns", s, n, got, Width(got))
			}
		}
	}
}

// A cut never leaves the start of a visible escape: "ab\u2…" would read
// as text the title never held.
func TestCutKeepsEscapesWhole(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{`ab\u202ecd`, 6, `ab…`},
		{`ab\u202ecd`, 9, `ab\u202e…`},
		{`ab\x1b[2Jcd`, 4, `ab…`},
		{`ab\x1b[2Jcd`, 7, `ab\x1b…`},
		{`C:\Users\me\src`, 6, `C:\Us…`}, // a backslash of a path is no escape
		{`a\b`, 2, `a…`},
		{strings.Repeat("\xff", 8) + `\xyyy`, 10, "\ufffd\\…"}, // cut by bytes (a panic when by runes rebuilt); \xyy is no escape
		{"é\ufffdé" + strings.Repeat("x", 9), 4, "é\ufffdé…"},
	} {
		if got := Cut(tc.in, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// JSONTime writes every time as time's own layout does (JSONTimeLayout):
// UTC, milliseconds cut, not rounded; years outside 0–9999 too.
func TestJSONTimeIsTheLayout(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", -7*3600-30*60), time.FixedZone("", 14*3600)}
	times := []time.Time{
		time.Date(2026, 1, 2, 3, 4, 5, 678_999_999, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 1, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Unix(0, 1),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		times = append(times, time.Unix(r.Int64N(1<<36)-1<<35, r.Int64N(1e9)))
	}
	for _, tm := range times {
		for _, z := range zones {
			tz := tm.In(z)
			if got, want := JSONTime(tz), tz.UTC().Format(JSONTimeLayout); got != want {
				t.Fatalf("JSONTime(%v) = %q, want %q", tz, got, want)
			}
		}
	}
	if JSONTime(time.Time{}) != "" {
		t.Errorf("the zero time is not empty")
	}
}

// Ago says how long ago a time was; a time further in the future than a
// clock's slack (session.ClockSlack) is said to be in the future, not
// shown as if it were recent.
func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.Local)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "-"},
		{now.Add(-30 * time.Second), "just now"},
		{now.Add(-5 * time.Minute), "5m ago"},
		{now.Add(-3 * time.Hour), "3h ago"},
		{now.Add(-50 * time.Hour), "2d ago"},
		{now.Add(-40 * 24 * time.Hour), now.Add(-40 * 24 * time.Hour).Format("2006-01-02")},
		{now.Add(10 * time.Minute), now.Add(10 * time.Minute).Format("2006-01-02 15:04")},
		{now.Add(270 * 24 * time.Hour), now.Add(270*24*time.Hour).Format("2006-01-02 15:04") + " (future)"},
	} {
		if got := Ago(tc.t, now); got != tc.want {
			t.Errorf("Ago(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

// AgoCell is Ago in a column of fixed width: never wider than a date.
func TestAgoCell(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.Local)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, "-"},
		{now.Add(-5 * time.Minute), "5m ago"},
		{now.Add(-50 * time.Hour), "2d ago"},
		{now.Add(-40 * 24 * time.Hour), "2026-10-18"},
		{now.Add(10 * time.Second), "just now"}, // within the clock's slack
		{now.Add(270 * 24 * time.Hour), "future"},
	} {
		got := AgoCell(tc.t, now)
		if got != tc.want {
			t.Errorf("AgoCell(%v) = %q, want %q", tc.t, got, tc.want)
		}
		if Width(got) > agoWidth {
			t.Errorf("AgoCell(%v) = %q: wider than %d", tc.t, got, agoWidth)
		}
	}
}
