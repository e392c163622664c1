package render

import (
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// completionWidth bounds a description: zsh and fish show it beside the
// value, on one line.
const completionWidth = 100

// Completion is one candidate of a shell completion as cobra prints it:
// the value, a tab and its description. The description comes from
// transcripts: it is made inert (Safe) and kept on one line; the shells
// split candidates at newlines and values at tabs. A value is put on the
// command line as it is, so it cannot be escaped: one that is not plain
// text (a cwd written with escape sequences or controls) is no candidate
// (""), and the shell's own completion is left to do.
func Completion(value, desc string) string {
	if Safe(value) != value || strings.ContainsAny(value, "\t\n\r") {
		return ""
	}
	desc = Safe(strings.Join(strings.Fields(desc), " "))
	if desc == "" {
		return value
	}
	return value + "\t" + Cut(desc, completionWidth)
}

// SessionCompletion describes a session for its completion: its title,
// project and last activity.
func SessionCompletion(in *session.Info, home string, now time.Time) string {
	parts := []string{}
	if in.Title != "" {
		parts = append(parts, Cut(Safe(strings.Join(strings.Fields(in.Title), " ")), 40))
	}
	if in.Project != "" {
		parts = append(parts, CutLeft(TildePath(in.Project, home), 30))
	}
	parts = append(parts, Ago(in.UpdatedAt, now))
	return Completion(in.ID, strings.Join(parts, " · "))
}

// ProjectCompletions are the projects for --project that start with
// toComplete, as written or under ~, each described by its sessions and
// last write.
func ProjectCompletions(projects []session.Project, toComplete, home string, now time.Time) []string {
	var out []string
	for _, p := range projects {
		for _, v := range []string{p.Path, TildePath(p.Path, home)} {
			if strings.HasPrefix(v, toComplete) {
				if c := Completion(v, Plural(p.Sessions, "session file", "session files")+", last written "+Ago(p.Updated, now)); c != "" {
					out = append(out, c)
				}
				break
			}
		}
	}
	return out
}

// LeafCompletions are the leaves of a session for --leaf: the active one
// first, then the others from the newest; each described by its state,
// time and the last prompt on its branch.
func LeafCompletions(t *tree.Tree, zone *time.Location) []string {
	leaves := t.Leaves()
	var out []string
	add := func(n *tree.Node, state string) {
		label := ""
		for p, i := n, 0; p != nil && i < 10000; p, i = p.Parent, i+1 {
			if p.Label() != "" {
				label = p.Label()
				break
			}
		}
		when := ""
		if !n.Timestamp().IsZero() {
			when = n.Timestamp().In(zone).Format("2006-01-02 15:04") + " · "
		}
		if c := Completion(n.UUID, state+" · "+when+label); c != "" {
			out = append(out, c)
		}
	}
	if t.Leaf != nil {
		add(t.Leaf, "active")
	}
	for i := len(leaves) - 1; i >= 0; i-- {
		if leaves[i] != t.Leaf {
			add(leaves[i], "abandoned")
		}
	}
	return out
}
