package session

import (
	"encoding/hex"
	"testing"
	"time"
)

// TestRowFormatIsPinned: the bytes an ls row is kept as in the cache are
// the ones lsCacheFormat stands for. A row written by the build before a
// change to encodeInfo would be read by the build after as if nothing
// had changed (a wrong title, time or count on the first warm ls after an
// upgrade), which no test that starts from an empty cache sees. When this
// fails after a change on purpose, bump lsCacheFormat and pin the new
// bytes.
func TestRowFormatIsPinned(t *testing.T) {
	mod := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	rows := []struct {
		name string
		in   *Info
		want string
	}{
		{"every field", &Info{
			Session: &Session{ModTime: mod}, Project: "/p", GitBranch: "main", Version: "2.1.9",
			StartedAt: mod.Add(-time.Hour), UpdatedAt: mod.Add(-time.Minute),
			TitleSource: "custom-title", titleAt: lineRef{10, 20}, promptAt: lineRef{30, 40},
			media: "image", inlineKnown: true, inline: 3,
		}, "04022f70046d61696e05322e312e39018080edc49ed3edeb310080a0f7cba5a1efeb3100000c637573746f6d2d7469746c6514283c5005696d6167650106"},
		{"times from the file", &Info{
			Session: &Session{ModTime: mod}, UpdatedAt: mod, Empty: true, Sidechain: true, TitleSource: "none",
		}, "0400000000010101046e6f6e6500000000000000"},
	}
	for _, r := range rows {
		b, ok := encodeInfo(r.in)
		if !ok {
			t.Fatalf("%s: not encoded", r.name)
		}
		if got := hex.EncodeToString(b); got != r.want {
			t.Errorf("%s: a row is kept as %s, pinned %s: if encodeInfo changed on purpose, bump lsCacheFormat (now %d) and pin the new bytes", r.name, got, r.want, lsCacheFormat)
		}
		back, ok := infoFrom(r.in.Session, b)
		if !ok || back.Project != r.in.Project || !back.UpdatedAt.Equal(r.in.UpdatedAt) || back.inline != r.in.inline || back.titleAt != r.in.titleAt {
			t.Errorf("%s: read back %+v (%v)", r.name, back, ok)
		}
	}
}
