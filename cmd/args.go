package cmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// argsBetween accepts between lo and hi arguments (hi < 0: no maximum) and
// reports a usage error otherwise.
func argsBetween(lo, hi int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		n := len(args)
		switch {
		case n < lo && lo == hi:
			return usageErrorf("%s needs %d argument(s), got %d (see '%s --help')", c.CommandPath(), lo, n, c.CommandPath())
		case n < lo:
			return usageErrorf("%s needs at least %d argument(s) (see '%s --help')", c.CommandPath(), lo, c.CommandPath())
		case hi == 0 && n > 0:
			return usageErrorf("%s takes no arguments, got %q (see '%s --help')", c.CommandPath(), strings.Join(args, " "), c.CommandPath())
		case hi >= 0 && n > hi:
			return usageErrorf("%s takes at most %d argument(s), got %d: %q (see '%s --help')", c.CommandPath(), hi, n, strings.Join(args, " "), c.CommandPath())
		}
		stdin := 0
		for _, a := range args {
			if a == "-" {
				stdin++
			}
		}
		if stdin > 1 {
			return usageErrorf("only one argument can read standard input (-)")
		}
		return nil
	}
}

// parseDate reads a --since/--until value: an RFC 3339 time, a date
// (YYYY-MM-DD, local time), "today", "yesterday", or an age such as 30m,
// 12h, 7d or 2w before now. With endOfDay, a bare date means the end of
// that day, so --until 2026-01-31 includes the 31st.
func parseDate(s string, now time.Time, endOfDay bool) (time.Time, error) {
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
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04"} {
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

// dateRange holds parsed --since/--until flags.
type dateRange struct {
	Since, Until time.Time
}

func parseRange(since, until string, now time.Time) (dateRange, error) {
	var r dateRange
	var err error
	if since != "" {
		if r.Since, err = parseDate(since, now, false); err != nil {
			return r, usageErrorf("--since: %v", err)
		}
	}
	if until != "" {
		if r.Until, err = parseDate(until, now, true); err != nil {
			return r, usageErrorf("--until: %v", err)
		}
	}
	if !r.Since.IsZero() && !r.Until.IsZero() && r.Until.Before(r.Since) {
		return r, usageErrorf("--until %s is before --since %s", until, since)
	}
	return r, nil
}

// Overlaps reports whether activity from start to end falls in the range.
func (r dateRange) Overlaps(start, end time.Time) bool {
	if !r.Since.IsZero() && end.Before(r.Since) {
		return false
	}
	if !r.Until.IsZero() && start.After(r.Until) {
		return false
	}
	return true
}

// Empty reports whether no bound is set.
func (r dateRange) Empty() bool { return r.Since.IsZero() && r.Until.IsZero() }
