package dates

import "github.com/cctx-dev/cctx/internal/flagval"

// What each flag accepts, for its errors.
const (
	dateForms = "a date (2026-01-31, 2026-01-31T15:04:05Z, today, yesterday) or an age (30m, 12h, 7d, 2w)"
	zoneForms = "an IANA name such as Europe/Paris or America/New_York, UTC, or local"
)

// Date is the value of --since or --until, kept in p: the text as typed,
// parsed later (a date needs the clock and --tz), but never empty.
func Date(p *string) *flagval.NonEmpty { return flagval.New(p, dateForms) }

// Zone is the value of --tz, kept in p.
func Zone(p *string) *flagval.NonEmpty { return flagval.New(p, zoneForms) }
