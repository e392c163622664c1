package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// readLineEnd reads back the members a parse of the whole line would
// take, or says it cannot.
func TestReadLineEnd(t *testing.T) {
	for _, c := range []struct {
		name, line               string
		want                     int
		ok, all                  bool
		typ, ts, branch, version string
	}{
		{"assistant 1.x", `{"a":1,"message":{"x":"}"},"requestId":"r","type":"assistant","uuid":"u","timestamp":"2026-01-01T00:00:00.000Z"}`,
			endType | endTime, true, false, `"assistant"`, `"2026-01-01T00:00:00.000Z"`, "", ""},
		{"2.1.x envelope last", `{"message":{},"type":"user","timestamp":"t","cwd":"/p","version":"2.1.1","gitBranch":"main"}`,
			endType | endTime | endBranch | endVersion, true, false, `"user"`, `"t"`, `"main"`, `"2.1.1"`},
		{"type before the message", `{"type":"user","message":{"role":"user","x":["}",{"]":"{"}]},"uuid":"u","timestamp":"t"}`,
			endType | endTime, true, false, `"user"`, `"t"`, "", ""},
		{"every member read", `{"type":"mode","mode":"x","n":12,"ok":true,"z":null}`,
			endType | endTime, true, true, `"mode"`, "", "", ""},
		{"empty object", `{}`, endType, true, true, "", "", "", ""},
		{"empty object with space", `{ }`, endType, true, true, "", "", "", ""},
		{"the last string type is taken", `{"type":"ai-title","message":{},"type":"user","type":null,"timestamp":"t"}`,
			endType | endTime, true, false, `"user"`, `"t"`, "", ""},
		{"a type that is no string is passed", `{"type":"ai-title","message":{},"type":null,"timestamp":"t"}`,
			endType | endTime, true, false, `"ai-title"`, `"t"`, "", ""},
		{"brackets and quotes in strings", `{"type":"a","m":{"s":"}]\"{[","t":[1,{"u":"\\"}]},"x":{}}`,
			endType, true, false, `"a"`, "", "", ""},
		{"the last timestamp is taken, whatever it is", `{"timestamp":"a","x":[],"timestamp":null,"type":"x"}`,
			endType | endTime, true, false, `"x"`, `null`, "", ""},
		{"escaped quotes", `{"x":{},"k":"a\"b\\","type":"q\"\\\"","timestamp":"t"}`,
			endType | endTime, true, false, `"q\"\\\""`, `"t"`, "", ""},
		{"a key with an escaped quote", `{"x":{},"ty\"pe":"a","type":"b","timestamp":"t"}`,
			endType | endTime, true, false, `"b"`, `"t"`, "", ""},
		{"an escaped type key is another key", `{"x":{},"type":"b","typ\u0065":"a","timestamp":"t"}`,
			endType | endTime, true, false, `"b"`, `"t"`, "", ""},
		{"white space", "{\"x\":{} ,\r\n \"type\" : \"b\"\t,\"timestamp\" :\"t\" }",
			endType | endTime, true, false, `"b"`, `"t"`, "", ""},
		{"numbers and literals", `{"x":[],"n":-1.5e+3,"f":false,"type":"b","t":true,"timestamp":12}`,
			endType | endTime, true, false, `"b"`, `12`, "", ""},
		{"a long string", `{"x":{},"type":"b","timestamp":"` + strings.Repeat("a", 5000) + `"}`,
			endType | endTime, true, false, `"b"`, `"` + strings.Repeat("a", 5000) + `"`, "", ""},
		{"too many members", `{` + strings.Repeat(`"a":1,`, maxEndMembers) + `"b":2}`,
			endType, false, false, "", "", "", ""},
		{"unbalanced", `{"type":"a","m":]}`, endType, false, false, "", "", "", ""},
		{"a long escaped run", `{"x":{},"type":"` + strings.Repeat(`\\`, 100) + `","timestamp":"t"}`,
			endType | endTime, true, false, `"` + strings.Repeat(`\\`, 100) + `"`, `"t"`, "", ""},
		{"no object", `["type","user"]`, endType, false, false, "", "", "", ""},
		{"no closing brace", `{"type":"user"`, endType, false, false, "", "", "", ""},
		{"no colon", `{"x":{},"type" "user"}`, endType, false, false, "", "", "", ""},
		{"no comma", `{"x":{} "type":"user"}`, endType | endTime, false, false, "", "", "", ""},
		{"a value with no key", `{"x":{},"user"}`, endType, false, false, "", "", "", ""},
		{"branch no string", `{"x":{},"gitBranch":"b","gitBranch":null,"type":"t","timestamp":"t"}`,
			endType | endTime | endBranch, true, false, `"t"`, `"t"`, `"b"`, ""},
	} {
		f, ok := readLineEnd([]byte(c.line), c.want)
		if ok != c.ok {
			t.Errorf("%s: ok %v, want %v", c.name, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if f.all != c.all || string(f.typ) != c.typ || string(f.ts) != c.ts || string(f.branch) != c.branch || string(f.version) != c.version {
			t.Errorf("%s: got all %v type %s ts %s branch %s version %s", c.name, f.all, f.typ, f.ts, f.branch, f.version)
		}
	}
}

// bigTail is a file whose tail holds the lines given, each padded past
// skimLine where it says PAD, after a head of filler: a prompt and
// answers, or with filler "progress" lines of no conversation.
func bigTail(t *testing.T, dir, name, filler string, lines ...string) *Session {
	t.Helper()
	var b strings.Builder
	if filler == "" {
		b.WriteString(`{"type":"user","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p","gitBranch":"head","message":{"role":"user","content":"first"}}` + "\n")
		filler = "assistant"
	}
	for b.Len() < 3*liteBytes {
		fmt.Fprintf(&b, `{"type":%q,"timestamp":"2026-01-01T00:00:01.000Z","message":{"content":"%s"}}`+"\n", filler, strings.Repeat("f", 2000))
	}
	pad := strings.Repeat("p", max(4<<10, 2*skimLine))
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "PAD", pad) + "\n")
	}
	p := filepath.Join(dir, name+".jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	return &Session{ID: name, Path: p, ModTime: st.ModTime(), Size: st.Size()}
}

