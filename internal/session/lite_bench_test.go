package session

import (
	"os"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// BenchmarkLite is the head-and-tail read of every main transcript of
// the real corpus (testdata/corpus, or the shared corpus beside the
// repository), with the lines whose end says they cannot change the row
// left unparsed (skim) and with every line parsed: what a cold `ls`
// spends a session past its system calls.
func BenchmarkLite(b *testing.B) {
	var sessions []*Session
	for _, p := range testcorpus.Files("*/*.jsonl") {
		st, err := os.Stat(p)
		if err != nil || strings.HasPrefix(st.Name(), "agent-") {
			continue
		}
		sessions = append(sessions, &Session{ID: st.Name(), Path: p, ModTime: st.ModTime(), Size: st.Size()})
	}
	for _, c := range []struct {
		name string
		skim bool
	}{{"skim", true}, {"every-line", false}} {
		b.Run(c.name, func(b *testing.B) {
			noSkim = !c.skim
			defer func() { noSkim = false }()
			b.ReportAllocs()
			for b.Loop() {
				for _, s := range sessions {
					if _, err := Lite(s); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(sessions)), "ns/session")
		})
	}
}
