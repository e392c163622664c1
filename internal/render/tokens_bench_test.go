package render

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// BenchmarkTokensPipe is what `cctx tokens | …` spends writing the
// per-session rows of 5,000 sessions (a warm run's last step).
func BenchmarkTokensPipe(b *testing.B) {
	rep := &tokens.Report{}
	start := time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC)
	for i := range 5000 {
		s := &session.Session{ID: fmt.Sprintf("%08x-7d57-4f6e-adbc-486d874a7f8a", i), Path: "/p/x.jsonl", ProjectDir: "/p"}
		sr := &tokens.SessionReport{ID: s.ID, Total: tokens.Total{APICalls: int64(i % 300), Input: 178, Output: 14385, CacheCreation: 280681, CacheRead: 575525, Tokens: 870769}}
		sr.Session, sr.Project, sr.Started = s, "/home/dev/src/api3", start.Add(time.Duration(i)*time.Minute)
		rep.Sessions = append(rep.Sessions, sr)
		rep.Total.Merge(sr.Total)
	}
	for b.Loop() {
		if err := Tokens(io.Discard, rep, Options{}, TokensOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
