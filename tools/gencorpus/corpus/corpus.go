// Package corpus writes a synthetic but realistic Claude Code projects tree
// for benchmarks, and the true token totals of what it wrote.
//
// The line shapes follow real 2.1.x and 2.0.x transcripts (see
// ../shared/corpus/real): each API response is written as one assistant line
// per content block, sharing message.id and requestId, with a partial
// output_tokens on early lines and the final usage on the last; parallel tool
// calls branch the DAG; progress and attachment lines sit between them;
// subagents live in <session>/subagents/agent-<id>.jsonl (+ .meta.json) or,
// for 2.0.x sessions, in flat agent-<id>.jsonl files linked by sessionId;
// compactions start a new root; a few <synthetic> placeholder lines carry no
// tokens.
//
// The totals are computed here, from the usage the generator chose for each
// response, never by reading the tree back: they are the reference that
// cctx's counter is checked against. Output is a pure function of Options:
// the same seed gives the same bytes.
//
// Memory stays bounded: lines are streamed to buffered files as they are
// made, and only per-session totals are kept.
package corpus

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Options say what to generate.
type Options struct {
	Dir      string // output: Dir/projects/... and Dir/totals.json
	Size     int64  // approximate total bytes of .jsonl files
	Seed     uint64
	Sessions int // 0: one per ~5 MB (at least 3)
	Projects int // 0: one per ~6 sessions (1..40)
}

// bytesPerSession sets the default session count: a 1 GB tree has ~200
// sessions, as in the target.
const bytesPerSession = 5 << 20

// Usage is the token usage of the responses counted: the same JSON names as
// cctx's tokens.Total.
type Usage struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens"`
	CacheRead     int64 `json:"cache_read_input_tokens"`
	Total         int64 `json:"total_tokens"`
	APICalls      int64 `json:"api_calls"`
}

func (u *Usage) add(in, out, cc, cr int64) {
	u.Input += in
	u.Output += out
	u.CacheCreation += cc
	u.CacheRead += cr
	u.Total += in + out + cc + cr
	u.APICalls++
}

func (u *Usage) merge(o Usage) {
	u.Input += o.Input
	u.Output += o.Output
	u.CacheCreation += o.CacheCreation
	u.CacheRead += o.CacheRead
	u.Total += o.Total
	u.APICalls += o.APICalls
}

// Features counts the traps the tree holds, so a test can check that a
// small tree still exercises each of them.
type Features struct {
	SplitResponses    int `json:"split_responses"`     // responses written as 2+ lines
	PartialUsageLines int `json:"partial_usage_lines"` // lines whose usage is not the final one
	ParallelToolCalls int `json:"parallel_tool_calls"` // responses with 2+ tool_use blocks
	InterleavedCalls  int `json:"interleaved_calls"`   // tool results between the lines of one response
	ProgressLines     int `json:"progress_lines"`
	AgentProgress     int `json:"agent_progress_lines"` // progress lines copying a subagent's usage
	BigToolResults    int `json:"big_tool_results"`     // the long tail: up to a few MB
	SubagentFiles     int `json:"subagent_files"`       // <session>/subagents/agent-*.jsonl
	MetaFiles         int `json:"meta_files"`
	FlatAgentFiles    int `json:"flat_agent_files"` // 2.0.x agent-*.jsonl in the project folder
	Compactions       int `json:"compactions"`
	SyntheticLines    int `json:"synthetic_lines"`
	MaxLineBytes      int `json:"max_line_bytes"`
}

// SessionTotals is one session: its main file and its subagent files.
type SessionTotals struct {
	SessionID string `json:"session_id"`
	Path      string `json:"path"` // main file, relative to Dir
	Project   string `json:"project"`
	Version   string `json:"version"`
	Agents    int    `json:"agents"` // subagent transcripts (both layouts)
	Files     int    `json:"files"`  // .jsonl and .meta.json files
	Bytes     int64  `json:"bytes"`
	Lines     int64  `json:"lines"`
	Usage     Usage  `json:"total"`
}

// Totals is what Generate wrote; it is also Dir/totals.json.
type Totals struct {
	SchemaVersion int             `json:"schema_version"`
	Seed          uint64          `json:"seed"`
	TargetBytes   int64           `json:"target_bytes"`
	Bytes         int64           `json:"bytes"` // all .jsonl and .meta.json files
	Files         int             `json:"files"`
	JSONLFiles    int             `json:"jsonl_files"`
	Lines         int64           `json:"lines"`
	Projects      int             `json:"projects"`
	Usage         Usage           `json:"total"`
	Features      Features        `json:"features"`
	Sessions      []SessionTotals `json:"sessions"`
}

// ProjectsDir is where the tree is, given the Dir of Options.
func ProjectsDir(dir string) string { return filepath.Join(dir, "projects") }

// Generate writes the tree and totals.json.
func Generate(o Options) (*Totals, error) {
	if o.Dir == "" {
		return nil, errors.New("corpus: no output directory")
	}
	if o.Size <= 0 {
		return nil, errors.New("corpus: size must be positive")
	}
	if err := os.MkdirAll(ProjectsDir(o.Dir), 0o755); err != nil {
		return nil, err
	}
	g := newGen(o)
	if err := g.run(); err != nil {
		return nil, err
	}
	f, err := os.Create(filepath.Join(o.Dir, "totals.json"))
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g.tot); err != nil {
		f.Close()
		return nil, err
	}
	return g.tot, f.Close()
}

