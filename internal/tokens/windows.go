package tokens

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Time windows: a report keeps its totals by quarter hour across sessions
// (addSlotPriced: a few thousand a year of use, whatever the sessions), and
// every time grouping is a union of quarter hours. Every time
// zone in use today is a whole number of quarter hours from UTC (India
// +5:30, Nepal +5:45, Chatham +12:45), and daylight saving changes at a
// quarter hour too, so the hours, days, weeks and months of any zone
// are exact unions of slots; a 5-hour block starts on a UTC hour, so it
// is one as well.

// slotSeconds is the length of a slot.
const slotSeconds = 15 * 60

// noSlot is the slot of a response without a time.
const noSlot = math.MinInt64

// BlockLength is the length of a usage block: Claude's plan limits reset
// five hours after the first message of a window.
const BlockLength = 5 * time.Hour

// slotOf is the quarter hour t falls in, counted from the Unix epoch.
func slotOf(t time.Time) int64 {
	if t.IsZero() {
		return noSlot
	}
	s := t.Unix()
	q := s / slotSeconds
	if s%slotSeconds < 0 {
		q--
	}
	return q
}

// Time reports whether g groups by time: hour, day, week, month or block.
func (g Grouping) Time() bool {
	switch g {
	case ByHour, ByDay, ByWeek, ByMonth, ByBlock:
		return true
	}
	return false
}

// slotTotal is the usage of one quarter hour, across sessions.
type slotTotal struct {
	slot        int64
	total       Total
	first, last int64 // the earliest and latest response, in Unix milliseconds
}

// addSlotPriced counts a response in its quarter hour.
// Its price is known (Prices.price).
func (r *folderPart) addSlotPriced(resp *Response, cost float64, priced, est bool) {
	if r.slotAt == nil {
		r.slotAt = map[int64]int{}
	}
	slot := slotOf(resp.Time)
	i, ok := r.slotAt[slot]
	if !ok {
		i = len(r.slots)
		r.slotAt[slot] = i
		r.slots = append(r.slots, slotTotal{slot: slot})
	}
	st := &r.slots[i]
	st.total.addPriced(resp, cost, priced, est)
	if slot == noSlot {
		return
	}
	ms := resp.Time.UnixMilli()
	if st.total.APICalls == 1 {
		st.first, st.last = ms, ms
		return
	}
	st.first, st.last = min(st.first, ms), max(st.last, ms)
}

// timeline is the report's quarter hours in time order, each folder's
// totals of the same quarter hour merged, and the total of the responses
// without a time apart.
func (r *Report) timeline() (timed []slotTotal, untimed Total, hasUntimed bool) {
	var all []slotTotal
	for _, folder := range r.slots {
		all = append(all, folder...)
	}
	// Stable: the totals of a quarter hour are merged in the folders'
	// order, as they were counted (sums of floats in one order).
	sort.SliceStable(all, func(i, j int) bool { return all[i].slot < all[j].slot })
	for _, st := range all {
		switch {
		case st.slot == noSlot && !hasUntimed:
			untimed, hasUntimed = st.total, true
		case st.slot == noSlot:
			untimed.Merge(st.total)
		case len(timed) > 0 && timed[len(timed)-1].slot == st.slot:
			last := &timed[len(timed)-1]
			last.first, last.last = min(last.first, st.first), max(last.last, st.last)
			last.total.Merge(st.total)
		default:
			timed = append(timed, st)
		}
	}
	return timed, untimed, hasUntimed
}

// zone is the report's time zone.
func (r *Report) zone() *time.Location {
	if r.Zone == nil {
		return time.Local
	}
	return r.Zone
}

// timeGroups totals the report by hour, day, week, month or block, in time
// order; the responses without a time come first, under the key "".
func (r *Report) timeGroups(g Grouping) []Group {
	timed, untimed, hasUntimed := r.timeline()
	var out []Group
	if hasUntimed {
		out = append(out, Group{Total: untimed})
	}
	if g == ByBlock {
		return append(out, r.blocks(timed)...)
	}
	zone := r.zone()
	for _, st := range timed {
		t := time.Unix(st.slot*slotSeconds, 0).In(zone)
		key, start, end := Period(g, t)
		first, last := time.UnixMilli(st.first).UTC(), time.UnixMilli(st.last).UTC()
		if n := len(out); n > 0 && out[n-1].Key == key && out[n-1].Start.Equal(start) {
			grp := &out[n-1]
			grp.Total.Merge(st.total)
			grp.Last = maxTime(grp.Last, last)
			continue
		}
		out = append(out, Group{Key: key, Total: st.total, Start: start, End: end, First: first, Last: last})
	}
	return out
}

