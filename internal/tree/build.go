package tree

import (
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Load builds the tree of a session: its main file and the subagent files
// the finder lists for it (none for standard input). Warnings go to rep
// (nil: discarded) and to Tree.Warnings. Only an unreadable main file is an
// error; an unreadable agent file is a warning.
func Load(f *session.Finder, s *session.Session, rep *diag.Reporter) (*Tree, error) {
	if s.Path == session.StdinPath {
		return readOne(newBuilder(rep), os.Stdin, s.Path, "<stdin>")
	}
	return open(f, s, nil, rep, false)
}

// LoadFiles builds the tree of the main transcript at mainPath with the
// given subagent files.
//
// The files are parsed in parallel, a big main file in pieces of
// pieceBytes, one piece or file per core at a time, and put together in
// file order: the tree, its warnings and their order are those of reading
// every line in turn.
func LoadFiles(mainPath string, agents []session.Agent, rep *diag.Reporter) (*Tree, error) {
	if mainPath == session.StdinPath {
		return readOne(newBuilder(rep), os.Stdin, mainPath, "<stdin>")
	}
	return newBuilder(rep).load(mainPath, agents)
}

// LoadQuiet is LoadFiles keeping the model's warnings in Tree.Warnings
// without saying them (see OpenQuiet).
func LoadQuiet(mainPath string, agents []session.Agent, rep *diag.Reporter) (*Tree, error) {
	b := newBuilder(rep)
	b.quiet = true
	return b.load(mainPath, agents)
}

func (b *builder) load(mainPath string, agents []session.Agent) (*Tree, error) {
	b.fileID = session.IDOfPath(mainPath)
	// While a tree is read, most of the heap is the tree itself, which only
	// grows: a collection each time the heap doubles rescans it to free
	// little. Measured on a 526 MB session: 10% faster, same peak.
	prevGC, restored := debug.SetGCPercent(300), false
	restoreGC := func() {
		if !restored {
			debug.SetGCPercent(prevGC)
			restored = true
		}
	}
	defer restoreGC() // a return before the links are made
	main := &File{Path: mainPath, Name: mainPath}
	var starts []int64 // none: no main transcript (deleted), only agents
	if mainPath != "" {
		var err error
		if starts, err = reader.SplitPoints(mainPath, pieceBytes); err != nil {
			return nil, err
		}
	}
	var work []*piece
	for i, s := range starts {
		end := int64(-1)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		work = append(work, &piece{file: main, start: s, end: end})
	}
	// One transcript per agent: a second file with the same id (both
	// layouts, a copied folder) holds the same conversation and would be
	// drawn twice. The subagents/ layout, the newer, is read.
	chosen := map[string]int{}
	skipped := map[string][]string{}
	var uniq []session.Agent
	for _, a := range agents {
		if i, dup := chosen[a.ID]; dup {
			keep, skip := uniq[i], a
			if keep.Flat && !a.Flat {
				uniq[i], keep, skip = a, a, keep
			}
			skipped[a.ID] = append(skipped[a.ID], skip.Path)
			b.warnAt(Warning{File: skip.Path, Msg: sprintf("a second transcript for agent %s; reading %s only", a.ID, keep.Path)})
			continue
		}
		chosen[a.ID] = len(uniq)
		uniq = append(uniq, a)
	}
	for _, a := range uniq {
		ag := &Agent{ID: a.ID, Compaction: isCompaction(a.ID), MetaPath: a.MetaPath, Skipped: skipped[a.ID]}
		fl := &File{Path: a.Path, Name: a.Path, Agent: ag}
		ag.File = fl
		work = append(work, &piece{file: fl, end: -1, metaPath: a.MetaPath})
	}
	parseAll(work)

	// Put together in order: the main file's pieces, then each agent file.
	for i := 0; i < len(work); {
		j := i + 1
		for j < len(work) && work[j].file == work[i].file {
			j++
		}
		f, pieces := work[i].file, work[i:j]
		if f.Agent == nil {
			if err := b.addFile(f, pieces); err != nil {
				return nil, err
			}
		} else {
			// An agent whose file cannot be read (whole or in part) is kept
			// with what could be read, and says so: its call still links
			// to it, and no command mistakes it for an empty transcript.
			p := pieces[0]
			if p.openErr != nil {
				f.Agent.ReadErr = p.openErr
			} else {
				b.addFile(f, pieces)
				f.Agent.ReadErr = p.readErr
			}
			if err := f.Agent.ReadErr; err != nil {
				b.rep.FileError(f.Path, err) // counted: an unreadable file makes the command fail
				b.t.Unreadable = append(b.t.Unreadable, f.Path)
			}
			if p.metaPath != "" {
				b.readMeta(f.Agent, p.metaPath)
			}
			b.t.Agents = append(b.t.Agents, f.Agent)
		}
		i = j
	}
	// Linking allocates little of the tree and runs beside a caller's
	// work (OpenWith): the collector paces it as usual.
	restoreGC()
	return b.finish(), nil
}

// pieceBytes is the size of the pieces a big main file is parsed in: small
// enough that both cores share a 300 MB file, big enough that a piece
// costs nothing to start.
var pieceBytes int64 = 24 << 20

// slabBytes is the size of a full slab of nodes or records: a multiple
// of the runtime's pages, so that its allocation is not rounded up (128
// nodes of 224 bytes took a 32 KiB size class: 4 KiB lost in 32).
const slabBytes = 64 << 10

// Read builds the tree of one main transcript read from r (no subagent
// files). name is used in warnings.
func Read(r io.Reader, name string, rep *diag.Reporter) (*Tree, error) {
	return readOne(newBuilder(rep), r, name, name)
}

func readOne(b *builder, r io.Reader, path, name string) (*Tree, error) {
	b.alone = true // a stream has no folder beside it: no agent files to find
	p := &piece{file: &File{Path: path, Name: name}, end: -1}
	p.parse(reader.New(r, p.readerOptions()))
	if err := b.addFile(p.file, []*piece{p}); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// piece is a run of lines of one file (all of it, or a part of a big main
// file) parsed on its own: nodes with their line numbers counted from the
// piece's first line, and the reader's issues, kept for addFile.
type piece struct {
	file       *File
	start, end int64 // byte range; end -1: to the end of the file
	metaPath   string

	nodes     nodeList
	dropped   []reader.Entry // assistant lines with usage but no uuid
	issues    []reader.Issue
	lines     int
	done      int64 // reader.Done: past the last line read whole
	doneLines int
	sessionID string    // the first sessionId of the piece, on any line
	started   time.Time // the first timestamp of the piece, on any line
	cwd       string    // the first cwd of the piece, on any line
	entries   int       // lines read as entries
	claude    int       // of which Claude Code's (claudeLine)
	firstType string    // the type of the piece's first line read
	openErr   error
	readErr   error
}

func (p *piece) readerOptions() reader.Options {
	// The facts are read in the envelope's walk of the line; the line is
	// never kept, so memory does not grow with line size.
	return reader.Options{Name: p.file.Name, Facts: true, OnIssue: func(is reader.Issue) { p.issues = append(p.issues, is) }}
}

// parseAll parses the pieces, GOMAXPROCS at a time, in order of the list
// so that the first pieces (the main file) are done first.
func parseAll(work []*piece) {
	next := make(chan *piece)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(work)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				r, c, err := reader.OpenRange(p.file.Path, p.start, p.end, p.readerOptions())
				if err != nil {
					p.openErr = err
					continue
				}
				p.parse(r)
				c.Close()
			}
		}()
	}
	for _, p := range work {
		next <- p
	}
	close(next)
	wg.Wait()
}

