package tokens

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// Sessions are counted in start order (a resumed session's replayed
// responses belong to the one it resumed); a file without a timestamp is
// placed by its last write, and a tie by the file written to last later.
// Equal places keep the listing's order.
func TestByStart(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(1_800_000_000+s, 0) }
	in := func(id string, start, mod time.Time) Input {
		return Input{Session: &session.Session{ID: id, ModTime: mod}, Started: start}
	}
	for _, c := range []struct {
		name   string
		inputs []Input
		want   string
	}{
		{"by start", []Input{in("b", at(2), at(9)), in("a", at(1), at(9))}, "ab"},
		{"same start: the file written to last later", []Input{in("b", at(1), at(8)), in("a", at(1), at(7))}, "ab"},
		{"no start: its last write", []Input{in("b", at(5), at(5)), in("a", time.Time{}, at(3)), in("c", time.Time{}, at(6))}, "abc"},
		{"nanoseconds", []Input{in("b", at(1).Add(2), at(1)), in("a", at(1).Add(1), at(1))}, "ab"},
		{"equal: listing order kept", []Input{in("x", at(1), at(1)), in("y", at(1), at(1)), in("z", at(1), at(1))}, "xyz"},
		{"before 1970 and far after 2262", []Input{in("b", time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), at(0)), in("a", time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), at(0))}, "ab"},
		{"none", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			for _, in := range byStart(c.inputs) {
				got += in.Session.ID
			}
			if got != c.want {
				t.Errorf("byStart = %q, want %q", got, c.want)
			}
		})
	}
}

// byStart orders as a stable sort by (start, last write) does, on many
// ties.
func TestByStartIsAStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var inputs []Input
	for i := range 2000 {
		var start time.Time
		if r.IntN(4) > 0 {
			start = time.Unix(int64(r.IntN(50)), int64(r.IntN(3)))
		}
		inputs = append(inputs, Input{Session: &session.Session{ID: string(rune('a' + i%26)), ModTime: time.Unix(int64(r.IntN(50)), 0)}, Started: start})
	}
	want := append([]Input(nil), inputs...)
	sort.SliceStable(want, func(i, j int) bool {
		a, b := want[i], want[j]
		if as, bs := a.orderTime(), b.orderTime(); !as.Equal(bs) {
			return as.Before(bs)
		}
		return a.Session.ModTime.Before(b.Session.ModTime)
	})
	got := byStart(inputs)
	for i := range want {
		if got[i].Session != want[i].Session {
			t.Fatalf("at %d: %+v, want %+v", i, got[i].Session, want[i].Session)
		}
	}
}
