package session

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// liteBytes is how much of each end of a file a listing reads, as the SDKs
// do: enough for the first prompt and the latest title entries, cheap on
// thousands of sessions.
const liteBytes = 64 << 10

// firstPromptScanLimit bounds the extra read used when the head holds no
// prompt because its first user line is huge (a pasted screenshot), or its
// start or cwd lie in a line longer than the head (scanHead).
const firstPromptScanLimit = 32 << 20

// startScanLimit bounds how far past the head a timestamp or cwd is looked
// for: real transcripts record both on every conversation line, so a file
// that goes on without them (metadata only, or written by another tool)
// is not read whole by a listing. A line that starts within the bound is
// read whole, however long (up to firstPromptScanLimit).
const startScanLimit = 4 << 20

// Info is what a listing shows of a session, from a head-and-tail read.
type Info struct {
	*Session
	Project     string    // the first cwd in the file, in line order; "" if none
	Title       string    // see TitleSource
	TitleSource string    // custom-title, ai-title, last-prompt, summary, first-prompt, or none
	FirstPrompt string    // the first real user prompt, if found (see ListOptions.NoFirstPrompt)
	GitBranch   string    // latest recorded branch
	StartedAt   time.Time // the first timestamp in the file, in line order; zero if none
	UpdatedAt   time.Time // last timestamp in the tail, else the file's mtime
	Version     string    // Claude Code version of the latest entries
	Sidechain   bool      // the file starts with a sidechain entry: not a real session
	Empty       bool      // no user or assistant entry: a metadata-only file
	Subagents   int       // subagent transcripts on disk (set by List)
	Live        *Live     // the running process's record, if any (set by List)

	// Where Title and FirstPrompt were read: what the ls cache keeps
	// instead of their text (liteCache).
	titleAt, promptAt lineRef
	media             string // FirstPrompt is this label ([Image]) of no line
	// The inline sidechains of a 1.0.x session (Subagents), once counted.
	inline      int
	inlineKnown bool
	cached      bool // the row is in the cache, inline count and all
	textLater   bool // Title and FirstPrompt are still to be read (Finder.finishRow)
	noPrompt    bool // FirstPrompt is not to be read (ListOptions.NoFirstPrompt)
	finished    bool // Subagents counted (Finder.finish)
}

// lineRef is where a line lies in its file (n 0: nowhere).
type lineRef struct{ off, n int64 }

// Lite reads the head and tail of a session file and fills an Info.
func Lite(s *Session) (*Info, error) {
	if s.Orphan {
		return liteOrphan(s)
	}
	return liteFile(s, nil)
}

// liteScratch is what liteFile reads and parses into: two fresh 64 KiB
// buffers a file, zeroed and then collected, were a third of what a cold
// listing spent, and a parsed line is some 600 bytes.
type liteScratch struct {
	bufs      [2][liteBytes]byte
	lines     [][]byte
	headLines []parsedLine
	end       []byte // lineEnd.entry's
}

var liteScratches = sync.Pool{New: func() any { return new(liteScratch) }}

