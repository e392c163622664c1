package tokens

// Usage by subagent type: the responses of each agent grouped under the
// type of the agent (general-purpose, Explore, a custom agent's name,
// compaction, …), across sessions.

const (
	// ByAgentType groups by the subagent type (Report.AgentType).
	ByAgentType Grouping = "agent-type"
	// ByTool is the use of each tool (Tools), not a grouping of responses.
	ByTool Grouping = "tool"
)

// MainType is the agent type of the main conversation; UnknownType that
// of an agent whose type is not known.
const (
	MainType    = "(main)"
	UnknownType = "(unknown)"
)

// agentTypeGroups totals the report by Report.AgentType, most tokens
// first; Group.Runs counts the agents (session and agent id) of a type
// that have a response in the report.
func (r *Report) agentTypeGroups() []Group {
	kept := map[*SessionReport]bool{}
	for _, sr := range r.Sessions {
		kept[sr] = true
	}
	type agentKey struct{ session, agent string }
	m := map[string]*Total{}
	runs := map[string]map[agentKey]bool{}
	r.eachBucket(func(session int, b *bucket) {
		sr := r.all[session]
		if !kept[sr] {
			return
		}
		typ := MainType
		if b.key.agent != "" {
			typ = UnknownType
			if r.AgentType != nil {
				if t := r.AgentType(sr.ID, b.key.agent); t != "" {
					typ = t
				}
			}
		}
		groupMerge(m, typ, b.total)
		if runs[typ] == nil {
			runs[typ] = map[agentKey]bool{}
		}
		runs[typ][agentKey{sr.ID, b.key.agent}] = true
	})
	out := groups(m, byTokens)
	for i := range out {
		out[i].Runs = len(runs[out[i].Key])
	}
	return out
}