// parse reads the DAG lines of a piece. Lines without a uuid (summary,
// file-history-snapshot, custom-title, …) take no part in the DAG.
func (p *piece) parse(r *reader.Reader) {
	f := p.file
	var nodes slab[Node]
	var in interner
	r.SetStrings(in.bytes)
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		if p.sessionID == "" {
			p.sessionID = e.SessionID
		}
		if p.started.IsZero() {
			p.started = e.Timestamp
		}
		if p.cwd == "" {
			p.cwd = e.CWD
		}
		p.entries++
		if p.claude == 0 && p.firstType == "" {
			p.firstType = e.Type
		}
		if claudeLine(&e) {
			p.claude++
		}
		if e.UUID == "" {
			if e.Type == "assistant" && e.HasUsage {
				e.Facts = nil
				p.dropped = append(p.dropped, e)
			}
			continue
		}
		// Nodes live as long as the tree: allocated in slabs, a session of
		// a million lines costs thousands of allocations, not a million.
		n := nodes.add(Node{File: f})
		fa := e.Facts
		if fa != nil && e.Type != "user" && e.Type != "assistant" && e.Type != "system" && e.Type != "attachment" && e.Type != "progress" {
			fa = nil
		}
		e.Facts = nil // the reader's
		n.setEntry(&e, fa, &in)
		p.nodes.add(n)
	}
	p.lines, p.readErr = r.Line(), r.Err()
	p.done, p.doneLines = r.Done()
}

