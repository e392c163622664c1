// Package tree is cctx's model of one conversation: the uuid DAG of a
// session's main transcript, with its subagent transcripts (both layouts)
// and inline sidechains hung under the tool call that spawned them.
//
// It keeps, for every line that takes part in the DAG (every line with a
// uuid), the line's envelope (Node.Envelope in line, the rest shared or
// out of line: Node.Entry puts it together), where the line is (Node.File,
// Line, Offset, Size) and a few small facts (tool_use ids, tool_result
// ids, a 200-rune prompt prefix), never the content. Commands that print
// content re-read the line at its offset.
//
// The rules, in one place (see the doc comment of each function):
//
//   - Duplicate uuids in one file: the later line wins (Python SDK rule);
//     a warning names the earlier one.
//   - Partial compaction: compactMetadata.preservedMessages (or, older,
//     preservedSegment) re-parents the kept messages after their anchor
//     before anything else, as the TS SDK does. Node.Parent is the parent
//     after relinking; Entry.ParentUUID stays what the line says.
//   - Cycles in parentUuid are cut at their earliest line, with a warning.
//     Parents that are not in the file make islands (reported, kept).
//   - Leaf: the TS SDK rule first (latest main entry without a main child,
//     walked up to the first user/assistant), the Python rule as fallback.
//   - Active path: the parentUuid chain of the leaf, continued through
//     logicalParentUuid across compaction boundaries, with the recording
//     artifacts repaired: every line of a message.id on the path and every
//     tool_result answering a tool_use on it are put back.
//   - Real forks (a rewind, an edited prompt, a regenerated reply) are told
//     from artifacts (parallel tool results, progress and hook lines,
//     sibling chunks of one response, local slash commands).
//
// Every walk is iterative with a visited set: a 100 000-entry chain or a
// cyclic file cannot blow the stack or loop.
package tree

import (
	"fmt"
	"math"
	"time"
	"unsafe"

	"github.com/cctx-dev/cctx/internal/reader"
)

// File is one transcript file of the session.
type File struct {
	Path  string // as given; "-" for standard input
	Name  string // for messages (the path, or "<stdin>")
	Agent *Agent // nil for the main file

	// Started and CWD are the timestamp and cwd of the first line of the
	// file, in line order, that has one (any line, in the DAG or not):
	// for the main file, the session's start and project as ls and tokens
	// read them from its head.
	Started time.Time
	CWD     string

	// Done is the byte offset just past the file's last line read whole,
	// and DoneLines the lines up to there: where show --follow goes on
	// reading (a last line still being written is read once it ends).
	Done      int64
	DoneLines int

	// Dropped are the envelopes (Raw nil) of the lines a token counter
	// needs that are not nodes, in file order: assistant lines with usage
	// but no uuid, and lines that lost to a later line with the same uuid.
	// With the nodes of the file, in line order, they are every line that
	// counts towards the session's usage, so usage can be totalled without
	// reading the file again.
	Dropped []reader.Entry

	kids *kidStore // the tree's (see Node.Children)
}

// Envelope is what a node keeps in line of its line's envelope
// (reader.Entry): the fields most commands read. The others are kept out
// of line, on the lines that have them, and read through methods of Node
// (CWD, Model, Usage, …); Node.Entry puts them all together again.
type Envelope struct {
	Line   int   // 1-based line number in its file
	Offset int64 // byte offset of the line in its file
	Size   int   // bytes in the line, without its terminator

	Type    string // user, assistant, system, attachment, progress, summary, ...
	Subtype string // for system entries: compact_boundary, turn_duration, ...

	UUID       string
	ParentUUID string
	MessageID  string // message.id: shared by the lines of one API response

	// ts is the timestamp in Unix nanoseconds (noTime: none, or one that
	// is not UTC or out of range, kept whole with the rare facts): see
	// Node.Timestamp.
	ts int64

	Content        reader.ContentFlags // what message.content holds (a queued input's attachment.prompt)
	Queued         reader.QueuedKind   // a queued input's attachment line: a user message (reader.Entry.Queued)
	Sidechain      bool
	Meta           bool
	CompactSummary bool
	APIError       bool
}

