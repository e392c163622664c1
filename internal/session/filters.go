package session

import (
	"strings"
	"time"
)

// Filters are the flags that chose sessions or responses, for the line
// that says why nothing matched: the flags given, --since with the time
// it was taken for (an age like 1m is a minute, not a month; a date may
// lie in the future), and --project with the folder (a relative PATH is
// resolved from the current directory, which the user may not have
// meant).
type Filters struct {
	Since, Until time.Time      // zero: not given
	Project      string         // ProjectPath of --project ("": not given)
	Now          time.Time      // to tell a --since in the future
	Zone         *time.Location // the zone --since was read in (tokens --tz); nil: local
}

// Names are the flags given, joined with "and" ("": none); window keeps
// only --since and --until, which choose responses by time.
func (fl Filters) Names(window bool) string {
	var given []string
	if !fl.Since.IsZero() {
		zone := fl.Zone
		if zone == nil {
			zone = time.Local
		}
		since := "--since " + fl.Since.In(zone).Format("2006-01-02 15:04")
		if fl.Since.After(fl.Now) {
			since += " (in the future)"
		}
		given = append(given, since)
	}
	if !fl.Until.IsZero() {
		given = append(given, "--until")
	}
	if fl.Project != "" && !window {
		given = append(given, "--project "+fl.Project)
	}
	return strings.Join(given, " and ")
}

// Filters are the flags the options stand for.
func (o ListOptions) Filters() Filters {
	return Filters{Since: o.Since, Until: o.Until, Project: o.Project, Now: o.Now}
}
