package tokens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// timedReport counts responses of 1,000 output tokens at the given times
// (RFC 3339), spread over two sessions (even and odd positions) so that
// time groups are seen to span sessions.
func timedReport(t *testing.T, times ...string) *Report {
	t.Helper()
	files := map[string][]string{}
	for i, ts := range times {
		name := fmt.Sprintf("-p/%d0000000-0000-4000-8000-000000000000.jsonl", i%2+1)
		line := asst(fmt.Sprintf("u%d", i), "", fmt.Sprintf("msg_%d", i), fmt.Sprintf("req_%d", i), 0, 1000, 0, 0, "")
		files[name] = append(files[name], strings.Replace(line, "2026-01-01T00:00:00Z", ts, 1))
	}
	root := writeTree(t, files)
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() {
		ins = append(ins, Input{Session: s})
	}
	return BuildTotals(ins, DefaultPrices(), Window{}, ReadOptions{Strict: true})
}

// describe lists groups as "key start→end calls", times in the report's
// zone.
func describe(gs []Group, zone *time.Location) string {
	var out []string
	for _, g := range gs {
		out = append(out, fmt.Sprintf("%s %s→%s %d", g.Key, g.Start.In(zone).Format("01-02T15:04"), g.End.In(zone).Format("01-02T15:04"), g.Total.APICalls))
	}
	return strings.Join(out, ", ")
}

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// A block starts at the hour of its first response and holds every
// response until five hours later; the next response after that starts
// the next block at its own hour, however long the pause was.
func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		zone  string
		times []string
		want  string
	}{
		{"one block, ended 1 ms short of 5 h", "UTC",
			[]string{"2026-01-05T10:17:00Z", "2026-01-05T11:00:00Z", "2026-01-05T14:59:59.999Z"},
			"2026-01-05T10:00Z 01-05T10:00→01-05T15:00 3"},
		{"exactly 5 h after the start opens the next block", "UTC",
			[]string{"2026-01-05T10:00:00Z", "2026-01-05T12:00:00Z", "2026-01-05T15:00:00Z"},
			"2026-01-05T10:00Z 01-05T10:00→01-05T15:00 2, 2026-01-05T15:00Z 01-05T15:00→01-05T20:00 1"},
		{"the block ends 5 h after its hour, not after its first response", "UTC",
			[]string{"2026-01-05T10:30:00Z", "2026-01-05T14:00:00Z", "2026-01-05T15:10:00Z"},
			"2026-01-05T10:00Z 01-05T10:00→01-05T15:00 2, 2026-01-05T15:00Z 01-05T15:00→01-05T20:00 1"},
		{"after a pause the next block starts at its own hour", "UTC",
			[]string{"2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z", "2026-01-05T21:37:00Z"},
			"2026-01-05T10:00Z 01-05T10:00→01-05T15:00 2, 2026-01-05T21:00Z 01-05T21:00→01-06T02:00 1"},
		{"a pause of exactly 5 h", "UTC",
			[]string{"2026-01-05T10:00:00Z", "2026-01-05T10:30:00Z", "2026-01-05T15:30:00Z"},
			"2026-01-05T10:00Z 01-05T10:00→01-05T15:00 2, 2026-01-05T15:00Z 01-05T15:00→01-05T20:00 1"},
		{"across midnight, one block", "Europe/Paris",
			[]string{"2026-01-05T21:40:00Z", "2026-01-05T23:10:00Z", "2026-01-06T01:59:00Z"},
			"2026-01-05T22:00+01:00 01-05T22:00→01-06T03:00 3"},
		{"across the spring DST change", "America/New_York", // 02:00 EST becomes 03:00 EDT
			[]string{"2026-03-08T06:30:00Z", "2026-03-08T08:30:00Z", "2026-03-08T10:59:00Z", "2026-03-08T11:00:00Z"},
			"2026-03-08T01:00-05:00 03-08T01:00→03-08T07:00 3, 2026-03-08T07:00-04:00 03-08T07:00→03-08T12:00 1"},
		{"a zone half an hour off UTC: blocks still start on the UTC hour", "Asia/Kolkata",
			[]string{"2026-01-05T04:10:00Z", "2026-01-05T09:05:00Z"},
			"2026-01-05T09:30+05:30 01-05T09:30→01-05T14:30 1, 2026-01-05T14:30+05:30 01-05T14:30→01-05T19:30 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := timedReport(t, tc.times...)
			rep.Zone = zone(t, tc.zone)
			gs := rep.GroupBy(ByBlock)
			if got := describe(gs, rep.Zone); got != tc.want {
				t.Errorf("blocks\n got %s\nwant %s", got, tc.want)
			}
			sumsEqualTotal(t, rep, ByBlock)
		})
	}
}

