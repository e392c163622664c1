//go:build linux && (amd64 || arm64)

package rawfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A modification time is whole in any year: a file touched to 2300 (past
// what nanoseconds since 1970 hold) or to 1950 is listed at that time.
func TestModTimeOfAnyYear(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, when := range []time.Time{
		time.Date(2300, 1, 1, 0, 0, 0, 5, time.UTC),
		time.Date(1950, 6, 1, 12, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 27, 9, 0, 0, 123456789, time.UTC),
	} {
		// Not os.Chtimes: it passes the time as nanoseconds since 1970.
		ts := syscall.NsecToTimespec(0)
		ts.Sec, ts.Nsec = when.Unix(), int64(when.Nanosecond())
		if err := syscall.UtimesNano(p, []syscall.Timespec{ts, ts}); err != nil {
			t.Fatal(err)
		}
		ost, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !ost.ModTime().Equal(when) {
			t.Skipf("the file system keeps %v as %v", when, ost.ModTime())
		}
		st, err := Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Mod().Equal(when) || !InfoOf(ost).Mod().Equal(when) {
			t.Errorf("%v: Stat gives %v, InfoOf %v", when, st.Mod(), InfoOf(ost).Mod())
		}
	}
}
