package search

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// PatternOptions say how a pattern is read.
type PatternOptions struct {
	Fold  bool // case-insensitive (the caller applies smart case)
	Fixed bool // a fixed string, not a regular expression
	Word  bool // matches only whole words (\b on each side)
}

// Pattern is a compiled search pattern: the regular expression run on
// decoded text, and the literals any match must contain, which the raw
// lines are prefiltered with.
type Pattern struct {
	Source string // as the user typed it
	Opts   PatternOptions
	re     *regexp.Regexp
	pre    *prefilter // nil: every line is read
	lit    *literal   // the pattern is a literal: found without the regular expression
}

// PatternError is a pattern that does not compile: Pos is the byte offset
// in the pattern where the problem is.
type PatternError struct {
	Pattern string
	Pos     int
	Msg     string
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("%s at column %d", e.Msg, utf8.RuneCountInString(e.Pattern[:e.Pos])+1)
}

// Compile compiles a pattern. Text is searched with (?m): ^ and $ match
// at the start and end of each line of a text.
func Compile(src string, o PatternOptions) (*Pattern, error) {
	expr := src
	if o.Fixed {
		expr = regexp.QuoteMeta(src)
	} else if _, err := syntax.Parse(src, syntax.Perl); err != nil {
		return nil, compileError(src, err)
	}
	if o.Word {
		expr = `\b(?:` + expr + `)\b`
	}
	flags := "(?m)"
	if o.Fold {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + expr)
	if err != nil { // the checks above make this unlikely (a repeat count over 1000 in -w, say)
		return nil, &PatternError{Pattern: src, Msg: err.Error()}
	}
	p := &Pattern{Source: src, Opts: o, re: re}
	if tree, err := syntax.Parse(flags+expr, syntax.Perl); err == nil {
		tree = tree.Simplify()
		p.pre = newPrefilter(required(tree))
		p.lit = newLiteral(tree)
	}
	return p, nil
}

// Prefiltered reports whether raw lines are prefiltered: false when the
// pattern has no literal every match must contain (".", "a|.*").
func (p *Pattern) Prefiltered() bool { return p.pre != nil }

// Literals are the pieces raw lines are prefiltered with, for messages
// and tests: a line that holds none of them (raw or escaped) is not read.
func (p *Pattern) Literals() []string {
	if p.pre == nil {
		return nil
	}
	var out []string
	for _, f := range p.pre.finders {
		out = append(out, string(f.lit))
	}
	return out
}

// compileError is the PatternError of a pattern that does not compile.
func compileError(src string, err error) *PatternError {
	var se *syntax.Error
	if errors.As(err, &se) {
		return &PatternError{Pattern: src, Pos: errorPos(src, se), Msg: string(se.Code)}
	}
	return &PatternError{Pattern: src, Msg: err.Error()}
}

// ShowPattern is the pattern as `cctx show --grep` reads it (SmartCase),
// matching what this one matches: fixed strings quoted, words bounded,
// case made explicit.
func (p *Pattern) ShowPattern() string {
	expr := p.Source
	if p.Opts.Fixed {
		expr = regexp.QuoteMeta(expr)
	}
	if p.Opts.Word {
		expr = `\b(?:` + expr + `)\b`
	}
	switch capital := HasCapital(expr); {
	case p.Opts.Fold && capital:
		expr = "(?i)" + expr
	case !p.Opts.Fold && !capital:
		expr = "(?-i)" + expr
	}
	return expr
}

// maxMatches is how many matches of one text are kept (with their
// offsets); the rest are only said to exist.
const maxMatches = 100

// match finds the matches in a decoded text: up to maxMatches, and
// whether there were more. The text is first checked for the literals a
// match must hold, which is far quicker than the regular expression on
// long texts that cannot match.
func (p *Pattern) match(text string) ([][]int, bool) {
	var m [][]int
	switch {
	case p.lit != nil && p.lit.applies(text):
		m = p.lit.findAll(text, maxMatches+1)
	case p.pre != nil && !p.pre.mayMatch(text):
		return nil, false
	default:
		m = p.re.FindAllStringIndex(text, maxMatches+1)
	}
	if len(m) > maxMatches {
		return m[:maxMatches], true
	}
	return m, false
}

