package session

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// IsSessionID is the 8-4-4-4-12 hex shape, as this expression says it.
func TestIsSessionID(t *testing.T) {
	shape := regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e11", true},
		{"0B6A4A3E-7C1F-4A59-9A3E-2F6D1C0B9E11", true},
		{"00000000-0000-0000-0000-000000000000", true},
		{"", false},
		{"0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e1", false},   // one short
		{"0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e111", false}, // one long
		{"0b6a4a3e7c1f-4a59-9a3e-2f6d1c0b9e11-", false},  // hyphen moved
		{"0b6a4a3g-7c1f-4a59-9a3e-2f6d1c0b9e11", false},  // g
		{"0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e1/", false},
		{"0b6a4a3e_7c1f_4a59_9a3e_2f6d1c0b9e11", false},
		{"agent-a1b2c3d4e5f60718293a4b5c6d7e8f", false},
		{"0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e1é", false}, // 37 bytes
	} {
		if got := IsSessionID(c.s); got != c.want || got != shape.MatchString(c.s) {
			t.Errorf("IsSessionID(%q) = %v, want %v (expression: %v)", c.s, got, c.want, shape.MatchString(c.s))
		}
	}
	// Every byte at every place, against the expression.
	base := []byte("0b6a4a3e-7c1f-4a59-9a3e-2f6d1c0b9e11")
	for i := range base {
		for c := 0; c < 256; c++ {
			b := append([]byte(nil), base...)
			b[i] = byte(c)
			if got, want := IsSessionID(string(b)), shape.Match(b); got != want {
				t.Fatalf("IsSessionID(%q) = %v, expression %v", b, got, want)
			}
		}
	}
}

// SortNewestFirst: the newest file first, then the greater id.
func TestSortNewestFirst(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   []*Session
		want []string // ID/Path of each, in order
	}{
		{"by time", []*Session{{ID: "a", Path: "1", ModTime: t0}, {ID: "b", Path: "2", ModTime: t0.Add(time.Second)}, {ID: "c", Path: "3", ModTime: t0.Add(-time.Second)}}, []string{"b/2", "a/1", "c/3"}},
		{"same time: the greater id", []*Session{{ID: "a", Path: "1", ModTime: t0}, {ID: "c", Path: "2", ModTime: t0}, {ID: "b", Path: "3", ModTime: t0}}, []string{"c/2", "b/3", "a/1"}},
		{"the same instant in another zone", []*Session{{ID: "a", Path: "1", ModTime: t0.In(time.FixedZone("x", 3600))}, {ID: "b", Path: "2", ModTime: t0}}, []string{"b/2", "a/1"}},
	}
	for _, tc := range tests {
		SortNewestFirst(tc.in)
		var got []string
		for _, s := range tc.in {
			got = append(got, s.ID+"/"+s.Path)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