// Node is one line of the DAG. A node of a long session must stay small
// (issue 23.3: a tree costs at most 400 bytes an entry): what only some
// lines have (usage, tool calls, prompts, subagents) is out of line,
// behind pointers that are nil on the lines that have none of it.
type Node struct {
	Envelope // the envelope's common fields; see Entry for the whole

	File *File // the file, whose Agent the node belongs to (see Agent)

	// Parent is the model's parent: the line named by parentUuid in the
	// same file, after partial-compaction relinking and cycle cutting. Nil
	// for roots, compact boundaries, islands and cut cycles.
	Parent *Node
	// kidAt and kidN place the node's children in its tree's kidStore
	// (see Children).
	kidAt, kidN int32

	ctx    *lineCtx     // the line's context (session, cwd, branch, version, …), shared by the lines that have the same
	use    *lineUsage   // usage, model, requestId; nil when the line has none
	tools  *toolFacts   // tool calls and results; nil when the line has none
	prompt *promptFacts // the typed prompt; nil when the line has none
	facts  *factsExtra  // the rare facts (compaction, subagents, building facts); nil when the line has none

	// msgNext is the position + 1 in Tree.Nodes of the next line of the
	// same response (same file, sidechain flag and message.id), 0 for the
	// last: the lines of a response are a list through the nodes, not a
	// map of slices.
	msgNext int32
	pos     int32 // index in Tree.Nodes: file order, main file first

	// ResultError is set when a tool_result of the line has is_error.
	ResultError bool
	// Relinked is set when partial-compaction metadata moved this node
	// under another parent than its parentUuid.
	Relinked bool
	// Bridged is set when the line the entry names as its parent (or, on
	// a compaction boundary, as its logical parent) was never written: its
	// Parent (LogicalParent) is then the entry before it in the file.
	Bridged bool
	// Foreign is set on the leading lines of a file that belong to another
	// session (their sessionId is not the file's): the context a session
	// continued from, never a branch of its own.
	Foreign bool
	// Active is set on every node of the active path (ActivePath).
	Active bool
	// Fork is set on a real fork: a node with two or more children that
	// start different branches (see IsRealFork).
	Fork bool

	typed bool // reader.Entry.IsTypedPrompt
}

// lineCtx are the envelope fields that the lines of a session repeat:
// one value shared by every line with the same ones.
type lineCtx struct {
	SessionID string
	AgentID   string
	TeamName  string
	CWD       string
	GitBranch string
	Version   string
	Role      string
}

// lineUsage are the envelope fields of an assistant line with usage.
type lineUsage struct {
	RequestID string
	model     *lineModel // shared by the lines with the same
	// Input, Output, CacheCreation, CacheCreation5m, CacheCreation1h,
	// CacheRead, WebSearch, as in reader.Usage.
	counts         [7]int64
	HasUsage       bool
	StopReasonNull bool
}

// lineModel are the fields of a response's usage that responses repeat.
type lineModel struct {
	Model       string
	Speed       string
	ServiceTier string
}

// toolFacts are the tool calls of an assistant line or the results of a
// user line.
type toolFacts struct {
	toolUses    []reader.ToolUseFact
	toolResults []string
	sourceTool  string
}

// promptFacts are the prompt facts of a user line.
type promptFacts struct {
	prompt string
	label  string
	hash   uint64
}

// noCtx, noUsage, … stand for the records of a line that has none.
var (
	noCtx    lineCtx
	noUsage  lineUsage
	noModel  lineModel
	noTools  toolFacts
	noPrompt promptFacts
	noFacts  factsExtra
)

func (n *Node) c() *lineCtx {
	if n.ctx == nil {
		return &noCtx
	}
	return n.ctx
}

func (n *Node) u() *lineUsage {
	if n.use == nil {
		return &noUsage
	}
	return n.use
}

func (n *Node) m() *lineModel {
	if n.use == nil || n.use.model == nil {
		return &noModel
	}
	return n.use.model
}

func (n *Node) tf() *toolFacts {
	if n.tools == nil {
		return &noTools
	}
	return n.tools
}

func (n *Node) pf() *promptFacts {
	if n.prompt == nil {
		return &noPrompt
	}
	return n.prompt
}

// fx returns n's factsExtra (the zero value when it has none).
func (n *Node) fx() *factsExtra {
	if n.facts == nil {
		return &noFacts
	}
	return n.facts
}

// mfx returns n's factsExtra, made when it has none, to be set.
func (n *Node) mfx() *factsExtra {
	if n.facts == nil {
		n.facts = &factsExtra{}
	}
	return n.facts
}

// factsExtra are the facts of the few lines that have them, kept out of
// line: the compaction metadata of a boundary, subagents, the agent id of
// a subagent's result, and facts used while building only.
type factsExtra struct {
	timestamp            time.Time // when Envelope.ts cannot hold it
	attachment           string
	LogicalParentUUID    string
	CompactTrigger       string
	ToolUseResultAgentID string
	CompactPreTokens     int64

	logicalParent *Node
	agents        []*Agent
	inline        *Agent // the inline sidechain a main-file line belongs to

	// origParent is the parent by uuid, before relinking or a cycle cut
	// (origSet); Parent otherwise.
	origParent *Node
	origSet    bool

	preservedSegment  *reader.PreservedSegment
	preservedMessages *reader.PreservedMessages
	progressAgentID   string
	parentToolUseID   string
	agentType         string
}

