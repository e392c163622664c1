package reader

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// withHold lowers holdBytes for a test.
func withHold(t *testing.T, n int) {
	t.Helper()
	old := holdBytes
	holdBytes = n
	t.Cleanup(func() { holdBytes = old })
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type readResult struct {
	entries []string
	issues  []string
}

// readWith reads a reader to its end, entries and issues as text.
func readWith(t *testing.T, r *Reader, issues *[]Issue) readResult {
	t.Helper()
	var res readResult
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		e.Facts = nil
		raw := fmt.Sprintf("%d bytes %x", len(e.Raw), sha256.Sum256(e.Raw))
		e.Raw = nil
		res.entries = append(res.entries, fmt.Sprintf("%+v raw %s", e, raw))
	}
	if err := r.Err(); err != nil {
		t.Fatalf("read error: %v", err)
	}
	for _, is := range *issues {
		res.issues = append(res.issues, is.Error())
	}
	return res
}

// longLineFile is a transcript of lines longer and shorter than a small
// hold: a BOM before a long first line, CRLF, a long line within the limit
// and one over it, a long line cut by a crash's NUL run, a long line with
// escapes, a long unwanted tool result, a long last line without newline.
// Long is longer than the read buffer (1 MiB): shorter lines are never
// put together.
func longLineFile() string {
	big := func(n int, c string) string { return strings.Repeat(c, n/len(c)) }
	lines := []string{
		"\uFEFF" + `{"type":"user","uuid":"first","message":{"role":"user","content":"` + big(1200<<10, "a") + `"}}`,
		`{"type":"assistant","uuid":"a1","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"text","text":"` + big(2<<20, `x\"\\\u00e9\n`) + `"}],"usage":{"input_tokens":3,"output_tokens":4}}}` + "\r",
		`{"type":"user","uuid":"toolong","message":{"role":"user","content":"` + big(5<<20, "z") + `"}}`,
		`{"type":"user","uuid":"small"}`,
		big(1500<<10, "\x00") + `{"type":"user","uuid":"after a crash"}`,
		`{"type":"user","uuid":"r2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"` + big(1500<<10, "q") + `"}]}}`,
		`{"type":"user","uuid":"bad","message":{"content":"` + big(1200<<10, "b") + `"` + big(10, "]"),
		`{"type":"user","uuid":"prompt","message":{"role":"user","content":"` + big(1100<<10, `\n `) + `typed words ` + big(200<<10, "w") + `"}}`,
		`{"type":"user","uuid":"ctx","message":{"role":"user","content":"<ide_selection>` + big(1200<<10, "s") + `</ide_selection>"}}`,
		`{"type":"assistant","uuid":"last","message":{"id":"m2","role":"assistant","content":"` + big(1100<<10, "l") + `","usage":{"input_tokens":1}}}`,
	}
	return strings.Join(lines, "\n")
}

// A line longer than the hold is read again from the file once its end is
// found: every reader of a file (Open, OpenRange, New on a file) gives what
// a reader of a stream gives, entry for entry and issue for issue.
func TestLongLinesReadAgainFromTheFile(t *testing.T) {
	withHold(t, 64<<10)
	content := longLineFile()
	path := writeTemp(t, content)
	for _, o := range []Options{
		{KeepRaw: true},
		{Facts: true},
		{}, // parses every line
		{Want: func([]byte) bool { return true }}, // a counter: long lines are cut (compactLine)
		{Want: func(l []byte) bool { return !strings.Contains(string(l[:min(len(l), 60)]), "tool_result") }},
	} {
		o.MaxLineBytes = 4 << 20
		var want readResult
		{
			var is []Issue
			o.Name, o.OnIssue = path, func(i Issue) { is = append(is, i) }
			want = readWith(t, New(strings.NewReader(content), o), &is) // a stream: no second look
		}
		check := func(name string, r *Reader, is *[]Issue) {
			t.Helper()
			got := readWith(t, r, is)
			if strings.Join(got.entries, "\n") != strings.Join(want.entries, "\n") || strings.Join(got.issues, "\n") != strings.Join(want.issues, "\n") {
				t.Errorf("%s (KeepRaw %v, Want %v): differs from a stream's reading\n got %d entries %q\nwant %d entries %q", name, o.KeepRaw, o.Want != nil, len(got.entries), got.issues, len(want.entries), want.issues)
				for i := range min(len(got.entries), len(want.entries)) {
					if got.entries[i] != want.entries[i] {
						t.Errorf("entry %d\n got %.300s\nwant %.300s", i, got.entries[i], want.entries[i])
						break
					}
				}
			}
		}
		var is []Issue
		o.OnIssue = func(i Issue) { is = append(is, i) }
		r, c, err := Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		check("Open", r, &is)
		c.Close()
		is = nil
		f, _ := os.Open(path)
		check("New on a file", New(f, o), &is)
		f.Close()
		is = nil
		zf, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sec, _ := zf.Section(0, -1)
		if _, ok := sec.(*Section); !ok {
			t.Fatalf("a plain file's Section is a %T, not a *Section: long lines would be held", sec)
		}
		check("New on a File.Section", New(sec, o), &is)
		zf.Close()
	}
	if len(strings.Split(content, "\n")) < 10 {
		t.Fatal("short file")
	}
}

