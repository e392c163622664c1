package cmd

import (
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// BenchmarkComplete is what a shell waits for when it completes a
// <session> argument or --project on a history of 1,428 sessions (4,000
// files, 256 MB; a session's head and tail are what is read, so the count
// of sessions, not their size, sets the cost): `cctx __complete …` in
// process, without the process start. BENCHMARKS.md has the figures; the
// target is 100 ms, process start included.
func BenchmarkComplete(b *testing.B) {
	dir := b.TempDir()
	if _, err := corpus.Generate(corpus.Options{Dir: dir, Size: 256 << 20, Sessions: 1428, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	root := corpus.ProjectsDir(dir)
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"session", []string{"show", ""}},
		{"session-prefix", []string{"show", "3f"}},
		{"project", []string{"tokens", "--project", ""}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				io, _, out, _ := TestIO()
				env := session.Env{Getenv: func(string) string { return "" }}
				args := append([]string{"__complete", "--dir", root}, bc.args...)
				if code := Run(args, io, env, time.Now); code != 0 || out.Len() == 0 {
					b.Fatalf("exit %d, %d bytes", code, out.Len())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
