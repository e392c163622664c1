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
// split candidates at newlines and values at tabs.
func Completion(value, desc string) string {
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
		out = append(out, Completion(n.UUID, state+" · "+when+label))
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