// errorPos finds where in the pattern a syntax error is: the unclosed
// group or class, the stray parenthesis, else the part the error quotes.
func errorPos(p string, se *syntax.Error) int {
	switch se.Code {
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen, syntax.ErrMissingBracket:
		var opens []int
		class := -1
		for i := 0; i < len(p); i++ {
			switch c := p[i]; {
			case c == '\\':
				i++
			case class >= 0:
				if c == ']' && i > class+1 && !(i == class+2 && p[class+1] == '^') {
					class = -1
				}
			case c == '[':
				class = i
			case c == '(':
				opens = append(opens, i)
			case c == ')':
				if len(opens) == 0 {
					if se.Code == syntax.ErrUnexpectedParen {
						return i
					}
					continue
				}
				opens = opens[:len(opens)-1]
			}
		}
		switch {
		case se.Code == syntax.ErrMissingBracket && class >= 0:
			return class
		case se.Code == syntax.ErrMissingParen && len(opens) > 0:
			return opens[len(opens)-1]
		}
	}
	if se.Expr != "" && se.Expr != p {
		if i := strings.Index(p, se.Expr); i >= 0 {
			return i
		}
	}
	return 0
}

// literal finds a pattern that is one literal string (what most searches
// are), or one word (-w), faster than the regular expression does,
// case-insensitively above all: the matches are the same, leftmost first,
// each after the one before.
type literal struct {
	f    *finder
	word bool // \b on each side
	kOrS bool // case-insensitive with a k or an s: K and ſ fold onto them
}

// newLiteral is a literal for a pattern that is one (nil otherwise): ASCII
// when case-insensitive, and never U+FFFD (which the regular expression
// matches on invalid UTF-8).
func newLiteral(re *syntax.Regexp) *literal {
	l := &literal{}
	if re.Op == syntax.OpConcat && len(re.Sub) == 3 && re.Sub[0].Op == syntax.OpWordBoundary && re.Sub[2].Op == syntax.OpWordBoundary {
		l.word, re = true, re.Sub[1]
	}
	if re.Op != syntax.OpLiteral || len(re.Rune) == 0 {
		return nil
	}
	fold := re.Flags&syntax.FoldCase != 0
	var b []byte
	for _, r := range re.Rune {
		switch {
		case r == utf8.RuneError, fold && r >= utf8.RuneSelf:
			return nil
		case fold:
			c := lower(byte(r))
			l.kOrS = l.kOrS || c == 'k' || c == 's'
			b = append(b, c)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	l.f = newFinder(piece{lit: b, fold: fold})
	return l
}

// applies reports whether the literal finds what the regular expression
// would in text: not when a K or ſ might fold onto its k or s.
func (l *literal) applies(text string) bool {
	return !l.kOrS || !strings.Contains(text, "\u212a") && !strings.Contains(text, "\u017f")
}

func (l *literal) findAll(text string, n int) [][]int {
	b := unsafeBytes(text)
	var out [][]int
	for i := 0; i <= len(b) && len(out) < n; {
		j := l.f.index(b[i:])
		if j < 0 {
			break
		}
		s, e := i+j, i+j+len(l.f.lit)
		if l.word && !(boundary(b, s) && boundary(b, e)) {
			i = s + 1
			continue
		}
		out = append(out, []int{s, e})
		i = e
	}
	return out
}

// boundary reports whether \b holds at b[i]: an ASCII word character on one
// side and not on the other (a byte of a multi-byte character is not one).
func boundary(b []byte, i int) bool {
	return (i > 0 && wordByte(b[i-1])) != (i < len(b) && wordByte(b[i]))
}

func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}
