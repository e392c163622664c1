package session

import "strings"

// Filters say which of the flags that choose sessions or responses a
// command was given, for the line that says why nothing matched: the
// flags given, and --project with the folder it was taken for (a relative
// PATH is resolved from the current directory, which the user may not
// have meant).
type Filters struct {
	Since, Until bool
	Project      string // ProjectPath of --project ("": not given)
}

// Names are the flags given, joined with "and" ("": none); window keeps
// only --since and --until, which choose responses by time.
func (fl Filters) Names(window bool) string {
	var given []string
	if fl.Since {
		given = append(given, "--since")
	}
	if fl.Until {
		given = append(given, "--until")
	}
	if fl.Project != "" && !window {
		given = append(given, "--project "+fl.Project)
	}
	return strings.Join(given, " and ")
}

// Filters are the flags the options stand for.
func (o ListOptions) Filters() Filters {
	return Filters{Since: !o.Since.IsZero(), Until: !o.Until.IsZero(), Project: o.Project}
}