// liteFile is Lite of a main transcript, read through fh when the caller
// has it open (nil: opened here).
func liteFile(s *Session, fh *rawfile.File) (*Info, error) {
	sc := liteScratches.Get().(*liteScratch)
	defer liteScratches.Put(sc)
	head, tail, at, err := readHeadTailInto(s.Path, fh, &sc.bufs)
	if err != nil {
		return nil, err
	}
	if reader.IsUTF16(head) { // said, not hidden as a file without conversation
		return nil, &fs.PathError{Op: "read", Path: s.Path, Err: reader.ErrUTF16}
	}
	in := &Info{Session: s, TitleSource: "none"}
	whole := tail == nil
	// Each line is parsed once; a file no longer than the head is its own
	// tail. Of a longer file's tail, only the lines that may change the
	// row are parsed (tailRow.addLines); of its head, only the lines up
	// to the last first thing the row takes from it, and then the lines
	// that may hold a title (headLines).
	var headLines []parsedLine
	var tr tailRow
	if whole {
		sc.lines = appendLines(sc.lines[:0], head, true, true)
		headLines = appendParsed(sc.headLines[:0], sc.lines, head, at[0])
		for i := range headLines {
			tr.add(&headLines[len(headLines)-1-i])
		}
	} else {
		sc.lines = appendLines(sc.lines[:0], tail, false, true)
		tr.addLines(sc.lines, tail, at[1], &sc.end)
		sc.lines = appendLines(sc.lines[:0], head, true, false)
		if headLines = parseHead(sc.headLines[:0], sc.lines, head, at[0], &tr, &sc.end); parseWholeHead {
			headLines = appendParsed(sc.headLines[:0], sc.lines, head, at[0])
		}
	}
	sc.headLines = headLines

	var customHead, aiHead string
	var customHeadAt, aiHeadAt lineRef
	conversation := false
	firstConv := true
	for _, pl := range headLines {
		e, line := &pl.e, pl.raw
		if in.StartedAt.IsZero() && !e.Timestamp.IsZero() {
			in.StartedAt = e.Timestamp
		}
		if in.Project == "" && e.CWD != "" {
			in.Project = e.CWD
		}
		if in.GitBranch == "" && e.GitBranch != "" {
			in.GitBranch = e.GitBranch
		}
		if e.IsConversation() {
			conversation = true
			if firstConv {
				in.Sidechain = e.Sidechain
				firstConv = false
			}
		}
		switch e.Type {
		case "custom-title":
			if t := reader.StringField(line, "customTitle"); t != "" {
				customHead, customHeadAt = t, pl.at
			}
		case "ai-title":
			if t := reader.StringField(line, "aiTitle"); t != "" {
				aiHead, aiHeadAt = t, pl.at
			}
		}
	}
	first, typed, from := firstPromptAt(headLines)
	in.FirstPrompt = first
	if from >= 0 {
		in.promptAt = headLines[from].at
	} else {
		in.media = first
	}
	// What the head lacks may lie past it: the first user line was longer
	// than the head (a pasted screenshot; 2.1.x writes timestamp and cwd
	// after the message), lines without a time or a cwd fill it, or it
	// holds only local commands and bash input (/login, ! cmd) before the
	// first prompt a person typed, which is the title when there is one.
	// The file is then read on from its start for what is missing, so
	// that the start and project are those of the first line that has
	// them, as show finds them reading the whole file.
	wantPrompt := !typed
	if !whole && (wantPrompt || in.StartedAt.IsZero() || in.Project == "") {
		// For the prompt alone, the scan starts past the head's whole
		// lines, all of them read already and none a typed prompt (unless
		// the head has a NUL, which the reader may split a line at, or a
		// line past it starts with a byte order mark, which a reader
		// starting there would drop).
		from := int64(0)
		if k := bytes.LastIndexByte(head, '\n'); k >= 0 && !in.StartedAt.IsZero() && in.Project != "" &&
			bytes.IndexByte(head, 0) < 0 && (k+1 == len(head) || head[k+1] != 0xEF) {
			from = at[0] + int64(k+1)
		}
		prompt, promptAt, first, cwd := scanHead(s.Path, int64(len(head)), from, wantPrompt, in.StartedAt.IsZero(), in.Project == "")
		if wantPrompt && prompt != "" {
			in.FirstPrompt, in.promptAt, in.media = prompt, promptAt, ""
		}
		if in.StartedAt.IsZero() {
			in.StartedAt = first
		}
		if in.Project == "" {
			in.Project = cwd
		}
	}

	conversation = conversation || tr.conversation
	if tr.branch != "" {
		in.GitBranch = tr.branch
	}
	in.Version = tr.version
	lastTime := tr.lastTime
	custom, customAt, ai, aiAt := tr.custom, tr.customAt, tr.ai, tr.aiAt
	lastPrompt, lastPromptAt, summary, summaryAt := tr.lastPrompt, tr.lastPromptAt, tr.summary, tr.summaryAt
	if custom == "" {
		custom, customAt = customHead, customHeadAt
	}
	if ai == "" {
		ai, aiAt = aiHead, aiHeadAt
	}
	in.Empty = !conversation
	for _, c := range []struct {
		src, title string
		at         lineRef
	}{
		{"custom-title", custom, customAt}, {"ai-title", ai, aiAt}, {"last-prompt", lastPrompt, lastPromptAt},
		{"summary", summary, summaryAt}, {"first-prompt", in.FirstPrompt, in.promptAt},
	} {
		if t := reader.OneLine(c.title); t != "" {
			in.Title, in.TitleSource, in.titleAt = t, c.src, c.at
			break
		}
	}
	in.UpdatedAt = lastTime
	if in.UpdatedAt.IsZero() {
		in.UpdatedAt = s.ModTime
	}
	// A file with no timestamp has no start: its mtime says when it was
	// last written, not when a session began.
	return in, nil
}