// uuidParent is the parent by uuid, before relinking and cycle cutting.
func (n *Node) uuidParent() *Node {
	if x := n.fx(); x.origSet {
		return x.origParent
	}
	return n.Parent
}

// setParent changes the parent of a linked node, keeping the one it had
// by uuid for uuidParent.
func (n *Node) setParent(p *Node) {
	if x := n.mfx(); !x.origSet {
		x.origParent, x.origSet = n.Parent, true
	}
	n.Parent = p
}

// Children are the nodes whose Parent is this node, in file order.
// Subagent roots are not children of the node that spawned them: see
// Agents. The slice is the tree's: not to be changed (its capacity ends
// where it does).
func (n *Node) Children() []*Node {
	if n.File == nil || n.File.kids == nil {
		return nil
	}
	k := n.File.kids
	if k.building() {
		return k.get(n)
	}
	return k.all[n.kidAt : n.kidAt+n.kidN : n.kidAt+n.kidN]
}

// setKids makes l n's children while the tree is built.
func (n *Node) setKids(l []*Node) { n.File.kids.set(n, l) }

// kidStore holds the children of a tree's nodes: while the tree is built
// (links are added, moved and cut), a node's only child in one array
// and the lists of the nodes that have more in a map; then one array,
// every node's children after the previous node's (24 bytes a node less
// than a slice each). A list a node while building cost 32 bytes a node
// of garbage when the tree was done, most of them for one child.
type kidStore struct {
	only []*Node           // while building: the only child, by position
	many map[int32][]*Node // while building: two children or more, by position
	all  []*Node           // after: Node.kidAt, Node.kidN
}

func newKidStore(n int) kidStore {
	return kidStore{only: make([]*Node, n), many: map[int32][]*Node{}}
}

func (k *kidStore) building() bool { return k.only != nil }

// get is n's children while building: not to be appended to.
func (k *kidStore) get(n *Node) []*Node {
	if int(n.pos) >= len(k.only) {
		return nil
	}
	if l, ok := k.many[n.pos]; ok {
		return l
	}
	if k.only[n.pos] != nil {
		return k.only[n.pos : n.pos+1 : n.pos+1]
	}
	return nil
}

// set makes l n's children while building.
func (k *kidStore) set(n *Node, l []*Node) {
	switch len(l) {
	case 0:
		k.only[n.pos] = nil
		delete(k.many, n.pos)
	case 1:
		k.only[n.pos] = l[0]
		delete(k.many, n.pos)
	default:
		k.only[n.pos] = nil
		k.many[n.pos] = l
	}
}

// add appends c to n's children while building.
func (k *kidStore) add(n, c *Node) {
	switch l := k.get(n); len(l) {
	case 0:
		k.only[n.pos] = c
	case 1:
		k.set(n, []*Node{l[0], c})
	default:
		k.many[n.pos] = append(l, c)
	}
}

// compact moves the lists into one array.
func (k *kidStore) compact(nodes []*Node) {
	total := 0
	for _, n := range nodes {
		total += len(k.get(n))
	}
	k.all = make([]*Node, 0, total)
	for _, n := range nodes {
		l := k.get(n)
		n.kidAt, n.kidN = int32(len(k.all)), int32(len(l))
		k.all = append(k.all, l...)
	}
	k.only, k.many = nil, nil
}

// Agent is the subagent (file or inline sidechain) the node belongs to;
// nil on the main conversation.
func (n *Node) Agent() *Agent {
	if n.File != nil && n.File.Agent != nil {
		return n.File.Agent
	}
	return n.fx().inline
}

// SessionID is the line's sessionId.
func (n *Node) SessionID() string { return n.c().SessionID }

// AgentID is the line's agentId.
func (n *Node) AgentID() string { return n.c().AgentID }

// TeamName is the line's teamName.
func (n *Node) TeamName() string { return n.c().TeamName }

// CWD is the line's cwd.
func (n *Node) CWD() string { return n.c().CWD }

// GitBranch is the line's gitBranch.
func (n *Node) GitBranch() string { return n.c().GitBranch }

// Version is the Claude Code version that wrote the line.
func (n *Node) Version() string { return n.c().Version }

// Role is message.role.
func (n *Node) Role() string { return n.c().Role }

// RequestID is the line's requestId.
func (n *Node) RequestID() string { return n.u().RequestID }

// Model is message.model.
func (n *Node) Model() string { return n.m().Model }

// HasUsage reports whether the line has message.usage.
func (n *Node) HasUsage() bool { return n.u().HasUsage }

// Usage is message.usage of an assistant line.
func (n *Node) Usage() reader.Usage {
	u := n.u()
	return reader.Usage{
		Input: u.counts[0], Output: u.counts[1], CacheCreation: u.counts[2], CacheCreation5m: u.counts[3],
		CacheCreation1h: u.counts[4], CacheRead: u.counts[5], WebSearch: u.counts[6],
		Speed: n.m().Speed, ServiceTier: n.m().ServiceTier,
	}
}

