package render

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"runtime"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/termsafe"
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
		tph, proj := tokens.CountOf(st.TokensPerHour), st.ProjectedTokens
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

// streamJSON writes the document as encoding/json writes it (compact,
// then a newline), built by hand and given to emit in pieces of a few
// hundred KiB, each ending between two sessions, made on every core
// (inOrder); when it is the plain report (no groups, responses, budget,
// current group or tools: else ok false, nothing is emitted, and JSON
// takes the reflective way). Over thousands of sessions, reflection and
// the compaction of each total, then the growing of a buffer of
// megabytes, made most of a warm report's time.
func (doc TokensJSON) streamJSON(emit func([]byte) error) (ok bool, err error) {
	if doc.Groups != nil || doc.Responses != nil || doc.Budget != nil || doc.Current != nil || doc.Tools != nil || doc.ToolsTotal != nil {
		return false, nil
	}
	head := newPiece()
	head = append(head, `{"schema_version":`...)
	head = strconv.AppendInt(head, int64(doc.SchemaVersion), 10)
	head = append(head, `,"pricing":{"date":`...)
	head = appendJSONString(head, doc.Pricing.Date)
	head = append(head, `,"unpriced_models":`...)
	head = appendJSONList(head, doc.Pricing.UnpricedModels, appendJSONString)
	head = append(head, `,"estimated_models":`...)
	head = appendJSONList(head, doc.Pricing.EstimatedModels, func(b []byte, m EstimatedModelJSON) []byte {
		b = append(b, `{"model":`...)
		b = appendJSONString(b, m.Model)
		b = append(b, `,"priced_as":`...)
		b = appendJSONString(b, m.PricedAs)
		return append(b, '}')
	})
	head = append(head, `},"group_by":`...)
	head = appendJSONString(head, doc.GroupBy)
	head = append(head, `,"total":`...)
	head = doc.Total.AppendJSON(head)
	head = append(head, `,"sessions":`...)
	if doc.Sessions == nil {
		return true, emit(append(head, "null}\n"...))
	}
	head = append(head, '[')
	// About a piece of sessions each (a session is 0.5-2 KB).
	const perPiece = 128
	n := len(doc.Sessions)
	count := max(1, (n+perPiece-1)/perPiece)
	return true, inOrder(count, runtime.GOMAXPROCS(0), func(k int) []byte {
		b := head
		if k > 0 {
			b = newPiece()
		}
		for i := k * perPiece; i < min(n, (k+1)*perPiece); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSessionJSON(b, &doc.Sessions[i])
		}
		if k == count-1 {
			b = append(b, ']', '}', '\n')
		}
		return b
	}, emit)
}

func appendSessionJSON(b []byte, s *SessionTokens) []byte {
	b = append(b, `{"session_id":`...)
	b = appendJSONString(b, s.SessionID)
	b = append(b, `,"project":`...)
	b = appendJSONString(b, s.Project)
	b = append(b, `,"path":`...)
	b = appendJSONString(b, s.Path)
	b = append(b, `,"started_at":`...)
	b = appendJSONString(b, s.StartedAt)
	b = append(b, `,"total":`...)
	b = appendTotalJSON(b, s.Total)
	b = append(b, `,"agents":`...)
	b = appendJSONList(b, s.Agents, func(b []byte, a AgentJSON) []byte {
		b = append(b, `{"agent_id":`...)
		b = appendJSONString(b, a.AgentID)
		b = append(b, `,"total":`...)
		return append(appendTotalJSON(b, a.Total), '}')
	})
	b = append(b, `,"models":`...)
	b = appendJSONList(b, s.Models, func(b []byte, m ModelJSON) []byte {
		b = append(b, `{"model":`...)
		b = appendJSONString(b, m.Model)
		b = append(b, `,"total":`...)
		return append(appendTotalJSON(b, m.Total), '}')
	})
	b = append(b, `,"missing_agent_transcripts":`...)
	b = appendJSONList(b, s.MissingAgentTranscripts, appendJSONString)
	return append(b, '}')
}

// plainWord reports whether the 8 bytes of w are all ASCII that a JSON
// string holds as itself and a terminal shows as itself: none below 0x20,
// from 0x7f up, '"' or '\\' (the bit tricks of termsafe's scan).
func plainWord(w string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	x := binary.LittleEndian.Uint64([]byte(w))
	zero := func(x uint64) uint64 { return (x - ones) &^ x & highs }
	less := (x - 0x20*ones) &^ x & highs
	return (x|less|zero(x^('"'*ones))|zero(x^('\\'*ones))|zero(x^(0x7f*ones)))&highs == 0
}

// appendTotalJSON appends a total as encoding/json does: null when nil.
func appendTotalJSON(b []byte, t *tokens.Total) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	return t.AppendJSON(b)
}

// appendJSONList appends a list as encoding/json does: null when nil.
func appendJSONList[T any](b []byte, list []T, one func([]byte, T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, x)
	}
	return append(b, ']')
}

// appendJSONString appends s quoted as encoding/json quotes it without
// HTML escaping (\" \\ \b \f \n \r \t, other controls as \u00xx, a bad
// byte as \ufffd, U+2028 and U+2029 escaped), then made safe for a
// terminal as termsafe.JSON makes a document: a string with DEL or a
// byte above ASCII is given to termsafe.JSON, the only home of what is
// safe; one without has nothing it would change. So a document of these
// strings, numbers and punctuation is termsafe.JSON's already (its
// changes stay inside a string), and its writer need not scan it again.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	at := len(b)
	b = append(b, '"')
	start := 0
	changeable := false // a byte termsafe.JSON may change: DEL or not ASCII
	for i := 0; i < len(s); {
		// Plain ASCII eight bytes a test: a report's ids and paths are.
		for i+8 <= len(s) && plainWord(s[i:i+8]) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				changeable = changeable || c == 0x7f
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		changeable = true
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	b = append(b, '"')
	if changeable {
		if safe := termsafe.JSON(b[at:]); &safe[0] != &b[at] {
			b = append(b[:at], safe...)
		}
	}
	return b
}