// addFile adds the parsed pieces of one file, in order: line numbers
// continue from piece to piece, a later line with a uuid already seen
// wins (the Python SDK rule), and the reader's issues and the builder's
// warnings come out in line order. A read error of the main file is
// returned.
func (b *builder) addFile(f *File, pieces []*piece) error {
	t := b.t
	if f.Agent == nil {
		t.Main = f
	}
	t.Files = append(t.Files, f)
	total := 0
	for _, p := range pieces {
		total += p.nodes.n
	}
	// Sized once: growing a map of a few hundred thousand uuids step by
	// step cost more than filling it.
	idx := newUUIDIndex(total)
	if f.Agent == nil {
		if t.byUUID == nil {
			t.byUUID = idx
		}
		idx = t.byUUID
	}
	b.fileIdx[f] = idx
	var issues []reader.Issue
	type dup struct {
		n       *Node
		oldLine int
	}
	var dups []dup
	nodes := make([]*Node, 0, total)
	var readErr error
	base := 0
	for _, p := range pieces {
		if p.openErr != nil {
			return p.openErr
		}
		for _, is := range p.issues {
			is.Line += base
			issues = append(issues, is)
		}
		for _, e := range p.dropped {
			e.Line += base
			f.Dropped = append(f.Dropped, e)
		}
		if f.Started.IsZero() {
			f.Started = p.started
		}
		if f.CWD == "" {
			f.CWD = p.cwd
		}
		for n := range p.nodes.all() {
			n.Line += base
			if old := idx.put(n); old != nil {
				dups = append(dups, dup{n, old.Line})
				f.Dropped = append(f.Dropped, old.Entry())
				old.UUID = "" // marks the loser; dropped below
			}
			nodes = append(nodes, n)
		}
		p.nodes = nodeList{} // in nodes now
		f.Done, f.DoneLines = p.done, base+p.doneLines
		base += p.lines
		if p.readErr != nil && f.Agent == nil {
			readErr = p.readErr // said below, after what was read
			break
		}
	}
	warns := make([]Warning, len(dups))
	for i, d := range dups {
		warns[i] = Warning{File: f.Name, Line: d.n.Line, Msg: sprintf("duplicate uuid %s (also line %d): the later line wins", short(d.n.UUID), d.oldLine)}
	}
	b.say(f, issues, warns)
	if f.Agent == nil && readErr == nil {
		b.notATranscript(f, pieces)
	}
	if readErr != nil {
		return readErr
	}
	if len(dups) > 0 {
		// Losers were added to Dropped when their winner came.
		sort.SliceStable(f.Dropped, func(i, j int) bool { return f.Dropped[i].Line < f.Dropped[j].Line })
		kept := nodes[:0]
		for _, n := range nodes {
			if n.UUID != "" {
				kept = append(kept, n)
			}
		}
		nodes = kept
	}
	t.Nodes = slices.Grow(t.Nodes, len(nodes))
	for _, n := range nodes {
		n.pos = int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, n)
		if f.Agent != nil {
			f.Agent.Nodes = append(f.Agent.Nodes, n)
		}
	}
	return nil
}

