package render

import "strings"

// PipeTable is one of the tab-separated tables a command prints in a pipe
// (no header line): what it is and its columns, in order. A column in
// brackets is there only in some reports, which When says; a bracket can
// hold several columns ("[prompts api_calls]"). Each command's --help
// lists its tables from here, beside the views that write them, and a
// test of cmd holds every list to the rows printed.
type PipeTable struct {
	Name    string
	Columns []string
	When    string
}

// TokensPipeTables are the tables of cctx tokens in a pipe.
var TokensPipeTables = []PipeTable{
	{"sessions", []string{"session_id", "project", "started_at", "api_calls", "input", "output", "cache_creation", "cache_read", "total", "cost_usd"},
		"several sessions, or none named"},
	{"responses", []string{"timestamp", "[session_id]", "agent_id", "model", "input", "output", "cache_creation", "cache_read", "context", "cost_usd"},
		"one session, or --by response; [session_id] with several"},
	{"--by KIND", []string{"key", "[runs]", "api_calls", "input", "output", "cache_creation", "cache_read", "total", "cost_usd"},
		"[runs] with --by agent-type"},
	{"--by tool", []string{"tool", "calls", "errors", "result_bytes", "estimated_tokens", "images"}, ""},
}

// LsPipeTables is the table of cctx ls in a pipe.
var LsPipeTables = []PipeTable{
	{"sessions", []string{"session_id", "updated_at", "project", "git_branch", "subagents", "[prompts api_calls total_tokens size_bytes]", "title"},
		"[…] with --long"},
}

// AgentsPipeTables is the table of cctx agents in a pipe.
var AgentsPipeTables = []PipeTable{
	{"agents", []string{"agent_id", "tool_use_id", "parent_agent_id", "depth", "type", "description", "models", "status", "api_calls", "total_tokens", "cost_usd", "duration_ms", "tool_uses", "[prompt path]"},
		"[…] with -v; agent_id - for a call that spawned no agent; api_calls, total_tokens, cost_usd empty when its usage is not known here"},
}

// PipeHelp says the tables of a command in a pipe, for its --help: a
// line a table (wrapped at 80 columns), its name first.
func PipeHelp(tables []PipeTable) string {
	var b strings.Builder
	b.WriteString("In a pipe: tab-separated rows without a header, exact numbers, times in\nRFC 3339 (UTC). The columns:")
	const indent, width = 14, 80
	for _, t := range tables {
		b.WriteString("\n  " + t.Name + strings.Repeat(" ", max(1, indent-2-len(t.Name))))
		words := t.Columns
		if t.When != "" {
			words = append(words[:len(words):len(words)], "("+t.When+")")
		}
		col := indent
		for i, w := range strings.Fields(strings.Join(words, " ")) {
			if i > 0 && col+1+len(w) > width {
				b.WriteString("\n" + strings.Repeat(" ", indent))
				col = indent
			} else if i > 0 {
				b.WriteByte(' ')
				col++
			}
			b.WriteString(w)
			col += len(w)
		}
	}
	return b.String()
}

// Fields is how many columns a table's rows have, with its bracketed
// columns or without them.
func (t PipeTable) Fields(bracketed bool) int {
	n := 0
	for _, c := range t.Columns {
		if strings.HasPrefix(c, "[") {
			if bracketed {
				n += len(strings.Fields(c))
			}
			continue
		}
		n++
	}
	return n
}