// Start is a session's start time and project as Lite gives them
// (Info.StartedAt, Info.Project), reading as little as it can: the head's
// lines up to the first with a timestamp and the first with a cwd. Only
// when the head lacks one of them does it fall back to Lite, which reads
// on. A token count orders thousands of sessions by their start, and
// needs nothing else.
func Start(s *Session) (time.Time, string, error) {
	if s.Orphan {
		in, err := liteOrphan(s)
		if err != nil {
			return time.Time{}, "", err
		}
		return in.StartedAt, in.Project, nil
	}
	f, err := reader.OpenFile(s.Path)
	if err != nil {
		return time.Time{}, "", err
	}
	size, err := f.Size()
	if err != nil {
		f.Close()
		return time.Time{}, "", err
	}
	// The first lines almost always say both: a small read first (the
	// head of 64 KiB, made for each of thousands of sessions, was a
	// twentieth of a cold tokens run), the whole head when they do not.
	bp := startBufs.Get().(*[startFirstRead]byte)
	defer startBufs.Put(bp)
	for _, n := range [...]int64{startFirstRead, liteBytes} {
		var head []byte
		if n == startFirstRead {
			head = bp[:min(n, size)]
		} else if size > startFirstRead {
			head = make([]byte, min(n, size))
		} else {
			break // the small read was the whole file
		}
		_, err = f.ReadAt(head, 0)
		if err != nil && err != io.EOF {
			f.Close()
			return time.Time{}, "", err
		}
		if started, project, ok := startIn(head, size <= n); ok {
			f.Close()
			return started, project, nil
		}
	}
	f.Close()
	in, err := Lite(s)
	if err != nil {
		return time.Time{}, "", err
	}
	return in.StartedAt, in.Project, nil
}

// startFirstRead is what Start reads first.
const startFirstRead = 8 << 10

var startBufs = sync.Pool{New: func() any { return new([startFirstRead]byte) }}

// startIn is the first timestamp and the first cwd of the whole lines of
// a file's head (atEnd: the head is the whole file), ok when both are
// there.
func startIn(head []byte, atEnd bool) (started time.Time, project string, ok bool) {
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	if !atEnd {
		i := bytes.LastIndexByte(head, '\n')
		if i < 0 {
			return started, project, false
		}
		head = head[:i]
	}
	for len(head) > 0 {
		l := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			l, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		if l = bytes.TrimSpace(l); len(l) == 0 {
			continue // as completeLines: CRLF, blank lines
		}
		e, ok := reader.ParseLine(l)
		if !ok {
			continue
		}
		if started.IsZero() {
			started = e.Timestamp
		}
		if project == "" {
			project = e.CWD
		}
		if !started.IsZero() && project != "" {
			return started, project, true
		}
	}
	return started, project, false
}

// scanHead streams the start of a file whose head (its first head bytes)
// did not hold its first typed prompt (wantPrompt), timestamp (wantTime)
// or cwd (wantCWD), from offset from (0, or the end of the head's whole
// lines when they were all read for what is wanted). It stops when it has
// found what was wanted, or after firstPromptScanLimit bytes; a time or cwd is looked for only in lines
// that start less than startScanLimit past the head, whatever their
// length (a first line of 5 MiB, a big hook output, is read whole).
//
// Its reader is a pooled one (reader.OpenRange): a fresh reader's 1 MiB
// buffer, allocated and zeroed for each such file, was half of what a cold
// listing allocated and most of its collections. Its offsets are the
// file's; a byte order mark at from would be kept, and from is past the
// head only when none starts there.
func scanHead(path string, head, from int64, wantPrompt, wantTime, wantCWD bool) (prompt string, promptAt lineRef, first time.Time, cwd string) {
	r, c, err := reader.OpenRange(path, from, firstPromptScanLimit, reader.Options{KeepRaw: wantPrompt, EnvelopeOnly: !wantPrompt})
	if err != nil {
		return "", promptAt, first, ""
	}
	defer c.Close()
	for (wantPrompt && prompt == "") || (wantTime && first.IsZero()) || (wantCWD && cwd == "") {
		e, ok := r.Next()
		if !ok {
			break
		}
		if e.Offset > head+startScanLimit {
			wantTime, wantCWD = false, false
		}
		if wantTime && first.IsZero() {
			first = e.Timestamp
		}
		if wantCWD && cwd == "" {
			cwd = e.CWD
		}
		if wantPrompt && prompt == "" && e.IsUser() {
			// Only a prompt a person typed: a local command or bash input
			// before it was the head's fallback already.
			if label, typed := firstPromptTyped([]parsedLine{{e: e, raw: e.Raw}}); typed {
				prompt, promptAt = label, lineRef{e.Offset, int64(e.Size)}
			}
		}
	}
	return prompt, promptAt, first, cwd
}