// claudeLine reports whether an entry is one Claude Code writes: it names
// its session or itself (sessionId, uuid), or is a summary or a file
// history snapshot or delta (which name neither).
func claudeLine(e *reader.Entry) bool {
	switch e.Type {
	case "summary", "file-history-snapshot", "file-history-delta":
		return true
	}
	return e.SessionID != "" || e.UUID != ""
}

// notATranscript finds it of a main file with lines, none of them Claude
// Code's (another program's JSONL, a text file): the view of it is empty,
// and that should not pass as a session with nothing in it.
func (b *builder) notATranscript(f *File, pieces []*piece) {
	// lines: the entries and the lines that are not JSON objects. A line
	// cut by a crash or too long to read may have been Claude Code's: then
	// nothing is said; nor of a last line still being written.
	lines, claude, first := 0, 0, ""
	for _, p := range pieces {
		lines, claude = lines+p.entries, claude+p.claude
		for _, is := range p.issues {
			switch is.Kind {
			case reader.Malformed, reader.NotObject:
				lines++
			case reader.CrashResidue, reader.TooLong:
				return
			}
		}
		if first == "" {
			first = p.firstType
		}
	}
	if lines == 0 || claude > 0 {
		return
	}
	what := "none of its %d line(s) is a Claude Code transcript entry (none names a sessionId or uuid)"
	switch first {
	case "session_meta", "response_item", "event_msg", "turn_context":
		what += "; it looks like a Codex CLI rollout, and cctx reads Claude Code's transcripts (~/.claude/projects)"
	}
	w := Warning{File: f.Name, Msg: sprintf(what, lines)}
	b.t.Warnings = append(b.t.Warnings, w)
	b.t.NotTranscript = w.String() // the error of a command that shows it (not also a warning)
}

// say reports a file's reader issues and warnings, merged in line order
// (an issue first on the same line), as reading the file line by line
// would have.
func (b *builder) say(f *File, issues []reader.Issue, warns []Warning) {
	i, j := 0, 0
	for i < len(issues) || j < len(warns) {
		if j == len(warns) || i < len(issues) && issues[i].Line <= warns[j].Line {
			b.rep.Line(issues[i])
			i++
			continue
		}
		b.warnAt(warns[j])
		j++
	}
}

type builder struct {
	t       *Tree
	rep     *diag.Reporter
	quiet   bool // warnings go to Tree.Warnings only (Options.Quiet)
	fileIdx map[*File]*uuidIndex
	calls   map[string]*Call // Agent/Task calls by tool_use id

	boundaries []*Node // compact boundaries of the main file, once needed
	cyclic     []bool  // by position: the node was in a cut parent cycle (or named itself)
	elsewhere  func(agentID string) string
	// also runs on another core while the links are made (OpenWith);
	// fallbackID names a session whose lines and file name do not.
	also       func(*Tree)
	fallbackID string
	alone      bool   // read from a stream: agent files cannot be looked for
	fileID     string // the session id the main file's name gives, if any
}

func newBuilder(rep *diag.Reporter) *builder {
	if rep == nil {
		rep = diag.Discard()
	}
	return &builder{
		t: &Tree{
			toolUse:  map[string]*Node{},
			results:  map[string][]*Node{},
			bySource: map[*Node][]*Node{},
		},
		rep:     rep,
		fileIdx: map[*File]*uuidIndex{},
	}
}

func (b *builder) warn(f *File, line int, format string, args ...any) {
	b.warnAt(Warning{File: f.Name, Line: line, Msg: sprintf(format, args...)})
}

// warnAt records a warning in Tree.Warnings and, unless quiet, says it.
func (b *builder) warnAt(w Warning) {
	b.t.Warnings = append(b.t.Warnings, w)
	if !b.quiet {
		b.rep.Warn("%s", w.String())
	}
}

