package cmd

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/search"
)

// grepPattern compiles show's --grep (smart case: search.SmartCase); a
// pattern that does not compile is a usage error that quotes it as typed.
func grepPattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	re, err := search.SmartCase(p)
	var pe *search.PatternError
	if errors.As(err, &pe) {
		shown := "`" + p + "`" // as typed: %q would double its backslashes
		if strings.ContainsAny(p, "`") || !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			shown = strconv.Quote(p) // escapes control characters too
		}
		return nil, usageErrorf("--grep %s: %s (a regular expression; escape ( [ * + ? with \\)", shown, pe.Msg)
	}
	return re, err
}