// parseWholeHead makes Lite parse every line of a head: what tests compare
// parseHead with.
var parseWholeHead = false

// parseHead parses the lines of a head (cut from buf, read at offset at)
// that Lite takes something from, given what the tail gave: in order, up
// to the line that completes what the row takes from the first lines
// (start, cwd, branch unless the tail has one, the first conversation
// line, the first typed prompt), then those of the others that may be a
// title line (custom-title, ai-title) the tail lacks. Lite finds in them
// all it would find in every line of the head.
func parseHead(out []parsedLine, lines [][]byte, buf []byte, at int64, tail *tailRow, scratch *[]byte) []parsedLine {
	// The first typed prompt is a conversation line: the first of those
	// is parsed when it is.
	started, cwd, branch, typed := false, false, tail.branch != "", false
	conversation := false
	i := 0
	for ; i < len(lines) && !(started && cwd && branch && typed); i++ {
		// Once the start and cwd are known, a line whose end says it
		// is none of those the row takes more from (a prompt, the first
		// conversation line, a title, a branch) is not parsed.
		if started && cwd && len(lines[i]) >= skimLine && !noSkim && !firstLinesNeed(lines[i], branch, conversation, scratch) {
			continue
		}
		pl, ok := parseLineAt(lines[i], buf, at)
		if !ok {
			continue
		}
		out = append(out, pl)
		e := &pl.e
		started = started || !e.Timestamp.IsZero()
		cwd = cwd || e.CWD != ""
		branch = branch || e.GitBranch != ""
		typed = typed || promptLine(e) && e.IsTypedPrompt()
		conversation = conversation || e.IsConversation()
	}
	// The head's title lines can change the title only when the tail's
	// come to nothing: no custom title there (a head's would be taken),
	// or one that is nothing once on one line and no AI title there (a
	// head's AI title would be taken). A custom title cleared in the
	// tail ("") is none.
	if tail.custom != "" && (tail.ai != "" || reader.OneLine(tail.custom) != "") {
		return out
	}
	for _, l := range lines[i:] {
		// A line whose end says its type is no title's is none (when it
		// is well-formed; else no line at all).
		if len(l) >= skimTitleLine && !noSkim && !mayBeTitle(l, scratch) {
			continue
		}
		// A type that is a title's is written "…-title" or with a \u
		// escape (no other escape gives a letter or "-").
		if !bytes.Contains(l, []byte(`-title"`)) && !bytes.Contains(l, []byte(`\u`)) {
			continue
		}
		if pl, ok := parseLineAt(l, buf, at); ok && (pl.e.Type == "custom-title" || pl.e.Type == "ai-title") {
			out = append(out, pl)
		}
	}
	return out
}

// firstLinesNeed reports whether a line of a head's first lines, past
// those that gave its start and cwd, may give the row something, from
// what its end says (true when it does not say): a user line may be its
// first prompt, an assistant line its first conversation line (unless
// one was found), a title line its title, and a line with a branch its
// branch (unless one was found).
func firstLinesNeed(l []byte, branch, conversation bool, scratch *[]byte) bool {
	want := endType
	if !branch {
		want |= endBranch
	}
	f, ok := readLineEnd(l, want)
	if !ok || !f.known(want) {
		return true
	}
	typ, plain := plainString(f.typ)
	if !plain || !branch && !emptyString(f.branch) {
		e, ok := f.entry(scratch)
		if !ok || !branch && e.GitBranch != "" {
			return true
		}
		typ = []byte(e.Type)
	}
	switch string(typ) {
	case "user", "custom-title", "ai-title":
		return true
	case "assistant":
		return !conversation
	case "attachment": // a queued input's is a user message, maybe a prompt (reader.Entry.Queued)
		return reader.MayBeQueued(l)
	}
	return false
}

// skimTitleLine is the size from which a line of a head past its first
// lines is first read from its end before it is looked into for a title
// type: reading a shorter line's end cost more than the search it spared.
const skimTitleLine = 2 << 10

