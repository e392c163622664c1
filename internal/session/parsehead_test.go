package session

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// liteLine is one line of a transcript that parseHead may or may not
// parse, in a random order: each field Lite takes from a head is missing
// from some lines, and title lines (some with an escaped type) lie
// anywhere.
func liteLine(r *rand.Rand, n int, titles bool, rare int) string {
	ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(100000)) * time.Second).Format(time.RFC3339Nano)
	env := func(typ string) string {
		var b strings.Builder
		fmt.Fprintf(&b, `{"type":%q,"uuid":"u%d"`, typ, n)
		if r.IntN(rare) == 0 {
			fmt.Fprintf(&b, `,"timestamp":%q`, ts)
		}
		if r.IntN(rare) == 0 {
			fmt.Fprintf(&b, `,"cwd":"/src/p%d"`, r.IntN(3))
		}
		if r.IntN(rare) == 0 {
			fmt.Fprintf(&b, `,"gitBranch":"b%d"`, n)
		}
		if r.IntN(3) == 0 {
			fmt.Fprintf(&b, `,"version":"2.1.%d"`, n)
		}
		if r.IntN(8) == 0 {
			b.WriteString(`,"isSidechain":true`)
		}
		return b.String()
	}
	pad := strings.Repeat("x", r.IntN(3000))
	k := r.IntN(12)
	if !titles && k >= 3 && k <= 7 {
		k = 11
	}
	switch k {
	case 0:
		return env("user") + fmt.Sprintf(`,"message":{"role":"user","content":"prompt %d %s"}}`, n, pad)
	case 1:
		return env("user") + `,"message":{"role":"user","content":"<command-name>/clear</command-name>"}}`
	case 2:
		return env("user") + `,"message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}`
	case 3:
		return fmt.Sprintf(`{"type":"custom-title","customTitle":"custom %d"}`, n)
	case 4:
		return fmt.Sprintf(`{"type":"ai-title","aiTitle":"ai %d"}`, n)
	case 5:
		return fmt.Sprintf(`{"type":"custom\u002d\u0074itle","customTitle":"escaped %d"}`, n)
	case 6:
		return fmt.Sprintf(`{"type":"summary","summary":"summary %d"}`, n)
	case 7:
		return fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"last %d"}`, n)
	case 8:
		return `{"type":"user","broken` + pad // cut
	case 9:
		return env("system") + `,"content":"title \u001b"}`
	}
	return env("assistant") + fmt.Sprintf(`,"message":{"role":"assistant","content":[{"type":"text","text":"%s"}]}}`, pad)
}

// Lite finds in the lines parseHead parses what it finds parsing every
// line of the head.
func TestParseHeadIsTheWholeHead(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(20, 26))
	for i := range 300 {
		// Title lines in the head only, in half the files: the tail has
		// none to take before the head's.
		headOnly := r.IntN(2) == 0
		rare := []int{1, 3, 60}[r.IntN(3)] // how rarely a line has a time, cwd or branch
		var b strings.Builder
		for n := 0; b.Len() < liteBytes+r.IntN(3*liteBytes); n++ {
			b.WriteString(liteLine(r, n, !headOnly || b.Len() < liteBytes/2, rare))
			b.WriteByte('\n')
		}
		p := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		s := &Session{ID: "x", Path: p, ModTime: st.ModTime(), Size: st.Size()}
		parseWholeHead = true
		want, werr := Lite(s)
		parseWholeHead = false
		got, err := Lite(s)
		if err != nil || werr != nil {
			t.Fatal(err, werr)
		}
		if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *want) {
			t.Fatalf("file %d:\nparseHead:  %+v\nwhole head: %+v", i, *got, *want)
		}
	}
}