func sumsEqualTotal(t *testing.T, rep *Report, g Grouping) {
	t.Helper()
	var sum Total
	for _, grp := range rep.GroupBy(g) {
		sum.Merge(grp.Total)
	}
	if fmt.Sprintf("%+v", sum) != fmt.Sprintf("%+v", rep.Total) {
		t.Errorf("--by %s: groups sum to %+v, the total is %+v", g, sum, rep.Total)
	}
}

// Hours, days, weeks and months are those of the zone: a day is cut at
// its midnight, daylight saving makes days of 23 and 25 hours and an hour
// that is seen twice, weeks start on Monday (ISO 8601).
func TestPeriodsInAZone(t *testing.T) {
	for _, tc := range []struct {
		name  string
		zone  string
		by    Grouping
		times []string
		want  string
	}{
		{"days at Paris midnight", "Europe/Paris", ByDay,
			[]string{"2026-01-05T22:59:00Z", "2026-01-05T23:01:00Z"},
			"2026-01-05 01-05T00:00→01-06T00:00 1, 2026-01-06 01-06T00:00→01-07T00:00 1"},
		{"the same in UTC is one day", "UTC", ByDay,
			[]string{"2026-01-05T22:59:00Z", "2026-01-05T23:01:00Z"},
			"2026-01-05 01-05T00:00→01-06T00:00 2"},
		{"days at Kolkata midnight (+05:30)", "Asia/Kolkata", ByDay,
			[]string{"2026-01-05T18:29:00Z", "2026-01-05T18:31:00Z"},
			"2026-01-05 01-05T00:00→01-06T00:00 1, 2026-01-06 01-06T00:00→01-07T00:00 1"},
		{"the hour repeated when DST ends is two hours", "America/New_York", ByHour,
			[]string{"2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z"},
			"2026-11-01T01:00-04:00 11-01T01:00→11-01T01:00 1, 2026-11-01T01:00-05:00 11-01T01:00→11-01T02:00 1"},
		{"hours of a zone 45 minutes off the hour", "Asia/Kathmandu", ByHour,
			[]string{"2026-01-05T04:14:00Z", "2026-01-05T04:16:00Z"},
			"2026-01-05T09:00+05:45 01-05T09:00→01-05T10:00 1, 2026-01-05T10:00+05:45 01-05T10:00→01-05T11:00 1"},
		{"weeks start on Monday in the zone", "Europe/Paris", ByWeek,
			[]string{"2026-01-11T22:30:00Z", "2026-01-11T23:30:00Z"}, // Sunday 23:30 and Monday 00:30 in Paris
			"2026-W02 01-05T00:00→01-12T00:00 1, 2026-W03 01-12T00:00→01-19T00:00 1"},
		{"the same in UTC is one week", "UTC", ByWeek,
			[]string{"2026-01-11T22:30:00Z", "2026-01-11T23:30:00Z"},
			"2026-W02 01-05T00:00→01-12T00:00 2"},
		{"ISO weeks across a new year", "UTC", ByWeek,
			[]string{"2025-12-31T12:00:00Z", "2026-01-04T12:00:00Z"},
			"2026-W01 12-29T00:00→01-05T00:00 2"},
		{"months in the zone", "Asia/Tokyo", ByMonth,
			[]string{"2026-01-31T14:59:00Z", "2026-01-31T15:01:00Z"},
			"2026-01 01-01T00:00→02-01T00:00 1, 2026-02 02-01T00:00→03-01T00:00 1"},
		{"the same in Los Angeles is one month", "America/Los_Angeles", ByMonth,
			[]string{"2026-01-31T14:59:00Z", "2026-01-31T15:01:00Z"},
			"2026-01 01-01T00:00→02-01T00:00 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := timedReport(t, tc.times...)
			rep.Zone = zone(t, tc.zone)
			if got := describe(rep.GroupBy(tc.by), rep.Zone); got != tc.want {
				t.Errorf("--by %s\n got %s\nwant %s", tc.by, got, tc.want)
			}
			for _, g := range Groupings {
				sumsEqualTotal(t, rep, g)
			}
		})
	}
}

