package session_test

import (
	"testing"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// benchTree generates 200 sessions (~320 KB each, with subagents in both
// layouts) across projects: the shape of a real history, smaller files.
// Listing reads only the head and tail of each file, so the session count,
// not the bytes, drives its cost.
func benchTree(b *testing.B) ([]session.Root, *corpus.Totals) {
	b.Helper()
	dir := b.TempDir()
	tot, err := corpus.Generate(corpus.Options{Dir: dir, Size: 64 << 20, Sessions: 200, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return []session.Root{{ProjectsDir: corpus.ProjectsDir(dir)}}, tot
}

// BenchmarkList is `cctx ls --all` without rendering: directory scan,
// head-and-tail read of every session, subagent discovery. There is no
// meaningful bytes figure (only 128 KiB of each file is read), so it
// reports the cost per session instead of MB/s.
func BenchmarkList(b *testing.B) {
	roots, tot := benchTree(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		f := session.NewFinder(roots, diag.Discard())
		n = len(f.List(session.ListOptions{IncludeEmpty: true}).Sessions)
	}
	if n != len(tot.Sessions) {
		b.Fatalf("listed %d sessions, generated %d", n, len(tot.Sessions))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/session")
}

// BenchmarkSessions is the directory scan alone (no file content read).
func BenchmarkSessions(b *testing.B) {
	roots, tot := benchTree(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(session.NewFinder(roots, diag.Discard()).Sessions())
	}
	if n != len(tot.Sessions) {
		b.Fatalf("found %d sessions, generated %d", n, len(tot.Sessions))
	}
}

// BenchmarkAgents finds the subagent files of every session: the walk of
// <session>/subagents and the sessionId index of flat agent files.
func BenchmarkAgents(b *testing.B) {
	roots, tot := benchTree(b)
	b.ReportAllocs()
	want := 0
	for _, s := range tot.Sessions {
		want += s.Agents
	}
	n := 0
	for b.Loop() {
		f := session.NewFinder(roots, diag.Discard())
		n = 0
		for _, s := range f.Sessions() {
			n += len(f.Agents(s))
		}
	}
	if n != want {
		b.Fatalf("found %d agents, generated %d", n, want)
	}
}
