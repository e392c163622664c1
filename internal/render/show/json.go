package show

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/termsafe"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// SessionJSON is the "session" object of the --json document.
type SessionJSON struct {
	SessionID       string   `json:"session_id"`
	Title           *string  `json:"title"`
	Path            string   `json:"path"`
	Project         *string  `json:"project"`
	GitBranch       *string  `json:"git_branch"`
	Models          []string `json:"models"`
	StartedAt       *string  `json:"started_at"`
	EndedAt         *string  `json:"ended_at"`
	DurationSeconds int64    `json:"duration_seconds"`
	Prompts         int      `json:"prompts"`
	PromptsShown    int      `json:"prompts_shown"`
	ContinuesFrom   *string  `json:"continues_from"`
	Subagents       int      `json:"subagents"`
	Branches        int      `json:"branches"`
	ActiveLeafUUID  *string  `json:"active_leaf_uuid"`
	Messages        int      `json:"messages"`
	// Usage is the whole session's deduplicated usage, as cctx tokens
	// reports it (its "total" object).
	Usage tokens.Total `json:"usage"`
}

// MessageJSON is one entry of "messages".
type MessageJSON struct {
	UUID       string            `json:"uuid"`
	ParentUUID *string           `json:"parent_uuid"`
	Type       string            `json:"type"`
	Subtype    *string           `json:"subtype"`
	Role       *string           `json:"role"`
	Timestamp  *string           `json:"timestamp"`
	AgentID    *string           `json:"agent_id"`
	Model      *string           `json:"model"`
	MessageID  *string           `json:"message_id"`
	RequestID  *string           `json:"request_id"`
	ToolUseID  *string           `json:"tool_use_id"`
	Depth      int               `json:"depth"`
	File       string            `json:"file"`
	Line       int               `json:"line"`
	Content    []json.RawMessage `json:"content"`
	Usage      *UsageJSON        `json:"usage"`
	// Queued is set (true) on a queued input delivered as an attachment
	// line (reader.Entry.Queued): a user message whose content is its
	// attachment.prompt. Absent on every other message.
	Queued bool            `json:"queued,omitempty"`
	Raw    json.RawMessage `json:"raw"`
}

