package search

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// benchTree generates a projects tree of about 64 MB (a few sessions, with
// subagents) and returns its root and size.
func benchTree(b *testing.B) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	if _, err := corpus.Generate(corpus.Options{Dir: dir, Size: 64 << 20, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	var size int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			if fi, err := d.Info(); err == nil {
				size += fi.Size()
			}
		}
		return nil
	})
	return corpus.ProjectsDir(dir), size
}

// BenchmarkSearch searches a generated tree for a literal that is nowhere
// (the prefilter passes every line over), one on every line (every line is
// decoded and searched) and a regular expression without a literal (no
// prefilter), in Counts mode. "lines" is the floor: it reads every file
// and counts its newlines, as `wc -l` (or `rg -c` for a literal) does.
func BenchmarkSearch(b *testing.B) {
	root, size := benchTree(b)
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(size)
		buf := make([]byte, 1<<20)
		for b.Loop() {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
					return nil
				}
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				for {
					n, err := f.Read(buf)
					bytes.Count(buf[:n], []byte{'\n'})
					if err == io.EOF {
						break
					}
				}
				f.Close()
				return nil
			})
		}
	})
	roots, err := session.Roots([]string{root}, session.Env{Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name, pattern string
		o             PatternOptions
	}{
		{"rare", "xylophone", PatternOptions{}},
		{"rare-fold", "xylophone", PatternOptions{Fold: true}},
		{"every-line", "uuid", PatternOptions{}},
		{"common-word", "the", PatternOptions{Fold: true}},
		{"no-literal", `\d{4}-\d{2}`, PatternOptions{}},
	} {
		p, err := Compile(c.pattern, c.o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				f := session.NewFinder(roots, nil)
				targets, err := Targets(f, nil, Selection{})
				if err != nil {
					b.Fatal(err)
				}
				for range Run(f, targets, Options{Pattern: p, Roles: DefaultRoles, Mode: Counts}) {
				}
			}
		})
	}
}
