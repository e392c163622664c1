package search

import (
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// maxContextExcerpt is how much of a context message's text is kept.
const maxContextExcerpt = 400

type lineKey struct {
	path string
	line int
}

// annotate reads a session with hits as a conversation (internal/tree: its
// main file, and the subagent files with hits) and
// says of each hit what only the whole conversation knows: whether it lies
// on an abandoned branch, which inline sidechain holds it, which tool a
// result came from, and (Context) the messages around it. Only sessions
// with hits are read so; without Details only those with an inline
// sidechain hit are, for its agent id.
func (e *engine) annotate(j *job, res *Result) {
	need := false
	for _, h := range res.Hits {
		// The branches are the main file's; a result's tool, its call's.
		need = need || h.Sidechain || e.o.Details && (h.AgentID == "" || h.toolUseID != "" || e.o.Context > 0)
	}
	if !need {
		return
	}
	// The main file, and the subagent files with hits: a hit's facts
	// are in its own file (and the main file's branches do not depend on
	// the agents). Its warnings were said (or not) when the lines were
	// searched.
	var agents []session.Agent
	for i := range j.files {
		if f := &j.files[i]; !f.main && len(f.hits) > 0 {
			agents = append(agents, f.agent)
		}
	}
	t, err := tree.LoadFiles(j.Session.Path, agents, diag.Discard())
	if err != nil {
		return // the main file cannot be read: reported already
	}
	at := map[lineKey][]*Hit{}
	for _, h := range res.Hits {
		k := lineKey{h.File, h.Line}
		at[k] = append(at[k], h)
	}
	var ctx *contexts
	if e.o.Details && e.o.Context > 0 {
		ctx = &contexts{e: e, t: t, hits: at, used: map[lineKey]bool{}, files: map[string]*reader.File{}}
		defer ctx.close()
	}
	for _, n := range t.Nodes {
		hs := at[lineKey{n.File.Path, n.Line}]
		for _, h := range hs {
			if n.Agent() != nil && n.Agent().Inline {
				h.AgentID = n.Agent().ID
			}
			if h.AgentID == "" && n.IsMainConversation() && !n.Active && t.Leaf != nil {
				h.Abandoned = true
			}
			if h.toolUseID != "" {
				h.Tool = toolName(t, h.toolUseID)
			}
		}
		if ctx != nil && len(hs) > 0 {
			ctx.around(n, hs[0])
		}
	}
}

// contexts finds the messages around hits: in the same file, in line
// order, user and assistant lines with text to show, each shown once and
// never when it is a hit itself.
type contexts struct {
	e     *engine
	t     *tree.Tree
	hits  map[lineKey][]*Hit
	used  map[lineKey]bool
	files map[string]*reader.File // text offsets: a compressed archive's decompressed
	dec   reader.TextDecoder
}

func (c *contexts) close() {
	for _, f := range c.files {
		f.Close()
	}
}

func (c *contexts) around(n *tree.Node, h *Hit) {
	c.used[lineKey{n.File.Path, n.Line}] = true
	want := c.e.o.Context
	var before []Context
	for i := n.Pos() - 1; i >= 0 && len(before) < want; i-- {
		m := c.t.Nodes[i]
		if m.File != n.File {
			break
		}
		if x, ok := c.context(m); ok {
			before = append(before, x)
		}
	}
	for i, k := 0, len(before)-1; i < k; i, k = i+1, k-1 {
		before[i], before[k] = before[k], before[i]
	}
	h.Before = before
	for i := n.Pos() + 1; i < len(c.t.Nodes) && len(h.After) < want; i++ {
		m := c.t.Nodes[i]
		if m.File != n.File {
			break
		}
		if _, hit := c.hits[lineKey{m.File.Path, m.Line}]; hit {
			break // the next hit shows itself, with its own context
		}
		if x, ok := c.context(m); ok {
			h.After = append(h.After, x)
		}
	}
}

// context reads a node's line for its first text in the searched roles.
func (c *contexts) context(n *tree.Node) (Context, bool) {
	k := lineKey{n.File.Path, n.Line}
	if !n.IsConversation() || n.Meta || c.used[k] {
		return Context{}, false
	}
	if _, hit := c.hits[k]; hit {
		return Context{}, false
	}
	f := c.files[n.File.Path]
	if f == nil {
		var err error
		if f, err = reader.OpenFile(n.File.Path); err != nil {
			return Context{}, false
		}
		c.files[n.File.Path] = f
	}
	raw, err := reader.LineAt(f, n.Offset, n.Size)
	if err != nil {
		return Context{}, false
	}
	if c.e.o.Redact != nil {
		raw = c.e.o.Redact(raw)
	}
	var x Context
	found := false
	c.dec.Readables(raw, c.e.o.Roles.Has(RoleThinking), func(rd *reader.Readable) bool {
		role := roleOf(n.Type, rd.Kind)
		if !c.e.o.Roles.Has(role) {
			return true
		}
		x = Context{UUID: n.UUID, Time: n.Timestamp(), Role: role, Kind: rd.Kind, Tool: rd.Tool, Field: rd.Field,
			Excerpt: cutText(rd.Text, 0, min(len(rd.Text), maxContextExcerpt))}
		if rd.Kind == reader.KindToolResult && rd.ToolUseID != "" {
			x.Tool = toolName(c.t, rd.ToolUseID) // "Bash result", as a hit's
		}
		found = true
		return false
	})
	if found {
		c.used[k] = true
	}
	return x, found
}

// toolName is the name of the tool whose call has id, "" when the call is
// not in the tree.
func toolName(t *tree.Tree, id string) string {
	if call := t.ToolUseNode(id); call != nil {
		for _, u := range call.ToolUses() {
			if u.ID == id {
				return u.Name
			}
		}
	}
	return ""
}
