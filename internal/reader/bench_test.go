package reader_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tokens"
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

// BenchmarkHugeLine reads files made of one huge line and a small one
// (generated in b.TempDir(), 300 MiB and 200 MiB: run with -benchtime=1x)
// with the options each command reads with, and reports the peak heap
// (sampled) and, on Linux, the peak RSS of the reading. "skipped": a line
// of 300 MiB, over the 256 MiB limit, must cost at most 64 MiB in every
// command (issue 23). "counted": a 200 MiB assistant line within the
// limit costs a counter (ls --long, tokens) its structure only; show
// holds it whole, as it prints it.
func BenchmarkHugeLine(b *testing.B) {
	dir := b.TempDir()
	huge := func(name, head, tail string, n int) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		block := bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz0123456789 .,\\n"), 1<<20/40)
		f.WriteString(head)
		for w := 0; w < n; w += len(block) {
			f.Write(block[:min(len(block), n-w)])
		}
		f.WriteString(tail + "\n" + `{"type":"user","uuid":"after","message":{"role":"user","content":"next"}}` + "\n")
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		return p
	}
	skipped := huge("skipped.jsonl", `{"type":"user","uuid":"u","message":{"role":"user","content":"`, `"}}`, 300<<20)
	counted := huge("counted.jsonl", `{"type":"assistant","uuid":"a","requestId":"r","message":{"id":"m","role":"assistant","model":"claude-x","content":[{"type":"text","text":"`,
		`"}],"usage":{"input_tokens":3,"output_tokens":5}}}`, 200<<20)
	always := func([]byte) bool { return true }
	cases := []struct {
		name, path string
		o          reader.Options
		entries    int
	}{
		{"skipped/tree,show", skipped, reader.Options{Facts: true}, 1},
		{"skipped/agents", skipped, reader.Options{KeepRaw: true}, 1},
		{"skipped/ls-long", skipped, reader.Options{Want: always}, 1},
		{"skipped/tokens", skipped, reader.Options{Want: tokens.Wanted}, 0},
		{"counted/ls-long,tokens", counted, reader.Options{Want: tokens.Wanted}, 1},
		{"counted/show", counted, reader.Options{KeepRaw: true}, 2},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var peakHeap, peakRSS float64
			for b.Loop() {
				runtime.GC()
				resetPeakRSS()
				stop := sampleHeap(&peakHeap)
				r, cl, err := reader.Open(c.path, c.o)
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for _, ok := r.Next(); ok; _, ok = r.Next() {
					n++
				}
				cl.Close()
				stop()
				peakRSS = max(peakRSS, peakRSSMiB())
				if n != c.entries || r.Err() != nil {
					b.Fatalf("%d entries, err %v", n, r.Err())
				}
			}
			b.ReportMetric(peakHeap, "peak-heap-MiB")
			if peakRSS > 0 {
				b.ReportMetric(peakRSS, "peak-RSS-MiB")
			}
		})
	}
}

// sampleHeap records the largest heap seen (MiB, live and garbage objects)
// every millisecond until stop is called.
func sampleHeap(peak *float64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			*peak = max(*peak, float64(s[0].Value.Uint64())/(1<<20))
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// resetPeakRSS resets the process's peak RSS (Linux; elsewhere nothing).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMiB is the process's peak RSS since resetPeakRSS (Linux), or 0.
func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
