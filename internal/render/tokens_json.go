package render

import (
	"bufio"
	"encoding/json"
	"io"
	"math"
	"time"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// GroupTimesJSON are the bounds of a group of a time grouping (hour,
// day, week, month, block): null for the group of responses without a
// time.
type GroupTimesJSON struct {
	Start         *string `json:"start"`
	End           *string `json:"end"`
	FirstActivity *string `json:"first_activity"`
	LastActivity  *string `json:"last_activity"`
}

func groupJSON(by tokens.Grouping, g tokens.Group) GroupJSON {
	out := GroupJSON{Key: g.Key, Total: g.Total}
	if by.Time() {
		out.GroupTimesJSON = &GroupTimesJSON{JSONTimeOrNull(g.Start), JSONTimeOrNull(g.End), JSONTimeOrNull(g.First), JSONTimeOrNull(g.Last)}
	}
	if by == tokens.ByAgentType {
		runs := g.Runs
		out.Runs = &runs
	}
	return out
}

// CurrentJSON is the group of a time grouping that holds the moment of
// the report (the current block, today): how far it has run, its burn
// rate and projection (null when its responses span no time).
type CurrentJSON struct {
	Key              string       `json:"key"`
	Start            string       `json:"start"`
	End              string       `json:"end"`
	ElapsedSeconds   int64        `json:"elapsed_seconds"`
	RemainingSeconds int64        `json:"remaining_seconds"`
	Total            tokens.Total `json:"total"`
	TokensPerHour    *int64       `json:"tokens_per_hour"`
	CostPerHour      *float64     `json:"cost_usd_per_hour"`
	ProjectedTokens  *int64       `json:"projected_total_tokens"`
	ProjectedCost    *float64     `json:"projected_cost_usd"`
}

// AddCurrent sets current: the group of by that holds now, if any.
func (doc *TokensJSON) AddCurrent(rep *tokens.Report, by tokens.Grouping, now time.Time) {
	st, ok := rep.Current(by, now)
	if !ok {
		return
	}
	c := &CurrentJSON{Key: st.Key, Start: JSONTime(st.Start), End: JSONTime(st.End),
		ElapsedSeconds: int64(st.Elapsed / time.Second), RemainingSeconds: int64(st.Remaining / time.Second), Total: st.Total}
	if st.Rate {
		tph, proj := int64(math.Round(st.TokensPerHour)), st.ProjectedTokens
		c.TokensPerHour, c.ProjectedTokens = &tph, &proj
		if st.Total.CostKnown() {
			cph, pc := micro(st.CostPerHour), micro(st.ProjectedCost)
			c.CostPerHour, c.ProjectedCost = &cph, &pc
		}
	}
	doc.Current = c
}

func micro(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// ToolJSON is the use of one tool (or MCP server) with --by tool.
type ToolJSON struct {
	Tool            string `json:"tool"`
	Calls           int64  `json:"calls"`
	Errors          int64  `json:"errors"`
	ResultBytes     int64  `json:"result_bytes"`
	ResultImages    int64  `json:"result_images"`
	EstimatedTokens int64  `json:"estimated_result_tokens"`
}

func toolJSON(g tokens.ToolGroup) ToolJSON {
	return ToolJSON{g.Tool, g.Calls, g.Errors, g.ResultBytes, g.ResultImages, g.EstimatedTokens()}
}

// AddTools sets tools and tools_total.
func (doc *TokensJSON) AddTools(tr *tokens.ToolReport) {
	if tr == nil {
		return
	}
	doc.Tools = []ToolJSON{}
	for _, g := range tr.Tools {
		doc.Tools = append(doc.Tools, toolJSON(g))
	}
	total := toolJSON(tr.Total)
	doc.ToolsTotal = &total
}

// NDJSONWriter writes responses one JSON object a line (--format
// ndjson): the objects of responses[] in cctx tokens --json. Output is
// buffered: Flush ends it.
type NDJSONWriter struct {
	buf    *bufio.Writer
	enc    *json.Encoder
	prices *tokens.Prices
}

// NewNDJSON starts writing responses priced with prices to w.
func NewNDJSON(w io.Writer, prices *tokens.Prices) *NDJSONWriter {
	buf := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return &NDJSONWriter{buf: buf, enc: enc, prices: prices}
}

// Write writes one response.
func (n *NDJSONWriter) Write(r *tokens.Response) error {
	return n.enc.Encode(NewResponseJSON(r, n.prices))
}

// Flush writes what is buffered.
func (n *NDJSONWriter) Flush() error { return n.buf.Flush() }
