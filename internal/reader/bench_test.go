package reader_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// benchTranscript generates one session of about 32 MB (its main file is
// ~20 MB, with split responses, parallel tool calls and a few long lines)
// and returns the main file's path and size.
func benchTranscript(b *testing.B) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	tot, err := corpus.Generate(corpus.Options{Dir: dir, Size: 32 << 20, Sessions: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(dir, tot.Sessions[0].Path)
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	return p, st.Size()
}

// BenchmarkReader streams a generated transcript. "lines" is the floor: it
// only counts newlines with a 1 MiB buffer, like `wc -l`; the other cases
// read entries and are best read as a ratio to it.
func BenchmarkReader(b *testing.B) {
	path, size := benchTranscript(b)
	b.Run("lines", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		buf := make([]byte, 1<<20)
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for {
				k, err := f.Read(buf)
				n += bytes.Count(buf[:k], []byte{'\n'})
				if err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
			}
			f.Close()
			if n == 0 {
				b.Fatal("no lines")
			}
		}
	})
	for _, keep := range []bool{false, true} {
		name := "envelope"
		if keep {
			name = "keep-raw"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				r, c, err := reader.Open(path, reader.Options{KeepRaw: keep})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					if _, ok := r.Next(); !ok {
						break
					}
					n++
				}
				c.Close()
				if r.Err() != nil || n == 0 || r.Skipped() > 0 {
					b.Fatalf("%d entries, %d skipped, err %v", n, r.Skipped(), r.Err())
				}
			}
		})
	}
}

// BenchmarkParseLines reads lines already in memory, so no I/O blurs the
// figure: "assistant" is every assistant line of a generated session (the
// lines `cctx tokens` parses, mostly envelope and usage), "other" the rest
// (long tool results, progress lines).
func BenchmarkParseLines(b *testing.B) {
	path, _ := benchTranscript(b)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var assistant, other []byte
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 {
			continue
		}
		if typ, role, _ := reader.Peek(line); typ == "assistant" || role == "assistant" {
			assistant = append(append(assistant, line...), '\n')
		} else {
			other = append(append(other, line...), '\n')
		}
	}
	for _, c := range []struct {
		name  string
		lines []byte
	}{{"assistant", assistant}, {"other", other}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.lines)))
			b.ReportAllocs()
			for b.Loop() {
				r := reader.New(bytes.NewReader(c.lines), reader.Options{})
				for {
					if _, ok := r.Next(); !ok {
						break
					}
				}
				if r.Skipped() > 0 {
					b.Fatalf("%d lines rejected", r.Skipped())
				}
			}
		})
	}
}
