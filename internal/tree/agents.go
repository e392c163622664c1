package tree

import (
	"sort"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// linkAgents hangs each subagent under the node that spawned it.
//
// File agents (agent-<id>.jsonl, both layouts) are linked, in this order,
// by the toolUseId of their .meta.json sidecar, by toolUseResult.agentId on
// the line carrying the Agent/Task result, or by the agentId of
// agent_progress lines (a 2.1.x agent still running). Compaction agents
// (agent-acompact-*) hang under the compact_boundary whose
// logicalParentUuid their lines point to, else under the first boundary
// after their last line. Agents nothing links (2.0.x Warmup agents) keep a
// nil Spawn.
//
// Inline sidechains (≤1.0.x: isSidechain lines in the main file, each
// chain starting at parentUuid null) become agents named "sidechain-" and
// the first 8 characters of their root uuid. A sidechain is linked to the
// Task call whose input prompt equals the sidechain's first prompt (hash of
// the trimmed text); failing that, to the latest Task call not yet linked
// and not failed whose line is not later than the sidechain's first line.
func (b *builder) linkAgents() {
	t := b.t
	resultByAgent := map[string]*Node{}
	progressTU := map[string]string{}
	for _, n := range t.Nodes {
		if id := n.ToolUseResultAgentID; id != "" && resultByAgent[id] == nil {
			resultByAgent[id] = n
		}
		if id := n.facts.progressAgentID; id != "" && n.facts.parentToolUseID != "" && progressTU[id] == "" {
			progressTU[id] = n.facts.parentToolUseID
		}
	}
	claimed := map[string]bool{}
	for _, a := range t.Agents {
		for _, n := range a.Nodes {
			if n.Parent == nil {
				a.Roots = append(a.Roots, n)
			}
			if n.IsConversation() {
				a.Leaf = n
			}
		}
		m := b.meta[a]
		a.Type, a.Description = m.AgentType, m.Description
		if a.Compaction {
			b.linkCompaction(a)
			continue
		}
		var tu string
		switch res := resultByAgent[a.ID]; {
		case m.ToolUseID != "" && t.toolUse[m.ToolUseID] != nil:
			tu, a.LinkedBy = m.ToolUseID, "meta.json"
		case res != nil && len(res.ToolResults) > 0 && t.toolUse[res.ToolResults[0]] != nil:
			tu, a.LinkedBy = res.ToolResults[0], "toolUseResult"
		case progressTU[a.ID] != "" && t.toolUse[progressTU[a.ID]] != nil:
			tu, a.LinkedBy = progressTU[a.ID], "progress"
		}
		if tu != "" {
			b.attach(a, t.toolUse[tu], tu)
			claimed[tu] = true
		}
		if a.Result == nil {
			a.Result = resultByAgent[a.ID]
		}
		if a.Type == "" && a.Result != nil {
			a.Type = a.Result.facts.agentType
		}
		if a.Spawn == nil && isWarmup(a) {
			a.Warmup = true
			if a.Type == "" {
				a.Type = "warmup"
			}
		}
	}
	b.inlineSidechains(claimed)
	b.unlinkedResults(resultByAgent)
}

// isWarmup reports whether a file agent's first prompt (its first user
// line that is not a tool result, as cctx agents reads it) is a warm-up.
func isWarmup(a *Agent) bool {
	for _, n := range a.Nodes {
		if n.Type == "user" && len(n.ToolResults) == 0 {
			return reader.IsWarmup(n.Prompt)
		}
	}
	return false
}

// unlinkedResults reports the Agent/Task results that name an agent whose
// transcript was not found, as cctx agents does: the conversation is
// drawn without it, and that should not pass in silence. A transcript read
// from standard input has no folder to hold agent files: nothing to say.
func (b *builder) unlinkedResults(resultByAgent map[string]*Node) {
	if b.t.Main == nil || b.alone {
		return
	}
	var ids []string
	for id := range resultByAgent {
		if b.t.AgentByID(id) == nil && !b.unreadable[id] { // an unreadable file was reported as such
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return resultByAgent[ids[i]].pos < resultByAgent[ids[j]].pos })
	for _, id := range ids {
		n := resultByAgent[id]
		if !session.SafeAgentID(id) {
			b.warn(n.File, n.Line, "the Agent/Task result names agentId %s, which cannot be a file name: its transcript was not looked up", session.QuoteAgentID(id))
			continue
		}
		if b.elsewhere != nil {
			if p := b.elsewhere(id); p != "" {
				// Not missing: this session resumed the one that ran it.
				b.rep.Note("%s:%d: agent %s ran in the session this one resumed: its transcript is %s", n.File.Name, n.Line, id, p)
				continue
			}
		}
		b.warn(n.File, n.Line, "the Agent/Task result names agent %s, but no transcript agent-%s.jsonl was found", id, id)
	}
}

// attach links agent a under spawn, the node holding tool_use id tu.
func (b *builder) attach(a *Agent, spawn *Node, tu string) {
	a.Spawn, a.ToolUseID = spawn, tu
	spawn.Agents = append(spawn.Agents, a)
	if rs := b.t.results[tu]; len(rs) > 0 {
		a.Result = rs[0]
	}
	for _, f := range spawn.ToolUses {
		if f.ID == tu {
			if a.Type == "" {
				a.Type = f.SubagentType
			}
			if a.Description == "" {
				a.Description = f.Description
			}
		}
	}
}

func (b *builder) linkCompaction(a *Agent) {
	t := b.t
	external := map[string]bool{}
	for _, n := range a.Nodes {
		if n.Parent == nil && n.ParentUUID != "" && t.byUUID[n.ParentUUID] != nil {
			external[n.ParentUUID] = true
		}
	}
	var last *Node
	if len(a.Nodes) > 0 {
		last = a.Nodes[len(a.Nodes)-1]
	}
	var byTime *Node
	if b.boundaries == nil {
		// The main file's compact boundaries, found once for every
		// compaction agent (a long session has hundreds of them).
		b.boundaries = []*Node{}
		for _, n := range t.Nodes {
			if n.Agent == nil && n.IsCompactBoundary() {
				b.boundaries = append(b.boundaries, n)
			}
		}
	}
	for _, n := range b.boundaries {
		if external[n.LogicalParentUUID] {
			b.hangCompaction(a, n)
			return
		}
		if byTime == nil && last != nil && !n.Timestamp.IsZero() && !n.Timestamp.Before(last.Timestamp) {
			byTime = n
		}
	}
	if byTime != nil {
		b.hangCompaction(a, byTime)
	}
}

func (b *builder) hangCompaction(a *Agent, boundary *Node) {
	a.Spawn, a.LinkedBy = boundary, "compaction"
	boundary.Agents = append(boundary.Agents, a)
	if a.Type == "" {
		a.Type = "compaction"
	}
}

// inlineSidechains turns the isSidechain components of the main file into
// agents and links them (see linkAgents).
func (b *builder) inlineSidechains(claimed map[string]bool) {
	t := b.t
	var inline []*Agent
	for _, n := range t.Nodes {
		if n.Agent != nil || !n.Sidechain || (n.Parent != nil && n.Parent.Sidechain) {
			continue
		}
		a := &Agent{ID: "sidechain-" + n.Short(), File: t.Main, Inline: true, Roots: []*Node{n}}
		if p := n.Parent; p != nil {
			// A sidechain hanging off a main line: that line spawned it.
			p.Children = removeNode(p.Children, n)
			n.Parent = nil
			for _, f := range p.ToolUses {
				if reader.IsSpawnTool(f.Name) && !claimed[f.ID] {
					b.attach(a, p, f.ID)
					claimed[f.ID] = true
					a.LinkedBy = "parentUuid"
					break
				}
			}
			if a.Spawn == nil {
				a.Spawn, a.LinkedBy = p, "parentUuid"
				p.Agents = append(p.Agents, a)
			}
		}
		stack := []*Node{n}
		seen := map[*Node]bool{}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[c] || c.Agent != nil {
				continue
			}
			seen[c] = true
			c.Agent = a
			a.Nodes = append(a.Nodes, c)
			for _, k := range c.Children {
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
	if len(inline) == 0 {
		return
	}
	type call struct {
		node *Node
		fact reader.ToolUseFact
	}
	var calls []call
	for _, n := range t.Nodes {
		if n.Agent != nil || n.Sidechain {
			continue
		}
		for _, f := range n.ToolUses {
			if reader.IsSpawnTool(f.Name) && !claimed[f.ID] {
				calls = append(calls, call{n, f})
			}
		}
	}
	failed := func(id string) bool {
		rs := t.results[id]
		if len(rs) == 0 {
			return false
		}
		for _, r := range rs {
			if !r.ResultError {
				return false
			}
		}
		return true
	}
	for _, a := range inline {
		if a.Spawn != nil {
			continue
		}
		root := a.Roots[0]
		for _, c := range calls {
			if !claimed[c.fact.ID] && root.PromptHash != 0 && c.fact.PromptHash == root.PromptHash {
				b.attach(a, c.node, c.fact.ID)
				claimed[c.fact.ID], a.LinkedBy = true, "prompt"
				break
			}
		}
	}
	for _, a := range inline {
		if a.Spawn != nil {
			continue
		}
		root := a.Roots[0]
		var best *call
		for i := range calls {
			c := &calls[i]
			if claimed[c.fact.ID] || failed(c.fact.ID) || c.node.Timestamp.After(root.Timestamp) {
				continue
			}
			if best == nil || !c.node.Timestamp.Before(best.node.Timestamp) {
				best = c
			}
		}
		if best != nil {
			b.attach(a, best.node, best.fact.ID)
			claimed[best.fact.ID], a.LinkedBy = true, "time"
		}
	}
	t.Agents = append(t.Agents, inline...)
}

func sortByPos(ns []*Node) {
	// insertion sort is enough for nearly sorted slices, but use the
	// standard sort to stay O(n log n) on any input.
	sortNodes(ns, func(a, b *Node) bool { return a.pos < b.pos })
}