// Period is the hour, day, week or month that t (in its location) falls
// in: its key and its bounds. An hour's key names its offset
// (2026-03-08T01:00-05:00), so that the hour a clock repeats when
// daylight saving ends is two groups; a day is 2026-03-08; a week is
// ISO 8601, starting on Monday (2026-W10); a month is 2026-03.
func Period(g Grouping, t time.Time) (key string, start, end time.Time) {
	zone := t.Location()
	y, m, d := t.Date()
	switch g {
	case ByHour:
		start = t.Truncate(time.Minute).Add(-time.Duration(t.Minute()) * time.Minute)
		return start.Format("2006-01-02T15:04Z07:00"), start, start.Add(time.Hour)
	case ByWeek:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		start = time.Date(y, m, d-back, 0, 0, 0, 0, zone)
		iy, iw := t.ISOWeek()
		return fmt.Sprintf("%04d-W%02d", iy, iw), start, time.Date(y, m, d-back+7, 0, 0, 0, 0, zone)
	case ByMonth:
		start = time.Date(y, m, 1, 0, 0, 0, 0, zone)
		return start.Format("2006-01"), start, time.Date(y, m+1, 1, 0, 0, 0, 0, zone)
	default: // ByDay
		start = time.Date(y, m, d, 0, 0, 0, 0, zone)
		return start.Format("2006-01-02"), start, time.Date(y, m, d+1, 0, 0, 0, 0, zone)
	}
}

// blocks splits the quarter hours into 5-hour blocks, the way Claude's
// plan limits count: a block starts at the hour (UTC) of its first
// response and ends five hours later; the first response at or after its
// end, or five hours or more after the block's last response, starts the
// next block. A quarter hour is never cut: a block starts and ends on a
// full hour, and two responses in one quarter hour are less than five
// hours apart.
func (r *Report) blocks(timed []slotTotal) []Group {
	var out []Group
	zone := r.zone()
	var cur *Group
	for _, st := range timed {
		first, last := time.UnixMilli(st.first).UTC(), time.UnixMilli(st.last).UTC()
		if cur == nil || !first.Before(cur.End) || first.Sub(cur.Last) >= BlockLength {
			start := first.Truncate(time.Hour)
			out = append(out, Group{Key: start.In(zone).Format("2006-01-02T15:04Z07:00"), Start: start, End: start.Add(BlockLength), First: first})
			cur = &out[len(out)-1]
		}
		cur.Total.Merge(st.total)
		cur.Last = maxTime(cur.Last, last)
	}
	return out
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Status is the group of a time grouping that holds a moment (the
// current block, today): how far it has run and, from the pace of its
// responses so far, where it is heading.
type Status struct {
	Group
	Elapsed, Remaining time.Duration
	// Rate is set when the group's responses span some time: then
	// TokensPerHour and CostPerHour are its burn rate, from its first to
	// its last response (as ccusage computes it), and Projected* what the
	// group totals at its end if it goes on at that rate.
	Rate            bool
	TokensPerHour   float64
	CostPerHour     float64
	ProjectedTokens int64
	ProjectedCost   float64
}

// LastBlock is the last block that started at or before now; false when
// none did.
func (r *Report) LastBlock(now time.Time) (Group, bool) {
	gs := r.GroupBy(ByBlock)
	for i := len(gs) - 1; i >= 0; i-- {
		if !gs[i].Start.IsZero() && !gs[i].Start.After(now) {
			return gs[i], true
		}
	}
	return Group{}, false
}

// Current is the group of g that holds now, and its status; false when
// no group does (for blocks: no response in the last five hours, or the
// last block has ended). A day, hour, week or month without a response
// yet is an empty group.
func (r *Report) Current(g Grouping, now time.Time) (Status, bool) {
	var grp Group
	found := false
	if g == ByBlock {
		// The last block that has started: a block to come (a response
		// stamped in the future, a clock set wrong) hides no live one.
		if last, ok := r.LastBlock(now); ok && now.Before(last.End) {
			grp, found = last, true
		}
	} else if g.Time() {
		key, start, end := Period(g, now.In(r.zone()))
		grp, found = Group{Key: key, Start: start, End: end}, true
		for _, x := range r.GroupBy(g) {
			if x.Key == key && x.Start.Equal(start) {
				grp = x
			}
		}
	}
	if !found {
		return Status{}, false
	}
	s := Status{Group: grp, Elapsed: now.Sub(grp.Start), Remaining: grp.End.Sub(now)}
	if span := grp.Last.Sub(grp.First); grp.Total.APICalls > 1 && span > 0 {
		h := span.Hours()
		s.Rate = true
		s.TokensPerHour = float64(grp.Total.Tokens) / h
		s.CostPerHour = grp.Total.Cost / h
		left := s.Remaining.Hours()
		s.ProjectedTokens = AddCount(grp.Total.Tokens, CountOf(s.TokensPerHour*left))
		s.ProjectedCost = grp.Total.Cost + s.CostPerHour*left
	}
	return s, true
}