// LogicalParentUUID is logicalParentUuid (compact_boundary lines).
func (n *Node) LogicalParentUUID() string { return n.fx().LogicalParentUUID }

// CompactTrigger is compactMetadata.trigger of a compact_boundary.
func (n *Node) CompactTrigger() string { return n.fx().CompactTrigger }

// CompactPreTokens is compactMetadata.preTokens of a compact_boundary.
func (n *Node) CompactPreTokens() int64 { return n.fx().CompactPreTokens }

// ToolUseResultAgentID is toolUseResult.agentId (see reader.Entry).
func (n *Node) ToolUseResultAgentID() string { return n.fx().ToolUseResultAgentID }

// IsUser reports whether the node is a user message: a user line, or a
// queued input's attachment line (reader.Entry.IsUser).
func (n *Node) IsUser() bool { return reader.UserMessage(n.Type, n.Queued) }

// IsConversation reports whether the node is a user or assistant message.
func (n *Node) IsConversation() bool { return n.IsUser() || n.Type == "assistant" }

// IsTypedPrompt reports whether the line is a prompt a person typed
// (reader.Entry.IsTypedPrompt).
func (n *Node) IsTypedPrompt() bool { return n.typed }

// Synthetic reports whether the line is a client-side placeholder
// (reader.Entry.Synthetic).
func (n *Node) Synthetic() bool { return n.m().Model == reader.SyntheticModel }

// Entry is the line's envelope as the reader read it, without Raw and
// Facts, and without TextHead and PromptID (no command reads them from a
// node; IsTypedPrompt is kept).
func (n *Node) Entry() reader.Entry {
	e, x := n.lineEntry(), n.fx()
	e.LogicalParentUUID = x.LogicalParentUUID
	e.CompactTrigger, e.CompactPreTokens = x.CompactTrigger, x.CompactPreTokens
	e.ToolUseResultAgentID = x.ToolUseResultAgentID
	return e
}

// lineEntry is Entry without the rare facts (compaction metadata, the
// agent a result names): what the line's envelope, context and usage say,
// which nothing changes once the line is read (see OpenWith).
func (n *Node) lineEntry() reader.Entry {
	c, u := n.c(), n.u()
	e := reader.Entry{
		Line: n.Line, Offset: n.Offset, Size: n.Size,
		Type: n.Type, Subtype: n.Subtype,
		UUID: n.UUID, ParentUUID: n.ParentUUID,
		SessionID: c.SessionID, AgentID: c.AgentID, TeamName: c.TeamName,
		Sidechain: n.Sidechain, Meta: n.Meta, CompactSummary: n.CompactSummary, APIError: n.APIError,
		StopReasonNull: u.StopReasonNull,
		Timestamp:      n.Timestamp(), CWD: c.CWD, GitBranch: c.GitBranch, Version: c.Version,
		MessageID: n.MessageID, RequestID: u.RequestID, Model: n.m().Model, Role: c.Role,
		HasUsage: u.HasUsage, Content: n.Content, Queued: n.Queued,
	}
	if n.use != nil {
		e.Usage = n.Usage()
	}
	return e
}