// mayBeTitle reports whether a line of a head may be a custom-title or
// ai-title line, from what its end says of its type (true when it does
// not say).
func mayBeTitle(l []byte, scratch *[]byte) bool {
	f, ok := readLineEnd(l, endType)
	if !ok || !f.known(endType) {
		return true
	}
	e, ok := f.entry(scratch)
	return !ok || e.Type == "custom-title" || e.Type == "ai-title"
}

// parsedLine is a line of a head or tail read with its envelope.
type parsedLine struct {
	e   reader.Entry
	raw []byte
	at  lineRef
}

// parseLines parses the lines that are well-formed objects; the others
// (cut at a read edge, or broken) are left out.
func parseLines(lines [][]byte) []parsedLine { return parseLinesAt(lines, nil, 0) }

// parseLinesAt is parseLines of lines cut from buf (completeLines), which
// was read at offset at of its file: each line says where it lies.
func parseLinesAt(lines [][]byte, buf []byte, at int64) []parsedLine {
	return appendParsed(make([]parsedLine, 0, len(lines)), lines, buf, at)
}

// appendParsed is parseLinesAt appending to out.
func appendParsed(out []parsedLine, lines [][]byte, buf []byte, at int64) []parsedLine {
	for _, l := range lines {
		if pl, ok := parseLineAt(l, buf, at); ok {
			out = append(out, pl)
		}
	}
	return out
}

// parseLineAt parses one line of parseLinesAt.
func parseLineAt(l, buf []byte, at int64) (parsedLine, bool) {
	e, ok := reader.ParseLine(l)
	if !ok {
		return parsedLine{}, false
	}
	pl := parsedLine{e: e, raw: l}
	if buf != nil {
		pl.at = lineRef{at + int64(cap(buf)-cap(l)), int64(len(l))}
	}
	return pl, true
}

// readHeadTail reads the first and last n bytes of a file. When the file is
// no longer than n, tail is nil and head is the whole file.
// A compressed file (.jsonl.zst) is read as the text it holds.
func readHeadTail(path string, n int) (head, tail []byte, err error) {
	head, tail, _, err = readHeadTailAt(path, n)
	return head, tail, err
}

// readHeadTailAt is readHeadTail that also says at which offset of the
// text head and tail begin (past a byte order mark).
func readHeadTailAt(path string, n int) (head, tail []byte, at [2]int64, err error) {
	f, err := reader.OpenFile(path)
	if err != nil {
		return nil, nil, at, err
	}
	defer f.Close()
	size, err := f.Size()
	if err != nil {
		return nil, nil, at, err
	}
	head = make([]byte, min(int64(n), size))
	if _, err := f.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, nil, at, err
	}
	if h, ok := bytes.CutPrefix(head, []byte{0xEF, 0xBB, 0xBF}); ok {
		head, at[0] = h, 3
	}
	if size <= int64(n) {
		return head, nil, at, nil
	}
	tail = make([]byte, n)
	if _, err := f.ReadAt(tail, size-int64(n)); err != nil && err != io.EOF {
		return nil, nil, at, err
	}
	at[1] = size - int64(n)
	return head, tail, at, nil
}

// readHeadTailInto is readHeadTailAt (n liteBytes) into bufs, through fh
// when it is not nil. A file that is not a plain regular one (compressed,
// or no regular file) is read as readHeadTailAt reads it, which says why
// it cannot be.
func readHeadTailInto(path string, fh *rawfile.File, bufs *[2][liteBytes]byte) (head, tail []byte, at [2]int64, err error) {
	if fh == nil {
		if fh, err = rawfile.Open(path); err != nil {
			return nil, nil, at, err // os.Open's error, as reader.OpenFile's
		}
		defer fh.Close()
	}
	st, err := fh.Stat()
	if err != nil || !st.Regular {
		return readHeadTailAt(path, liteBytes)
	}
	readAt := func(b []byte, off int64) error {
		n, err := fh.ReadAt(b, off)
		if err == io.EOF {
			clear(b[n:]) // shorter than it was: as a fresh buffer reads
			err = nil
		}
		return err
	}
	head = bufs[0][:min(liteBytes, st.Size)]
	if err := readAt(head, 0); err != nil {
		return nil, nil, at, err
	}
	if len(head) > 0 && !textStart(head[0]) { // compressed, or not JSONL at all
		return readHeadTailAt(path, liteBytes)
	}
	if h, ok := bytes.CutPrefix(head, []byte{0xEF, 0xBB, 0xBF}); ok {
		head, at[0] = h, 3
	}
	if st.Size <= liteBytes {
		return head, nil, at, nil
	}
	tail = bufs[1][:]
	if err := readAt(tail, st.Size-liteBytes); err != nil {
		return nil, nil, at, err
	}
	at[1] = st.Size - liteBytes
	return head, tail, at, nil
}

