package search

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/reader"
)

func TestPrefilterLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		o       PatternOptions
		want    []string // nil: no prefilter (every line is read)
	}{
		{"needle", PatternOptions{}, []string{"needle"}},
		{"Needle", PatternOptions{Fold: true}, []string{"needle"}},
		{"foo.*barbaz", PatternOptions{}, []string{"barbaz"}},
		{"(?:foo|quux)e", PatternOptions{}, []string{"foo", "quux"}},
		{"hay|stack", PatternOptions{}, []string{"hay", "stack"}},
		{"a+zebra?", PatternOptions{}, []string{"zebr"}},
		{`\bword\b`, PatternOptions{}, []string{"word"}},
		{"x{3}", PatternOptions{}, []string{"xxx"}},
		{"[ab]cdef", PatternOptions{}, []string{"cdef"}},
		// Characters JSON may write as a two-character escape cut a literal.
		{`say "hello there"`, PatternOptions{}, []string{"hello there"}},
		{`C:\\Users\\me`, PatternOptions{}, []string{"Users"}},
		{"src/internal/x", PatternOptions{}, []string{"internal"}},
		{"line one\nline two", PatternOptions{}, []string{"line two"}},
		// Case-insensitive pieces are ASCII; others are kept, as their
		// escapes are looked for.
		{"café", PatternOptions{}, []string{"café"}},
		{"ÉTÉ à", PatternOptions{Fold: true}, []string{"t"}},
		{"a.b", PatternOptions{Fixed: true}, []string{"a.b"}},
		{"a.b", PatternOptions{}, []string{"b"}},
		{".*", PatternOptions{}, nil},
		{"foo|.*", PatternOptions{}, nil},
		{"(foo)?", PatternOptions{}, nil},
		{`"`, PatternOptions{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			p, err := Compile(tt.pattern, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Literals(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("literals %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCompileErrorsSayWhere(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		col     int
		msg     string
	}{
		{"foo(bar", 4, "missing closing )"},
		{"foo)bar", 4, "unexpected )"},
		{"ab[cd", 3, "missing closing ]"},
		{"ab**", 3, "invalid nested repetition operator"},
		{`x\q`, 2, "invalid escape sequence"},
		{"*a", 1, "missing argument to repetition operator"},
		{"é(", 2, "missing closing )"},
	} {
		_, err := Compile(tt.pattern, PatternOptions{})
		pe, ok := err.(*PatternError)
		if !ok {
			t.Errorf("%q: error %v, want a *PatternError", tt.pattern, err)
			continue
		}
		if want := fmt.Sprintf("%s at column %d", tt.msg, tt.col); pe.Error() != want {
			t.Errorf("%q: %q, want %q", tt.pattern, pe.Error(), want)
		}
	}
	if _, err := Compile("a(b", PatternOptions{Fixed: true}); err != nil {
		t.Errorf("a fixed string never fails: %v", err)
	}
}

// encodeJSON writes s as a JSON string the way some writer might: each
// character raw or escaped, as esc (called per character) decides.
func encodeJSON(s string, esc func(i int, r rune) int) string {
	var b strings.Builder
	b.WriteByte('"')
	i := 0
	for _, r := range s {
		mode := esc(i, r)
		i++
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '/' && mode == 1:
			b.WriteString(`\/`)
		case r == '\n' && mode != 2:
			b.WriteString(`\n`)
		case r == '\t' && mode != 2:
			b.WriteString(`\t`)
		case r < 0x20 || mode == 2:
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				fmt.Fprintf(&b, `\u%04x\u%04X`, r1, r2)
			} else if i%2 == 0 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// line is a user line whose text is the JSON string js.
func line(js string) string {
	return `{"type":"user","uuid":"u1","message":{"role":"user","content":` + js + `}}`
}

// decodedTexts decodes a line as grep does.
func decodedTexts(raw []byte) []string {
	var d reader.TextDecoder
	var out []string
	d.Readables(raw, true, func(rd *reader.Readable) bool {
		out = append(out, rd.Text)
		return true
	})
	return out
}

// checkNeverLoses fails when a text of the line matches and the line is
// not a candidate: the rule the prefilter must keep.
func checkNeverLoses(t *testing.T, p *Pattern, raw string) {
	t.Helper()
	if p.pre == nil {
		return
	}
	for _, text := range decodedTexts([]byte(raw)) {
		if p.re.MatchString(text) {
			if !p.pre.candidate([]byte(raw)) {
				t.Fatalf("pattern %q (%+v) matches %q but the raw line is passed over:\n%s", p.Source, p.Opts, text, raw)
			}
			if !p.pre.mayMatch(text) {
				t.Fatalf("pattern %q matches %q but the decoded text is passed over", p.Source, text)
			}
		}
	}
}

func TestPrefilterSeesThroughJSONEscapes(t *testing.T) {
	never := func(int, rune) int { return 0 }
	always := func(int, rune) int { return 2 }
	slashes := func(int, rune) int { return 1 }
	for _, tt := range []struct {
		pattern string
		o       PatternOptions
		text    string
		esc     func(int, rune) int
	}{
		{`"quoted"`, PatternOptions{}, `he said "quoted" twice`, never},
		{`C:\path\to`, PatternOptions{Fixed: true}, `open C:\path\to\file`, never},
		{"a/b/c", PatternOptions{Fixed: true}, "see a/b/c", slashes},
		{"needle", PatternOptions{}, "a needle here", always},
		{"needle", PatternOptions{}, "a needle here", func(i int, r rune) int {
			if r == 'e' {
				return 2
			}
			return 0
		}},
		{"needle", PatternOptions{Fold: true}, "a NEEDLE here", always},
		{"park", PatternOptions{Fold: true}, "a PAR\u212a here", never},       // Kelvin sign
		{"park", PatternOptions{Fold: true}, "a PAR\u212a here", always},      // escaped
		{"mast", PatternOptions{Fold: true}, "the ma\u017ft", never},          // long s
		{"emoji 😀 x", PatternOptions{}, "an emoji 😀 x here", always},          // a surrogate pair
		{"tab\there", PatternOptions{}, "tab\there", never},                   // \t written as \t
		{"esc\x1b[31m", PatternOptions{Fixed: true}, "esc\x1b[31mred", never}, // \u001b
		{"two\nlines", PatternOptions{}, "two\nlines", never},
		{"ü", PatternOptions{}, "grüße", always},
	} {
		p, err := Compile(tt.pattern, tt.o)
		if err != nil {
			t.Fatal(err)
		}
		raw := line(encodeJSON(tt.text, tt.esc))
		texts := decodedTexts([]byte(raw))
		if len(texts) != 1 || texts[0] != tt.text {
			t.Fatalf("decoded %q, want %q (from %s)", texts, tt.text, raw)
		}
		if !p.re.MatchString(tt.text) {
			t.Fatalf("%q does not match %q", tt.pattern, tt.text)
		}
		checkNeverLoses(t, p, raw)
	}
}

// The escape scan is what finds an escaped character: without it, a
// line with "ne\u0065dle" would be passed over.
func TestPrefilterEscapeScanIsNeeded(t *testing.T) {
	p, _ := Compile("needle", PatternOptions{})
	raw := []byte(line(`"ne\u0065dle"`))
	if !p.pre.candidate(raw) {
		t.Fatal("an escaped letter is missed")
	}
	if p.pre.mayMatch(string(raw)) {
		t.Fatal("the piece alone finds it: the test proves nothing")
	}
	if p.pre.candidate([]byte(line(`"ne\u0066dle nothing here"`))) {
		t.Error("an escape of a character not in the piece makes a candidate")
	}
}

// A random search: texts made of a small alphabet (so that matches are
// frequent), written with random escapes, searched for random patterns:
// whenever a decoded text matches, the raw line must be a candidate.
func TestPrefilterNeverLosesAMatchRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []rune("abkKsS/\\\"\n\t é\u212a\u017f😀-.")
	patterns := []struct {
		p string
		o PatternOptions
	}{
		{"ab", PatternOptions{}}, {"ks", PatternOptions{Fold: true}}, {"a/b", PatternOptions{Fixed: true}},
		{`"a`, PatternOptions{Fixed: true}}, {"é a", PatternOptions{}}, {"sk+a", PatternOptions{Fold: true}},
		{"😀a", PatternOptions{}}, {`a\\b`, PatternOptions{}}, {"(?:ab|ba)k", PatternOptions{Fold: true}},
		{"s-k", PatternOptions{Word: true, Fold: true}}, {"ſ", PatternOptions{}}, {"K", PatternOptions{Fold: true}},
	}
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		for k := rng.Intn(12); k >= 0; k-- {
			sb.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		text := sb.String()
		raw := line(encodeJSON(text, func(int, rune) int { return rng.Intn(3) }))
		for _, pt := range patterns {
			p, err := Compile(pt.p, pt.o)
			if err != nil {
				t.Fatal(err)
			}
			checkNeverLoses(t, p, raw)
		}
	}
}

func FuzzPrefilterNeverLosesAMatch(f *testing.F) {
	f.Add("needle", "a needle", uint64(0), false)
	f.Add("K", "\u212a", uint64(1), true)
	f.Add(`a\\b`, `a\b`, uint64(7), false)
	f.Add("é", "été", uint64(0xff), false)
	f.Fuzz(func(t *testing.T, pattern, text string, mask uint64, fold bool) {
		if !utf8.ValidString(text) || len(text) > 200 || len(pattern) > 50 {
			return
		}
		for _, fixed := range []bool{false, true} {
			p, err := Compile(pattern, PatternOptions{Fold: fold, Fixed: fixed})
			if err != nil {
				continue
			}
			raw := line(encodeJSON(text, func(i int, r rune) int { return int(mask>>(2*(i%32))) & 3 % 3 }))
			checkNeverLoses(t, p, raw)
		}
	})
}

// The window scanner must find exactly the lines the whole-line test
// finds, with their numbers, whatever the window size and wherever the
// windows cut pieces, escapes and lines.
func TestScannerAgreesWithLineByLine(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	words := []string{"needle", "NeEdLe", `ne\u0065dle`, `\u006e`, "hay", "stack", "\u212a", "\\\\u0065", "{", "}", " ", "\r", "\\", `\u00`, "x"}
	for _, pat := range []struct {
		p    string
		fold bool
	}{{"needle", false}, {"needle", true}, {"hay|stack", false}, {"k", true}} {
		p, err := Compile(pat.p, PatternOptions{Fold: pat.fold})
		if err != nil {
			t.Fatal(err)
		}
		for iter := 0; iter < 300; iter++ {
			var file bytes.Buffer
			for l := rng.Intn(30); l >= 0; l-- {
				for k := rng.Intn(8); k >= 0; k-- {
					file.WriteString(words[rng.Intn(len(words))])
				}
				if l > 0 || rng.Intn(2) == 0 {
					file.WriteByte('\n')
				}
			}
			want := referenceRuns(p.pre, file.Bytes())
			for _, window := range []int{1, 2, 3, 7, 16, 61, 1 << 20} {
				s := newScanner(p.pre, window)
				got, size, err := s.scan(bytes.NewReader(file.Bytes()))
				if err != nil || size != int64(file.Len()) {
					t.Fatalf("scan: %v, %d bytes of %d", err, size, file.Len())
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("pattern %q, window %d:\n got %v\nwant %v\nfile %q", pat.p, window, got, want, file.String())
				}
			}
		}
	}
}

// A scan that gives up on a file dense with candidates still covers every
// candidate line, from a line's start, with the right line numbers.
func TestScannerGivesUpWithoutLosingLines(t *testing.T) {
	defer func(n int64) { giveUpAfter = n }(giveUpAfter)
	rng := rand.New(rand.NewSource(5))
	p, _ := Compile("needle", PatternOptions{})
	for iter := 0; iter < 2000; iter++ {
		giveUpAfter = int64(rng.Intn(40))
		var file bytes.Buffer
		for l := rng.Intn(20); l >= 0; l-- {
			if rng.Intn(3) > 0 {
				file.WriteString("a needle")
			}
			file.WriteString(strings.Repeat("x", rng.Intn(10)))
			if l > 0 || rng.Intn(2) == 0 {
				file.WriteByte('\n')
			}
		}
		want := referenceRuns(p.pre, file.Bytes())
		for _, window := range []int{3, 16, 1 << 20} {
			s := newScanner(p.pre, window)
			s.giveUp = true
			got, _, err := s.scan(bytes.NewReader(file.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			covered := func(r run) bool {
				for _, g := range got {
					if g.start <= r.start && (g.end < 0 || r.end <= g.end) {
						return true
					}
				}
				return false
			}
			for _, r := range want {
				if !covered(r) {
					t.Fatalf("window %d, give up after %d: %v not covered by %v in %q", window, giveUpAfter, r, got, file.String())
				}
			}
			for _, g := range got {
				if g.start > 0 && file.Bytes()[g.start-1] != '\n' || bytes.Count(file.Bytes()[:g.start], []byte("\n"))+1 != g.line {
					t.Fatalf("run %v does not start line %d at a line start in %q", g, g.line, file.String())
				}
			}
		}
	}
}

// referenceRuns splits b into lines and tests each whole line.
func referenceRuns(pre *prefilter, b []byte) []run {
	var runs []run
	var off int64
	for n := 1; len(b) > 0; n++ {
		i := bytes.IndexByte(b, '\n')
		l := b
		if i >= 0 {
			l = b[:i+1]
		}
		if pre.candidate(l) {
			end := off + int64(len(l))
			if k := len(runs); k > 0 && runs[k-1].end == off {
				runs[k-1].end = end
			} else {
				runs = append(runs, run{start: off, end: end, line: n})
			}
		}
		off += int64(len(l))
		b = b[len(l):]
	}
	return runs
}

func TestFinderFindsTheFirstOccurrence(t *testing.T) {
	defer func(lo, hi int) { minFoldStretch, maxFoldStretch = lo, hi }(minFoldStretch, maxFoldStretch)
	minFoldStretch, maxFoldStretch = 2, 8 // stretches shorter than the haystacks
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		hay := make([]byte, rng.Intn(60))
		alphabet := "abAB@`zZ"
		if i%2 == 0 {
			alphabet = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabAzZ" // anchors far apart
		}
		for k := range hay {
			hay[k] = alphabet[rng.Intn(len(alphabet))]
		}
		lit := make([]byte, 1+rng.Intn(3))
		for k := range lit {
			lit[k] = "abz@"[rng.Intn(4)]
		}
		for _, fold := range []bool{false, true} {
			f := newFinder(piece{lit: lit, fold: fold})
			want := bytes.Index(hay, lit)
			if fold {
				want = bytes.Index(bytes.ToLower(hay), lit)
			}
			if got := f.index(hay); got != want {
				t.Fatalf("index(%q, %q, fold %v) = %d, want %d", hay, lit, fold, got, want)
			}
		}
	}
}

// A literal pattern is found without the regular expression: the matches
// must be the very ones the regular expression finds.
func TestLiteralMatchesAsTheRegexp(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	alphabet := []string{"a", "b", "k", "K", "s", "S", "é", "É", "\u212a", "\u017f", "\xe2", "\xc3", "\xa9", " ", "\n", "ab", "_", "0", "-"}
	for _, pt := range []struct {
		p string
		o PatternOptions
	}{
		{"ab", PatternOptions{}}, {"ab", PatternOptions{Fold: true}}, {"ks", PatternOptions{Fold: true}},
		{"é", PatternOptions{}}, {"aa", PatternOptions{}}, {"a b", PatternOptions{Fold: true}}, {"K", PatternOptions{}},
		{"ab", PatternOptions{Word: true}}, {"a", PatternOptions{Word: true, Fold: true}}, {"ks", PatternOptions{Word: true, Fold: true}},
		{"é", PatternOptions{Word: true}}, {"a b", PatternOptions{Word: true}},
	} {
		p, err := Compile(pt.p, pt.o)
		if err != nil {
			t.Fatal(err)
		}
		if p.lit == nil {
			t.Fatalf("%q: not found as a literal", pt.p)
		}
		for i := 0; i < 3000; i++ {
			var sb strings.Builder
			for k := rng.Intn(20); k >= 0; k-- {
				sb.WriteString(alphabet[rng.Intn(len(alphabet))])
			}
			text := sb.String()
			got, _ := p.match(text)
			want := p.re.FindAllStringIndex(text, maxMatches+1)
			if p.pre != nil && !p.pre.mayMatch(text) {
				want = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q in %q: %v, want %v", pt.p, text, got, want)
			}
		}
	}
}
