package reader

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The bad-input matrix: each odd line gets the expected verdict, and the
// valid lines around it are read intact.
func TestBadInputMatrix(t *testing.T) {
	const before, after = `{"uuid":"before"}`, `{"uuid":"after"}`
	deep := strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)
	tests := []struct {
		name  string
		line  string
		kept  bool      // the odd line is read as an entry
		issue IssueKind // when not kept; when kept, OddValue says it is reported
		check func(Entry) bool
	}{
		{"invalid UTF-8 inside a string is kept", `{"uuid":"x","text":"caf` + "\xe9" + `"}`, true, 0, nil},
		{"escaped lone surrogate is kept", `{"uuid":"x","message":{"content":"bad \udc80 byte"}}`, true, 0, nil},
		{"escaped control characters", `{"uuid":"x","cwd":"a\u001b[31mb"}`, true, 0, func(e Entry) bool { return e.CWD == "a\x1b[31mb" }},
		{"nested 100 000 levels deep", deep, true, 0, nil},
		{"deeply nested garbage", strings.Repeat("[", 100_000), false, Malformed, nil},
		{"a raw NUL in the line", "{\"uuid\":\"x\x00\"}", false, Malformed, nil},
		{"a bare string", `"just a string"`, false, NotObject, nil},
		{"an array of objects", `[{"uuid":"x"}]`, false, NotObject, nil},
		{"two objects on one line", `{"uuid":"x"}{"uuid":"y"}`, false, Malformed, nil},
		{"trailing garbage", `{"uuid":"x"} trailing`, false, Malformed, nil},
		{"usage numbers as strings and floats are read and reported", `{"type":"assistant","message":{"usage":{"input_tokens":"12","output_tokens":3.0,"cache_read_input_tokens":1e3}}}`, true, OddValue,
			func(e Entry) bool { return e.Usage.Input == 12 && e.Usage.Output == 3 && e.Usage.CacheRead == 1000 }},
		{"usage null", `{"type":"assistant","message":{"usage":null}}`, true, OddValue, func(e Entry) bool { return !e.HasUsage }},
		{"usage a string", `{"type":"assistant","message":{"usage":"bogus"}}`, true, OddValue, func(e Entry) bool { return !e.HasUsage }},
		{"usage null on a user line is not odd", `{"type":"user","message":{"usage":null}}`, true, 0, nil},
		{"a uuid that is a number", `{"type":"user","uuid":12}`, true, OddValue, func(e Entry) bool { return e.UUID == "" }},
		{"a parentUuid null is a root", `{"type":"user","uuid":"x","parentUuid":null}`, true, 0, nil},
		{"a timestamp that is not a time", `{"uuid":"x","timestamp":"not a date"}`, true, OddValue, func(e Entry) bool { return e.Timestamp.IsZero() }},
		{"message is an array", `{"type":"assistant","message":[1,2]}`, true, 0, func(e Entry) bool { return !e.HasUsage && e.MessageID == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			es, is := readAll(t, before+"\n"+tt.line+"\n"+after+"\n", Options{})
			if es[0].UUID != "before" || es[len(es)-1].UUID != "after" {
				t.Fatalf("neighbours lost: %s", uuids(es))
			}
			if tt.kept {
				wantIssues := 0
				if tt.issue == OddValue {
					wantIssues = 1
				}
				if len(es) != 3 || len(is) != wantIssues || wantIssues == 1 && (is[0].Kind != OddValue || is[0].Line != 2) {
					t.Fatalf("entries %d issues %v", len(es), is)
				}
				if tt.check != nil && !tt.check(es[1]) {
					t.Errorf("envelope %+v", es[1])
				}
				return
			}
			if len(es) != 2 || len(is) != 1 || is[0].Kind != tt.issue || is[0].Line != 2 {
				t.Errorf("entries %d issues %v, want one %d on line 2", len(es), is, tt.issue)
			}
		})
	}
}

func TestFiftyMiBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MiB")
	}
	big := fmt.Sprintf(`{"uuid":"big","toolUseResult":{"stdout":"%s"}}`, strings.Repeat("y", 50<<20))
	es, is := readAll(t, big+"\n"+`{"uuid":"next"}`+"\n", Options{})
	if uuids(es) != "big,next" || len(is) != 0 {
		t.Errorf("uuids %q issues %v", uuids(es), is)
	}
}

