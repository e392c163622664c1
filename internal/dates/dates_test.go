package dates

import (
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/flagval"
)

func TestParse(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, paris)
	for _, tc := range []struct {
		in       string
		endOfDay bool
		want     time.Time
		wantErr  string
	}{
		{in: "today", want: time.Date(2026, 11, 22, 0, 0, 0, 0, paris)},
		{in: "today", endOfDay: true, want: time.Date(2026, 11, 23, 0, 0, 0, 0, paris).Add(-time.Nanosecond)},
		{in: "yesterday", want: time.Date(2026, 11, 21, 0, 0, 0, 0, paris)},
		{in: " 2026-01-31 ", want: time.Date(2026, 1, 31, 0, 0, 0, 0, paris)},
		{in: "2026-01-31", endOfDay: true, want: time.Date(2026, 2, 1, 0, 0, 0, 0, paris).Add(-time.Nanosecond)},
		{in: "2026-01-31T15:04:05Z", endOfDay: true, want: time.Date(2026, 1, 31, 15, 4, 5, 0, time.UTC)},
		{in: "2026-01-31T15:04", want: time.Date(2026, 1, 31, 15, 4, 0, 0, paris)},
		{in: "2026-01-31T15:04Z", want: time.Date(2026, 1, 31, 15, 4, 0, 0, time.UTC)}, // minutes with a zone too
		{in: "2026-01-31T15:04+02:00", want: time.Date(2026, 1, 31, 13, 4, 0, 0, time.UTC)},
		{in: "2026-01-31 15:04", want: time.Date(2026, 1, 31, 15, 4, 0, 0, paris)},
		{in: "30m", want: now.Add(-30 * time.Minute)},
		{in: "12h", want: now.Add(-12 * time.Hour)},
		{in: "1.5d", want: now.Add(-36 * time.Hour)},
		{in: "2w", want: now.Add(-14 * 24 * time.Hour)},
		{in: "0d", want: now},
		{in: "-1d", wantErr: `cannot read "-1d" as a date`},
		{in: "7y", wantErr: `cannot read "7y"`},
		{in: "d", wantErr: `cannot read "d"`},
		{in: "someday", wantErr: "use 2026-01-31, 2026-01-31T15:04:05Z, today, yesterday, or an age like 12h or 7d"},
	} {
		got, err := Parse(tc.in, now, tc.endOfDay)
		switch {
		case tc.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Parse(%q) error = %v, want %q", tc.in, err, tc.wantErr)
			}
		case err != nil || !got.Equal(tc.want):
			t.Errorf("Parse(%q, endOfDay %v) = %v, %v, want %v", tc.in, tc.endOfDay, got, err, tc.want)
		}
	}
}

func TestParseRange(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		since, until string
		want         Range
		wantErr      string
	}{
		{},
		{since: "1d", want: Range{Since: now.Add(-24 * time.Hour)}},
		{until: "2026-11-01", want: Range{Until: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)}},
		{since: "2026-11-01", until: "2026-11-01", want: Range{Since: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC).Add(-time.Nanosecond)}},
		{since: "someday", wantErr: `--since: cannot read "someday" as a date`},
		{until: "later", wantErr: `--until: cannot read "later" as a date`},
		{since: "2026-11-02", until: "2026-11-01", wantErr: "--until 2026-11-01 is before --since 2026-11-02"},
	} {
		got, err := ParseRange(tc.since, tc.until, now)
		if tc.wantErr != "" {
			if err == nil || err.Error()[:len(tc.wantErr)] != tc.wantErr {
				t.Errorf("ParseRange(%q, %q) error = %v, want %q…", tc.since, tc.until, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !got.Since.Equal(tc.want.Since) || !got.Until.Equal(tc.want.Until) {
			t.Errorf("ParseRange(%q, %q) = %+v, %v, want %+v", tc.since, tc.until, got, err, tc.want)
		}
	}
}

func TestParseZone(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "" : an error
	}{
		{"", "Local"}, {"local", "Local"}, {"LOCAL", "Local"},
		{"utc", "UTC"}, {"Z", "UTC"},
		{"Europe/Paris", "Europe/Paris"}, {"Asia/Kolkata", "Asia/Kolkata"},
		{"Mars/Olympus", ""}, {"Europe/Paris ", ""}, {"../etc", ""},
	} {
		loc, err := ParseZone(tc.in)
		switch {
		case tc.want == "":
			if err == nil || !strings.HasPrefix(err.Error(), "--tz "+`"`) {
				t.Errorf("ParseZone(%q) = %v, %v, want a --tz error", tc.in, loc, err)
			}
		case tc.want == "Local": // time.Local, whose name is TZ's when TZ is set
			if err != nil || loc != time.Local {
				t.Errorf("ParseZone(%q) = %v, %v, want time.Local", tc.in, loc, err)
			}
		case err != nil || loc.String() != tc.want:
			t.Errorf("ParseZone(%q) = %v, %v, want %s", tc.in, loc, err, tc.want)
		}
	}
}

// An empty --since, --until or --tz is refused, with what the flag
// accepts: "" is how the commands say "not given", so taking it would
// silently drop the filter (or the zone) the command line asked for.
func TestValueRefusesEmpty(t *testing.T) {
	for _, tc := range []struct {
		name    string
		value   func(*string) *flagval.NonEmpty
		in      string
		wantErr string
	}{
		{"since", Date, "", "empty: give a date (2026-01-31, 2026-01-31T15:04:05Z, today, yesterday) or an age (30m, 12h, 7d, 2w)"},
		{"until blank", Date, "  ", "empty: give a date"},
		{"tz", Zone, "", "empty: give an IANA name such as Europe/Paris or America/New_York, UTC, or local"},
		{"tz tab", Zone, "\t", "empty: give an IANA name"},
		{"date kept as typed", Date, "7d", ""},
		{"zone kept as typed", Zone, "Europe/Paris", ""},
		{"bad date: read later, with the clock", Date, "someday", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := "before"
			v := tc.value(&s)
			err := v.Set(tc.in)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Set(%q) = %v, want %q", tc.in, err, tc.wantErr)
				}
				if s != "before" {
					t.Errorf("Set(%q) failed but kept %q", tc.in, s)
				}
			case err != nil || s != tc.in || v.String() != tc.in:
				t.Errorf("Set(%q) = %v, kept %q (String %q)", tc.in, err, s, v.String())
			}
		})
	}
	if (&flagval.NonEmpty{}).String() != "" || (*flagval.NonEmpty)(nil).String() != "" {
		t.Error("a value without a string prints as something")
	}
}
