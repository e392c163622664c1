package search

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/reader"
)

// The prefilter decides, from the raw bytes of a line, whether the line
// could hold a match: only such a line is parsed and decoded. It must never
// lose a match, and JSON may write a character of a text in more ways than
// one:
//
//   - '"', '\', '/' and the control characters \b \f \n \r \t may be
//     written as two-character escapes: a literal piece never holds them
//     (a literal is cut into pieces there);
//   - any character may be written \uXXXX (Claude Code escapes control
//     characters so, other writers non-ASCII or <, >, &): a line holding a
//     \u escape of a character of a piece is a candidate whatever else it
//     holds;
//   - case-insensitively, k and s also match the Kelvin sign K and the
//     long s ſ (Unicode simple folding, as the regular expression folds):
//     a line holding either is a candidate;
//   - invalid UTF-8 decodes to U+FFFD, which a piece never holds;
//   - case-insensitive pieces hold ASCII only (other letters fold in
//     other ways).
//
// Everything else in a text is written as itself, so a text that contains
// a piece comes from a line that contains it raw.

// lit is a run of characters that every match holds, in a row.
type lit struct {
	runes []rune
	fold  []bool
}

// required finds the best set of literals such that every match of re
// holds at least one of them; nil when there is none.
func required(re *syntax.Regexp) []lit {
	var best []lit
	bestScore := 0
	consider := func(set []lit) {
		if s := setScore(set); s > bestScore {
			best, bestScore = set, s
		}
	}
	info := walkRequired(re, consider)
	if info.exact {
		consider([]lit{info.seq})
	}
	consider(info.best)
	return best
}

// reqInfo is what walkRequired knows of a node: whether it matches exactly
// one sequence (and which), and its best required set (reported through
// consider as it is found).
type reqInfo struct {
	exact bool
	seq   lit
	best  []lit // the node's own best required set, for alternations
}

// maxAlternatives bounds an alternation's literals: each is a scan of the
// raw bytes.
const maxAlternatives = 8

func walkRequired(re *syntax.Regexp, consider func([]lit)) reqInfo {
	switch re.Op {
	case syntax.OpLiteral:
		l := lit{runes: re.Rune, fold: make([]bool, len(re.Rune))}
		for i := range l.fold {
			l.fold[i] = re.Flags&syntax.FoldCase != 0
		}
		return reqInfo{exact: true, seq: l, best: []lit{l}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return reqInfo{exact: true}
	case syntax.OpCapture:
		return walkRequired(re.Sub[0], consider)
	case syntax.OpPlus:
		in := walkRequired(re.Sub[0], consider)
		return reqInfo{best: in.best}
	case syntax.OpRepeat:
		if re.Min < 1 {
			return reqInfo{}
		}
		in := walkRequired(re.Sub[0], consider)
		return reqInfo{best: in.best}
	case syntax.OpConcat:
		var run lit
		var out reqInfo
		out.exact = true
		bestScore := 0
		take := func(set []lit) {
			if len(set) == 0 {
				return
			}
			consider(set)
			if s := setScore(set); s > bestScore {
				out.best, bestScore = set, s
			}
		}
		closeRun := func() {
			if len(run.runes) > 0 {
				take([]lit{run})
			}
			run = lit{}
		}
		for _, sub := range re.Sub {
			in := walkRequired(sub, consider)
			if in.exact {
				run.runes = append(run.runes[:len(run.runes):len(run.runes)], in.seq.runes...)
				run.fold = append(run.fold[:len(run.fold):len(run.fold)], in.seq.fold...)
				continue
			}
			out.exact = false
			closeRun()
			take(in.best)
		}
		if out.exact {
			out.seq = run
			out.best = []lit{run}
			return out
		}
		closeRun()
		return out
	case syntax.OpAlternate:
		var set []lit
		for _, sub := range re.Sub {
			in := walkRequired(sub, consider)
			best := in.best
			if in.exact {
				best = []lit{in.seq}
			}
			if len(best) == 0 || setScore(best) == 0 {
				return reqInfo{}
			}
			set = append(set, best...)
		}
		if len(set) > maxAlternatives {
			return reqInfo{}
		}
		return reqInfo{best: set}
	}
	return reqInfo{}
}

// setScore is how well a set of alternatives filters: its weakest member.
func setScore(set []lit) int {
	if len(set) == 0 {
		return 0
	}
	low := -1
	for _, l := range set {
		_, s := bestPiece(l)
		if low < 0 || s < low {
			low = s
		}
	}
	return low
}

// piece is a part of a literal that a raw line holds as it is (see the
// package comment on the prefilter).
type piece struct {
	lit  []byte // lower case when fold
	fold bool
}

// safeRune reports whether r, in a piece, is always written as itself
// (or as a \u escape, which the prefilter looks for).
func safeRune(r rune, fold bool) bool {
	switch r {
	case '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', utf8.RuneError:
		return false
	}
	if fold {
		return r < utf8.RuneSelf
	}
	return utf8.ValidRune(r)
}

// bestPiece cuts a literal where it holds a character that may be written
// in more than one way and returns its best part and that part's score.
func bestPiece(l lit) (piece, int) {
	var best piece
	bestScore := 0
	var cur []byte
	curFold := false
	flush := func() {
		if s := pieceScore(cur, curFold); s > bestScore {
			best, bestScore = piece{lit: bytes.Clone(cur), fold: curFold}, s
		}
		cur = cur[:0]
	}
	for i, r := range l.runes {
		fold := l.fold[i]
		if !safeRune(r, fold) {
			flush()
			continue
		}
		if len(cur) > 0 && fold != curFold {
			flush()
		}
		curFold = fold
		if fold {
			cur = append(cur, lower(byte(r)))
		} else {
			cur = utf8.AppendRune(cur, r)
		}
	}
	flush()
	return best, bestScore
}

// pieceScore weighs a piece by the rarity of its bytes.
func pieceScore(b []byte, fold bool) int {
	s := 0
	for _, c := range b {
		s += 256 - byteRank(c, fold)
	}
	return s
}

func byteRank(c byte, fold bool) int {
	r := int(byteFreqRank[c])
	if fold && isLetter(c) {
		r = max(r, int(byteFreqRank[c^0x20]))
	}
	return r
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c | 0x20
	}
	return c
}

