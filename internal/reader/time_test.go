package reader

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// rawTime reads a timestamp as time.Parse(time.RFC3339Nano) does, the
// common form through its own fast path (utcMillis) and the rest through
// time.Parse: the same time, the same location, the same errors.
func TestRawTimeIsTimeParse(t *testing.T) {
	cases := []struct {
		in   string
		fast bool // read by utcMillis
	}{
		{"2026-08-12T12:02:08.998Z", true},
		{"1970-01-01T00:00:00.000Z", true},
		{"1969-12-28T23:59:59.999Z", true},
		{"1969-12-31T23:59:59.999Z", false},
		{"2000-02-28T23:59:59.001Z", true},
		{"2024-03-01T00:00:00.000Z", true},
		{"0001-01-01T00:00:00.000Z", true},
		{"9999-12-28T23:59:59.999Z", true},
		{"2100-02-28T12:00:00.500Z", true},
		{"0000-03-01T00:00:00.000Z", false}, // year 0: time.Parse's
		{"2024-02-29T10:00:00.000Z", false}, // past the 28th: time.Parse checks the month
		{"2023-02-29T10:00:00.000Z", false}, // no such day: an error
		{"2026-08-31T12:02:08.998Z", false},
		{"2026-13-12T12:02:08.998Z", false},
		{"2026-00-12T12:02:08.998Z", false},
		{"2026-08-00T12:02:08.998Z", false},
		{"2026-08-12T24:02:08.998Z", false},
		{"2026-08-12T12:60:08.998Z", false},
		{"2026-08-12T12:02:60.998Z", false},
		{"2026-08-12T12:02:08.99xZ", false},
		{"2026-08-12T12:02:08.998+02:00", false},
		{"2026-08-12T12:02:08Z", false},
		{"2026-08-12T12:02:08.998123Z", false},
		{"2026-08-12 12:02:08.998Z", false},
		{"+026-08-12T12:02:08.998Z", false},
		{"2026-08-12T12:02:08.998z", false},
		{"", false},
	}
	for _, c := range cases {
		if _, ok := utcMillis([]byte(c.in)); ok != c.fast {
			t.Errorf("utcMillis(%q) ok %v, want %v", c.in, ok, c.fast)
		}
		checkRawTime(t, c.in)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		// Every second of years 1..9999, days up to the 28th: the fast path.
		tm := time.Date(1+r.IntN(9999), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000)*1e6, time.UTC)
		s := tm.Format("2006-01-02T15:04:05.000Z")
		if _, ok := utcMillis([]byte(s)); !ok {
			t.Fatalf("utcMillis(%q) not read", s)
		}
		checkRawTime(t, s)
	}
}

func checkRawTime(t *testing.T, s string) {
	t.Helper()
	want, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		want = time.Time{}
	}
	if got := rawTime([]byte(`"` + s + `"`)); !reflect.DeepEqual(got, want) || got.Location() != want.Location() {
		t.Errorf("rawTime(%q) = %v (%v), time.Parse %v (%v)", s, got, got.Location(), want, want.Location())
	}
}
