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
// files and subagents, both layouts) into one Counter, as `cctx tokens`
// over all sessions does, and checks the result against the generator's
// totals.
func BenchmarkCountTree(b *testing.B) {
	dir := b.TempDir()
	want, err := corpus.Generate(corpus.Options{Dir: dir, Size: 48 << 20, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	roots := []session.Root{{ProjectsDir: corpus.ProjectsDir(dir)}}
	onErr := func(p string, err error) { b.Fatalf("%s: %v", p, err) }
	b.SetBytes(want.Bytes)
	b.ReportAllocs()
	var got tokens.Total
	for b.Loop() {
		f := session.NewFinder(roots, diag.Discard())
		c := tokens.NewCounter()
		for _, s := range f.Sessions() {
			tokens.ReadSession(c, s, f.Agents(s), reader.Options{}, nil, onErr)
		}
		got = tokens.Sum(c.Responses(), nil)
	}
	if got.Tokens != want.Usage.Total || got.APICalls != want.Usage.APICalls {
		b.Fatalf("counted %d tokens in %d calls; the generator wrote %d in %d",
			got.Tokens, got.APICalls, want.Usage.Total, want.Usage.APICalls)
	}
}