// textStart reports whether a file starting with byte c may be a plain
// JSONL file ('{', white space, or a byte order mark): a compressed one
// never starts so.
func textStart(c byte) bool {
	return c == '{' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF
}

// liteOrphan is Lite for a session whose main transcript is gone: what its
// subagent transcripts record. Its project, branch and start are those of
// the subagent that started first (its lines record the session's cwd);
// its last activity is the latest of theirs. It has no title.
func liteOrphan(s *Session) (*Info, error) {
	in := &Info{Session: s, TitleSource: "none"}
	paths := orphanAgentPaths(s)
	talks := false // a conversation in its agents' heads: none, and it is a file without conversation (ls --empty)
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no transcript left (main transcript deleted, no subagent transcript)", s.Folder())
	}
	var lastTime time.Time
	var firstErr error
	read := 0
	for _, p := range paths {
		head, tail, err := readHeadTail(p, liteBytes)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		read++
		var started time.Time
		var cwd, branch string
		heads := parseLines(completeLines(head, true, tail == nil))
		talks = talks || conversationIn(heads)
		for _, pl := range heads {
			if started.IsZero() {
				started = pl.e.Timestamp
			}
			if cwd == "" {
				cwd = pl.e.CWD
			}
			if branch == "" {
				branch = pl.e.GitBranch
			}
		}
		if !started.IsZero() && (in.StartedAt.IsZero() || started.Before(in.StartedAt)) {
			in.StartedAt = started
			in.Project, in.GitBranch = cwd, branch
		} else if in.Project == "" && in.StartedAt.IsZero() {
			in.Project, in.GitBranch = cwd, branch
		}
		lines := completeLines(head, true, true)
		if tail != nil {
			lines = completeLines(tail, false, true)
		}
		for _, pl := range parseLines(lines) {
			if pl.e.Timestamp.After(lastTime) {
				lastTime = pl.e.Timestamp
				if pl.e.Version != "" {
					in.Version = pl.e.Version
				}
			}
		}
	}
	if read == 0 {
		return nil, firstErr
	}
	in.Empty = !talks
	in.Project = outsideWorktree(in.Project)
	in.UpdatedAt = lastTime
	if in.UpdatedAt.IsZero() {
		in.UpdatedAt = s.ModTime
	}
	return in, nil
}

// agentTalks reports whether the head of an agent transcript holds a
// conversation (conversationIn); true when it cannot be read, for the
// read that follows to say why.
func agentTalks(path string) bool {
	head, tail, err := readHeadTail(path, liteBytes)
	return err != nil || conversationIn(parseLines(completeLines(head, true, tail == nil)))
}

// conversationIn reports whether the head of an agent transcript holds a
// conversation: a user or assistant line, unless the agent's first prompt
// (its first user line that is not a tool result, as tree and agents read
// it) is the warm-up Claude Code 2.0.x runs at start (reader.IsWarmup),
// which no person asked for.
func conversationIn(heads []parsedLine) bool {
	talks := false
	for i := range heads {
		e := &heads[i].e
		if !e.IsConversation() {
			continue
		}
		talks = true
		if e.Type == "user" && e.Content&reader.HasToolResult == 0 {
			prompt, _ := reader.PromptOf(reader.Texts(heads[i].raw))
			return !reader.IsWarmup(prompt)
		}
	}
	return talks
}

// orphanAgentPaths lists the agent transcripts in an orphan session's
// subagents/ folder (links not followed), sorted, after its flat ones.
func orphanAgentPaths(s *Session) []string {
	out := slices.Clone(s.flat)
	sub := filepath.Join(s.Folder(), "subagents")
	filepath.WalkDir(sub, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && isAgentName(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// outsideWorktree is the project a subagent's cwd is of: an agent started
// with isolation "worktree" runs in <project>/.claude/worktrees/<name>,
// which is not the session's project.
func outsideWorktree(cwd string) string {
	for _, sep := range []string{"/", `\`} {
		marker := sep + ".claude" + sep + "worktrees" + sep
		if i := strings.LastIndex(cwd, marker); i > 0 && len(cwd) > i+len(marker) {
			return cwd[:i] // a folder inside the worktree too
		}
	}
	return cwd
}
