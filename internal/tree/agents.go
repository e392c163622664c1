package tree

import (
	"sort"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Call is one Agent/Task tool call of the session (in the main transcript
// or in a subagent's): what spawned or resumed a subagent.
type Call struct {
	ToolUseID string
	Tool      string // Agent or Task
	Node      *Node  // the assistant line holding the tool_use
	Fact      reader.ToolUseFact
	// Result is the first line answering the call; nil when none does.
	Result *Node
	// ResultAgentID is toolUseResult.agentId of the result line, when that
	// line answers this call only (toolUseResult belongs to the line).
	ResultAgentID string
	// Agent is the subagent the call spawned or resumed; nil when its
	// transcript is not in the session (see the Agent/Task result's
	// ResultAgentID).
	Agent *Agent
	// Elsewhere is the transcript of the agent the result names, found in
	// the folder of the session this one resumed (a resumed session
	// replays the earlier one's lines; the agents stay there).
	Elsewhere string
	// Unlinked is the tree's warning about the agent the result names
	// when its transcript is not among the session's files (or its
	// agentId could not be a file name): on the first call whose result
	// names it, nil on the others and when the agent was found. It is
	// the one wording of that fact, which cctx agents repeats as it is.
	// On standard input, which brings no agent file, the tree draws the
	// conversation without a word (there was nothing to find), and
	// Unlinked holds what is said by the commands that report on agents.
	Unlinked *Warning
}

// ElsewhereNote is the note that the agent the call's result names ran in
// the session this one resumed (Elsewhere "": none), at the result's line.
func (c *Call) ElsewhereNote() Warning {
	return Warning{File: c.Result.File.Name, Line: c.Result.Line,
		Msg: sprintf("agent %s ran in the session this one resumed: its transcript is %s", c.ResultAgentID, c.Elsewhere)}
}

// linkAgents hangs each subagent under the call that spawned it. A link is
// made on evidence only, never on timing alone:
//
//  1. the toolUseId of the agent's .meta.json sidecar (2.1.x), when one
//     sidecar alone names that call;
//  2. toolUseResult.agentId on the line carrying the Agent/Task result;
//  3. the agentId of agent_progress lines (2.1.x, an agent still running);
//  4. for an agent whose call was rejected while it ran (no agentId in the
//     result, a sidecar without toolUseId): the call's exact prompt (the
//     agent's first prompt, trimmed, equal to input.prompt), its
//     description (equal to the sidecar's, when the sidecar has one) and
//     the agent starting within a second of the call.
//
// A call that resumes an agent (input.resume, or a later result naming the
// same agentId) is added to that agent's Calls.
//
// Compaction agents (agent-acompact-*) hang under the compact_boundary
// whose logicalParentUuid their lines point to.
//
// Inline sidechains (≤1.0.x: isSidechain lines in the main file, each
// chain starting at parentUuid null) become agents named after their
// root (reader.InlineAgentID). One is linked to the Task call its root's
// parentUuid names, else to the one Task call whose exact prompt it
// received. Agents nothing links keep a nil Spawn (2.0.x warm-ups among
// them: Claude Code starts those itself).
func (b *builder) linkAgents() {
	t := b.t
	b.collectCalls()
	progressTU := map[string]string{}
	for _, n := range t.Nodes {
		if id := n.fx().progressAgentID; id != "" && n.fx().parentToolUseID != "" && progressTU[id] == "" {
			progressTU[id] = n.fx().parentToolUseID
		}
	}
	metaClaims := map[string]int{}
	for _, a := range t.Agents {
		if id := a.Meta.ToolUseID; id != "" {
			metaClaims[id]++
		}
	}
	for _, a := range t.Agents {
		for _, n := range a.Nodes {
			if n.Parent == nil {
				a.Roots = append(a.Roots, n)
			}
			if n.IsConversation() {
				a.Leaf = n
			}
		}
		a.Type, a.Description = a.Meta.AgentType, a.Meta.Description
		if a.Compaction {
			b.linkCompaction(a)
			continue
		}
		var c *Call
		switch m := a.Meta.ToolUseID; {
		case m != "" && metaClaims[m] == 1 && b.calls[m] != nil && b.calls[m].Agent == nil:
			c, a.LinkedBy = b.calls[m], "meta.json"
		case b.resultCall(a.ID) != nil:
			c, a.LinkedBy = b.resultCall(a.ID), "toolUseResult"
		case progressTU[a.ID] != "" && b.calls[progressTU[a.ID]] != nil && b.calls[progressTU[a.ID]].Agent == nil:
			c, a.LinkedBy = b.calls[progressTU[a.ID]], "progress"
		}
		if m := a.Meta.ToolUseID; m != "" && metaClaims[m] > 1 {
			a.MetaShared = metaClaims[m]
		}
		if c != nil {
			b.attach(a, c)
		}
	}
	// Rejected calls: only once every other link is made, so that an
	// agent linked on a sidecar or a result is never taken here.
	for _, a := range t.Agents {
		if a.Spawn == nil && !a.Compaction {
			if c := b.promptCall(a); c != nil {
				b.attach(a, c)
				a.LinkedBy = "prompt"
			}
		}
	}
	for _, a := range t.Agents {
		if a.Type == "" && a.Result != nil && len(a.Calls) > 0 {
			a.Type = a.Result.fx().agentType
		}
		if a.Spawn == nil && !a.Compaction && isWarmup(a) {
			a.Warmup = true
			if a.Type == "" {
				a.Type = "warmup"
			}
		}
	}
	b.inlineSidechains()
	b.resumes()
	b.unlinkedResults()
}

// collectCalls lists every Agent/Task call, in file order (a tool_use id
// seen twice is one call), with its result.
func (b *builder) collectCalls() {
	t := b.t
	b.calls = map[string]*Call{}
	for _, n := range t.Nodes {
		for _, f := range n.ToolUses() {
			if !reader.IsSpawnTool(f.Name) || f.ID == "" || b.calls[f.ID] != nil {
				continue
			}
			c := &Call{ToolUseID: f.ID, Tool: f.Name, Node: n, Fact: f}
			if rs := t.results[f.ID]; len(rs) > 0 {
				c.Result = rs[0]
				if len(c.Result.ToolResults()) == 1 {
					c.ResultAgentID = c.Result.ToolUseResultAgentID()
				}
			}
			b.calls[f.ID] = c
			t.Calls = append(t.Calls, c)
		}
	}
}

// resultCall is the first call not yet linked whose result names agent id.
func (b *builder) resultCall(id string) *Call {
	for _, c := range b.t.Calls {
		if c.Agent == nil && c.ResultAgentID == id {
			return c
		}
	}
	return nil
}

// promptCall is the one unlinked call whose result names no agent and
// that sent exactly the agent's first prompt, with the sidecar's
// description, at most a second before the agent began.
func (b *builder) promptCall(a *Agent) *Call {
	first := a.FirstPrompt()
	if first == nil || first.PromptHash() == 0 || first.Timestamp().IsZero() {
		return nil
	}
	var found *Call
	for _, c := range b.t.Calls {
		switch {
		case c.Agent != nil || c.ResultAgentID != "" || c.Fact.PromptHash != first.PromptHash():
		case a.Meta.Description != "" && c.Fact.Description != a.Meta.Description:
		case c.Node.Timestamp().IsZero():
		case first.Timestamp().Before(c.Node.Timestamp()) || first.Timestamp().Sub(c.Node.Timestamp()) > time.Second:
		default:
			if found != nil {
				return nil // two calls fit: no guess
			}
			found = c
		}
	}
	return found
}

// FirstPrompt is an agent's first user line that is not a tool result:
// the prompt it was given (nil when it has none). The one rule for it:
// the linker matches a call's prompt with it, a warm-up is known by it,
// and cctx agents quotes it.
func (a *Agent) FirstPrompt() *Node {
	for _, n := range a.Nodes {
		if n.Type == "user" && len(n.ToolResults()) == 0 {
			return n
		}
	}
	return nil
}

// isWarmup reports whether a file agent's first prompt (its first user
// line that is not a tool result, as cctx agents reads it) is a warm-up.
func isWarmup(a *Agent) bool {
	n := a.FirstPrompt()
	return n != nil && reader.IsWarmup(n.Prompt())
}

// resumes adds to each agent the later calls that resumed it: input.resume
// names it, or their result names it again.
func (b *builder) resumes() {
	for _, c := range b.t.Calls {
		if c.Agent != nil {
			continue
		}
		id := c.ResultAgentID
		if id == "" {
			id = c.Fact.Resume
		}
		if a := b.t.AgentByID(id); a != nil && id != "" && a.Spawn != nil {
			c.Agent = a
			a.Calls = append(a.Calls, c)
		}
	}
	for _, a := range b.t.Agents {
		sort.SliceStable(a.Calls, func(i, j int) bool { return a.Calls[i].Node.pos < a.Calls[j].Node.pos })
	}
}

// unlinkedResults reports the Agent/Task results that name an agent whose
// transcript was not found: the conversation is drawn without it, and that
// should not pass in silence, in a session whose main transcript was
// deleted too (its agents' own calls). A transcript read from standard
// input has no folder to hold agent files: the tree says nothing, and
// keeps what the commands that report on agents say (Call.Unlinked).
//
// The warning is located at the result's line, not at the tool_use's: the
// result is the line that names the agent (toolUseResult.agentId), the
// evidence that a transcript should exist (the tool_use line knows no
// agent id yet), and the line where a count finds that id (tokens warns
// there). Every command says it at that line.
func (b *builder) unlinkedResults() {
	said := map[string]bool{}
	for _, c := range b.t.Calls {
		id := c.ResultAgentID
		if c.Agent != nil || id == "" || said[id] || b.t.AgentByID(id) != nil {
			continue
		}
		said[id] = true
		w := Warning{File: c.Result.File.Name, Line: c.Result.Line}
		switch {
		case !session.SafeAgentID(id):
			w.Msg = reader.UnsafeAgentText(session.QuoteAgentID(id))
		case b.alone:
			w.Msg = reader.UnreadAgentText(id) + " (name the session, not -, to read it)"
		default:
			if b.elsewhere != nil {
				if c.Elsewhere = b.elsewhere(id); c.Elsewhere != "" {
					// Not missing: this session resumed the one that ran it.
					b.note("%s", c.ElsewhereNote().String())
					continue
				}
			}
			w.Msg = reader.UnlinkedAgentText(id)
		}
		c.Unlinked = &w
		if !b.alone { // see above
			b.warnAt(w)
		}
	}
}

// attach links agent a under the call c.
func (b *builder) attach(a *Agent, c *Call) {
	a.Spawn, a.ToolUseID, a.Result = c.Node, c.ToolUseID, c.Result
	a.Calls = append(a.Calls, c)
	c.Agent = a
	c.Node.mfx().agents = append(c.Node.Agents(), a)
	if a.Type == "" {
		a.Type = c.Fact.SubagentType
	}
	if a.Description == "" {
		a.Description = c.Fact.Description
	}
}

func (b *builder) linkCompaction(a *Agent) {
	t := b.t
	external := map[string]bool{}
	for _, n := range a.Nodes {
		if n.Parent == nil && n.ParentUUID != "" && t.byUUID.get(n.ParentUUID) != nil {
			external[n.ParentUUID] = true
		}
	}
	// The main file's compact boundaries, listed once: a session with
	// hundreds of compaction agents looked through every entry for each.
	if b.boundaries == nil {
		b.boundaries = []*Node{}
		for _, n := range t.Nodes {
			if n.Agent() == nil && n.IsCompactBoundary() {
				b.boundaries = append(b.boundaries, n)
			}
		}
	}
	for _, n := range b.boundaries {
		if external[n.LogicalParentUUID()] {
			a.Spawn, a.LinkedBy = n, "compaction"
			n.mfx().agents = append(n.Agents(), a)
			if a.Type == "" {
				a.Type = "compaction"
			}
			return
		}
	}
}

// inlineSidechains turns the isSidechain components of the main file into
// agents and links them (see linkAgents).
func (b *builder) inlineSidechains() {
	t := b.t
	var inline []*Agent
	for _, n := range t.Nodes {
		if n.Agent() != nil || !n.Sidechain || (n.Parent != nil && n.Parent.Sidechain) {
			continue
		}
		a := &Agent{ID: reader.InlineAgentID(n.UUID), File: t.Main, Inline: true, Roots: []*Node{n}}
		if p := n.Parent; p != nil {
			// A sidechain hanging off a main line: that line spawned it.
			p.setKids(removeNode(p.Children(), n))
			n.setParent(nil)
			for _, f := range p.ToolUses() {
				if c := b.calls[f.ID]; c != nil && c.Agent == nil {
					b.attach(a, c)
					break
				}
			}
			if a.Spawn == nil {
				a.Spawn = p
				p.mfx().agents = append(p.Agents(), a)
			}
			a.LinkedBy = "parentUuid"
		}
		stack := []*Node{n}
		seen := map[*Node]bool{}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[c] || c.Agent() != nil {
				continue
			}
			seen[c] = true
			c.mfx().inline = a
			a.Nodes = append(a.Nodes, c)
			for _, k := range c.Children() {
				if k.Sidechain {
					stack = append(stack, k)
				}
			}
		}
		sortByPos(a.Nodes)
		for _, c := range a.Nodes {
			if c.IsConversation() {
				a.Leaf = c
			}
		}
		inline = append(inline, a)
	}
	// The exact prompt, when one call alone sent it and one sidechain
	// alone received it: two of either would be a guess.
	sent := map[uint64][]*Call{}
	for _, c := range t.Calls {
		if c.Agent == nil && c.Fact.PromptHash != 0 && c.Node.Agent() == nil && !c.Node.Sidechain {
			sent[c.Fact.PromptHash] = append(sent[c.Fact.PromptHash], c)
		}
	}
	got := map[uint64]int{}
	for _, a := range inline {
		if a.Spawn == nil {
			got[a.Roots[0].PromptHash()]++
		}
	}
	for _, a := range inline {
		h := a.Roots[0].PromptHash()
		if a.Spawn != nil || h == 0 {
			continue
		}
		if cs := sent[h]; len(cs) == 1 && got[h] == 1 && cs[0].Agent == nil {
			b.attach(a, cs[0])
			a.LinkedBy = "prompt"
		} else if len(cs) > 0 {
			a.PromptShared = max(len(cs), got[h])
		}
	}
	t.Agents = append(t.Agents, inline...)
}

func sortByPos(ns []*Node) {
	sortNodes(ns, func(a, b *Node) bool { return a.pos < b.pos })
}

// isCompaction reports whether an agent id is a compaction agent's.
func isCompaction(id string) bool { return session.IsCompactionAgent(id) }