// setEntry keeps e and its facts fa (nil when not read) in n: the records
// that lines share from in, the others in in's slabs.
func (n *Node) setEntry(e *reader.Entry, fa *reader.TreeFacts, in *interner) {
	parent := in.parentUUID(e.ParentUUID) // before uuid: it shares the previous line's
	n.Envelope = Envelope{
		Line: e.Line, Offset: e.Offset, Size: e.Size,
		Type: e.Type, Subtype: e.Subtype,
		UUID: in.uuid(e.UUID), ParentUUID: parent, MessageID: in.messageID(e.MessageID),
		Content: e.Content, Queued: e.Queued,
		Sidechain: e.Sidechain, Meta: e.Meta, CompactSummary: e.CompactSummary, APIError: e.APIError,
	}
	n.typed = e.IsTypedPrompt()
	n.ctx = in.ctx(lineCtx{
		SessionID: e.SessionID, AgentID: e.AgentID, TeamName: e.TeamName,
		CWD: e.CWD, GitBranch: e.GitBranch, Version: e.Version, Role: e.Role,
	})
	u := e.Usage
	if x := (lineUsage{
		RequestID: e.RequestID, model: in.model(lineModel{Model: e.Model, Speed: u.Speed, ServiceTier: u.ServiceTier}),
		counts:   [7]int64{u.Input, u.Output, u.CacheCreation, u.CacheCreation5m, u.CacheCreation1h, u.CacheRead, u.WebSearch},
		HasUsage: e.HasUsage, StopReasonNull: e.StopReasonNull,
	}); x != noUsage {
		n.use = in.uses.add(x)
	}
	x := factsExtra{
		timestamp:         n.setTime(e.Timestamp),
		LogicalParentUUID: e.LogicalParentUUID, CompactTrigger: e.CompactTrigger,
		ToolUseResultAgentID: e.ToolUseResultAgentID, CompactPreTokens: e.CompactPreTokens,
	}
	if fa != nil {
		n.ResultError = fa.ResultError
		if fa.ToolUses != nil || fa.ToolResults != nil || fa.SourceToolAssistantUUID != "" {
			n.tools = in.tools.add(toolFacts{toolUses: fa.ToolUses, toolResults: fa.ToolResults, sourceTool: fa.SourceToolAssistantUUID})
		}
		if fa.Prompt != "" || fa.PromptHash != 0 || fa.Label != "" {
			p := promptFacts{prompt: in.str(fa.Prompt), label: fa.Label, hash: fa.PromptHash}
			if p.label == p.prompt {
				p.label = p.prompt // most labels are the prompt: one copy
			} else {
				p.label = in.str(p.label)
			}
			n.prompt = in.prompts.add(p)
		}
		x.attachment = fa.AttachmentType
		x.preservedSegment, x.preservedMessages = fa.PreservedSegment, fa.PreservedMessages
		x.progressAgentID, x.parentToolUseID, x.agentType = fa.ProgressAgentID, fa.ParentToolUseID, fa.AgentType
	}
	if !x.timestamp.IsZero() || x.attachment != "" || x.LogicalParentUUID != "" || x.CompactTrigger != "" || x.ToolUseResultAgentID != "" ||
		x.CompactPreTokens != 0 || x.preservedSegment != nil || x.preservedMessages != nil ||
		x.progressAgentID != "" || x.parentToolUseID != "" || x.agentType != "" {
		n.facts = new(factsExtra) // x itself stays on the stack: most lines have none
		*n.facts = x
	}
}

// interner shares the records that the lines of one piece of a file
// repeat (a session's lines repeat a handful of contexts and models), and
// allocates the others in slabs: a record of its own for each of a
// million lines cost a million allocations, each rounded up to its size
// class.
type interner struct {
	last    *lineCtx
	all     map[lineCtx]*lineCtx
	lastM   *lineModel
	models  map[lineModel]*lineModel
	uses    slab[lineUsage]
	tools   slab[toolFacts]
	prompts slab[promptFacts]

	// arena holds the bytes of the strings a node keeps of its line (its
	// uuid, message.id, prompt): a 36-byte uuid of its own took a 48-byte
	// allocation.
	arena   []byte
	lastID  string // the previous line's uuid (in arena)
	lastMsg string // the previous line's message.id (in arena)
}

// maxArenaString is the longest string str copies into the arena.
const maxArenaString = 1024

// str returns s, its bytes in the arena when it is short. The arena's
// chunks grow from 1 KiB to 64 KiB: a small file wastes little.
func (in *interner) str(s string) string {
	if len(s) == 0 || len(s) > maxArenaString || in.owns(s) {
		return s
	}
	if len(in.arena)+len(s) > cap(in.arena) {
		in.arena = make([]byte, 0, min(max(1<<10, 2*cap(in.arena)), 64<<10))
	}
	start := len(in.arena)
	in.arena = append(in.arena, s...)
	return unsafe.String(&in.arena[start], len(s))
}

// bytes is str for the reader's strings (reader.Reader.SetStrings): they
// are made in the arena once instead of copied there from the reader's.
func (in *interner) bytes(b []byte) string {
	if len(b) == 0 || len(b) > maxArenaString {
		return string(b)
	}
	return in.str(unsafe.String(&b[0], len(b)))
}

// owns reports whether s is in the arena's current chunk: a string the
// reader made there (bytes) is not copied again.
func (in *interner) owns(s string) bool {
	if len(s) == 0 || cap(in.arena) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.SliceData(in.arena)))
	return p >= lo && p+uintptr(len(s)) <= lo+uintptr(len(in.arena))
}

func (in *interner) uuid(s string) string {
	in.lastID = in.str(s)
	return in.lastID
}

// parentUUID shares the bytes of the previous line's uuid, which most
// lines name as their parent (call it before uuid).
func (in *interner) parentUUID(s string) string {
	if s == in.lastID {
		return in.lastID
	}
	return in.str(s)
}

// messageID shares the previous line's message.id: the lines of one
// response follow each other.
func (in *interner) messageID(s string) string {
	if s != in.lastMsg {
		in.lastMsg = in.str(s)
	}
	return in.lastMsg
}

