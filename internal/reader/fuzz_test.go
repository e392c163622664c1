package reader

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
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
		// No read error on an in-memory reader, but the one of a UTF-16
		// file, said at its start.
		if err := r.Err(); err != nil && !(errors.Is(err, ErrUTF16) && IsUTF16(data) && n == 0) {
			t.Fatalf("read error on an in-memory reader: %v", err)
		}
		// A line is read or skipped, never both; a kept line may have an
		// issue too (an odd value, a crash's residue before it).
		if n+r.Skipped() > r.Line() || r.Skipped() > issues {
			t.Fatalf("%d entries + %d skipped > %d lines (%d issues)", n, r.Skipped(), r.Line(), issues)
		}
	})
}

// FuzzUsage puts any JSON value where a token count goes (at the top of
// message.usage and in its cache_creation object). A count written as a
// plain integer within bounds is read as it is, silently; anything else is
// never read silently: the line gets an issue (an odd value, an
// implausible count), so --strict fails, unless it is null (no count).
func FuzzUsage(f *testing.F) {
	for _, v := range []string{"12", "0", "-5", "1.5", `"12"`, "1e400", "null", "true", `"lots"`, "[1]", "{}", "007", "-0", "9223372036854775808", "1099511627776"} {
		f.Add(v, false)
		f.Add(v, true)
	}
	f.Fuzz(func(t *testing.T, v string, nested bool) {
		v = string(trimSpace([]byte(v)))
		line := `{"type":"assistant","uuid":"a","message":{"usage":{"input_tokens":` + v + `,"output_tokens":1}}}`
		if nested {
			line = `{"type":"assistant","uuid":"a","message":{"usage":{"output_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":` + v + `}}}}`
		}
		var issues []Issue
		r := New(bytes.NewReader([]byte(line+"\n")), Options{OnIssue: func(is Issue) { issues = append(issues, is) }})
		e, ok := r.Next()
		if !ok {
			return // not JSON: skipped, and said so (FuzzReader)
		}
		// A value holding a line break splits the line: the rest is a
		// line of its own, whose issue comes when it is read.
		for _, more := r.Next(); more; _, more = r.Next() {
		}
		got := e.Usage.Input
		if nested {
			got = e.Usage.CacheCreation5m
		}
		n, err := strconv.ParseInt(v, 10, 64)
		plain := err == nil && plainInt([]byte(v)) && n >= 0 && n <= MaxTokenCount
		switch {
		case plain && (got != n || len(issues) != 0):
			t.Fatalf("%s: read %d with %v, want %d silently", v, got, issues, n)
		case !plain && v != "null" && len(issues) == 0:
			t.Fatalf("%s: read as %d without a word", v, got)
		case v == "null" && (got != 0 || len(issues) != 0):
			t.Fatalf("null: read %d with %v", got, issues)
		}
	})
}
