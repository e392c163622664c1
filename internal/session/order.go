package session

import (
	"strings"
	"time"
)

// ClockSlack is how far past now a session's last activity may lie and
// still order it as it says: clocks of machines that share a synced
// folder differ by seconds or minutes, and a session written a minute
// ahead is still the one being worked on.
const ClockSlack = time.Hour

// The order of ls: newest activity first. A time in the future (past now
// by more than ClockSlack: a clock that ran ahead, or a file from a
// machine set wrong) would keep its session on the first row, and make it
// "latest", until that time came, maybe years later. So such a session is
// ordered by its file's last write when that one is not in the future (a
// copy made since, or a clock put right before the last write), else it
// comes after every session whose time can be placed (its file and its
// lines were written by the same wrong clock), newest first among them.
// Its row still shows the time it records (updated_at).

// recency is when in was last active, for the order; future says that
// neither its activity nor its file's time can be placed before now.
func (in *Info) recency(now time.Time) (t time.Time, future bool) {
	limit := now.Add(ClockSlack)
	switch {
	case !in.UpdatedAt.After(limit):
		return in.UpdatedAt, false
	case in.Session != nil && !in.ModTime.IsZero() && !in.ModTime.After(limit):
		return in.ModTime, false
	}
	return in.UpdatedAt, true
}

// CompareActivity orders two rows as ls lists them (see above), then by
// id, for sort.SliceStable and slices.SortStableFunc: negative when a
// comes first.
func CompareActivity(a, b *Info, now time.Time) int {
	ta, fa := a.recency(now)
	tb, fb := b.recency(now)
	switch {
	case fa != fb && fa:
		return 1
	case fa != fb:
		return -1
	}
	if c := tb.Compare(ta); c != 0 {
		return c
	}
	return strings.Compare(b.ID, a.ID)
}

// clock is o.Now, or the time now when it is not set.
func (o ListOptions) clock() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}