func (in *interner) ctx(c lineCtx) *lineCtx {
	if c == noCtx {
		return nil
	}
	if in.last != nil && *in.last == c {
		return in.last
	}
	p, ok := in.all[c]
	if !ok {
		if in.all == nil {
			in.all = map[lineCtx]*lineCtx{}
		}
		p = new(lineCtx) // not &c: c would go to the heap on every call
		*p = c
		in.all[c] = p
	}
	in.last = p
	return p
}

func (in *interner) model(m lineModel) *lineModel {
	if m == noModel {
		return nil
	}
	if in.lastM != nil && *in.lastM == m {
		return in.lastM
	}
	p, ok := in.models[m]
	if !ok {
		if in.models == nil {
			in.models = map[lineModel]*lineModel{}
		}
		p = new(lineModel)
		*p = m
		in.models[m] = p
	}
	in.lastM = p
	return p
}

// slab hands out values of T from arrays of up to slabBytes.
type slab[T any] struct{ buf []T }

func (s *slab[T]) add(v T) *T {
	if len(s.buf) == cap(s.buf) { // 8, 16, … slabBytes: small files waste little
		var zero T
		full := max(8, slabBytes/int(unsafe.Sizeof(zero)))
		s.buf = make([]T, 0, min(max(8, 2*cap(s.buf)), full))
	}
	s.buf = append(s.buf, v)
	return &s.buf[len(s.buf)-1]
}

// ToolUses are the tool_use blocks of an assistant line.
func (n *Node) ToolUses() []reader.ToolUseFact { return n.tf().toolUses }

// ToolResults are the tool_use ids a user line answers.
func (n *Node) ToolResults() []string { return n.tf().toolResults }

// SourceTool is sourceToolAssistantUUID.
func (n *Node) SourceTool() string { return n.tf().sourceTool }

// Attachment is attachment.type.
func (n *Node) Attachment() string { return n.fx().attachment }

// Prompt is the typed text of a user line, cut to reader.PromptRunes runes.
func (n *Node) Prompt() string { return n.pf().prompt }

// PromptHash is the hash of the whole prompt (reader.TreeFacts).
func (n *Node) PromptHash() uint64 { return n.pf().hash }

// Label is the line's prompt as ls titles show it (reader.TreeFacts.Label).
func (n *Node) Label() string { return n.pf().label }

// LogicalParent is the node named by logicalParentUuid (set on
// compact_boundary lines): the last entry before the compaction.
func (n *Node) LogicalParent() *Node { return n.fx().logicalParent }

// Agents are the subagents spawned by a tool_use of this node (or, for a
// compact_boundary, the compaction agent that wrote its summary).
func (n *Node) Agents() []*Agent { return n.fx().agents }

// Short is the first 8 characters of the uuid, for people.
func (n *Node) Short() string { return short(n.UUID) }

// Pos is the node's position in Tree.Nodes (file order, main file first).
func (n *Node) Pos() int { return int(n.pos) }

// IsMainConversation reports whether the node takes part in the main
// conversation's leaf selection: a main-file line that is not an inline
// sidechain and not a teammate's.
func (n *Node) IsMainConversation() bool {
	return n.Agent() == nil && !n.Sidechain && n.c().TeamName == ""
}

// IsCompactBoundary reports whether the node is a system/compact_boundary.
func (n *Node) IsCompactBoundary() bool {
	return n.Type == "system" && n.Subtype == "compact_boundary"
}

// Agent is a subagent: a transcript file (agent-<id>.jsonl, either layout)
// or an inline sidechain of a ≤1.0.x main file.
type Agent struct {
	ID     string // file agent id, or "sidechain-" + first 8 chars of the sidechain's root uuid
	File   *File  // the agent's file; the main file for inline sidechains
	Inline bool   // an inline sidechain (isSidechain lines in the main file)
	// Compaction is set for agent-acompact-* files: the agent that wrote a
	// compaction summary. It hangs under its compact_boundary.
	Compaction bool
	// Warmup is set for a 2.0.x warm-up agent (reader.IsWarmup): Claude
	// Code starts it to warm its cache, so no tool call links it, and that
	// is no problem. Its Type is "warmup", as cctx agents names its kind.
	Warmup bool

	Nodes []*Node // file order
	Roots []*Node // nodes without a parent in the agent (normally one)

	// Spawn is the node that started the agent: the assistant line with the
	// Agent/Task tool_use, or the compact_boundary for a compaction agent.
	// Nil when the agent could not be linked (LinkedBy is "").
	Spawn     *Node
	ToolUseID string // the spawning tool_use id
	Result    *Node  // the user line with the tool's result, if any
	// Calls are the calls that spawned it (the first) and resumed it, in
	// file order.
	Calls []*Call
	// LinkedBy says how Spawn was found (see linkAgents): "meta.json"
	// (toolUseId of the sidecar), "toolUseResult" (toolUseResult.agentId
	// of the result line), "progress" (agent_progress lines), "prompt"
	// (the call's exact prompt), "parentUuid" (an inline sidechain whose
	// root names the call's line), "compaction" (the logicalParentUuid of
	// the boundary its lines point to).
	LinkedBy string

	// Meta is the agent-<id>.meta.json sidecar (zero when there is none);
	// MetaPath its path and MetaErr why it could not be read.
	Meta     reader.AgentMeta
	MetaPath string
	MetaErr  error
	// MetaShared is how many sidecars name the same call as this one's
	// (more than one: none of them is linked by it).
	MetaShared int
	// ReadErr is why its file could not be read, whole (no Nodes) or in
	// part; it was reported.
	ReadErr error
	// Skipped are other transcripts with the same agent id, not read.
	Skipped []string
	// PromptShared is set on an inline sidechain whose prompt several calls
	// sent or several sidechains received: how many (none is linked by it).
	PromptShared int

	Type        string // subagent_type / agentType
	Description string // the Task/Agent call's description
	Leaf        *Node  // last user/assistant line in file order (SDK rule for subagents)
}