// A reader of a file that starts mid-file (standard input redirected from
// a file whose start was read already) reads long lines again at the right
// place.
func TestLongLineFromAFileOpenedMidway(t *testing.T) {
	withHold(t, 1024)
	first := `{"uuid":"skipped"}` + "\n"
	long := `{"uuid":"long","x":"` + strings.Repeat("y", 5000) + `"}`
	path := writeTemp(t, first+long+"\n")
	f, _ := os.Open(path)
	defer f.Close()
	f.Seek(int64(len(first)), io.SeekStart)
	es, ok := New(f, Options{KeepRaw: true}).Next()
	if !ok || es.UUID != "long" || string(es.Raw) != long || es.Size != len(long) {
		t.Fatalf("got %v %q (%d bytes)", ok, es.UUID, len(es.Raw))
	}
}

// A line over the limit costs the hold, not the limit: it is measured as
// it streams by, never put together (this cost ~5 times the limit when the
// buffer grew to it).
func TestSkippedLongLineIsNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("a 40 MiB file")
	}
	const limit = 32 << 20
	big := `{"uuid":"big","x":"` + strings.Repeat("y", limit+8<<20) + `"}`
	path := writeTemp(t, big+"\n"+`{"uuid":"next"}`+"\n")
	for _, o := range []Options{{KeepRaw: true}, {Want: func([]byte) bool { return true }}, {Facts: true}} {
		o.MaxLineBytes = limit
		var is []Issue
		o.OnIssue = func(i Issue) { is = append(is, i) }
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, c, err := Open(path, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for e, ok := r.Next(); ok; e, ok = r.Next() {
			got = append(got, e.UUID)
		}
		c.Close()
		runtime.ReadMemStats(&after)
		if strings.Join(got, ",") != "next" || len(is) != 1 || is[0].Kind != TooLong {
			t.Fatalf("entries %q issues %v", got, is)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(holdBytes)*2+4<<20 {
			t.Errorf("skipping a %d MiB line allocated %d MiB; the hold is %d MiB", len(big)>>20, alloc>>20, holdBytes>>20)
		}
	}
}

// A counter (Want) gets a long line with its long strings cut: what it
// reads of the line is the same, and it never holds the tool output or
// text that makes the line long.
func TestCountersGetLongLinesCut(t *testing.T) {
	withHold(t, 64<<10)
	content := longLineFile() + "\n"
	path := writeTemp(t, content)
	var is []Issue
	r, c, err := Open(path, Options{MaxLineBytes: 4 << 20, Want: func([]byte) bool { return true }, OnIssue: func(i Issue) { is = append(is, i) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := 0
	for _, ok := r.Next(); ok; _, ok = r.Next() {
		if r.cut > 0 {
			n++
		}
	}
	// The entries are what a stream reader gets (TestLongLinesReadAgainFromTheFile).
	if n < 4 {
		t.Errorf("only %d lines were cut", n)
	}
}

// compactLine keeps every JSON line valid and its envelope the same:
// random lines with long strings full of escapes, cut at random places.
func TestCompactLineKeepsTheEnvelope(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	pieces := []string{"a", "é", "日本", `\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, " ", "<", "/", `\t`, "z"}
	str := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		return b.String()
	}
	for i := range 300 {
		n := []int{10, 5000, keepHead - 3, keepHead + keepTail + 1, 40000}[rnd.Intn(5)]
		text := str(n)
		if rnd.Intn(4) == 0 {
			text = "<ide_selection>" + text + "</ide_selection>"
		}
		if rnd.Intn(4) == 0 {
			text = strings.Repeat(`\n`, rnd.Intn(3000)) + text
		}
		var line string
		switch i % 3 {
		case 0:
			line = `{"type":"user","uuid":"u` + str(3) + `","message":{"role":"user","content":"` + text + `"}}`
		case 1:
			line = `{"type":"assistant","uuid":"a","requestId":"r","message":{"id":"m","role":"assistant","model":"claude-x","content":[{"type":"thinking","thinking":"` + str(n) + `","signature":"` + str(9000) + `"},{"type":"text","text":"` + text + `"}],"usage":{"input_tokens":5,"cache_read_input_tokens":7,"output_tokens":9}},"timestamp":"2026-01-01T00:00:00Z"}`
		default:
			line = `{"type":"user","uuid":"t","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"` + text + `"},{"type":"text","text":"` + str(n) + `"}]},"toolUseResult":{"stdout":"` + str(n) + `","agentId":"ag"}}`
		}
		if !gjson.Valid(line) {
			t.Fatalf("test line not JSON: %.200q", line)
		}
		got, cut, ok := compactLine(strings.NewReader(line), 0, len(line))
		if !ok {
			t.Fatalf("not cut: %.200q", line)
		}
		if len(got)+cut != len(line) {
			t.Fatalf("cut %d of %d, left %d", cut, len(line), len(got))
		}
		if !json.Valid(got) {
			t.Fatalf("cut line is not JSON:\n%.300q\n->\n%.300q", line, got)
		}
		want, _ := parseEnvelope([]byte(line), nil, nil)
		have, _ := parseEnvelope(got, nil, nil)
		if fmt.Sprintf("%+v", have) != fmt.Sprintf("%+v", want) {
			t.Fatalf("envelopes differ on %.200q\n got %+v\nwant %+v", line, have, want)
		}
		if len(line) > 4*(keepHead+keepTail)+2000 && len(got) > len(line)/2 {
			t.Errorf("a %d-byte line kept %d bytes", len(line), len(got))
		}
	}
}

// compactLine gives up where it cannot keep its promise: a NUL byte (a
// crash's residue, which the reader must see whole) or a result over the
// hold.
func TestCompactLineGivesUp(t *testing.T) {
	withHold(t, 100)
	if _, _, ok := compactLine(strings.NewReader(`{"a":"x`+"\x00"+`y"}`), 0, 10); ok {
		t.Error("a NUL byte was cut away")
	}
	many := `{"a":[` + strings.Repeat(`"s",`, 100) + `"e"]}`
	if _, _, ok := compactLine(strings.NewReader(many), 0, len(many)); ok {
		t.Error("a result over the hold was kept")
	}
}

// The start of a line longer than the read buffer goes to WantHead when
// it is set (a test of what a line holds anywhere cannot be made on its
// start), to Want otherwise; a line put together whole goes to Want. Here
// Want takes only the whole long line: its start alone is turned down.
func TestWantHeadSeesTheStartOfLongLines(t *testing.T) {
	long := `{"type":"user","uuid":"long","message":{"content":"` + strings.Repeat("x", 3<<20) + `"}}`
	short := `{"type":"user","uuid":"short","message":{"content":"x"}}`
	input := long + "\n" + short + "\n"
	for _, tc := range []struct {
		name     string
		wantHead func([]byte) bool
		read     []string
	}{
		{"no WantHead: Want decides", nil, nil},
		{"WantHead takes the long line", func([]byte) bool { return true }, []string{"long"}},
		{"WantHead turns it down", func([]byte) bool { return false }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var heads int
			o := Options{Want: func(l []byte) bool { return len(l) > readBufferBytes }}
			if tc.wantHead != nil {
				o.WantHead = func(h []byte) bool {
					heads++
					if len(h) > readBufferBytes || !strings.HasPrefix(string(h), `{"type":"user","uuid":"long"`) {
						t.Errorf("WantHead shown %d bytes, %.40q", len(h), h)
					}
					return tc.wantHead(h)
				}
			}
			r := New(strings.NewReader(input), o)
			var read []string
			for {
				e, ok := r.Next()
				if !ok {
					break
				}
				read = append(read, e.UUID)
			}
			if !slices.Equal(read, tc.read) || tc.wantHead != nil && heads != 1 {
				t.Errorf("read %q (WantHead called %d times), want %q", read, heads, tc.read)
			}
		})
	}
}
