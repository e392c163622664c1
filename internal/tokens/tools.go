package tokens

import (
	"bytes"
	"hash/maphash"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// ToolGroup is the use of one tool (or of every tool of one MCP server):
// what the transcripts say, and one estimate.
type ToolGroup struct {
	Tool   string // the tool's name; "mcp:<server>" for an MCP server's tools; "(unknown)" for results of calls not found
	Calls  int64  // tool_use blocks
	Errors int64  // tool_result blocks with is_error
	// ResultBytes is the text the results put into the context (JSON
	// escapes decoded); ResultImages the images they hold.
	ResultBytes  int64
	ResultImages int64
	// estimated is, for a report's total, the sum of its tools' estimates
	// (each rounded up on its own): the total is their sum, as said.
	estimated int64
}

// BytesPerToken is the estimate of EstimatedTokens: Claude's tokenizer
// gives about one token for every 3.5 to 4 bytes of English text or code.
const BytesPerToken = 4

// EstimatedTokens is what the results' text adds to the context, in
// tokens: an estimate, ResultBytes / BytesPerToken rounded up. Images are
// not in it.
func (g ToolGroup) EstimatedTokens() int64 {
	if g.estimated > 0 {
		return g.estimated
	}
	return (g.ResultBytes + BytesPerToken - 1) / BytesPerToken
}

func (g *ToolGroup) merge(o ToolGroup) {
	g.Calls += o.Calls
	g.Errors += o.Errors
	g.ResultBytes += o.ResultBytes
	g.ResultImages += o.ResultImages
}

// ToolReport is the use of tools of a set of sessions.
type ToolReport struct {
	Tools []ToolGroup // most result bytes first
	Total ToolGroup   // their sum (Tool "")
}

// ToolName is the group a tool call is counted under: its name, or for
// an MCP tool (mcp__<server>__<tool>) "mcp:<server>".
func ToolName(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		server, _, _ := strings.Cut(rest, "__")
		return "mcp:" + server
	}
	if name == "" {
		return "(unknown)"
	}
	return name
}

// toolCall is what a session's files say about one tool_use id.
type toolCall struct {
	tool    string
	use     bool // the tool_use was seen
	outside bool // its time is outside the window: neither it nor its result counts
	// the tool_result
	result   bool
	isErr    bool
	bytes    int64
	images   int64
	resultAt time.Time
}

// take fills in, from another copy of the call (a resumed session
// replays the calls of the one it continues), what c lacks.
func (c *toolCall) take(o *toolCall) {
	if !c.use && o.use {
		c.tool, c.use, c.outside = o.tool, true, o.outside
	}
	if !c.result && o.result {
		c.result, c.isErr, c.bytes, c.images, c.resultAt = true, o.isErr, o.bytes, o.images, o.resultAt
	}
}

// group is what the call adds to its tool's group, and the group's name;
// false when it does not count: its tool_use is outside the window, or
// with no tool_use, its result is.
func (c *toolCall) group(w Window) (ToolGroup, bool) {
	g := ToolGroup{Tool: "(unknown)", ResultBytes: c.bytes, ResultImages: c.images}
	switch {
	case c.use && c.outside:
		return g, false
	case c.use:
		g.Tool, g.Calls = ToolName(c.tool), 1
	case !w.holds(c.resultAt):
		return g, false
	}
	if c.result && c.isErr {
		g.Errors = 1
	}
	return g, true
}

// holds reports whether a response or call at t is inside the window; one
// without a time is inside an unbounded window only.
func (w Window) holds(t time.Time) bool {
	if t.IsZero() {
		return w.Since.IsZero() && w.Until.IsZero()
	}
	return w.contains(t)
}