func (b *builder) note(format string, args ...any) {
	if !b.quiet {
		b.rep.Note(format, args...)
	}
}

// readMeta reads agent-<id>.meta.json (2.1.x): the spawning tool_use id,
// the agent type and description. A sidecar that cannot be read is noted
// (cctx agents reports it), and links nothing.
func (b *builder) readMeta(a *Agent, path string) {
	m, err := reader.ReadAgentMeta(path)
	if err != nil {
		a.MetaErr = err
		b.note("%s: unreadable sidecar: %v", path, err)
		return
	}
	a.Meta = m
}

// finish links the nodes and computes everything the Tree offers.
func (b *builder) finish() *Tree {
	t := b.t
	t.kids = newKidStore(len(t.Nodes))
	for _, f := range t.Files {
		f.kids = &t.kids
	}
	// The indexes (tool calls and results, the lines of each response)
	// are made on the other core while the parents are linked: index reads
	// only what the lines say (never a parent, a child or the rare facts
	// the links set), and nothing before linkAgents reads the indexes.
	indexed := make(chan struct{})
	go func() {
		defer close(indexed)
		b.index()
	}()
	b.sessionID()
	alsoDone := make(chan struct{})
	if b.also != nil {
		go func() {
			defer close(alsoDone)
			b.also(t)
		}()
	} else {
		close(alsoDone)
	}
	b.link()
	b.relink()
	b.cutCycles()
	b.collectRoots()
	<-indexed
	b.linkAgents()
	t.kids.compact(t.Nodes) // the children are final
	b.markForks()
	b.selectLeaf()
	if t.Leaf != nil {
		t.active = t.PathTo(t.Leaf)
		for _, n := range t.active {
			n.Active = true
		}
	}
	b.findLeaves()
	<-alsoDone
	return t
}

// sessionID names the session: the id its file's name gives (a session
// file is <session-id>.jsonl), else the sessionId most of its main file's
// entries record. Not the first line's: a file continued after a plan's
// "clear context" starts with lines of the session before it.
//
// The main file's leading entries that record another session are marked
// Foreign: context carried over, never a branch or the active leaf.
func (b *builder) sessionID() {
	t := b.t
	count := map[string]int{}
	best, most := 0, ""
	for _, n := range t.Nodes {
		if n.Agent() != nil || n.SessionID() == "" {
			continue
		}
		count[n.SessionID()]++
		if c := count[n.SessionID()]; c > best {
			best, most = c, n.SessionID()
		}
	}
	t.SessionID = b.fileID
	if t.SessionID == "" {
		t.SessionID = most
	}
	if t.SessionID == "" {
		t.SessionID = b.fallbackID
	}
	// Leading lines of another session than the file's own (most of its
	// lines): a renamed or copied file records one id throughout, and
	// none of it is foreign.
	for _, n := range t.Nodes {
		if n.Agent() != nil || n.SessionID() == most {
			break
		}
		if n.SessionID() != "" {
			n.Foreign = true
		}
	}
}

