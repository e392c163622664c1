package reader

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader. Whatever the input, it
// must not panic, every entry must be a JSON object taken verbatim from the
// input at its offset, and entries plus skipped lines never exceed lines.
func FuzzReader(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	for _, p := range seeds {
		// The head of each sample: large seeds make the engine spend its
		// time minimising instead of fuzzing.
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b[:min(len(b), 8<<10)])
		}
	}
	f.Add([]byte("\xEF\xBB\xBF{\"uuid\":\"a\"}\r\n\n[1]\n{\"type\":\"user\",\"message\":{\"usage\":null}}\n{\"trunc"))
	f.Add([]byte("{\"message\":{\"content\":[{\"type\":\"text\"},1,null],\"usage\":{\"input_tokens\":\"9\"}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		issues := 0
		r := New(bytes.NewReader(data), Options{KeepRaw: true, MaxLineBytes: 4096, OnIssue: func(Issue) { issues++ }})
		n := 0
		last := int64(-1)
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			n++
			if !Valid(e.Raw) {
				t.Fatalf("entry on line %d is not a JSON object: %q", e.Line, e.Raw)
			}
			if e.Offset <= last || e.Offset > int64(len(data)) {
				t.Fatalf("offset %d after %d", e.Offset, last)
			}
			last = e.Offset
			if !bytes.Contains(data[e.Offset:], e.Raw) {
				t.Fatalf("line %d not found at its offset", e.Line)
			}
		}
		if r.Err() != nil {
			t.Fatalf("read error on an in-memory reader: %v", r.Err())
		}
		// A line is read or skipped, never both; a kept line may have an
		// issue too (an odd value, a crash's residue before it).
		if n+r.Skipped() > r.Line() || r.Skipped() > issues {
			t.Fatalf("%d entries + %d skipped > %d lines (%d issues)", n, r.Skipped(), r.Line(), issues)
		}
	})
}