// Tools counts the tool calls of the sessions and measures their results:
// every tool_use block of the assistant lines, every tool_result block of
// the user lines, main transcripts and subagents alike, each call once
// (a resumed session replays the calls of the one it continues: a
// tool_use id is counted once in its project folder). A call counts when
// its tool_use is inside w; a result whose call is not found counts
// under "(unknown)" when its own time is inside w.
//
// Only the lines holding a tool block are parsed, and a result is
// measured, never kept: memory follows the number of calls of the
// largest project folder. Lines the reader skips are not reported here:
// the token count that reads the same files says what it skipped.
func Tools(inputs []Input, w Window) *ToolReport {
	var folders [][]int
	at := map[string]int{}
	for i, in := range inputs {
		if in.Session.Path == session.StdinPath {
			continue // read once already, by the token count
		}
		dir := in.Session.ProjectDir
		if dir == "" {
			dir = filepath.Dir(in.Session.Path)
		}
		g, ok := at[dir]
		if !ok {
			g = len(folders)
			at[dir] = g
			folders = append(folders, nil)
		}
		folders[g] = append(folders[g], i)
	}
	by := map[string]*ToolGroup{}
	seed := maphash.MakeSeed()
	// The calls of the folders counted before: a session resumed or
	// copied into another folder replays them, and each counts once, as
	// the responses do (8 bytes a call, not the calls themselves).
	var before idLevels
	// A call a folder holds only part of (its result is in the copy of
	// another folder, or its call) waits for the folders after it, which
	// fill in what it lacks, and is counted at the end: the calls of one
	// table, as one folder holding every copy would count them.
	pending := map[uint64]*toolCall{}
	count := func(c *toolCall) {
		one, ok := c.group(w)
		if !ok {
			return
		}
		g := by[one.Tool]
		if g == nil {
			g = &ToolGroup{Tool: one.Tool}
			by[one.Tool] = g
		}
		g.merge(one)
	}
	for _, members := range folders {
		calls := map[uint64]*toolCall{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for _, i := range members {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				one := readTools(inputs[i], w, seed)
				mu.Lock()
				defer mu.Unlock()
				for id, c := range one {
					if old, ok := calls[id]; ok {
						old.take(c)
					} else {
						calls[id] = c
					}
				}
			}()
		}
		wg.Wait()
		ids := make([]uint64, 0, len(calls))
		for id, c := range calls {
			if before.has(id) {
				if p := pending[id]; p != nil {
					p.take(c)
				}
				continue
			}
			ids = append(ids, id)
			if !c.use || !c.result {
				pending[id] = c
				continue
			}
			count(c)
		}
		before.add(ids)
	}
	for _, c := range pending {
		count(c)
	}
	rep := &ToolReport{}
	for _, g := range by {
		rep.Tools = append(rep.Tools, *g)
		rep.Total.merge(*g)
		rep.Total.estimated += g.EstimatedTokens()
	}
	sort.Slice(rep.Tools, func(i, j int) bool {
		a, b := rep.Tools[i], rep.Tools[j]
		if a.ResultBytes != b.ResultBytes {
			return a.ResultBytes > b.ResultBytes
		}
		if a.Calls != b.Calls {
			return a.Calls > b.Calls
		}
		return a.Tool < b.Tool
	})
	return rep
}

var toolKey = []byte(`"tool_`)

// wantsTools picks the lines that may hold a tool block. A line longer
// than the reader shows Want (1 MiB) is wanted whatever its start says.
func wantsTools(line []byte) bool {
	return len(line) >= 1<<20 || bytes.Contains(line, toolKey)
}

// readTools reads one session's files for their tool calls, by the hash
// of their tool_use id.
func readTools(in Input, w Window, seed maphash.Seed) map[uint64]*toolCall {
	calls := map[uint64]*toolCall{}
	get := func(id string) *toolCall {
		k := maphash.String(seed, id)
		c := calls[k]
		if c == nil {
			c = &toolCall{}
			calls[k] = c
		}
		return c
	}
	read := func(path string) {
		r, closer, err := reader.Open(path, reader.Options{Facts: true, KeepRaw: true, Want: wantsTools})
		if err != nil {
			return // said by the token count
		}
		defer closer.Close()
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			switch e.Type {
			case "assistant":
				for _, u := range e.Facts.ToolUses {
					if u.ID == "" {
						continue
					}
					if c := get(u.ID); !c.use {
						// The first line of a response that names the call.
						c.tool, c.use, c.outside = u.Name, true, !w.holds(e.Timestamp)
					}
				}
			case "user":
				for _, res := range reader.ToolResultSizes(e.Raw) {
					if res.ToolUseID == "" {
						continue
					}
					if c := get(res.ToolUseID); !c.result {
						c.result, c.isErr, c.bytes, c.images, c.resultAt = true, res.IsError, res.Bytes, int64(res.Images), e.Timestamp
					}
				}
			}
		}
	}
	s := in.Session
	if !s.Orphan {
		read(s.Path)
	}
	for _, a := range in.Agents {
		read(a.Path)
	}
	return calls
}
