package cmd

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// grepPattern compiles --grep: case-insensitive unless the pattern has a
// capital letter (smart case, as in less and ripgrep).
func grepPattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	expr := p
	if !hasCapital(p) {
		expr = "(?i)" + p
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		// The error quotes the compiled expression: quote the user's.
		shown := "`" + p + "`" // as typed: %q would double its backslashes
		if strings.ContainsAny(p, "`") || !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			shown = strconv.Quote(p) // escapes control characters too
		}
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, usageErrorf("--grep %s: %s (a regular expression; escape ( [ * + ? with \\)", shown, se.Code)
		}
		return nil, usageErrorf("--grep %s: %v", shown, err)
	}
	return re, nil
}

// hasCapital reports whether a regular expression has a capital letter
// that it matches: the letters of escapes (\S, \W, \B, \PL, \p{Greek},
// \x{1F600}) and of group names ((?P<Name>...)) do not count, the letters
// of a quoted run (\Q...\E) do.
func hasCapital(p string) bool {
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