func TestImplausibleCountsAreReadAsZeroAndReported(t *testing.T) {
	line := `{"uuid":"x","type":"assistant","message":{"usage":{"input_tokens":1e30,"output_tokens":5,"cache_read_input_tokens":-3}}}`
	es, is := readAll(t, line+"\n", Options{})
	if len(es) != 1 || es[0].Usage.Input != 0 || es[0].Usage.Output != 5 || es[0].Usage.CacheRead != 0 {
		t.Fatalf("entries %+v", es)
	}
	if len(is) != 2 || is[0].Kind != ImplausibleCount || is[1].Kind != OddValue || !strings.Contains(is[1].Message(), "negative") {
		t.Errorf("issues %v, want the count over the limit and the negative one", is)
	}
}

// A count over the limit inside cache_creation is reported as the
// top-level ones are (FuzzUsage found it read as 0 in silence).
func TestImplausibleNestedCountIsReported(t *testing.T) {
	for _, v := range []string{"1e30", "9223372036854775808"} {
		line := `{"uuid":"x","type":"assistant","message":{"usage":{"cache_creation":{"ephemeral_5m_input_tokens":` + v + `}}}}`
		es, is := readAll(t, line+"\n", Options{})
		if len(es) != 1 || es[0].Usage.CacheCreation5m != 0 || len(is) != 1 || is[0].Kind != ImplausibleCount {
			t.Errorf("%s: entries %+v issues %v", v, es, is)
		}
	}
}

// A transcript saved as UTF-16 (Windows PowerShell 5's > and Out-File)
// is said once, as a file that cannot be read and how to mend it, not
// skipped line by line as crash damage; a UTF-8 BOM is read past.
func TestUTF16IsSaidOnce(t *testing.T) {
	line := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}` + "\n"
	utf16 := func(bom []byte, big bool) []byte {
		b := append([]byte(nil), bom...)
		for _, c := range line {
			if big {
				b = append(b, 0, byte(c))
			} else {
				b = append(b, byte(c), 0)
			}
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		in      []byte
		entries int
		utf16   bool
	}{
		{"UTF-16 LE", utf16([]byte{0xFF, 0xFE}, false), 0, true},
		{"UTF-16 BE", utf16([]byte{0xFE, 0xFF}, true), 0, true},
		// Without a BOM, the first line starts `{"` in UTF-16.
		{"UTF-16 LE without a BOM", utf16(nil, false), 0, true},
		{"UTF-16 BE without a BOM", utf16(nil, true), 0, true},
		{"UTF-8 with a BOM", append([]byte{0xEF, 0xBB, 0xBF}, line...), 1, false},
		{"UTF-8", []byte(line), 1, false},
	} {
		var issues []Issue
		r := New(bytes.NewReader(tc.in), Options{Name: "x.jsonl", OnIssue: func(is Issue) { issues = append(issues, is) }})
		n := 0
		for {
			if _, ok := r.Next(); !ok {
				break
			}
			n++
		}
		if n != tc.entries || errors.Is(r.Err(), ErrUTF16) != tc.utf16 || len(issues) != 0 {
			t.Errorf("%s: %d entries, err %v, issues %v", tc.name, n, r.Err(), issues)
		}
		if tc.utf16 && (r.Err() == nil || !strings.HasPrefix(r.Err().Error(), "read x.jsonl: the file is UTF-16")) {
			t.Errorf("%s: %v", tc.name, r.Err())
		}
	}
}

// The first bytes that tell a UTF-16 file: a BOM either way round, or
// `{"` in UTF-16 without one. A crash's NUL run before a UTF-8 line is
// not (its line is read after a warning), nor anything shorter.
func TestIsUTF16(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{"\xFF\xFE{\x00", true},
		{"\xFE\xFF\x00{", true},
		{"\xFF\xFE", true},
		{"{\x00\"\x00t\x00", true},
		{"\x00{\x00\"\x00t", true},
		{"{\x00\"", false}, // three bytes: not enough to tell
		{"{\"type\"", false},
		{"\x00\x00{\"type\"", false}, // a crash's residue, then a line
		{"\x00{\"type\"", false},
		{"{\x00}\x00", false}, // not `{"`
		{"\xEF\xBB\xBF{\"", false},
		{"", false},
	} {
		if got := IsUTF16([]byte(tc.head)); got != tc.want {
			t.Errorf("IsUTF16(%q) = %v, want %v", tc.head, got, tc.want)
		}
	}
}