// ReadTotals reads a totals.json written by Generate.
func ReadTotals(dir string) (*Totals, error) {
	b, err := os.ReadFile(filepath.Join(dir, "totals.json"))
	if err != nil {
		return nil, err
	}
	var t Totals
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

type gen struct {
	o     Options
	rng   *rand.Rand
	clock time.Time
	text  []byte // pool of prose/code-like text: no quote, backslash or control byte
	b64   []byte // pool of base64 characters for signatures
	tot   *Totals
	cur   *SessionTotals // the session being written
	ids   [16]byte
}

func newGen(o Options) *gen {
	g := &gen{
		o:     o,
		rng:   rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)),
		clock: time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC),
		tot:   &Totals{SchemaVersion: 1, Seed: o.Seed, TargetBytes: o.Size},
	}
	g.text = g.makeText(1 << 20)
	g.b64 = make([]byte, 64<<10)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range g.b64 {
		g.b64[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return g
}

var words = []string{
	"func", "return", "err", "nil", "if", "for", "range", "the", "session", "file", "line", "token",
	"usage", "parse", "reader", "context", "build", "test", "fails", "because", "value", "map",
	"slice", "struct", "package", "import", "string", "int64", "buffer", "stream", "json", "path",
	"cache", "read", "write", "error", "check", "output", "input", "model", "agent", "tool", "result",
	"let", "me", "look", "at", "this", "now", "then", "we", "should", "update", "handler", "config",
	"=", ":=", "{", "}", "(", ")", "//", "->", "ok", "main", "case", "switch", "default", "go",
	"Println", "fmt.Errorf", "os.Open", "t.Fatalf", "want", "got", "src/app/server.go", "README.md",
}

func (g *gen) makeText(n int) []byte {
	b := make([]byte, 0, n+32)
	for len(b) < n {
		b = append(b, words[g.rng.IntN(len(words))]...)
		switch g.rng.IntN(12) {
		case 0:
			b = append(b, ". "...)
		case 1:
			b = append(b, ", "...)
		default:
			b = append(b, ' ')
		}
	}
	return b[:n]
}

// tick advances the clock by a random step between lo and hi.
func (g *gen) tick(lo, hi time.Duration) time.Time {
	g.clock = g.clock.Add(lo + time.Duration(g.rng.Int64N(int64(hi-lo)+1)))
	return g.clock
}

func (g *gen) uuid() string {
	for i := range g.ids {
		g.ids[i] = byte(g.rng.Uint32())
	}
	g.ids[6] = g.ids[6]&0x0f | 0x40
	g.ids[8] = g.ids[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	var s [36]byte
	j := 0
	for i, b := range g.ids {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s[j] = '-'
			j++
		}
		s[j], s[j+1] = hex[b>>4], hex[b&15]
		j += 2
	}
	return string(s[:])
}

func (g *gen) token(prefix string, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, len(prefix)+n)
	copy(b, prefix)
	for i := len(prefix); i < len(b); i++ {
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(b)
}

func (g *gen) hexID(n int) string {
	const hex = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = hex[g.rng.IntN(16)]
	}
	return string(b)
}

// logSize draws a long-tailed size: a log-normal around median, clamped.
func (g *gen) logSize(median float64, sigma float64, lo, hi int) int {
	v := median * math.Exp(g.rng.NormFloat64()*sigma)
	return max(lo, min(hi, int(v)))
}

type project struct {
	key, cwd string
}

func (g *gen) run() error {
	nSess := g.o.Sessions
	if nSess <= 0 {
		nSess = max(3, int(g.o.Size/bytesPerSession))
	}
	nProj := g.o.Projects
	if nProj <= 0 {
		nProj = max(1, min(40, nSess/6))
	}
	names := []string{"api", "web", "cli", "infra", "docs", "ml", "billing", "auth", "search", "mobile"}
	projects := make([]project, nProj)
	for i := range projects {
		name := names[i%len(names)]
		if i >= len(names) {
			name += strconv.Itoa(i / len(names))
		}
		cwd := "/home/dev/src/" + name
		projects[i] = project{key: "-home-dev-src-" + name, cwd: cwd}
	}
	g.tot.Projects = nProj

	// Session sizes are long-tailed: most are a few MB, a few are ten times
	// the mean (the single huge file of a long-running session).
	weights := make([]float64, nSess)
	var sum float64
	for i := range weights {
		weights[i] = math.Exp(g.rng.NormFloat64() * 1.1)
		sum += weights[i]
	}
	var planned, written float64
	for i := range nSess {
		share := float64(g.o.Size) * weights[i] / sum
		// Sessions overshoot their budget by their last call and their
		// subagents: scale the next budgets by how far off the tree is.
		scale := 1.0
		if written > 0 {
			scale = max(0.5, min(1.2, planned/written))
		}
		planned += share
		budget := max(int64(16<<10), int64(share*scale))
		// Projects are skewed too: the first ones hold most sessions.
		p := projects[min(nProj-1, int(float64(nProj)*math.Pow(g.rng.Float64(), 1.6)))]
		g.clock = g.clock.Add(time.Duration(10+g.rng.IntN(600)) * time.Minute)
		st, err := g.session(i, p, budget)
		if err != nil {
			return err
		}
		g.tot.Sessions = append(g.tot.Sessions, st)
		g.tot.Usage.merge(st.Usage)
		g.tot.Bytes += st.Bytes
		written += float64(st.Bytes)
		g.tot.Lines += st.Lines
		g.tot.Files += st.Files
	}
	return nil
}