// Island is a run of nodes whose first line names a parent that is not in
// its file (a write-side bug, or a file cut short).
type Island struct {
	Root    *Node
	Missing string // the parentUuid that is not found
	Size    int    // nodes in the island
}

// Cycle is a parentUuid link that closed a cycle and was cut.
type Cycle struct {
	Node    *Node  // the node whose parent link was cut (it became a root)
	Parent  string // the uuid it named
	Members int    // nodes in the cycle
}

// Warning is something the model worked around, located in a file.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Msg)
}

// Tree is the model of one session.
type Tree struct {
	// trails is what follows the active leaf without being conversation
	// (Trails), found at the first call (the views ask from one goroutine).
	trails NodeSet

	SessionID string
	Main      *File
	Files     []*File // main first, then each agent file
	// Nodes holds every node, main file first, each file in line order.
	Nodes []*Node
	// Roots are the main conversation's nodes without a parent, in file
	// order: the first line, each compact_boundary, islands and cut cycles.
	Roots []*Node
	// Leaf is the active leaf (nil when the session has no user or
	// assistant line). LeafRule is "ts", "python" or "".
	Leaf     *Node
	LeafRule string
	Agents   []*Agent // file agents in path order, then inline sidechains
	// Calls are the session's Agent/Task tool calls, in file order.
	Calls   []*Call
	Islands []*Island
	// Continues is the main file's first entry when it names a parent that
	// is not in the file: the session continues one recorded elsewhere
	// (resumed, or continued after /clear), and its history starts there.
	Continues *Node
	Cycles    []*Cycle
	// Unreadable are the agent files that could not be read, whole or in
	// part (reported; see Agent.ReadErr).
	Unreadable []string
	Warnings   []Warning
	// MainDeleted is the warning said when a session whose main transcript
	// Claude Code deleted was opened (only its subagents are left; also in
	// Warnings), nil when there is a main transcript. What the deleted file
	// held (the calls that spawned the agents, the entries a compaction
	// agent's lines name) is implied missing by it, not warned one by one.
	MainDeleted *Warning
	// MainWas names that main transcript in a note on what it held ("the
	// deleted main transcript", or emptied, or unreadable:
	// session.Session.MainPhrase).
	MainWas string
	// NotTranscript says why the main file is not Claude Code's: it has
	// lines, none of them a transcript entry (another program's JSONL, a
	// text file). "": it is. Not said as a warning by the builder: Open
	// fails with it (an empty view would pass for an empty session), or
	// warns when the subagents have entries to show.
	NotTranscript string

	kids     kidStore
	byUUID   *uuidIndex         // main file
	toolUse  map[string]*Node   // tool_use id → assistant node (every file)
	results  map[string][]*Node // tool_use id → result nodes (every file)
	bySource map[*Node][]*Node  // assistant → result nodes naming it in sourceToolAssistantUUID
	msgs     msgIndex           // lines of one response (see msgLines)
	active   []*Node
	leaves   []*Node
	spool    string // the temporary copy of a transcript read from stdin
}

// Node returns the main-file node with the given uuid, or nil.
func (t *Tree) Node(uuid string) *Node { return t.byUUID.get(uuid) }

// ToolUseNode returns the assistant node that made the tool call id, or nil.
func (t *Tree) ToolUseNode(id string) *Node { return t.toolUse[id] }

// ResultNodes returns the user nodes answering the tool call id.
func (t *Tree) ResultNodes(id string) []*Node { return t.results[id] }

// ActivePath is the conversation the session ends on, root to leaf: the
// whole logical history across compactions (pre-compaction entries, the
// compact_boundary, the summary, what follows; no entry twice), with the
// recording artifacts repaired (see PathTo). Every node on it has Active set.
// Empty when there is no leaf.
func (t *Tree) ActivePath() []*Node { return t.active }

