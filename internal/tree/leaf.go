package tree

import (
	"fmt"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// LeafError is a --leaf argument that names no single entry of the main
// conversation.
type LeafError struct {
	Arg     string
	Short   bool     // a prefix shorter than session.MinPrefix
	Matches []string // uuids an ambiguous prefix matches
	Leaves  []string // the session's leaves (short), when nothing matched
}

func (e *LeafError) Error() string {
	if e.Short {
		return fmt.Sprintf("--leaf %s: give at least %d characters of the uuid (as for a session id)", e.Arg, session.MinPrefix)
	}
	if len(e.Matches) > 1 {
		ids := e.Matches[:min(len(e.Matches), 8)]
		more := ""
		if len(e.Matches) > 8 {
			more = fmt.Sprintf(", and %d more", len(e.Matches)-8)
		}
		return fmt.Sprintf("--leaf %s: ambiguous prefix, %d entries match: %s%s", e.Arg, len(e.Matches), strings.Join(ids, ", "), more)
	}
	return fmt.Sprintf("--leaf %s: no entry with that uuid in the session (its leaves: %s; cctx tree shows the branches)", e.Arg, strings.Join(e.Leaves, ", "))
}

// FindLeaf resolves a --leaf argument: the uuid of an entry of the main
// conversation, or a unique prefix of one. "" is the active leaf (nil).
func (t *Tree) FindLeaf(arg string) (*Node, error) {
	if arg == "" {
		return nil, nil
	}
	if n := t.Node(arg); n != nil {
		return n, nil
	}
	if len(arg) < session.MinPrefix {
		return nil, &LeafError{Arg: arg, Short: true}
	}
	var matches []*Node
	for _, n := range t.Nodes {
		if n.Agent() != nil || !strings.HasPrefix(n.UUID, strings.ToLower(arg)) {
			continue
		}
		if len(matches) == 0 || matches[len(matches)-1] != n {
			matches = append(matches, n)
		}
	}
	if len(matches) == 1 {
		return matches[0], nil
	}
	e := &LeafError{Arg: arg}
	for _, n := range matches {
		e.Matches = append(e.Matches, n.UUID)
	}
	if len(matches) == 0 {
		for _, lf := range t.Leaves() {
			e.Leaves = append(e.Leaves, lf.Short())
		}
	}
	return nil, e
}

// FinalResponse is the last real API response on the path to leaf (the
// active path for nil): every main-conversation line of it, in path order.
// Client-side placeholders (<synthetic>) and API errors are not real
// responses. Nil when the path has none.
func (t *Tree) FinalResponse(leaf *Node) []*Node {
	path := t.ActivePath()
	if leaf != nil {
		path = t.PathTo(leaf)
	}
	var last *Node
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.Type == "assistant" && n.Agent() == nil && !n.Synthetic() && !n.APIError {
			last = n
			break
		}
	}
	if last == nil {
		return nil
	}
	var out []*Node
	for _, n := range path {
		if n == last || n.Type == "assistant" && n.Agent() == nil && n.MessageID != "" && n.MessageID == last.MessageID {
			out = append(out, n)
		}
	}
	return out
}

// Visible is show's rule for what a person reads: conversation lines
// (typed text, a queued input delivered as an attachment, replies, tool
// results) and compaction boundaries always; meta lines, other system
// lines, attachments, hooks and progress only with all.
func Visible(e *reader.Entry, all bool) bool {
	return visible(e.Type, e.Subtype, e.IsUser(), e.Meta, e.Content, all)
}

// Visible is the package function Visible for a node's line.
func (n *Node) Visible(all bool) bool {
	return visible(n.Type, n.Subtype, n.IsUser(), n.Meta, n.Content, all)
}

func visible(typ, subtype string, user, meta bool, content reader.ContentFlags, all bool) bool {
	if all {
		return true
	}
	if user {
		typ = "user"
	}
	switch typ {
	case "user":
		return !meta || content&reader.HasToolResult != 0
	case "assistant":
		return true
	case "system":
		return subtype == "compact_boundary"
	}
	return false
}
