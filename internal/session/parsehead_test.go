package session

import (
	"bytes"
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
		switch r.IntN(4) {
		case 0: // a title cleared: taken as none, an older one wins
			return `{"type":"custom-title","customTitle":""}`
		case 1: // nothing once on one line
			return `{"type":"custom-title","customTitle":" \n "}`
		}
		return fmt.Sprintf(`{"type":"custom-title","customTitle":"custom %d"}`, n)
	case 4:
		if r.IntN(4) == 0 {
			return `{"type":"ai-title","aiTitle":""}`
		}
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

// Lite finds the first typed prompt past a head that has none where a
// scan from the start of the file finds it.
func TestPromptPastTheHead(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	env := `"timestamp":"2026-01-01T00:00:00Z","cwd":"/p","gitBranch":"main"`
	for i := range 200 {
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteString("\xef\xbb\xbf")
		}
		for b.Len() < liteBytes+r.IntN(liteBytes) {
			switch r.IntN(4) {
			case 0:
				fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":"<command-name>/clear</command-name>"}}`, env)
			case 1:
				fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":[{"type":"tool_result","content":"%s"}]}}`, env, strings.Repeat("r", r.IntN(2000)))
			default:
				fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"role":"assistant","content":[{"type":"text","text":"%s"}]}}`, env, strings.Repeat("a", r.IntN(3000)))
			}
			b.WriteByte('\n')
		}
		for range r.IntN(5) {
			fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"role":"assistant","content":"x"}}`+"\n", env)
		}
		if r.IntN(5) > 0 {
			fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":"the prompt %d"}}`+"\n", env, i)
		}
		for range r.IntN(20) {
			fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"role":"assistant","content":"%s"}}`+"\n", env, strings.Repeat("z", r.IntN(5000)))
		}
		p := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		head, _, at, err := readHeadTailAt(p, liteBytes)
		if err != nil {
			t.Fatal(err)
		}
		k := bytes.LastIndexByte(head, '\n')
		from := at[0] + int64(k+1)
		p1, at1, _, _ := scanHead(p, int64(len(head)), 0, true, false, false)
		p2, at2, _, _ := scanHead(p, int64(len(head)), from, true, false, false)
		if p1 != p2 || at1 != at2 {
			t.Fatalf("file %d: from the start %q at %v, from %d %q at %v", i, p1, at1, from, p2, at2)
		}
		if want := fmt.Sprintf(`"the prompt %d"`, i); p1 != "" && !strings.Contains(b.String()[at1.off:at1.off+at1.n], want) {
			t.Fatalf("file %d: the prompt's line at %v is %q", i, at1, b.String()[at1.off:at1.off+at1.n])
		}
		st, _ := os.Stat(p)
		in, err := Lite(&Session{ID: "x", Path: p, ModTime: st.ModTime(), Size: st.Size()})
		if err != nil || in.FirstPrompt != p1 && p1 != "" || in.promptAt != at1 && p1 != "" {
			t.Fatalf("file %d: Lite's first prompt %q at %v, the scan's %q at %v (%v)", i, in.FirstPrompt, in.promptAt, p1, at1, err)
		}
	}
}

// A head's title line is taken when the tail's come to nothing: a
// custom title cleared in the tail ("") leaves the head's custom title
// the latest, ahead of the tail's AI title (as the SDKs take "the last
// customTitle in the tail, else the last in the head"); a custom title
// that is nothing once on one line leaves the head's AI title ahead of
// what follows.
func TestHeadTitleBehindAnEmptyTailTitle(t *testing.T) {
	pad := strings.Repeat("x", 2000)
	filler := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","timestamp":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"text","text":"%s"}]}}`+"\n", i, pad)
		}
		return b.String()
	}
	head := `{"type":"user","uuid":"u0","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","gitBranch":"main","message":{"role":"user","content":"hello"}}` + "\n" // all a row takes from the first lines
	for _, c := range []struct {
		name, head, tail, title, source string
	}{
		{"custom title cleared in the tail, AI title there", `{"type":"custom-title","customTitle":"Mine"}` + "\n",
			`{"type":"custom-title","customTitle":""}` + "\n" + `{"type":"ai-title","aiTitle":"AI"}` + "\n", "Mine", "custom-title"},
		{"custom title of blanks in the tail, AI title in the head", `{"type":"ai-title","aiTitle":"Head AI"}` + "\n",
			`{"type":"custom-title","customTitle":" \n "}` + "\n", "Head AI", "ai-title"},
		{"custom title in the tail wins", `{"type":"custom-title","customTitle":"Old"}` + "\n",
			`{"type":"custom-title","customTitle":"New"}` + "\n" + `{"type":"ai-title","aiTitle":"AI"}` + "\n", "New", "custom-title"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body := head + c.head + filler(80) + c.tail
			p := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			s := &Session{ID: "x", Path: p, Size: int64(len(body))}
			got, err := Lite(s)
			if err != nil {
				t.Fatal(err)
			}
			if got.Title != c.title || got.TitleSource != c.source {
				t.Errorf("title %q from %s, want %q from %s", got.Title, got.TitleSource, c.title, c.source)
			}
			parseWholeHead = true
			want, _ := Lite(s)
			parseWholeHead = false
			if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *want) {
				t.Errorf("parseHead:  %+v\nwhole head: %+v", *got, *want)
			}
		})
	}
}