// prefilter is the test of raw lines: a line is a candidate when it holds
// one of the pieces (finders), a \u escape of one of their characters
// (escaped), or, case-insensitively, a character that folds onto k or s
// (variants).
type prefilter struct {
	finders  []*finder
	variants []*finder
	ascii    [utf8.RuneSelf]bool // escaped characters that make a line a candidate
	others   []rune
	maxLen   int // the longest byte string looked for, escapes included
}

// The raw forms of the non-ASCII characters that fold onto k and s.
var (
	kelvin = []byte("\u212a")
	longS  = []byte("\u017f")
)

func newPrefilter(set []lit) *prefilter {
	if len(set) == 0 {
		return nil
	}
	p := &prefilter{maxLen: 12} // \uD83D\uDE00: a surrogate pair
	var k, s bool
	for _, l := range set {
		pc, score := bestPiece(l)
		if score == 0 {
			return nil
		}
		p.finders = append(p.finders, newFinder(pc))
		p.maxLen = max(p.maxLen, len(pc.lit))
		for _, r := range string(pc.lit) {
			p.addRune(r)
			if pc.fold && isLetter(byte(r)) {
				p.addRune(r ^ 0x20)
				switch r {
				case 'k':
					k = true
					p.addRune('\u212a')
				case 's':
					s = true
					p.addRune('\u017f')
				}
			}
		}
	}
	if k {
		p.variants = append(p.variants, newFinder(piece{lit: kelvin}))
	}
	if s {
		p.variants = append(p.variants, newFinder(piece{lit: longS}))
	}
	return p
}

func (p *prefilter) addRune(r rune) {
	if r < utf8.RuneSelf {
		p.ascii[r] = true
		return
	}
	for _, o := range p.others {
		if o == r {
			return
		}
	}
	p.others = append(p.others, r)
}

// escaped reports whether a character written \uXXXX makes a line a
// candidate.
func (p *prefilter) escaped(r rune) bool {
	if r < utf8.RuneSelf {
		return p.ascii[r]
	}
	for _, o := range p.others {
		if o == r {
			return true
		}
	}
	return false
}

// mayMatch reports whether a decoded text may hold a match: it holds a
// piece, or (case-insensitively) a character that folds onto k or s.
func (p *prefilter) mayMatch(text string) bool { return p.holds(unsafeBytes(text)) }

// holds reports whether b holds a piece or a variant.
func (p *prefilter) holds(b []byte) bool {
	for _, f := range p.finders {
		if f.index(b) >= 0 {
			return true
		}
	}
	for _, f := range p.variants {
		if f.index(b) >= 0 {
			return true
		}
	}
	return false
}

