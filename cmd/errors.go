package cmd

import (
	"fmt"
	"strings"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
)

// UsageError is an error the user can fix by changing the command line.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// BudgetError reports budgets that were exceeded (exit 3) or could not be
// checked (exit 1 when none was exceeded); the report itself was printed
// already.
type BudgetError struct{ Lines, Unchecked []string }

func (e *BudgetError) Error() string { return "budget exceeded" }

// silentError ends with an exit code and no further message.
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// isCobraUsage recognises the errors cobra returns before a command runs:
// unknown commands and wrong argument counts.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "unknown flag", "unknown shorthand", "invalid argument"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// cobraMessage puts one of cobra's usage errors on one line (stderr lines
// are escaped whole, so its newlines would print as \n): "unknown command
// "tok" for "cctx" (did you mean tokens?)".
func cobraMessage(msg string) string {
	msg = strings.TrimSpace(msg)
	if head, rest, ok := strings.Cut(msg, "\n\nDid you mean this?\n"); ok {
		return head + " (did you mean " + strings.Join(strings.Fields(rest), " or ") + "?)"
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(msg, "\n", " ")), " ")
}

// candidates describes the sessions an ambiguous argument matches: id,
// project and last activity.
func candidates(cands []*session.Session) []string {
	var out []string
	for _, d := range session.DescribeNewestFirst(cands) {
		out = append(out, strings.TrimRight(fmt.Sprintf("%s  %-24s  %s  %s", d.ID, render.Timestamp(d.Updated), d.Project, render.Cut(render.OneLine(d.Title), 48)), " ")) // the title last: aligned
	}
	return out
}

// plainFlagError says what is wrong with a flag value without Go's parser
// names: `invalid argument "abc" for "--limit" flag: not a number`, not
// `…: strconv.ParseInt: parsing "abc": invalid syntax`.
func plainFlagError(err error) string {
	msg := err.Error()
	i := strings.Index(msg, ": strconv.")
	if i < 0 {
		return msg
	}
	switch rest := msg[i:]; {
	case strings.Contains(rest, "ParseBool"):
		return msg[:i] + ": true or false"
	case strings.Contains(rest, "out of range"):
		return msg[:i] + ": out of range"
	default:
		return msg[:i] + ": not a number"
	}
}
