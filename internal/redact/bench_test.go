package redact_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

// BenchmarkRedact runs the redactor over every line of a generated
// session of about 32 MB, as show --redact does.
func BenchmarkRedact(b *testing.B) {
	dir := b.TempDir()
	tot, err := corpus.Generate(corpus.Options{Dir: dir, Size: 32 << 20, Sessions: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, tot.Sessions[0].Path))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(data, []byte{'\n'})
	r := redact.New("/home/dev")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for _, l := range lines {
			r.Bytes(l)
		}
	}
}