// link resolves parentUuid within each file. A subagent line whose parent
// is in the main file (compaction agents) is not an island: it is recorded
// for agent linking.
func (b *builder) link() {
	t := b.t
	var file *File
	var idx *uuidIndex
	var last *Node
	for _, n := range t.Nodes {
		before := last
		last = n
		if n.ParentUUID == "" {
			continue
		}
		if n.File != file {
			file, idx = n.File, b.fileIdx[n.File]
		}
		var p *Node
		if before != nil && before.File == n.File && before.UUID == n.ParentUUID {
			// Most lines follow their parent: the line before in the same
			// file is the one the index holds for its uuid (the losers of
			// duplicate uuids are not in Nodes), and is found without a
			// lookup.
			p = before
		} else {
			p = idx.get(n.ParentUUID)
		}
		if p == nil || p == n {
			if p == n {
				b.warn(n.File, n.Line, "entry %s names itself as parent; link cut", n.Short())
				t.Cycles = append(t.Cycles, &Cycle{Node: n, Parent: n.ParentUUID, Members: 1})
				b.markCyclic(n)
			}
			continue
		}
		n.Parent = p
		b.addChild(p, n)
	}
	// prev is, at each main-file node, the latest node of the main
	// conversation before it in file order: where a lost line is bridged.
	var prev, first *Node
	for _, n := range t.Nodes {
		missing := n.ParentUUID != "" && n.Parent == nil && n.ParentUUID != n.UUID
		switch {
		case !missing:
		case n.Agent() != nil && t.byUUID.get(n.ParentUUID) != nil:
			// points into the main file: see linkAgents
		case n.Agent() == nil && first == nil:
			// The file's first entry continues a conversation recorded
			// elsewhere: a resumed or continued session. Its history
			// starts outside the file; nothing was lost here.
			t.Continues = n
			b.note("%s:%d: entry %s continues %s, which is not in the file: the session's history starts in another one", n.File.Name, n.Line, n.Short(), short(n.ParentUUID))
		case n.Agent() == nil && n.IsMainConversation() && prev != nil && !descends(prev, n):
			// A line Claude Code never wrote (an auto-compaction in the
			// middle of a tool turn loses the tool result): the entry goes
			// on from the one before it in the file.
			n.Parent, n.Bridged = prev, true
			b.addChild(prev, n)
			b.warn(n.File, n.Line, "entry %s names parent %s, which is not in the file (a line was lost): linked to %s, the entry before it", n.Short(), short(n.ParentUUID), prev.Short())
		default:
			t.Islands = append(t.Islands, &Island{Root: n, Missing: n.ParentUUID})
		}
		if n.LogicalParentUUID() != "" && n.Agent() == nil {
			lp := t.byUUID.get(n.LogicalParentUUID())
			if lp == nil && prev != nil {
				// The compaction names as the last entry before it a line
				// that was never written: the history goes on from the
				// latest entry before the boundary.
				lp, n.Bridged = prev, true
				b.warn(n.File, n.Line, "compaction boundary %s: logicalParentUuid %s is not in the file; the history before it is linked to %s, the entry before the boundary", n.Short(), short(n.LogicalParentUUID()), prev.Short())
			} else if lp == nil && first == nil {
				// The file starts at the boundary: a session resumed from
				// a compacted one, whose history is in that one's file, as
				// for a first entry whose parent is elsewhere.
				b.note("%s:%d: compaction boundary %s continues %s, which is not in the file: the session's history starts in another one", n.File.Name, n.Line, n.Short(), short(n.LogicalParentUUID()))
			} else if lp == nil {
				b.warn(n.File, n.Line, "compaction boundary %s: logicalParentUuid %s is not in the file; the history before it is unreachable", n.Short(), short(n.LogicalParentUUID()))
			}
			if lp != nil {
				n.mfx().logicalParent = lp
			}
		}
		if n.Agent() == nil {
			if first == nil {
				first = n
			}
			if n.IsMainConversation() {
				prev = n
			}
		}
	}
	implied := 0
	for _, is := range t.Islands {
		if t.MainDeleted != nil && is.Root.Agent() != nil {
			// The parent was in the main transcript Claude Code deleted
			// (a compaction agent's lines name the conversation's): said
			// by that one warning.
			implied++
			continue
		}
		b.warn(is.Root.File, is.Root.Line, "entry %s names parent %s, which is not in the file (island)", is.Root.Short(), short(is.Missing))
	}
	if implied > 0 {
		b.note("%d subagent line(s) name a parent in %s: shown as islands", implied, t.MainWas)
	}
}

// addChild appends n to p's children.
func (b *builder) addChild(p, n *Node) { b.t.kids.add(p, n) }

// descends reports whether n is below anc (or is anc): linking anc under
// n would close a cycle.
func descends(n, anc *Node) bool {
	seen := map[*Node]bool{}
	for cur := n; cur != nil && !seen[cur]; cur = cur.Parent {
		if cur == anc {
			return true
		}
		seen[cur] = true
	}
	return false
}