// A day of daylight-saving change lasts 23 or 25 hours.
func TestDaysOfDSTChanges(t *testing.T) {
	ny := zone(t, "America/New_York")
	for _, tc := range []struct {
		at   string
		want time.Duration
	}{{"2026-03-08T12:00:00Z", 23 * time.Hour}, {"2026-11-01T12:00:00Z", 25 * time.Hour}, {"2026-06-01T12:00:00Z", 24 * time.Hour}} {
		at, _ := time.Parse(time.RFC3339, tc.at)
		_, start, end := Period(ByDay, at.In(ny))
		if end.Sub(start) != tc.want {
			t.Errorf("%s: day of %s, want %s", tc.at, end.Sub(start), tc.want)
		}
	}
}

// Responses without a time are one group of their own, key "", first.
func TestUntimedResponsesAreAGroup(t *testing.T) {
	rep := timedReport(t, "2026-01-05T10:00:00Z", "not a time")
	rep.Zone = time.UTC
	for _, g := range []Grouping{ByHour, ByDay, ByWeek, ByMonth, ByBlock} {
		gs := rep.GroupBy(g)
		if len(gs) != 2 || gs[0].Key != "" || gs[0].Total.APICalls != 1 || !gs[0].Start.IsZero() {
			t.Errorf("--by %s: %s", g, describe(gs, time.UTC))
		}
		sumsEqualTotal(t, rep, g)
	}
}

// The current block: elapsed and remaining time, the burn rate from its
// first to its last response, and the projection to its end.
func TestCurrentBlock(t *testing.T) {
	rep := timedReport(t, "2026-01-05T05:00:00Z", "2026-01-05T10:15:00Z", "2026-01-05T11:15:00Z")
	rep.Zone = time.UTC
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	st, ok := rep.Current(ByBlock, now)
	if !ok {
		t.Fatal("no current block")
	}
	if st.Key != "2026-01-05T10:00Z" || st.Elapsed != 2*time.Hour || st.Remaining != 3*time.Hour || st.Total.Tokens != 2000 {
		t.Errorf("block %s, elapsed %s, remaining %s, %d tokens", st.Key, st.Elapsed, st.Remaining, st.Total.Tokens)
	}
	if !st.Rate || st.TokensPerHour != 2000 || st.ProjectedTokens != 8000 {
		t.Errorf("rate %v: %v tokens/h, projected %d; want 2000/h and 8000", st.Rate, st.TokensPerHour, st.ProjectedTokens)
	}
	wantCost := st.Total.Cost + st.CostPerHour*3
	if st.CostPerHour <= 0 || st.ProjectedCost != wantCost {
		t.Errorf("cost %v/h, projected %v, want %v", st.CostPerHour, st.ProjectedCost, wantCost)
	}
	if _, ok := rep.Current(ByBlock, time.Date(2026, 1, 5, 15, 0, 0, 0, time.UTC)); ok {
		t.Error("the block ended at 15:00: no current block then")
	}
	// Today is a group even before its first response.
	day, ok := rep.Current(ByDay, time.Date(2026, 1, 6, 8, 0, 0, 0, time.UTC))
	if !ok || day.Key != "2026-01-06" || day.Total.APICalls != 0 || day.Remaining != 16*time.Hour {
		t.Errorf("today: %+v", day)
	}
}

// A response stamped in the future (a clock set wrong, a crafted line)
// makes a block to come: it hides no live block, and is no "last block"
// that ended.
func TestCurrentBlockIgnoresBlocksToCome(t *testing.T) {
	rep := timedReport(t, "2026-01-05T10:15:00Z", "2026-01-05T11:15:00Z", "9999-12-31T23:59:59Z")
	rep.Zone = time.UTC
	now := time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)
	if st, ok := rep.Current(ByBlock, now); !ok || st.Key != "2026-01-05T10:00Z" || st.Total.Tokens != 2000 {
		t.Errorf("the live block: %v, %+v", ok, st.Group)
	}
	if last, ok := rep.LastBlock(time.Date(2026, 1, 5, 16, 0, 0, 0, time.UTC)); !ok || last.Key != "2026-01-05T10:00Z" {
		t.Errorf("the last block that started: %v %s", ok, last.Key)
	}
}

