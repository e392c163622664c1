// Package flagval holds the flag values the commands share.
package flagval

import (
	"fmt"
	"strings"
)

// What the flags of a path, a file or a budget accept, for their errors.
const (
	Folder = "a folder (a session's cwd, or a folder above it)"
	File   = "a file"
	Count  = "a number (400000, 400k, 1.5M)"
	USD    = "an amount in USD (5, 5.50)"
)

// NonEmpty is a string flag's value (a pflag.Value) that is never empty:
// the text as typed, checked later by what reads it. "" is how the
// commands say "not given", so an empty value would silently drop what
// the command line meant to set (`--project "$P"` with P unset listed
// every project, `--max-cost "$LIMIT"` checked no budget): it is a usage
// error that says what the flag accepts.
type NonEmpty struct {
	p     *string
	forms string
}

// New is the value of a flag kept in p; forms says what it accepts.
func New(p *string, forms string) *NonEmpty { return &NonEmpty{p, forms} }

// OneOf is New for a flag that takes one of names.
func OneOf(p *string, names string) *NonEmpty { return New(p, "one of "+names) }

// Set keeps s, unless it is empty or blank.
func (v *NonEmpty) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("empty: give %s", v.forms)
	}
	*v.p = s
	return nil
}

func (v *NonEmpty) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return *v.p
}

// Type is what help calls the value when its usage names none.
func (v *NonEmpty) Type() string { return "string" }
