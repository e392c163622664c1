package session

import (
	"errors"
	"slices"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
)

// FinderFor is the Finder of one run of a command: over the roots of dirs
// (--dir), else of CLAUDE_CONFIG_DIR, else the defaults (Roots). A configured folder that is not there
// (*ConfigDirError) is kept in RootsErr: a session named by its path, or
// read from standard input, needs no roots, but a lookup or a listing
// does. Any other error of Roots is returned.
func FinderFor(dirs []string, env Env, rep *diag.Reporter) (*Finder, error) {
	roots, err := Roots(dirs, env)
	var cfg *ConfigDirError
	if err != nil && !errors.As(err, &cfg) {
		return nil, err
	}
	f := NewFinder(roots, rep)
	f.RootsErr = err
	f.noHome = env.Home == ""
	return f, nil
}

// Describe is what tells a session from others (the candidates of an
// ambiguous argument): its project (the cwd it recorded, else its
// folder's name), its last activity (else its file's time) and its title
// as ls shows it (two sessions of one project and minute differ there).
func (s *Session) Describe() (project string, updated time.Time, title string) {
	project, updated = s.ProjectKey(), s.ModTime
	if in, err := Lite(s); err == nil {
		if in.Project != "" {
			project = in.Project
		}
		updated, title = in.UpdatedAt, in.Title
	}
	return project, updated, title
}

// Title is the session's title as ls shows it (custom title, else AI
// title, else last prompt, else summary, else first prompt), "" when it
// has none or cannot be read (standard input: no head to read ahead).
func (s *Session) Title() string {
	if s.Path == StdinPath {
		return ""
	}
	if in, err := Lite(s); err == nil {
		return in.Title
	}
	return ""
}

// Described is a session with its project, last activity and title
// (Describe).
type Described struct {
	*Session
	Project string
	Updated time.Time
	Title   string
}

// DescribeNewestFirst describes sessions, the most recently active first,
// as ls lists them (the candidates of an ambiguous prefix).
func DescribeNewestFirst(ss []*Session) []Described {
	out := make([]Described, len(ss))
	for i, s := range ss {
		out[i].Session = s
		out[i].Project, out[i].Updated, out[i].Title = s.Describe()
	}
	slices.SortStableFunc(out, func(a, b Described) int { return b.Updated.Compare(a.Updated) })
	return out
}