// UsageJSON is one API response's usage, given once, on the first message
// of the response.
type UsageJSON struct {
	InputTokens         int64    `json:"input_tokens"`
	OutputTokens        int64    `json:"output_tokens"`
	CacheCreationTokens int64    `json:"cache_creation_input_tokens"`
	CacheReadTokens     int64    `json:"cache_read_input_tokens"`
	TotalTokens         int64    `json:"total_tokens"`
	CostUSD             *float64 `json:"cost_usd"`
	CostEstimated       bool     `json:"cost_estimated"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optTime is the shared JSON time (render.JSONTime), null when unknown.
func optTime(t time.Time) *string { return render.JSONTimeOrNull(t) }

// Session is the JSON form of the header.
func (d *Doc) Session() SessionJSON {
	h := d.Header
	s := SessionJSON{
		SessionID: h.SessionID, Title: optional(d.redacted(h.Title)), Path: h.Path, Project: optional(h.Project), GitBranch: optional(h.Branch),
		// Whole seconds, as ls and tokens write a session's times: the
		// same start reads the same in every command.
		Models: h.Models, StartedAt: optional(render.Timestamp(h.Start)), EndedAt: optional(render.Timestamp(h.End)),
		Prompts: h.Prompts, PromptsShown: h.PromptsShown, ContinuesFrom: optional(h.Continues), Subagents: h.Subagents, Branches: len(d.Tree.Leaves()),
		ActiveLeafUUID: optional(h.Leaf), Messages: len(d.Items), Usage: h.Total,
	}
	s.Models = make([]string, 0, len(h.Models))
	for _, m := range h.Models {
		s.Models = append(s.Models, d.redacted(m))
	}
	if !h.Start.IsZero() {
		s.DurationSeconds = int64(h.End.Sub(h.Start).Seconds())
	}
	return s
}

// Message is the JSON form of one item with its line.
func (d *Doc) Message(it Item, raw []byte) MessageJSON {
	n := it.Node
	m := MessageJSON{
		UUID: n.UUID, ParentUUID: optional(n.ParentUUID), Type: n.Type, Subtype: optional(n.Subtype),
		Role: optional(n.Role()), Timestamp: optTime(n.Timestamp()), Model: optional(d.redacted(n.Model())),
		MessageID: optional(n.MessageID), RequestID: optional(n.RequestID()), ToolUseID: optional(it.For),
		Depth: it.Depth, File: d.redacted(n.File.Name), Line: n.Line, Raw: reader.StrictJSON(raw), Content: []json.RawMessage{},
		Queued: n.Queued != reader.NotQueued,
	}
	if n.Agent() != nil {
		m.AgentID = optional(n.Agent().ID)
	}
	for _, b := range reader.Blocks(raw) {
		if reader.StringContent(raw) {
			// A string content is one text block, written as one.
			tb, _ := json.Marshal(map[string]string{"type": "text", "text": b.Text})
			m.Content = append(m.Content, tb)
			continue
		}
		m.Content = append(m.Content, reader.StrictJSON([]byte(b.Raw)))
	}
	if r := d.Usage(n); r != nil {
		u := r.Usage
		m.Usage = &UsageJSON{InputTokens: u.Input, OutputTokens: u.Output, CacheCreationTokens: u.CacheCreation,
			CacheReadTokens: u.CacheRead, TotalTokens: u.Total()}
		if c, ok := d.Prices.Cost(r); ok && d.Prices != nil {
			c = float64(int64(c*1e6+0.5)) / 1e6
			m.Usage.CostUSD = &c
			m.Usage.CostEstimated = d.Prices.EstimatedAs(r.Model) != ""
		}
	}
	return m
}

// RenderJSON writes the --json document, one message at a time (the
// document is never held whole): {"schema_version","session","messages"}.
// indent indents it (a terminal).
func RenderJSON(w io.Writer, d *Doc, src *tree.Source, indent bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := func(v any, prefix string) ([]byte, error) {
		var buf bytes.Buffer
		e := json.NewEncoder(&buf)
		e.SetEscapeHTML(false)
		if indent {
			e.SetIndent(prefix, "  ")
		}
		if err := e.Encode(v); err != nil {
			return nil, err
		}
		// C1 and bidi controls, U+2028/9 and bad bytes as escapes, in a
		// pipe too: what is inert in a terminal is inert in a script's
		// output.
		return termsafe.JSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
	}
	nl, sp, in1, in2 := "", "", "", ""
	if indent {
		nl, sp, in1, in2 = "\n", " ", "  ", "    "
	}
	sess, err := enc(d.Session(), in1)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "{%s%s\"schema_version\":%s%d,%s%s\"session\":%s%s,%s%s\"messages\":%s[", nl, in1, sp, render.SchemaVersion, nl, in1, sp, sess, nl, in1, sp)
	for i, it := range d.Items {
		raw, err := src.Line(it.Node)
		if err != nil {
			return err
		}
		m := d.Message(it, raw)
		if src.Redact != nil { // the file's path names the user too
			m.File = string(src.Redact([]byte(m.File)))
		}
		b, err := enc(m, in2)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", it.Node.File.Name, it.Node.Line, err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString(nl + in2)
		bw.Write(b)
	}
	if len(d.Items) > 0 {
		bw.WriteString(nl + in1)
	}
	fmt.Fprintf(bw, "]%s}\n", nl)
	return bw.Flush()
}

// RenderRaw writes the original line of every displayed entry, one per
// line, byte for byte (after --redact, when asked).
func RenderRaw(w io.Writer, d *Doc, src *tree.Source) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, it := range d.Items {
		raw, err := src.Line(it.Node)
		if err != nil {
			return err
		}
		bw.Write(raw)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
