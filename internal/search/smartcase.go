package search

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SmartCase compiles a regular expression as show --grep reads it:
// case-insensitive unless it has a capital letter (HasCapital; smart case,
// as in less and ripgrep). A pattern that does not compile is a
// *PatternError.
func SmartCase(p string) (*regexp.Regexp, error) {
	expr := p
	if !HasCapital(p) {
		expr = "(?i)" + p
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, compileError(p, err)
	}
	return re, nil
}

// GrepFlag compiles show's --grep (SmartCase; "" is no pattern). A
// pattern that does not compile is an error that quotes it as typed
// (%q would double its backslashes), or as Go quotes it when it holds a
// backquote or what a terminal would not print.
func GrepFlag(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	re, err := SmartCase(p)
	var pe *PatternError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("--grep %s: %v (a regular expression; escape ( [ * + ? with \\)", QuotePattern(p), pe)
	}
	return re, err
}

// QuotePattern is a pattern as an error quotes it: as typed between
// backquotes (%q would double its backslashes), or as Go quotes it when it
// holds a backquote or what a terminal would not print. grep and show
// --grep say a bad pattern alike.
func QuotePattern(p string) string {
	if strings.ContainsAny(p, "`") || !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(p) // escapes control characters too
	}
	return "`" + p + "`"
}

// HasCapital reports whether a regular expression has a capital letter
// that it matches: the letters of escapes (\S, \W, \B, \PL, \p{Greek},
// \x{1F600}) and of group names ((?P<Name>...)) do not count, the letters
// of a quoted run (\Q...\E) do.
func HasCapital(p string) bool {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == '\\' && i+1 < len(p):
			rest := p[i+2:]
			switch p[i+1] {
			case 'Q': // a quoted run: its letters are matched as they are
				quoted, after, found := strings.Cut(rest, `\E`)
				if strings.ContainsFunc(quoted, unicode.IsUpper) {
					return true
				}
				if !found {
					return false
				}
				i = len(p) - len(after)
				continue
			case 'p', 'P', 'x':
				if strings.HasPrefix(rest, "{") {
					end := strings.IndexByte(rest, '}')
					if end < 0 {
						return false // unterminated: the pattern does not compile
					}
					i += 2 + end + 1
					continue
				}
				n := 1 // a one-letter class: \pL
				if p[i+1] == 'x' {
					n = 2 // two hex digits: \x4A
				}
				i += 2 + min(n, len(rest))
				continue
			}
			_, esize := utf8.DecodeRuneInString(p[i+1:])
			i += 1 + esize
			continue
		case r == '(' && (strings.HasPrefix(p[i:], "(?P<") || strings.HasPrefix(p[i:], "(?<")):
			end := strings.IndexByte(p[i:], '>')
			if end < 0 {
				return false
			}
			i += end + 1
			continue
		case unicode.IsUpper(r):
			return true
		}
		i += size
	}
	return false
}
