package session

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"github.com/cctx-dev/cctx/internal/reader"
)

func TestZZPrefilter(t *testing.T) {
	for _, tree := range []string{"/tmp/b17/real/projects", "/tmp/b17/gen5k/projects"} {
		files, _ := filepath.Glob(tree + "/*/*.jsonl")
		var heads [][]byte
		for _, f := range files[:min(len(files), 1500)] {
			b, _ := os.ReadFile(f)
			if len(b) > liteBytes {
				heads = append(heads, b[:liteBytes])
			}
		}
		var lines [][]byte
		for _, h := range heads {
			lines = append(lines, completeLines(h, true, false)...)
		}
		tot := 0
		for _, l := range lines {
			tot += len(l)
		}
		m := func(name string, fn func(l []byte) bool) {
			t0 := time.Now()
			n := 0
			for _, l := range lines {
				if fn(l) {
					n++
				}
			}
			t.Logf("%s %s: %v for %d MB, %d of %d lines", filepath.Base(filepath.Dir(tree)), name, time.Since(t0), tot>>20, n, len(lines))
		}
		m("title", func(l []byte) bool { return bytes.Contains(l, []byte("title")) })
		m("-title\"", func(l []byte) bool { return bytes.Contains(l, []byte("-title\"")) })
		m("\\u", func(l []byte) bool { return bytes.Contains(l, []byte(`\u`)) })
		m("parse", func(l []byte) bool { _, ok := reader.ParseLine(l); return ok })
		m("peek", func(l []byte) bool { typ, _, _ := reader.Peek(l); return typ == "custom-title" })
	}
}

func TestZZSize(t *testing.T) {
	t.Logf("parsedLine %d bytes", unsafe.Sizeof(parsedLine{}))
}
