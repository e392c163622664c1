// Package testcorpus finds the real transcripts tests read: the copies in
// testdata/corpus (always there, so golden tests run on a clean clone) and,
// when the repository sits beside it, the whole shared corpus
// (../shared/corpus/real), which adds folders whose licence keeps them out
// of the repository. It is for tests only.
package testcorpus

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
)

// repo is the repository's root, found from this file's place in it.
func repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Dir is the projects dir of a corpus folder in testdata/corpus (e.g.
// "spotter"): what golden tests read.
func Dir(folder string) string { return filepath.Join(Root(), folder) }

// Root is testdata/corpus.
func Root() string { return filepath.Join(repo(), "testdata", "corpus") }

// Samples is testdata/projects, the sessions make demo shows.
func Samples() string { return filepath.Join(repo(), "testdata", "projects") }

// Shared is the shared corpus beside the repository, "" when absent.
func Shared() string {
	p := filepath.Join(repo(), "..", "shared", "corpus", "real")
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return p
	}
	return ""
}

// Folders are the projects dirs of every corpus folder a check over the
// whole corpus reads: each folder of the shared corpus when it is present
// (a superset of the copies), else the copies in testdata/corpus. Codex
// rollouts are not Claude Code transcripts and are left out.
func Folders() []string {
	base := Root()
	if s := Shared(); s != "" {
		base = s
	}
	ents, _ := os.ReadDir(base)
	var out []string
	for _, e := range ents {
		if e.IsDir() && e.Name() != "codex" {
			out = append(out, filepath.Join(base, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// Files are the transcripts of every folder (Folders) matching the glob
// patterns, relative to a folder (e.g. "*/*.jsonl").
func Files(patterns ...string) []string {
	var out []string
	for _, d := range Folders() {
		for _, p := range patterns {
			m, _ := filepath.Glob(filepath.Join(d, p))
			out = append(out, m...)
		}
	}
	return out
}