// reparent moves n under p, keeping children in file order.
func reparent(n, p *Node) {
	if n.Parent == p {
		return
	}
	if old := n.Parent; old != nil {
		old.setKids(removeNode(old.Children(), n))
	}
	n.setParent(p)
	n.Relinked = true
	if p == nil {
		return
	}
	l := p.Children()
	i := sort.Search(len(l), func(i int) bool { return l[i].pos > n.pos })
	p.setKids(slices.Insert(slices.Clip(l), i, n)) // clipped: a single child is the store's
}

func removeNode(s []*Node, n *Node) []*Node {
	for i, c := range s {
		if c == n {
			return append(s[:i], s[i+1:]...)
		}
	}
	return s
}

// relink applies partial-compaction metadata as the TS SDK does:
// preservedMessages {anchorUuid, uuids} (used only when every uuid is
// present) chains uuids[0] to the anchor and each next uuid to the one
// before, and moves the anchor's other children to the last uuid;
// preservedSegment {headUuid, anchorUuid, tailUuid} moves the head under
// the anchor and the anchor's other children under the tail.
func (b *builder) relink() {
	t := b.t
	for _, n := range t.Nodes {
		if n.Agent() != nil || !n.IsCompactBoundary() {
			continue
		}
		if pm := n.fx().preservedMessages; pm != nil && len(pm.UUIDs) > 0 {
			anchor := t.byUUID.get(pm.AnchorUUID)
			kept := make([]*Node, 0, len(pm.UUIDs))
			set := map[*Node]bool{}
			for _, u := range pm.UUIDs {
				k := t.byUUID.get(u)
				if k == nil || k == anchor || set[k] {
					kept = nil
					break
				}
				kept = append(kept, k)
				set[k] = true
			}
			if anchor != nil && kept != nil {
				reparent(kept[0], anchor)
				for i := 1; i < len(kept); i++ {
					reparent(kept[i], kept[i-1])
				}
				last := kept[len(kept)-1]
				for _, c := range append([]*Node(nil), anchor.Children()...) {
					if !set[c] {
						reparent(c, last)
					}
				}
				continue
			}
			b.warn(n.File, n.Line, "compaction boundary %s: preservedMessages names entries that are not in the file; not relinked", n.Short())
		}
		if ps := n.fx().preservedSegment; ps != nil {
			head, anchor, tail := t.byUUID.get(ps.HeadUUID), t.byUUID.get(ps.AnchorUUID), t.byUUID.get(ps.TailUUID)
			if head == nil || anchor == nil || tail == nil || head == anchor || tail == anchor {
				b.warn(n.File, n.Line, "compaction boundary %s: preservedSegment names entries that are not in the file; not relinked", n.Short())
				continue
			}
			reparent(head, anchor)
			for _, c := range append([]*Node(nil), anchor.Children()...) {
				if c != head {
					reparent(c, tail)
				}
			}
		}
	}
}

// cutCycles finds parent cycles with an iterative colouring walk and cuts
// each at its earliest line.
func (b *builder) cutCycles() {
	t := b.t
	const (
		unseen = iota
		onWalk
		done
	)
	state := make([]uint8, len(t.Nodes))
	var walk []*Node
	for _, start := range t.Nodes {
		if state[start.pos] != unseen {
			continue
		}
		walk = walk[:0]
		cur := start
		for cur != nil && state[cur.pos] == unseen {
			state[cur.pos] = onWalk
			walk = append(walk, cur)
			cur = cur.Parent
		}
		if cur != nil && state[cur.pos] == onWalk {
			// cur is on the current walk: the cycle is walk[i:] from cur.
			i := len(walk) - 1
			for walk[i] != cur {
				i--
			}
			cycle := walk[i:]
			cut := cycle[0]
			for _, c := range cycle {
				if c.pos < cut.pos {
					cut = c
				}
				b.markCyclic(c)
			}
			b.warn(cut.File, cut.Line, "parentUuid cycle of %d entries; the link from %s to %s is cut", len(cycle), cut.Short(), short(cut.ParentUUID))
			t.Cycles = append(t.Cycles, &Cycle{Node: cut, Parent: cut.ParentUUID, Members: len(cycle)})
			cut.Parent.setKids(removeNode(cut.Parent.Children(), cut))
			cut.setParent(nil)
		}
		for _, w := range walk {
			state[w.pos] = done
		}
	}
}