// --max-cost with --by block checks every block; without --by, every
// session; --budget-total the sum.
func TestBudgetScopes(t *testing.T) {
	rep := timedReport(t, "2026-01-05T10:00:00Z", "2026-01-05T11:00:00Z", "2026-01-05T18:00:00Z")
	rep.Zone = time.UTC
	b := NoBudget
	b.Tokens = 1500
	names := func(vs []ScopedViolation) string {
		var out []string
		for _, v := range vs {
			out = append(out, v.Scope)
		}
		return strings.Join(out, ", ")
	}
	if got := names(b.CheckScopes(rep.BudgetScopes(ByBlock, false))); got != "block 2026-01-05T10:00Z" {
		t.Errorf("by block: %q", got)
	}
	if got := names(b.CheckScopes(rep.BudgetScopes("", false))); got != "session 10000000-0000-4000-8000-000000000000" {
		t.Errorf("by session: %q", got)
	}
	if got := names(b.CheckScopes(rep.BudgetScopes(ByBlock, true))); got != "total" {
		t.Errorf("total: %q", got)
	}
	// Scopes are made only for a budget.
	if got := NoBudget.Scopes(rep, "", false); got != nil {
		t.Errorf("scopes without a budget: %v", got)
	}
	if got, want := b.Scopes(rep, ByBlock, false), rep.BudgetScopes(ByBlock, false); len(got) != len(want) || got[0] != want[0] {
		t.Errorf("scopes of a budget: %v, want %v", got, want)
	}
	lines := b.Lines(rep.BudgetScopes(ByBlock, false))
	if len(lines) != 1 || lines[0].Over != 1 || lines[0].Scopes != 2 || lines[0].Max != "2000" || lines[0].OK() {
		t.Errorf("summary %+v", lines)
	}
}

// Each folder keeps its own quarter hours; a time grouping merges those
// of every folder, so that a quarter hour seen in two folders is one, its
// first response the earliest of both, whatever order the folders were
// counted in.
func TestQuarterHoursAcrossFolders(t *testing.T) {
	line := func(i int, ts string) string {
		l := asst(fmt.Sprintf("u%d", i), "", fmt.Sprintf("msg_%d", i), fmt.Sprintf("req_%d", i), 0, 1000, 0, 0, "")
		return strings.Replace(l, "2026-01-01T00:00:00Z", ts, 1)
	}
	root := writeTree(t, map[string][]string{
		// Counted first (it started first); its 10:00 quarter's first
		// response is at 10:07.
		"-p/10000000-0000-4000-8000-000000000000.jsonl": {line(1, "2026-01-05T09:00:00Z"), line(2, "2026-01-05T10:07:00Z")},
		// Counted second; the same quarter, from 10:02.
		"-q/20000000-0000-4000-8000-000000000000.jsonl": {line(3, "2026-01-05T10:02:00Z"), line(4, "2026-01-05T10:14:00Z")},
	})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() {
		in := Input{Session: s, Started: time.Date(2026, 1, 5, 10, 2, 0, 0, time.UTC)}
		if strings.Contains(s.Path, "-p") {
			in.Started = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
		}
		ins = append(ins, in)
	}
	rep := BuildTotals(ins, DefaultPrices(), Window{}, ReadOptions{Strict: true})
	rep.Zone = time.UTC
	for _, tc := range []struct {
		by   Grouping
		want string
	}{
		{ByHour, "09:00–09:00 1, 10:02–10:14 3"},
		{ByBlock, "09:00–10:14 4"},
	} {
		var got []string
		for _, g := range rep.GroupBy(tc.by) {
			got = append(got, fmt.Sprintf("%s–%s %d", g.First.Format("15:04"), g.Last.Format("15:04"), g.Total.APICalls))
		}
		if s := strings.Join(got, ", "); s != tc.want {
			t.Errorf("--by %s: %s, want %s", tc.by, s, tc.want)
		}
		sumsEqualTotal(t, rep, tc.by)
	}
}