// candidate reports whether a whole raw line is a candidate: the
// reference the window scanner (scan.go) is tested against.
func (p *prefilter) candidate(line []byte) bool {
	if p.holds(line) {
		return true
	}
	return p.nextEscape(line, 0) >= 0
}

// nextEscape is the offset of the first \u escape at or after from that
// writes a character of a piece, or -1. An escape cut by the end of b is
// not one (the window scanner reads it again with what follows). A
// backslash that is itself escaped (\\u0041 is a backslash and "u0041")
// is taken for an escape: one candidate too many, never one too few.
func (p *prefilter) nextEscape(b []byte, from int) int {
	for i := from; i < len(b); {
		// Index, not IndexByte on '\\': a backslash is every hundred
		// bytes or so of a transcript (every line break of a text), and
		// Index then runs its vector loop.
		j := bytes.Index(b[i:], backslashU)
		if j < 0 {
			return -1
		}
		i += j
		if r, n := reader.UnicodeEscape(b[i:]); n > 0 && p.escaped(r) {
			return i
		}
		i++
	}
	return -1
}

var backslashU = []byte(`\u`)

// finder looks for one piece, from its rarest byte (its anchor): in both
// cases when the piece is case-insensitive and the anchor a letter.
type finder struct {
	lit    []byte
	mask   []byte // 0x20 where a case-insensitive letter is, else 0
	fold   bool
	at     int // the anchor's index in lit
	c1, c2 byte
}

func newFinder(pc piece) *finder {
	f := &finder{lit: pc.lit, fold: pc.fold, mask: make([]byte, len(pc.lit))}
	rarest := 1 << 30
	for i, c := range pc.lit {
		if pc.fold && isLetter(c) {
			f.mask[i] = 0x20
		}
		if r := byteRank(c, pc.fold); r < rarest {
			rarest, f.at = r, i
		}
	}
	f.c1, f.c2 = pc.lit[f.at], pc.lit[f.at]
	if pc.fold && isLetter(f.c1) {
		f.c2 = f.c1 ^ 0x20
	}
	return f
}

// index is the offset of the first occurrence of the piece in b, or -1.
func (f *finder) index(b []byte) int {
	n := len(f.lit)
	if len(b) < n {
		return -1
	}
	// Anchors are looked for where a whole piece fits around them.
	hi := len(b) - (n - 1 - f.at)
	i := f.at
	if f.c1 == f.c2 {
		for i < hi {
			j := bytes.IndexByte(b[i:hi], f.c1)
			if j < 0 {
				return -1
			}
			j += i
			if s := j - f.at; f.equal(b[s : s+n]) {
				return s
			}
			i = j + 1
		}
		return -1
	}
	// Both cases of a letter: each is looked for a stretch at a time,
	// so that a case that is rare (or absent) is not looked for to the
	// end of b again at each anchor of the other. A stretch searched in
	// vain makes the next one longer, up to maxFoldStretch.
	s1, s2 := minFoldStretch, minFoldStretch
	next := func(c byte, i int, stretch *int) (int, bool) {
		end := min(hi, i+*stretch)
		if j := bytes.IndexByte(b[i:end], c); j >= 0 {
			return i + j, true
		}
		*stretch = min(*stretch*2, maxFoldStretch)
		return end, false
	}
	p1, p2 := -1, -1
	var f1, f2 bool
	for i < hi {
		// A position before i, or the end of a stretch searched in vain
		// that i has reached, is looked for again.
		if p1 < i || !f1 && p1 == i {
			p1, f1 = next(f.c1, i, &s1)
		}
		if p2 < i || !f2 && p2 == i {
			p2, f2 = next(f.c2, i, &s2)
		}
		j, found := p1, f1
		if p2 < j || p2 == j && f2 {
			j, found = p2, f2
		}
		if !found {
			i = j
			continue
		}
		if s := j - f.at; f.equal(b[s : s+n]) {
			return s
		}
		i = j + 1
	}
	return -1
}

// How far ahead one case of an anchor is looked for at a time (variables:
// tests make them small).
var minFoldStretch, maxFoldStretch = 512, 64 << 10

func (f *finder) equal(b []byte) bool {
	if !f.fold {
		return bytes.Equal(b, f.lit)
	}
	for i, c := range b {
		if c|f.mask[i] != f.lit[i] {
			return false
		}
	}
	return true
}
