// Package dates reads the times a command line gives: --since and
// --until (a date, a time, today, an age) and --tz (a time zone). ls,
// grep and tokens read them here, so they read them alike.
package dates

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // --tz names zones on systems without a zone database (Windows)
)

// Parse reads a --since/--until value: an RFC 3339 time, a date
// (YYYY-MM-DD, in now's zone), "today", "yesterday", or an age such as 30m,
// 12h, 7d or 2w before now. With endOfDay, a bare date means the end of
// that day, so --until 2026-01-31 includes the 31st.
func Parse(s string, now time.Time, endOfDay bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	day := func(t time.Time) time.Time {
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, now.Location())
		if endOfDay {
			return d.Add(24*time.Hour - time.Nanosecond)
		}
		return d
	}
	switch s {
	case "today":
		return day(now), nil
	case "yesterday":
		return day(now.AddDate(0, 0, -1)), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, s, now.Location()); err == nil {
			return t, nil
		}
	}
	if t, err := time.ParseInLocation("2006-01-02", s, now.Location()); err == nil {
		return day(t), nil
	}
	if n := len(s); n >= 2 {
		unit := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[n-1]]
		if v, err := strconv.ParseFloat(s[:n-1], 64); err == nil && unit > 0 && v >= 0 {
			return now.Add(-time.Duration(v * float64(unit))), nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot read %q as a date: use 2026-01-31, 2026-01-31T15:04:05Z, today, yesterday, or an age like 12h or 7d", s)
}

// Range is what --since and --until say; a zero bound is no bound.
type Range struct {
	Since, Until time.Time
}

// ParseRange reads --since and --until ("" when not given). Its errors
// name the flag: the command line is what they are about.
func ParseRange(since, until string, now time.Time) (Range, error) {
	var r Range
	var err error
	if since != "" {
		if r.Since, err = Parse(since, now, false); err != nil {
			return r, fmt.Errorf("--since: %v", err)
		}
	}
	if until != "" {
		if r.Until, err = Parse(until, now, true); err != nil {
			return r, fmt.Errorf("--until: %v", err)
		}
	}
	if !r.Since.IsZero() && !r.Until.IsZero() && r.Until.Before(r.Since) {
		return r, fmt.Errorf("--until %s is before --since %s", until, since)
	}
	return r, nil
}

// ParseZone reads --tz: an IANA zone name, UTC, or local (the default).
func ParseZone(name string) (*time.Location, error) {
	switch strings.ToLower(name) {
	case "", "local":
		return time.Local, nil
	case "utc", "z":
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil || strings.ContainsAny(name, " \t") {
		return nil, fmt.Errorf("--tz %q: not a time zone (use an IANA name such as Europe/Paris or America/New_York, UTC, or local)", name)
	}
	return loc, nil
}