// Trails reports whether n follows the active leaf on its branch without
// being conversation (the attachments, a turn's duration or a hook's
// output written after the last message): not on the path to the leaf,
// which ends at a message, but not off the active branch either.
func (t *Tree) Trails(n *Node) bool {
	if t.trails == nil {
		t.trails = t.NewNodeSet()
		// Down from the leaf, through what is not conversation: once for
		// the tree, not a walk up from each node (a long run of progress
		// lines made that quadratic).
		for stack := []*Node{t.Leaf}; t.Leaf != nil && len(stack) > 0; {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range cur.Children() {
				if !c.IsConversation() && !t.trails.Has(c) {
					t.trails.Add(c)
					stack = append(stack, c)
				}
			}
		}
	}
	return t.trails.Has(n)
}

// Context is the part of the active path the model still saw at the end:
// from the last compact_boundary on (the whole path when there is none).
func (t *Tree) Context() []*Node {
	for i := len(t.active) - 1; i >= 0; i-- {
		if t.active[i].IsCompactBoundary() {
			return t.active[i:]
		}
	}
	return t.active
}

// Leaves are the ends of the main conversation's branches, in file order:
// the active leaf and the leaf of every abandoned branch (a rewind, an
// edited prompt, a regenerated reply). Ends that only a recording artifact
// creates (a parallel tool result, a progress line) are not leaves: they
// lie on the repaired path of a later leaf.
func (t *Tree) Leaves() []*Node { return t.leaves }

// Forks are the real forks of the main conversation and of the agents, in
// file order.
func (t *Tree) Forks() []*Node {
	var out []*Node
	for _, n := range t.Nodes {
		if n.Fork {
			out = append(out, n)
		}
	}
	return out
}

// Entries visits, file by file (Files order) and in line order within a
// file, the envelope of every node and every Dropped line: all the lines a
// token counter needs, in the order it would read them. A node's envelope
// is put together for visit (Node.Entry) and is not valid after it
// returns. skip, when not nil, names the nodes whose envelope visit does
// not need (it is then not put together: most of the time of a counter
// that wants only some lines). A node's envelope is its line's, without
// the rare facts (compaction metadata, the agent a result names: see
// Node.Entry): Entries reads nothing the links change, and may run while
// they are made (OpenWith).
func (t *Tree) Entries(skip func(*Node) bool, visit func(f *File, e *reader.Entry)) {
	var e reader.Entry // one for every node: visit keeps no pointer to it
	i := 0
	for _, f := range t.Files {
		d := 0
		for ; i < len(t.Nodes) && t.Nodes[i].File == f; i++ {
			n := t.Nodes[i]
			for ; d < len(f.Dropped) && f.Dropped[d].Line < n.Line; d++ {
				visit(f, &f.Dropped[d])
			}
			if skip != nil && skip(n) {
				continue
			}
			e = n.lineEntry()
			visit(f, &e)
		}
		for ; d < len(f.Dropped); d++ {
			visit(f, &f.Dropped[d])
		}
	}
}

// AgentByID returns the agent with the given id, or nil.
func (t *Tree) AgentByID(id string) *Agent {
	for _, a := range t.Agents {
		if a.ID == id {
			return a
		}
	}
	return nil
}

func short(u string) string {
	if len(u) > 8 {
		return u[:8]
	}
	return u
}

// Time returns the node's timestamp (zero when the line has none).
func (n *Node) Time() time.Time { return n.Timestamp() }

// noTime is Envelope.ts of a line without a timestamp; wholeTime of one
// whose timestamp is not UTC or out of range, kept whole with the rare
// facts (made while the line is read: reading it never meets the facts a
// link adds, see OpenWith).
const (
	noTime    = math.MinInt64
	wholeTime = math.MinInt64 + 1
)

// Timestamp is the line's timestamp (zero when it has none).
func (n *Node) Timestamp() time.Time {
	switch n.ts {
	case noTime:
		return time.Time{}
	case wholeTime:
		return n.fx().timestamp
	}
	return time.Unix(0, n.ts).UTC()
}

// setTime keeps t in n.ts when it is UTC and in range, else returns it
// to be kept whole.
func (n *Node) setTime(t time.Time) (whole time.Time) {
	n.ts = noTime
	if t.IsZero() {
		return time.Time{}
	}
	if ns := t.UnixNano(); ns > wholeTime && t.Location() == time.UTC && time.Unix(0, ns).UTC() == t {
		n.ts = ns
		return time.Time{}
	}
	n.ts = wholeTime
	return t
}

// NewNode returns a node of file f for the line e, outside any tree (for
// tests of the packages that read nodes).
func NewNode(f *File, e reader.Entry) *Node {
	n := &Node{File: f}
	n.setEntry(&e, nil, &interner{})
	return n
}
