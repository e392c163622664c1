package tokens_test

import (
	"testing"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// BenchmarkCountTree counts every session of a generated 48 MB tree (main
// files and subagents, both layouts) and checks the result against the
// generator's totals:
//   - every-line: ReadSession into one Counter, every line parsed;
//   - wanted: the same with reader.Options.Want = tokens.Wanted;
//   - build: tokens.Build (parallel, per-session report), as `cctx tokens`
//     over all sessions runs it.
func BenchmarkCountTree(b *testing.B) {
	dir := b.TempDir()
	want, err := corpus.Generate(corpus.Options{Dir: dir, Size: 48 << 20, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	roots := []session.Root{{ProjectsDir: corpus.ProjectsDir(dir)}}
	onErr := func(p string, err error) { b.Fatalf("%s: %v", p, err) }
	check := func(b *testing.B, got tokens.Total) {
		if got.Tokens != want.Usage.Total || got.APICalls != want.Usage.APICalls {
			b.Fatalf("counted %d tokens in %d calls; the generator wrote %d in %d",
				got.Tokens, got.APICalls, want.Usage.Total, want.Usage.APICalls)
		}
	}
	for _, c := range []struct {
		name string
		opts reader.Options
	}{
		{"every-line", reader.Options{}},
		{"wanted", reader.Options{Want: tokens.Wanted}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(want.Bytes)
			b.ReportAllocs()
			var got tokens.Total
			for b.Loop() {
				f := session.NewFinder(roots, diag.Discard())
				ctr := tokens.NewCounter()
				for _, s := range f.Sessions() {
					tokens.ReadSession(ctr, s, f.Agents(s), c.opts, nil, onErr)
				}
				got = tokens.Sum(ctr.Responses(), nil)
			}
			check(b, got)
		})
	}
	b.Run("build", func(b *testing.B) {
		b.SetBytes(want.Bytes)
		b.ReportAllocs()
		var got tokens.Total
		for b.Loop() {
			f := session.NewFinder(roots, diag.Discard())
			var in []tokens.Input
			for _, s := range f.Sessions() {
				in = append(in, tokens.Input{Session: s, Agents: f.Agents(s)})
			}
			got = tokens.Build(in, nil, tokens.Window{}, tokens.ReadOptions{OnError: onErr}).Total
		}
		check(b, got)
	})
}