// liteBoth is Lite with and without the lines skipped from what their
// end says; a difference fails the test.
func liteBoth(t *testing.T, s *Session) *Info {
	t.Helper()
	noSkim = true
	want, werr := Lite(s)
	noSkim = false
	got, err := Lite(s)
	if err != nil || werr != nil {
		t.Fatal(err, werr)
	}
	if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", *want) {
		t.Fatalf("%s:\nskipping:   %+v\nevery line: %+v", s.ID, *got, *want)
	}
	return got
}

// A line of the tail is left unparsed only when its parse could not
// change the row: each of these files has an older line, read back
// from its end, that does change it.
func TestTailSkipsOnlyWhatCannotChange(t *testing.T) {
	dir := t.TempDir()
	last := `{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-03-01T00:00:00.000Z","version":"2.1.9","gitBranch":"new"}`
	for _, c := range []struct {
		name   string
		filler string
		lines  []string
		check  func(in *Info) string
	}{
		{"an older line written later", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-09-01T00:00:00.000Z","version":"2.1.9","gitBranch":"old"}`, last},
			func(in *Info) string { return in.UpdatedAt.Format(time.RFC3339) + " " + in.GitBranch }},
		{"a later time with an offset", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-03-01T08:00:00+01:00","version":"2.1.9","gitBranch":"b"}`, last},
			func(in *Info) string { return in.UpdatedAt.UTC().Format(time.RFC3339) }},
		{"a later time in the same millisecond", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-03-01T00:00:00.0005Z","version":"2.1.9","gitBranch":"b"}`, last},
			func(in *Info) string { return in.UpdatedAt.UTC().Format(time.RFC3339Nano) }},
		{"a later time in a broken line is none", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-09-01T00:00:00.000Z","version":"2.1.9","gitBranch":"b"`, last},
			func(in *Info) string { return in.UpdatedAt.Format(time.RFC3339) }},
		{"two times, the last one taken", "", []string{
			`{"timestamp":"2026-09-01T00:00:00.000Z","message":{"content":"PAD"},"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z"}`, last},
			func(in *Info) string { return in.UpdatedAt.Format(time.RFC3339) }},
		{"a title behind a type that is no string", "", []string{
			`{"type":"ai-title","aiTitle":"the title","message":{"content":"PAD"},"type":null,"timestamp":"2026-01-01T00:00:00.000Z"}`, last},
			func(in *Info) string { return in.TitleSource + " " + in.Title }},
		{"an escaped title type", "", []string{
			`{"message":{"content":"PAD"},"summary":"sum","type":"summ\u0061ry","timestamp":"2026-01-01T00:00:00.000Z"}`, last},
			func(in *Info) string { return in.TitleSource + " " + in.Title }},
		{"a title line with a message", "", []string{
			`{"message":{"content":"PAD"},"customTitle":"mine","type":"custom-title","timestamp":"2026-01-01T00:00:00.000Z"}`, last},
			func(in *Info) string { return in.TitleSource + " " + in.Title }},
		{"the branch of an older line when the newer have none", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z","gitBranch":"older","version":"2.1.8"}`,
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-02-01T00:00:00.000Z","gitBranch":"","version":"2.1.9"}`,
			`{"type":"last-prompt","lastPrompt":"lp"}`},
			func(in *Info) string { return in.GitBranch + " " + in.Version + " " + in.TitleSource }},
		{"a branch before the message", "", []string{
			`{"gitBranch":"before","message":{"content":"PAD"},"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z","version":"2.1.8"}`,
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-02-01T00:00:00.000Z","gitBranch":"","version":"2.1.9"}`},
			func(in *Info) string { return in.GitBranch }},
		{"a branch that is no string", "", []string{
			`{"gitBranch":"real","message":{"content":"PAD"},"gitBranch":7,"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z","version":"2.1.8"}`,
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-02-01T00:00:00.000Z","version":"2.1.9"}`},
			func(in *Info) string { return in.GitBranch }},
		{"the version of an older line", "", []string{
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z","gitBranch":"b","version":"1.0.5"}`,
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-02-01T00:00:00.000Z","gitBranch":"b"}`},
			func(in *Info) string { return in.Version }},
		{"the only conversation line", "progress", []string{
			`{"message":{"content":"PAD"},"type":"user","timestamp":"2026-01-01T00:00:00.000Z"}`,
			`{"message":{"content":"PAD"},"type":"system","timestamp":"2026-02-01T00:00:00.000Z","gitBranch":"b","version":"2"}`},
			func(in *Info) string { return fmt.Sprint(in.Empty) }},
		{"the only conversation line is a queued input", "progress", []string{
			`{"attachment":{"type":"queued_command","prompt":"PAD","commandMode":"prompt"},"type":"attachment","timestamp":"2026-01-01T00:00:00.000Z"}`,
			`{"message":{"content":"PAD"},"type":"system","timestamp":"2026-02-01T00:00:00.000Z","gitBranch":"b","version":"2"}`},
			func(in *Info) string { return fmt.Sprint(in.Empty) }},
		{"a later time after a long string", "", []string{
			`{"message":{"content":"x"},"type":"assistant","timestamp":"2026-09-01T00:00:00.000Z","note":"PAD"}`, last},
			func(in *Info) string { return in.UpdatedAt.Format(time.RFC3339) }},
		{"the year 0", "", append(slices.Repeat([]string{`{"message":{"content":"PAD"},"type":"system"}`}, 25),
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"0000-07-01T00:00:00.000Z"}`,
			`{"message":{"content":"PAD"},"type":"assistant","timestamp":"0000-06-01T00:00:00.000Z","gitBranch":"b","version":"2"}`),
			func(in *Info) string { return fmt.Sprint(in.UpdatedAt.Equal(in.ModTime)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := liteBoth(t, bigTail(t, dir, strings.ReplaceAll(c.name, " ", "-"), c.filler, c.lines...))
			want := map[string]string{
				"an older line written later":                          "2026-09-01T00:00:00Z new",
				"a later time with an offset":                          "2026-03-01T07:00:00Z",
				"a later time in the same millisecond":                 "2026-03-01T00:00:00.0005Z",
				"a later time in a broken line is none":                "2026-03-01T00:00:00Z",
				"two times, the last one taken":                        "2026-03-01T00:00:00Z",
				"a title behind a type that is no string":              "ai-title the title",
				"an escaped title type":                                "summary sum",
				"a title line with a message":                          "custom-title mine",
				"the branch of an older line when the newer have none": "older 2.1.9 last-prompt",
				"a branch before the message":                          "before",
				"the only conversation line is a queued input":         "false",
				"a branch that is no string":                           "real",
				"the version of an older line":                         "1.0.5",
				"the only conversation line":                           "false",
				"a later time after a long string":                     "2026-09-01T00:00:00Z",
				"the year 0":                                           "true", // before the zero time: the file's mtime
			}[c.name]
			if got := c.check(in); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// Lite gives the same row skipping lines from what their end says as
// parsing every line, on tails of random lines: each field missing
// from some, keys in either order, times out of order, broken lines,
// escapes, titles anywhere.
func TestTailSkimIsEveryLine(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		var lines []string
		for n := range 10 + r.IntN(60) {
			lines = append(lines, randomLine(r, n))
		}
		liteBoth(t, bigTail(t, dir, fmt.Sprint(i), []string{"", "progress"}[r.IntN(2)], lines...))
	}
}

// bigHead is a file whose head holds the lines given (PAD as bigTail's)
// after a first line (by default a prompt that gives the row its start,
// cwd and branch), and then answers past the head.
func bigHead(t *testing.T, dir, name, first string, lines ...string) *Session {
	t.Helper()
	var b strings.Builder
	if first == "" {
		first = `{"type":"user","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p","gitBranch":"head","message":{"role":"user","content":"first"}}`
	}
	b.WriteString(first + "\n")
	pad := strings.Repeat("p", max(4<<10, 2*skimLine))
	for _, l := range lines {
		b.WriteString(strings.ReplaceAll(l, "PAD", pad) + "\n")
	}
	for b.Len() < 3*liteBytes {
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":"2026-01-01T00:00:01.000Z","message":{"content":"%s"}}`+"\n", strings.Repeat("f", 2000))
	}
	p := filepath.Join(dir, name+".jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	return &Session{ID: name, Path: p, ModTime: st.ModTime(), Size: st.Size()}
}

// A line of the head past its first ones is left unparsed only when its
// end says it is no title line: each of these heads has a title line
// that is long, or says its type before a value not read back.
func TestHeadSkipsOnlyWhatIsNoTitle(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"a long title line", []string{
			`{"message":{"content":"PAD"},"customTitle":"mine","type":"custom-title","timestamp":"2026-01-01T00:00:00.000Z"}`},
			"custom-title mine"},
		{"a title behind a type that is no string", []string{
			`{"type":"ai-title","aiTitle":"the title","message":{"content":"PAD"},"type":null,"timestamp":"2026-01-01T00:00:00.000Z"}`},
			"ai-title the title"},
		{"the last type is taken", []string{
			`{"type":"ai-title","aiTitle":"not this","message":{"content":"PAD"},"type":"assistant"}`,
			`{"type":"assistant","message":{"content":"PAD"},"aiTitle":"this","type":"ai-title"}`},
			"ai-title this"},
		{"an escaped title type", []string{
			`{"message":{"content":"PAD"},"aiTitle":"esc","type":"ai\u002dtitle"}`},
			"ai-title esc"},
		{"a title before a long string", []string{
			`{"type":"custom-title","customTitle":"c","note":"PAD"}`},
			"custom-title c"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := liteBoth(t, bigHead(t, dir, strings.ReplaceAll(c.name, " ", "-"), "", c.lines...))
			if got := in.TitleSource + " " + in.Title; got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// firstLines are first lines of a head: a prompt with all a row takes
// from it, a line that gives the start and cwd only, one that is no
// typed prompt.
var firstLines = []string{"",
	`{"type":"system","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}`,
	`{"type":"user","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p","message":{"role":"user","content":"<command-name>/clear</command-name>"}}`,
}

// The head's first lines, past those that gave the start and cwd, are
// left unparsed only when their end says they give the row nothing
// more: each of these heads has a long line that does.
func TestFirstLinesSkipOnlyWhatGivesNothing(t *testing.T) {
	dir := t.TempDir()
	system := firstLines[1]
	for _, c := range []struct {
		name  string
		lines []string
		check func(in *Info) string
		want  string
	}{
		{"a branch before the attachment", []string{
			`{"gitBranch":"early","attachment":{"x":"PAD"},"type":"attachment","timestamp":"2026-01-01T00:00:00.000Z"}`,
			`{"type":"user","message":{"role":"user","content":"typed"},"gitBranch":"later"}`},
			func(in *Info) string { return in.GitBranch }, "early"},
		{"the first conversation line is a sidechain's", []string{
			`{"isSidechain":true,"message":{"content":"PAD"},"type":"assistant","timestamp":"2026-01-01T00:00:00.000Z","gitBranch":""}`,
			`{"type":"user","message":{"role":"user","content":"typed"}}`},
			func(in *Info) string { return fmt.Sprint(in.Sidechain) }, "true"},
		{"the start and cwd of a long line", []string{
			`{"timestamp":"2026-01-02T00:00:00.000Z","cwd":"/long","attachment":{"x":"PAD"},"type":"attachment","gitBranch":""}`,
			`{"type":"user","message":{"role":"user","content":"typed"},"cwd":"/later","timestamp":"2026-01-03T00:00:00.000Z"}`},
			func(in *Info) string { return in.StartedAt.Format(time.DateOnly) + " " + in.Project }, "2026-01-02 /long"},
		{"the cwd of a long line", []string{
			`{"cwd":"/long","attachment":{"x":"PAD"},"type":"attachment","gitBranch":""}`,
			`{"type":"user","message":{"role":"user","content":"typed"},"cwd":"/later"}`},
			func(in *Info) string { return in.Project }, "/long"},
		{"a long prompt", []string{
			`{"message":{"role":"user","content":"typed PAD"},"type":"user","timestamp":"2026-01-01T00:00:00.000Z"}`},
			func(in *Info) string { return in.FirstPrompt[:5] }, "typed"},
		{"a prompt behind a type that is no string", []string{
			`{"type":"user","message":{"role":"user","content":"hidden PAD"},"type":null}`},
			func(in *Info) string { return in.FirstPrompt[:6] }, "hidden"},
		{"a long title line", []string{
			`{"message":{"content":"PAD"},"customTitle":"mine","type":"custom-title"}`,
			`{"type":"user","message":{"role":"user","content":"typed"}}`},
			func(in *Info) string { return in.TitleSource + " " + in.Title }, "custom-title mine"},
		{"an image before the prompt", []string{
			`{"message":{"role":"user","content":[{"type":"image","source":{"data":"PAD"}}]},"type":"user"}`},
			func(in *Info) string { return in.FirstPrompt }, "[Image]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			first := system
			switch c.name {
			case "the start and cwd of a long line":
				first = `{"type":"system"}`
			case "the cwd of a long line":
				first = `{"type":"system","timestamp":"2026-01-01T00:00:00.000Z"}`
			}
			in := liteBoth(t, bigHead(t, dir, strings.ReplaceAll(c.name, " ", "-"), first, c.lines...))
			if got := c.check(in); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Lite gives the same row skipping lines of the head from what their
// end says as reading them all, on heads of random lines.
func TestHeadSkimIsEveryLine(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 17))
	for i := range 200 {
		var lines []string
		for n := range 5 + r.IntN(20) {
			lines = append(lines, randomLine(r, n))
		}
		liteBoth(t, bigHead(t, dir, fmt.Sprint(i), firstLines[r.IntN(len(firstLines))], lines...))
	}
}

var randomTypes = []string{"user", "assistant", "system", "progress", "attachment", "custom-title", "ai-title", "last-prompt", "summary", `custom\u002dtitle`, `us\u0065r`}

// randomLine is a line of 1 to 8 members of the kinds a row reads (or
// not), in any order, long or short, sometimes broken.
func randomLine(r *rand.Rand, n int) string {
	types := randomTypes
	member := func(n int) string {
		switch r.IntN(14) {
		case 0, 1, 2:
			day := 1 + r.IntN(28)
			switch r.IntN(8) {
			case 0:
				return fmt.Sprintf(`"timestamp":"2026-02-%02dT10:00:00+02:00"`, day)
			case 1:
				return `"timestamp":null`
			case 2:
				return fmt.Sprintf(`"timestamp":"2026-02-%02dT10:00:00.%03d5Z"`, day, r.IntN(1000))
			}
			return fmt.Sprintf(`"timestamp":"2026-02-%02dT10:00:00.%03dZ"`, day, r.IntN(1000))
		case 3, 4:
			return fmt.Sprintf(`"type":"%s"`, types[r.IntN(len(types))])
		case 5:
			return `"type":null`
		case 6:
			return fmt.Sprintf(`"gitBranch":"%s"`, []string{"", "main", "b" + fmt.Sprint(n)}[r.IntN(3)])
		case 7:
			return fmt.Sprintf(`"version":"%s"`, []string{"", "2.1.1", "1.0.9"}[r.IntN(3)])
		case 8:
			return fmt.Sprintf(`"customTitle":"c%d","aiTitle":"a%d","lastPrompt":"l%d","summary":"s%d"`, n, n, n, n)
		case 9:
			return fmt.Sprintf([]string{
				`"message":{"role":"user","content":"%s \"q\" }]{[ \\"}`,
				`"message":{"role":"user","content":"<command-name>/clear</command-name>%s"}`,
				`"message":{"role":"user","content":[{"type":"tool_result","content":"%s"}]}`,
				`"message":{"role":"user","content":[{"type":"image","source":{"data":"%s"}}]}`,
			}[r.IntN(4)], strings.Repeat("m", r.IntN(3*skimLine)))
		case 10:
			return fmt.Sprintf(`"toolUseResult":{"stdout":"%s"}`, strings.Repeat("o", r.IntN(2*skimLine)))
		case 11:
			return fmt.Sprintf(`"note":"%s"`, strings.Repeat("n", r.IntN(2000)))
		case 12:
			return []string{`"n" : 12 , "ok":true`, `"isSidechain":true`, `"isMeta":true`, `"cwd":"/q"`}[r.IntN(4)]
		}
		return fmt.Sprintf(`"uuid":"u%d"`, n)
	}
	ms := []string{}
	for range 1 + r.IntN(8) {
		ms = append(ms, member(n))
	}
	l := "{" + strings.Join(ms, ",") + "}"
	if r.IntN(15) == 0 {
		l = l[:len(l)-1-r.IntN(3)] // broken
	}
	return l
}

// appendLines, going forward, cuts a head or tail as cutting it at its
// first and last newlines first does.
func TestAppendLinesForward(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ref := func(b []byte, atFileStart, atFileEnd bool) [][]byte {
		if !atFileStart {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				return nil
			}
			b = b[i+1:]
		}
		if !atFileEnd {
			i := bytes.LastIndexByte(b, '\n')
			if i < 0 {
				return nil
			}
			b = b[:i]
		}
		var out [][]byte
		for _, l := range bytes.Split(b, []byte{'\n'}) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				out = append(out, l)
			}
		}
		return out
	}
	for range 5000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = " \n\r{}ab"[r.IntN(7)]
		}
		for _, start := range []bool{false, true} {
			for _, end := range []bool{false, true} {
				got, want := appendLines(nil, b, start, end), ref(b, start, end)
				if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
					t.Fatalf("%q start %v end %v: got %q, want %q", b, start, end, got, want)
				}
			}
		}
	}
}
