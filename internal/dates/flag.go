package dates

import (
	"fmt"
	"strings"
)

// What each flag accepts, for its errors.
const (
	dateForms = "a date (2026-01-31, 2026-01-31T15:04:05Z, today, yesterday) or an age (30m, 12h, 7d, 2w)"
	zoneForms = "an IANA name such as Europe/Paris or America/New_York, UTC, or local"
)

// Value is the flag value of --since, --until or --tz (a pflag.Value):
// the text as typed, parsed later (a date needs the clock and --tz), but
// never empty. An empty value is a usage error: read as "not given", it
// would drop the filter the user meant to set (`--since "$FROM"` with FROM
// unset listed everything), so the flag says what it accepts instead.
type Value struct {
	p     *string
	forms string
}

// Date is the value of --since or --until, kept in p.
func Date(p *string) *Value { return &Value{p, dateForms} }

// Zone is the value of --tz, kept in p.
func Zone(p *string) *Value { return &Value{p, zoneForms} }

// Set keeps s, unless it is empty or blank.
func (v *Value) Set(s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("empty: give %s", v.forms)
	}
	*v.p = s
	return nil
}

func (v *Value) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return *v.p
}

// Type is what help calls the value when its usage names none.
func (v *Value) Type() string { return "string" }
