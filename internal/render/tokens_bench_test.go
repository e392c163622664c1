package render

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
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

// BenchmarkTokensJSON is what `cctx tokens --json` spends on 5,000
// sessions of two agents and two models each once the report is made:
// the document's making and its 7 MB, written to a pipe.
func BenchmarkTokensJSON(b *testing.B) {
	rep := &tokens.Report{Prices: tokens.DefaultPrices()}
	start := time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC)
	for i := range 5000 {
		s := &session.Session{ID: fmt.Sprintf("%08x-7d57-4f6e-adbc-486d874a7f8a", i), ProjectDir: "/home/dev/.claude/projects/-home-dev-src-api3"}
		s.Path = s.ProjectDir + "/" + s.ID + ".jsonl"
		sr := &tokens.SessionReport{ID: s.ID}
		sr.Session, sr.Project, sr.Started = s, "/home/dev/src/api3", start.Add(time.Duration(i)*time.Minute)
		for j, model := range []string{"claude-opus-4-7", "claude-sonnet-4-6"} {
			var t tokens.Total
			for k := range 1 + i%7 {
				r := &tokens.Response{Model: model, Usage: reader.Usage{Input: int64(3 + k), Output: int64(300*k + i), CacheCreation: 2000, CacheCreation1h: 2000, CacheRead: int64(9000 * k)}}
				t.Add(r, rep.Prices)
			}
			sr.Agents = append(sr.Agents, tokens.Group{Key: []string{"", "3f9051e3"}[j], Total: t})
			sr.Models = append(sr.Models, tokens.Group{Key: model, Total: t})
			sr.Total.Merge(t)
		}
		rep.Sessions = append(rep.Sessions, sr)
		rep.Total.Merge(sr.Total)
	}
	for b.Loop() {
		if err := JSON(io.Discard, NewTokensJSON(rep, "", false), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendJSONStringPath quotes a session's path, the longest
// string of a tokens --json row.
func BenchmarkAppendJSONStringPath(b *testing.B) {
	s := "/home/dev/.claude/projects/-home-dev-src-api3/c27e4d9e-fd8d-4051-bda9-20d370765100.jsonl"
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = appendJSONString(buf[:0], s)
	}
}