// file is one transcript being written.
type file struct {
	g      *gen
	path   string
	f      *os.File
	cw     countWriter
	w      *bufio.Writer
	lines  int64
	last   string // uuid of the last DAG entry: the parent of the next one
	lastTS time.Time
	lineAt int64 // bytes written before the current line

	sessionID string
	agentID   string // set on subagent lines
	sidechain bool
	cwd       string
	branch    string
	version   string
	slug      string
	usage     *Usage // the session's totals
	lastCall  usage  // the usage of the last API response written here
	err       error
	closed    bool
	closeErr  error
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (g *gen) create(path string) (*file, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	fl := &file{g: g, path: path, f: f}
	fl.cw.w = f
	fl.w = bufio.NewWriterSize(&fl.cw, 256<<10)
	return fl, nil
}

// size is the bytes written so far, buffered ones included.
func (f *file) size() int64 { return f.cw.n + int64(f.w.Buffered()) }

// close flushes and closes the file once; later calls return the result.
func (f *file) close() error {
	if f.closed {
		return f.closeErr
	}
	f.closed = true
	f.closeErr = f.doClose()
	return f.closeErr
}

func (f *file) doClose() error {
	err := f.w.Flush()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !f.lastTS.IsZero() {
		// The file's mtime is its last activity, as on a real machine:
		// listings sort by it.
		err = os.Chtimes(f.path, f.lastTS, f.lastTS)
	}
	if f.err != nil {
		return f.err
	}
	return err
}

func (f *file) s(s string) { f.w.WriteString(s) }
func (f *file) b(b []byte) { f.w.Write(b) }

func (f *file) q(s string) { // a quoted string known to need no escaping
	f.w.WriteByte('"')
	f.w.WriteString(s)
	f.w.WriteByte('"')
}

func (f *file) i(n int64) {
	var buf [24]byte
	f.w.Write(strconv.AppendInt(buf[:0], n, 10))
}

func (f *file) ts(t time.Time) {
	var buf [32]byte
	f.w.WriteByte('"')
	f.w.Write(t.AppendFormat(buf[:0], "2006-01-02T15:04:05.000Z"))
	f.w.WriteByte('"')
}

// text writes n bytes of JSON string content (without quotes): slices of
// the text pool joined by escaped newlines.
func (f *file) text(n int) {
	g := f.g
	for n > 0 {
		c := min(n, 20+g.rng.IntN(100))
		at := g.rng.IntN(len(g.text) - c)
		f.b(g.text[at : at+c])
		n -= c
		if n > 2 {
			f.s(`\n`)
			n -= 2
		}
	}
}

func (f *file) b64(n int) {
	g := f.g
	for n > 0 {
		c := min(n, len(g.b64)/2)
		at := g.rng.IntN(len(g.b64) - c)
		f.b(g.b64[at : at+c])
		n -= c
	}
}

// begin starts a line; end finishes it and tracks the longest line.
func (f *file) begin() { f.lineAt = f.size() }

func (f *file) end() {
	f.w.WriteByte('\n')
	f.lines++
	if n := int(f.size() - f.lineAt - 1); n > f.g.tot.Features.MaxLineBytes {
		f.g.tot.Features.MaxLineBytes = n
	}
}

// head writes the start of a DAG entry: {"parentUuid":…,"isSidechain":…
func (f *file) head(parent string) {
	f.begin()
	f.s(`{"parentUuid":`)
	if parent == "" {
		f.s("null")
	} else {
		f.q(parent)
	}
	if f.sidechain {
		f.s(`,"isSidechain":true`)
	} else {
		f.s(`,"isSidechain":false`)
	}
	if f.agentID != "" {
		f.s(`,"agentId":`)
		f.q(f.agentID)
	}
}

// tail writes uuid, timestamp, extra fields and the common envelope, and
// ends the line. The entry becomes the parent of the next one.
func (f *file) tail(uuid string, t time.Time, extra func()) {
	f.s(`,"uuid":`)
	f.q(uuid)
	f.s(`,"timestamp":`)
	f.ts(t)
	if extra != nil {
		extra()
	}
	f.s(`,"userType":"external","entrypoint":"cli","cwd":`)
	f.q(f.cwd)
	f.s(`,"sessionId":`)
	f.q(f.sessionID)
	f.s(`,"version":`)
	f.q(f.version)
	f.s(`,"gitBranch":`)
	f.q(f.branch)
	if f.slug != "" {
		f.s(`,"slug":`)
		f.q(f.slug)
	}
	f.s("}")
	f.end()
	f.last = uuid
	f.lastTS = t
}

func (f *file) now(lo, hi time.Duration) time.Time { return f.g.tick(lo, hi) }

// prompt writes a typed user prompt.
func (f *file) prompt(n int, promptID string) {
	f.head(f.last)
	if promptID != "" {
		f.s(`,"promptId":`)
		f.q(promptID)
	}
	f.s(`,"type":"user","message":{"role":"user","content":"`)
	f.text(n)
	f.s(`"}`)
	f.tail(f.g.uuid(), f.now(5*time.Second, 3*time.Minute), func() {
		if !f.sidechain {
			f.s(`,"permissionMode":"default"`)
		}
	})
}

// meta writes a line outside the DAG (no uuid): last-prompt, ai-title, …
func (f *file) meta(kind string, body func()) {
	f.begin()
	f.s(`{"type":`)
	f.q(kind)
	body()
	f.s(`,"sessionId":`)
	f.q(f.sessionID)
	f.s("}")
	f.end()
}

type usage struct{ in, out, cc, cr int64 }

func (f *file) usageJSON(u usage) {
	f.s(`"usage":{"input_tokens":`)
	f.i(u.in)
	f.s(`,"cache_creation_input_tokens":`)
	f.i(u.cc)
	f.s(`,"cache_read_input_tokens":`)
	f.i(u.cr)
	f.s(`,"output_tokens":`)
	f.i(u.out)
	f.s(`,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":`)
	f.i(u.cc)
	f.s(`,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[{"input_tokens":`)
	f.i(u.in)
	f.s(`,"output_tokens":`)
	f.i(u.out)
	f.s(`,"cache_read_input_tokens":`)
	f.i(u.cr)
	f.s(`,"cache_creation_input_tokens":`)
	f.i(u.cc)
	f.s(`,"type":"message"}],"speed":"standard"}`)
}

// block is one content block of a response.
type block struct {
	kind  string // thinking, text, tool_use
	size  int
	tool  string
	id    string
	agent bool // an Agent/Task call: its result comes from a subagent
	uuid  string
}

type response struct {
	model, msgID, reqID string
	blocks              []block
	final               usage
	partial             bool // early lines carry a partial output_tokens
}

// assistantLine writes one block of a response.
func (f *file) assistantLine(r *response, bi int, parent string) {
	bl := &r.blocks[bi]
	last := bi == len(r.blocks)-1
	f.head(parent)
	f.s(`,"message":{"model":`)
	f.q(r.model)
	f.s(`,"id":`)
	f.q(r.msgID)
	f.s(`,"type":"message","role":"assistant","content":[`)
	switch bl.kind {
	case "thinking":
		f.s(`{"type":"thinking","thinking":"`)
		if f.g.rng.IntN(3) == 0 { // 2.1.x often writes an empty thinking text
			f.text(bl.size)
		}
		f.s(`","signature":"`)
		f.b64(200 + bl.size/2)
		f.s(`"}`)
	case "text":
		f.s(`{"type":"text","text":"`)
		f.text(bl.size)
		f.s(`"}`)
	case "tool_use":
		f.s(`{"type":"tool_use","id":`)
		f.q(bl.id)
		f.s(`,"name":`)
		f.q(bl.tool)
		f.s(`,"input":`)
		f.toolInput(bl)
		f.s(`,"caller":{"type":"direct"}}`)
	}
	f.s(`],"stop_reason":`)
	switch {
	case !last && r.partial:
		f.s("null")
	case r.blocks[len(r.blocks)-1].kind == "tool_use":
		f.s(`"tool_use"`)
	default:
		f.s(`"end_turn"`)
	}
	f.s(`,"stop_sequence":null,"stop_details":null,`)
	u := r.final
	if r.partial && !last {
		u.out = 1 + f.g.rng.Int64N(min(12, u.out)) // never above the final count
		f.g.tot.Features.PartialUsageLines++
	}
	f.usageJSON(u)
	f.s(`},"requestId":`)
	f.q(r.reqID)
	f.s(`,"type":"assistant"`)
	bl.uuid = f.g.uuid()
	f.tail(bl.uuid, f.now(200*time.Millisecond, 4*time.Second), nil)
}

func (f *file) toolInput(bl *block) {
	switch bl.tool {
	case "Bash":
		f.s(`{"command":"go test ./... 2>&1 | tail -50","description":"Run the tests"}`)
	case "Read":
		f.s(`{"file_path":"`)
		f.s(f.cwd)
		f.s(`/internal/server/handler.go"}`)
	case "Grep":
		f.s(`{"pattern":"func .*Handler","path":"internal","output_mode":"content"}`)
	case "Edit":
		f.s(`{"file_path":"`)
		f.s(f.cwd)
		f.s(`/internal/server/handler.go","old_string":"`)
		f.text(bl.size / 2)
		f.s(`","new_string":"`)
		f.text(bl.size / 2)
		f.s(`"}`)
	case "Write":
		f.s(`{"file_path":"`)
		f.s(f.cwd)
		f.s(`/docs/notes.md","content":"`)
		f.text(bl.size)
		f.s(`"}`)
	default: // Agent, Task
		f.s(`{"description":"Investigate the failing test","prompt":"`)
		f.text(bl.size)
		f.s(`","subagent_type":"general-purpose"}`)
	}
}

// toolResult writes the user line answering a tool_use. Bash and Read
// results repeat their output in toolUseResult, as Claude Code does, which
// is what makes real lines so long.
func (f *file) toolResult(bl *block, size int, promptID string, agentResult func()) string {
	f.head(bl.uuid)
	if promptID != "" {
		f.s(`,"promptId":`)
		f.q(promptID)
	}
	f.s(`,"type":"user","message":{"role":"user","content":[{"tool_use_id":`)
	f.q(bl.id)
	f.s(`,"type":"tool_result","content":`)
	if agentResult != nil {
		f.s(`[{"type":"text","text":"`)
		f.text(size)
		f.s(`"}]`)
	} else {
		f.s(`"`)
		f.text(size)
		f.s(`"`)
	}
	f.s(`,"is_error":false}]}`)
	u := f.g.uuid()
	f.tail(u, f.now(100*time.Millisecond, 20*time.Second), func() {
		f.s(`,"toolUseResult":`)
		switch {
		case agentResult != nil:
			agentResult()
		case bl.tool == "Bash":
			f.s(`{"stdout":"`)
			f.text(size)
			f.s(`","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`)
		case bl.tool == "Read":
			f.s(`{"type":"text","file":{"filePath":"`)
			f.s(f.cwd)
			f.s(`/internal/server/handler.go","content":"`)
			f.text(size)
			f.s(`","numLines":`)
			f.i(int64(size/40 + 1))
			f.s(`,"startLine":1,"totalLines":`)
			f.i(int64(size/40 + 1))
			f.s(`}}`)
		default:
			f.s(`{"filePath":"`)
			f.s(f.cwd)
			f.s(`/internal/server/handler.go","userModified":false}`)
		}
		f.s(`,"sourceToolAssistantUUID":`)
		f.q(bl.uuid)
	})
	return u
}

// progress writes a hook progress line under a tool_use (a sibling of its
// result in the DAG).
func (f *file) progress(bl *block) {
	f.head(bl.uuid)
	f.s(`,"type":"progress","data":{"type":"hook_progress","hookEvent":"PostToolUse","hookName":"PostToolUse:`)
	f.s(bl.tool)
	f.s(`","command":"${CLAUDE_PLUGIN_ROOT}/scripts/notify.sh busy"},"parentToolUseID":`)
	f.q(bl.id)
	f.s(`,"toolUseID":`)
	f.q(bl.id)
	f.tail(f.g.uuid(), f.now(10*time.Millisecond, 500*time.Millisecond), nil)
	f.g.tot.Features.ProgressLines++
}

// attachment writes a hook_success attachment after a tool result.
func (f *file) attachment(parent string, bl *block) {
	f.head(parent)
	f.s(`,"attachment":{"type":"hook_success","hookName":"PostToolUse:`)
	f.s(bl.tool)
	f.s(`","toolUseID":`)
	f.q(bl.id)
	f.s(`,"hookEvent":"PostToolUse","content":"","stdout":"ok\n","stderr":"","exitCode":0,"durationMs":`)
	f.i(int64(20 + f.g.rng.IntN(300)))
	f.s(`},"type":"attachment"`)
	f.tail(f.g.uuid(), f.now(10*time.Millisecond, 300*time.Millisecond), nil)
}

// synthetic writes a client-side placeholder: an API error shown as an
// assistant line of model <synthetic>. It carries no tokens.
func (f *file) synthetic() {
	f.head(f.last)
	f.s(`,"type":"assistant","message":{"id":`)
	f.q(f.g.uuid())
	f.s(`,"model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":null,"cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0}},"content":[{"type":"text","text":"API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"}]}`)
	f.tail(f.g.uuid(), f.now(time.Second, 30*time.Second), func() { f.s(`,"isApiErrorMessage":true`) })
	f.g.tot.Features.SyntheticLines++
}

// convo is the state of one conversation (a main file or a subagent).
type convo struct {
	f        *file
	model    string
	context  int64 // tokens in the prompt: grows each call, reset by compaction
	toolSize int   // median tool result size
	promptID string
	forceBig bool // make the next tool result a long-tail one
	bigCap   int  // the largest long-tail result; 0: none
}

// plan draws the next response: its blocks and final usage.
func (c *convo) plan(nTools int, agentTool string) *response {
	g := c.f.g
	r := &response{model: c.model, msgID: g.token("msg_01", 22), reqID: g.token("req_011C", 20)}
	if g.rng.IntN(3) > 0 {
		r.blocks = append(r.blocks, block{kind: "thinking", size: g.logSize(400, 1, 0, 8000)})
	}
	if nTools == 0 || g.rng.IntN(2) == 0 {
		r.blocks = append(r.blocks, block{kind: "text", size: g.logSize(300, 1.2, 10, 20000)})
	}
	tools := []string{"Bash", "Read", "Read", "Grep", "Edit", "Bash", "Write"}
	for k := range nTools {
		bl := block{kind: "tool_use", id: g.token("toolu_01", 22), tool: tools[g.rng.IntN(len(tools))], size: g.logSize(300, 1, 20, 6000)}
		if k == 0 && agentTool != "" {
			bl.tool, bl.agent = agentTool, true
			bl.size = g.logSize(1500, 0.7, 100, 12000)
		}
		r.blocks = append(r.blocks, bl)
	}
	r.partial = len(r.blocks) > 1 && g.rng.IntN(5) > 0
	out := int64(g.logSize(250, 1.1, 1, 32000))
	cc := int64(g.logSize(1500, 1.2, 0, 60000))
	if c.context == 0 {
		cc = int64(12000 + g.rng.IntN(20000)) // first call: the system prompt is written to the cache
	}
	r.final = usage{in: int64(1 + g.rng.IntN(8)), out: out, cc: cc, cr: c.context}
	// Context grows slowly enough that a compaction comes every ~250 calls.
	c.context += cc/6 + out/4
	return r
}

// call writes one API response and the results of its tool calls. agent,
// when not nil, writes the subagent answering the first tool call and
// returns its toolUseResult writer.
func (c *convo) call(nTools int, agentTool string, agent func(bl *block) func()) {
	f, g := c.f, c.f.g
	r := c.plan(nTools, agentTool)
	f.usage.add(r.final.in, r.final.out, r.final.cc, r.final.cr)
	f.lastCall = r.final
	feat := &g.tot.Features
	if len(r.blocks) > 1 {
		feat.SplitResponses++
	}
	if nTools > 1 {
		feat.ParallelToolCalls++
	}
	first := 0
	for first < len(r.blocks) && r.blocks[first].kind != "tool_use" {
		f.assistantLine(r, first, f.last)
		first++
	}
	results := func(bl *block) {
		var agentResult func()
		if bl.agent && agent != nil {
			agentResult = agent(bl)
		}
		if g.rng.IntN(2) == 0 {
			f.progress(bl)
		}
		size := g.logSize(float64(c.toolSize), 1.3, 10, 200<<10)
		if !bl.agent && c.bigCap > 0 && (c.forceBig || g.rng.IntN(1500) == 0) {
			c.forceBig = false
			// The long tail: a build log or a huge file read, a few MB
			// (but not more than a quarter of a small session).
			size = min(g.logSize(1.5e6, 0.6, 256<<10, 6<<20), c.bigCap)
			feat.BigToolResults++
		}
		u := f.toolResult(bl, size, c.promptID, agentResult)
		if g.rng.IntN(3) == 0 {
			f.attachment(u, bl)
		}
	}
	if nTools > 1 && g.rng.IntN(3) == 0 {
		// Interleaved: each tool_use line is followed by its result before
		// the next block of the same response is written.
		feat.InterleavedCalls++
		for i := first; i < len(r.blocks); i++ {
			f.assistantLine(r, i, f.last)
			results(&r.blocks[i])
		}
		return
	}
	for i := first; i < len(r.blocks); i++ {
		f.assistantLine(r, i, f.last)
	}
	// Parallel results: each hangs off its own tool_use line, in any order.
	order := g.rng.Perm(len(r.blocks) - first)
	for _, k := range order {
		results(&r.blocks[first+k])
	}
}

// turns writes prompts and their API calls until the file reaches budget.
// spawn, when not nil, is asked before each call whether an Agent call is
// due.
func (c *convo) turns(budget int64, spawn func() (string, func(*block) func()), onTurn func()) {
	f, g := c.f, c.f.g
	for f.size() < budget {
		c.promptID = g.uuid()
		if !f.sidechain && g.rng.IntN(2) == 0 {
			f.meta("file-history-snapshot", func() {
				f.s(`,"messageId":`)
				f.q(g.uuid())
				f.s(`,"snapshot":{"trackedFileBackups":{}},"isSnapshotUpdate":false`)
			})
		}
		start := g.clock
		f.prompt(g.logSize(200, 1.2, 5, 20000), c.promptID)
		calls := 1 + g.rng.IntN(14)
		for k := 0; k < calls && f.size() < budget; k++ {
			tool, agent := "", (func(*block) func())(nil)
			if spawn != nil {
				tool, agent = spawn()
			}
			n := 0
			switch {
			case tool != "":
				n = 1 + g.rng.IntN(2)
			case k == calls-1:
				n = 0 // the turn ends with a plain answer
			default:
				n = []int{1, 1, 1, 1, 2, 2, 3, 4}[g.rng.IntN(8)]
			}
			c.call(n, tool, agent)
			if onTurn != nil {
				onTurn()
			}
		}
		if g.rng.IntN(30) == 0 {
			f.synthetic()
		}
		if !f.sidechain {
			f.head(f.last)
			f.s(`,"type":"system","subtype":"turn_duration","durationMs":`)
			f.i(g.clock.Sub(start).Milliseconds())
			f.s(`,"isMeta":false`)
			f.tail(g.uuid(), f.now(10*time.Millisecond, 100*time.Millisecond), nil)
			f.meta("last-prompt", func() { f.s(`,"lastPrompt":"`); f.text(80); f.s(`"`) })
		}
	}
}

// session writes one session: the main file and its subagents.
func (g *gen) session(idx int, p project, budget int64) (SessionTotals, error) {
	id := g.uuid()
	flat := g.rng.IntN(10) == 0 || idx == 1 // some 2.0.x sessions with flat agent files
	if idx == 0 {
		flat = false
	}
	version := "2.1." + strconv.Itoa(20+g.rng.IntN(100))
	if flat {
		version = "2.0." + strconv.Itoa(30+g.rng.IntN(40))
	}
	st := SessionTotals{SessionID: id, Project: p.cwd, Version: version}
	g.cur = &st
	rel := filepath.Join("projects", p.key, id+".jsonl")
	st.Path = rel
	main, err := g.create(filepath.Join(g.o.Dir, rel))
	if err != nil {
		return st, err
	}
	main.sessionID, main.cwd, main.version, main.usage = id, p.cwd, version, &st.Usage
	main.branch = []string{"main", "main", "feature/cache", "fix/parser"}[g.rng.IntN(4)]
	main.slug = "zippy-wondering-" + g.hexID(6)
	models := []string{"claude-opus-4-7", "claude-opus-4-7", "claude-sonnet-4-6"}
	c := &convo{f: main, model: models[g.rng.IntN(len(models))], toolSize: g.logSize(1500, 0.5, 300, 8000)}
	c.bigCap = int(max(256<<10, budget/5))

	var files []*file // every file written, for the totals
	files = append(files, main)
	closeAll := func() error {
		var first error
		for _, f := range files {
			if err := f.close(); err != nil && first == nil {
				first = err
			}
			st.Bytes += f.cw.n
			st.Lines += f.lines
			st.Files++
			g.tot.JSONLFiles++
		}
		return first
	}

	// Subagents take about a third of the session's bytes; their number
	// follows the session's size (~3 on average, so a 1 GB tree has
	// ~1,600 files).
	nAgents := int(math.Round(float64(budget) / float64(bytesPerSession) * 3.6 * (0.5 + g.rng.Float64())))
	if idx < 2 {
		nAgents = max(nAgents, 2)
	}
	agentBudget := budget / 3 / int64(max(1, nAgents))
	mainBudget := budget - agentBudget*int64(nAgents)
	spawned := 0
	spawn := func() (string, func(*block) func()) {
		if spawned >= nAgents || main.size() < mainBudget*int64(spawned+1)/int64(nAgents+1) {
			return "", nil
		}
		spawned++
		tool := "Agent"
		if flat {
			tool = "Task"
		}
		return tool, func(bl *block) func() {
			res, err := g.subagent(main, bl, flat, c.model, agentBudget, &files)
			if err != nil {
				main.err = err
			}
			return res
		}
	}
	compactAt := int64(140000 + g.rng.IntN(40000))
	compacted, big := false, false
	onCall := func() {
		if idx == 0 && !big && main.size() > mainBudget/3 {
			big, c.forceBig = true, true // every tree has at least one
		}
		if c.context > compactAt || (idx == 0 && !compacted && main.size() > mainBudget/2) {
			compacted = true
			if err := g.compact(main, c, flat, &files); err != nil {
				main.err = err
			}
		}
	}

	main.meta("permission-mode", func() { main.s(`,"permissionMode":"default"`) })
	if idx == 0 {
		main.prompt(40, g.uuid())
		main.synthetic() // at least one in every tree
	}
	c.turns(mainBudget, spawn, onCall)
	if !flat {
		main.meta("ai-title", func() { main.s(`,"aiTitle":"`); main.text(40); main.s(`"`) })
	}
	err = closeAll()
	st.Agents = g.countAgents(files)
	return st, err
}

func (g *gen) countAgents(files []*file) int {
	n := 0
	for _, f := range files {
		if f.agentID != "" {
			n++
		}
	}
	return n
}

// subagent writes the transcript of an Agent/Task call and returns the
// writer of the toolUseResult that reports it in the main file.
func (g *gen) subagent(main *file, bl *block, flat bool, model string, budget int64, files *[]*file) (func(), error) {
	var id, path string
	if flat {
		id = g.hexID(8)
		path = filepath.Join(filepath.Dir(main.path), "agent-"+id+".jsonl")
	} else {
		id = "a" + g.hexID(16)
		path = filepath.Join(trimExt(main.path), "subagents", "agent-"+id+".jsonl")
	}
	af, err := g.create(path)
	if err != nil {
		return nil, err
	}
	*files = append(*files, af)
	af.sessionID, af.cwd, af.version, af.branch, af.slug = main.sessionID, main.cwd, main.version, main.branch, main.slug
	af.agentID, af.sidechain, af.usage = id, true, main.usage
	if flat {
		g.tot.Features.FlatAgentFiles++
	} else {
		g.tot.Features.SubagentFiles++
		meta := trimExt(path) + ".meta.json"
		body := fmt.Sprintf(`{"agentType":"general-purpose","description":"Investigate the failing test","toolUseId":%q,"spawnDepth":1,"model":%q}`+"\n", bl.id, model)
		if err := os.WriteFile(meta, []byte(body), 0o644); err != nil {
			return nil, err
		}
		if err := os.Chtimes(meta, g.clock, g.clock); err != nil {
			return nil, err
		}
		g.tot.Features.MetaFiles++
		g.cur.Bytes += int64(len(body))
		g.cur.Files++
	}
	sub := &convo{f: af, model: "claude-haiku-4-5-20251001", toolSize: 2000}
	if g.rng.IntN(2) == 0 {
		sub.model = "claude-sonnet-4-6"
	}
	start := g.clock
	// 2.1.x copies each subagent response into an agent_progress line of
	// the main file, usage included: a counter must not count those.
	copies := !flat && (g.rng.IntN(2) == 0 || g.tot.Features.AgentProgress == 0)
	af.prompt(bl.size, "")
	calls := 0
	for af.size() < budget {
		n := []int{0, 1, 1, 2, 3}[g.rng.IntN(5)]
		if af.size() > budget*3/4 {
			n = 0
		}
		sub.call(n, "", nil)
		calls++
		if copies {
			g.agentProgress(main, bl, af)
		}
	}
	if err := af.close(); err != nil {
		return nil, err
	}
	// Claude Code reports the agent's last API response: totalTokens is
	// its total, usage its counts (cctx agents checks them against the
	// transcript).
	last := af.lastCall
	return func() {
		main.s(`{"status":"completed","agentId":`)
		main.q(id)
		main.s(`,"content":[{"type":"text","text":"done"}],"totalDurationMs":`)
		main.i(af.lastTS.Sub(start).Milliseconds())
		main.s(`,"totalTokens":`)
		main.i(last.in + last.out + last.cc + last.cr)
		main.s(`,"totalToolUseCount":`)
		main.i(int64(calls))
		// Like Claude Code, the result repeats the agent's last usage:
		// a user line, so it must not be counted either.
		main.s(`,"usage":{"input_tokens":`)
		main.i(last.in)
		main.s(`,"cache_creation_input_tokens":`)
		main.i(last.cc)
		main.s(`,"cache_read_input_tokens":`)
		main.i(last.cr)
		main.s(`,"output_tokens":`)
		main.i(last.out)
		main.s(`}}`)
	}, nil
}

// agentProgress copies the subagent's latest response into the main file.
func (g *gen) agentProgress(main *file, bl *block, af *file) {
	main.head(bl.uuid)
	main.s(`,"type":"progress","data":{"message":{"type":"assistant","timestamp":`)
	main.ts(af.lastTS)
	main.s(`,"message":{"model":"claude-haiku-4-5-20251001","id":`)
	main.q(g.token("msg_01", 22))
	main.s(`,"type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,`)
	main.usageJSON(usage{in: 3, out: 40, cc: 9000, cr: 12000})
	main.s(`},"requestId":`)
	main.q(g.token("req_011C", 20))
	main.s(`,"uuid":`)
	main.q(g.uuid())
	main.s(`},"normalizedMessages":[],"type":"agent_progress","prompt":"","agentId":`)
	main.q(af.agentID)
	main.s(`},"parentToolUseID":`)
	main.q(bl.id)
	main.s(`,"toolUseID":`)
	main.q(bl.id)
	parent := main.last
	main.tail(g.uuid(), af.lastTS, nil)
	main.last = parent
	g.tot.Features.AgentProgress++
}

// compact writes a compaction: the summarising call (in 2.1.x, as an
// agent-acompact-* subagent file), the boundary with logicalParentUuid and
// compactMetadata as a new root, and the isCompactSummary user line.
func (g *gen) compact(main *file, c *convo, flat bool, files *[]*file) error {
	pre := c.context
	if !flat {
		id := "acompact-" + g.hexID(6)
		af, err := g.create(filepath.Join(trimExt(main.path), "subagents", "agent-"+id+".jsonl"))
		if err != nil {
			return err
		}
		*files = append(*files, af)
		af.sessionID, af.cwd, af.version, af.branch, af.slug = main.sessionID, main.cwd, main.version, main.branch, main.slug
		af.agentID, af.sidechain, af.usage = id, true, main.usage
		af.prompt(600, "")
		sc := &convo{f: af, model: c.model, context: pre, toolSize: 1000}
		sc.call(0, "", nil)
		if err := af.close(); err != nil {
			return err
		}
		g.tot.Features.SubagentFiles++
	}
	boundary := g.uuid()
	main.begin()
	main.s(`{"parentUuid":null,"logicalParentUuid":`)
	main.q(main.last)
	main.s(`,"isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"level":"info","compactMetadata":{"trigger":"auto","preTokens":`)
	main.i(pre)
	main.s(`}`)
	main.tail(boundary, main.now(20*time.Second, 90*time.Second), nil)
	main.head(boundary)
	main.s(`,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n`)
	main.text(g.logSize(6000, 0.5, 1000, 30000))
	main.s(`"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`)
	main.tail(g.uuid(), main.lastTS, nil)
	c.context = int64(15000 + g.rng.IntN(15000))
	g.tot.Features.Compactions++
	return nil
}

func trimExt(p string) string { return p[:len(p)-len(filepath.Ext(p))] }