func (b *builder) markCyclic(n *Node) {
	if b.cyclic == nil {
		b.cyclic = make([]bool, len(b.t.Nodes))
	}
	b.cyclic[n.pos] = true
}

// isCyclic reports whether n was in a cut parent cycle or named itself.
func (b *builder) isCyclic(n *Node) bool { return b.cyclic != nil && b.cyclic[n.pos] }

// collectRoots lists the main conversation's roots and sizes the islands.
func (b *builder) collectRoots() {
	t := b.t
	for _, n := range t.Nodes {
		if n.Agent() == nil && !n.Sidechain && n.Parent == nil {
			t.Roots = append(t.Roots, n)
		}
	}
	for _, is := range t.Islands {
		is.Size = subtreeSize(is.Root)
	}
}

// subtreeSize counts a node and its descendants, iteratively.
func subtreeSize(n *Node) int {
	size := 0
	stack := []*Node{n}
	seen := map[*Node]bool{}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		size++
		stack = append(stack, c.Children()...)
	}
	return size
}

// index builds the lookups the repair and the agent linking use.
func (b *builder) index() {
	t := b.t
	// The maps sized once, from a count: growing them step by step cost
	// more than filling them on a large session.
	uses, results, msgs := 0, 0, 0
	for _, n := range t.Nodes {
		uses += len(n.ToolUses())
		results += len(n.ToolResults())
		if n.Type == "assistant" {
			msgs++
		}
	}
	if len(t.toolUse) == 0 && len(t.results) == 0 {
		t.toolUse = make(map[string]*Node, uses)
		t.results = make(map[string][]*Node, results)
	}
	for _, n := range t.Nodes {
		for _, tu := range n.ToolUses() {
			if tu.ID != "" {
				if _, ok := t.toolUse[tu.ID]; !ok {
					t.toolUse[tu.ID] = n
				}
			}
		}
		for _, id := range n.ToolResults() {
			if id != "" {
				t.results[id] = append(t.results[id], n)
			}
		}
	}
	// The lines of each response, linked through msgNext: walked from the
	// last line back, each line goes in front of its response's list, so
	// the table ends with the first line and the list in file order.
	t.msgs = newMsgIndex(msgs)
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		if n.Type != "assistant" || n.MessageID == "" {
			continue
		}
		j, tag := t.msgs.slot(n)
		if h := t.msgs.slots[j]; h != nil {
			n.msgNext = int32(h.pos) + 1
		}
		t.msgs.slots[j], t.msgs.tags[j] = n, tag
	}
	for _, n := range t.Nodes {
		if n.SourceTool() == "" {
			continue
		}
		if a := b.fileIdx[n.File].get(n.SourceTool()); a != nil {
			t.bySource[a] = append(t.bySource[a], n)
		}
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// nodeList is a piece's nodes in order, in chunks: a list grown by
// appends allocated five times its final size on a piece of a million
// lines (Go grows a large slice by a quarter), garbage that raised the
// peak of reading a long session (issue 23.3).
type nodeList struct {
	chunks [][]*Node
	n      int
}

func (l *nodeList) add(n *Node) {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == cap(l.chunks[k-1]) {
		size := 8 << min(k, 10) // 8, 16, … 8,192: a small file wastes little
		l.chunks = append(l.chunks, make([]*Node, 0, size))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, n)
	l.n++
}

// all yields the nodes in order.
func (l *nodeList) all() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for _, c := range l.chunks {
			for _, n := range c {
				if !yield(n) {
					return
				}
			}
		}
	}
}
