package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// chainSession is the id of the session -chain writes.
const chainSession = "c4a1c4a1-0000-4000-8000-000000000001"

// writeChain writes DIR/projects/-bench-chain/<chainSession>.jsonl: one
// conversation of n entries, each the child of the one before (user and
// assistant in turn, every assistant with usage), ~311 bytes a line, for
// the memory benchmarks of issue 23.3 (tools/membench.sh). The same n
// gives the same bytes.
func writeChain(dir string, n int) (string, error) {
	d := filepath.Join(dir, "projects", "-bench-chain")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(d, chainSession+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	uuid := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i) }
	var b []byte
	for i := 0; i < n; i++ {
		b = b[:0]
		b = append(b, `{"parentUuid":`...)
		if i == 0 {
			b = append(b, `null`...)
		} else {
			b = strconv.AppendQuote(b, uuid(i-1))
		}
		b = append(b, `,"cwd":"/w","sessionId":"`+chainSession+`","type":`...)
		if i%2 == 0 {
			b = append(b, `"user","message":{"role":"user","content":"prompt `...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, `"}`...)
		} else {
			b = append(b, `"assistant","message":{"id":"msg_`...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, `","model":"claude-sonnet-4-5","role":"assistant","content":"r","usage":{"input_tokens":3,"output_tokens":7}}`...)
		}
		b = append(b, `,"uuid":`...)
		b = strconv.AppendQuote(b, uuid(i))
		b = append(b, `,"timestamp":"`...)
		b = t0.Add(time.Duration(i)*time.Second).AppendFormat(b, "2006-01-02T15:04:05.000Z")
		b = append(b, "\"}\n"...)
		w.Write(b)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}

// writeLongLine writes DIR/projects/-bench-line/<id>.jsonl: one user line
// of about size bytes (its text one long string), then a short line, for
// the skipped over-long line of issue 23.3.
func writeLongLine(dir string, size int64) (string, error) {
	d := filepath.Join(dir, "projects", "-bench-line")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	const id = "c4a1c4a1-0000-4000-8000-000000000002"
	path := filepath.Join(d, id+".jsonl")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"parentUuid":null,"isSidechain":false,"cwd":"/work/line","sessionId":"` + id + `","version":"2.1.0","type":"user","uuid":"00000001-0000-4000-8000-000000000001","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"`)
	chunk := make([]byte, 1<<16)
	for i := range chunk {
		chunk[i] = 'a' + byte(i%26)
	}
	for left := size; left > 0; left -= int64(len(chunk)) {
		if left < int64(len(chunk)) {
			chunk = chunk[:left]
		}
		w.Write(chunk)
	}
	w.WriteString("\"}}\n")
	w.WriteString(`{"parentUuid":"00000001-0000-4000-8000-000000000001","isSidechain":false,"cwd":"/work/line","sessionId":"` + id + `","version":"2.1.0","type":"assistant","uuid":"00000002-0000-4000-8000-000000000002","timestamp":"2026-01-02T03:04:06.000Z","message":{"id":"msg_1","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"output_tokens":7}}}` + "\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return "", err
	}
	return path, f.Close()
}
