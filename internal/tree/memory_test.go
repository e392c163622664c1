package tree

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeChain writes a session of n entries, each the child of the one
// before (user and assistant in turn, every assistant with usage and its
// own message.id): the shape of tools/gencorpus -chain.
func writeChain(t testing.TB, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c4a1c4a1-0000-4000-8000-000000000001.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	uuid := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i) }
	for i := 0; i < n; i++ {
		parent := "null"
		if i > 0 {
			parent = `"` + uuid(i-1) + `"`
		}
		msg := fmt.Sprintf(`"user","message":{"role":"user","content":"prompt %d"}`, i)
		if i%2 == 1 {
			msg = fmt.Sprintf(`"assistant","message":{"id":"msg_%d","model":"claude-sonnet-4-5","role":"assistant","content":"r","usage":{"input_tokens":3,"output_tokens":7}}`, i)
		}
		fmt.Fprintf(w, `{"parentUuid":%s,"cwd":"/w","sessionId":"c4a1c4a1-0000-4000-8000-000000000001","type":%s,"uuid":"%s","timestamp":"2026-01-02T03:04:05.000Z"}`+"\n", parent, msg, uuid(i))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// maxNodeBytes bounds the heap a tree keeps per entry of a long chain (the
// nodes, their envelopes and strings, the indexes, the active path): the
// target of issue 23.3 (see BENCHMARKS.md, "Memory bounded by the work").
// It was 1,093 bytes on this chain (1,100 on a 1M-entry one) before the Go
// maps of uuids and responses and the building-only facts went out of the
// node; 994 after; 625 once the node kept only the common fields of the
// envelope in line (the rest shared or out of line); 479 with the records
// of the lines that have usage, tool calls or a prompt in slabs; 417 with
// uuids, message ids and prompts in a string arena, the timestamp as Unix
// nanoseconds and slabs of 64 KiB (a whole number of pages); 409 with the
// agent read from the file; 394 with the children in one array; 383 with
// the reader's strings made in the tree's arena (requestIds were kept as
// the reader's allocations).
const maxNodeBytes = 400

// TestHeapPerEntry is a bound, not a timing: the heap a tree of a 100k
// chain holds, per entry, after a collection.
func TestHeapPerEntry(t *testing.T) {
	const n = 100_000
	path := writeChain(t, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := LoadFiles(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if len(tr.Nodes) != n || len(tr.ActivePath()) != n {
		t.Fatalf("%d nodes, active path of %d: want %d", len(tr.Nodes), len(tr.ActivePath()), n)
	}
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d heap bytes per entry (bound %d)", per, maxNodeBytes)
	if per > maxNodeBytes {
		t.Errorf("a tree of a %d-entry chain holds %d heap bytes per entry, more than %d", n, per, maxNodeBytes)
	}
	runtime.KeepAlive(tr)
}
