package search

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"iter"
	"math"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Run searches the targets and yields, in their order, each session that
// has a hit. Files are searched in parallel; a few sessions are searched
// ahead of the one being yielded, no more, so memory stays bounded.
// Stopping the iteration stops the search.
func Run(finder *session.Finder, targets []Target, o Options) iter.Seq[*Result] {
	return func(yield func(*Result) bool) {
		if o.Report == nil {
			o.Report = diag.Discard()
		}
		workers := o.Workers
		if workers <= 0 {
			workers = runtime.GOMAXPROCS(0)
		}
		e := &engine{finder: finder, o: o}
		tasks := make(chan *fileTask)
		jobs := make(chan *job, 8*workers)
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w := e.newWorker()
				for t := range tasks {
					w.do(t)
				}
			}()
		}
		go func() {
			defer close(jobs)
			// Each session's files are listed ahead, a few at a time
			// (walking subagent folders is mostly waiting), and handed
			// over in order.
			listed := make(chan *job, 4*workers)
			go func() {
				defer close(listed)
				sem := make(chan struct{}, 2*workers)
				for _, t := range targets {
					if e.stop.Load() {
						return
					}
					j := &job{Target: t, done: make(chan struct{}), listed: make(chan struct{})}
					sem <- struct{}{}
					go func() {
						defer func() { <-sem; close(j.listed) }()
						j.files = e.files(t.Session)
					}()
					listed <- j
				}
			}()
			for j := range listed {
				<-j.listed
				j.left.Store(int32(len(j.files)))
				jobs <- j
				if len(j.files) == 0 || e.stop.Load() {
					e.finishEmpty(j)
					continue
				}
				for i := range j.files {
					tasks <- &fileTask{job: j, file: &j.files[i]}
				}
			}
		}()
		for j := range jobs {
			<-j.done
			if e.stop.Load() || j.result == nil {
				continue
			}
			if !yield(j.result) {
				e.stop.Store(true)
			}
		}
		close(tasks)
		wg.Wait()
		if o.Stats != nil {
			*o.Stats = e.stats.get()
		}
	}
}

type engine struct {
	finder *session.Finder
	o      Options
	stop   atomic.Bool
	stats  stats
}

type stats struct {
	mu sync.Mutex
	s  Stats
}

func (s *stats) add(d Stats) {
	s.mu.Lock()
	s.s.Sessions += d.Sessions
	s.s.Files += d.Files
	s.s.Bytes += d.Bytes
	s.s.Lines += d.Lines
	s.mu.Unlock()
}

func (s *stats) get() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.s
}

// job is one session being searched.
type job struct {
	Target
	files  []file
	left   atomic.Int32  // files not yet searched
	found  atomic.Bool   // a hit was found (Sessions mode: the other files stop)
	listed chan struct{} // closed once files is set
	done   chan struct{}
	result *Result // nil: no hit
	// A transcript read from standard input is named as tokens names it:
	// by the first sessionId and cwd of its lines.
	stdinID, stdinCWD string
}

// file is one transcript of a session: its main file or a subagent's.
type file struct {
	path    string
	agentID string // "" for the main file
	agent   session.Agent
	main    bool
	hits    []*Hit
	count   int
}

type fileTask struct {
	job  *job
	file *file
}

// files lists what a session's search reads: its main file, then each
// subagent transcript. A session whose main file is gone is searched in
// the transcripts that remain.
func (e *engine) files(s *session.Session) []file {
	out := []file{{path: s.Path, main: true}}
	if s.Path == session.StdinPath {
		return out
	}
	if _, err := os.Stat(s.Path); s.Path == "" || errors.Is(err, fs.ErrNotExist) {
		e.o.Report.Note("session %s: no main transcript; searching its subagents' only", s.ID)
		out = nil
	}
	// One transcript per agent, as the conversation reads them: a second
	// file of an agent (both layouts, a copied folder) holds the same
	// lines. The subagents/ layout, the newer, is read.
	pick := map[string]session.Agent{}
	var ids []string
	for _, a := range e.finder.Agents(s) {
		if old, dup := pick[a.ID]; dup {
			if old.Flat && !a.Flat {
				pick[a.ID] = a
			}
			continue
		}
		pick[a.ID] = a
		ids = append(ids, a.ID)
	}
	for _, id := range ids {
		out = append(out, file{path: pick[id].Path, agentID: id, agent: pick[id]})
	}
	return out
}

// worker searches files, one at a time, with buffers of its own.
type worker struct {
	e    *engine
	pre  *prefilter // nil: every line is searched
	scan *scanner   // nil: files are not scanned first
	dec  reader.TextDecoder
}

func (e *engine) newWorker() *worker {
	w := &worker{e: e}
	if p := e.o.Pattern.pre; p != nil && !e.o.Every {
		w.pre, w.scan = p, newScanner(p, windowBytes)
		w.scan.giveUp = true
		// A string of a candidate line is decoded only if it is a
		// candidate itself.
		w.dec.Filter = p.candidate
	}
	return w
}

func (w *worker) do(t *fileTask) {
	if !w.e.stop.Load() && !(w.e.o.Mode == Sessions && t.job.found.Load()) {
		w.search(t.job, t.file)
		w.dec.Release()
	}
	if t.job.left.Add(-1) == 0 {
		w.e.finish(t.job)
	}
}

// mergeGap joins two runs of candidate lines into one read when fewer
// bytes than this lie between them: the lines between are read too (and
// passed over), which costs less than a read of its own.
const mergeGap = 4 << 10

// search finds the hits of one file: it scans it (prefilter), then reads
// its runs of candidate lines through the same open file, the part the
// scan still holds from memory.
func (w *worker) search(j *job, f *file) {
	o := &w.e.o
	var st Stats
	st.Files = 1
	defer func() { w.e.stats.add(st) }()
	fs := &fileSearch{w: w, job: j, f: f}
	// Standard input and a compressed transcript (an archive's
	// .jsonl.zst) are read line by line through the reader, which
	// decompresses: the scan below looks at a file's bytes as they are.
	readWhole := func() {
		r, c, err := reader.Open(f.path, fs.options(1, &st))
		if err != nil {
			o.Report.FileError(f.path, err)
			return
		}
		fs.read(r, 1, &st)
		c.Close()
		st.Bytes, _ = r.Done()
	}
	if f.path == session.StdinPath {
		readWhole()
		return
	}
	fh, err := rawfile.OpenOS(f.path)
	if err != nil {
		o.Report.FileError(f.path, err)
		return
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() {
		if err == nil {
			err = reader.ErrNotRegular
		}
		o.Report.FileError(f.path, err)
		return
	} else {
		st.Bytes = fi.Size()
	}
	if reader.IsCompressedFile(fh) {
		readWhole()
		return
	}
	// A file saved as UTF-16 would pass the prefilter's search without a
	// word (its text is not the pattern's bytes): said, as every command
	// says it.
	head := make([]byte, 4)
	if n, _ := fh.ReadAt(head, 0); reader.IsUTF16(head[:n]) {
		o.Report.FileError(f.path, &os.PathError{Op: "read", Path: f.path, Err: reader.ErrUTF16})
		return
	}
	runs := []run{{start: 0, end: -1, line: 1}}
	var mem func(at, end int64) []byte
	if w.scan != nil {
		if runs, _, err = w.scan.scan(fh); err != nil {
			o.Report.FileError(f.path, err)
			return
		}
		mem = w.scan.lastBytes
	}
	for i := 0; i < len(runs); {
		k := i + 1
		for k < len(runs) && runs[k-1].end >= 0 && runs[k].start-runs[k-1].end < mergeGap {
			k++
		}
		start, end := runs[i].start, runs[k-1].end
		var held []byte
		if mem != nil {
			held = mem(start, end)
		}
		rest := int64(math.MaxInt64) - start // to the end of the file, as far as it is written
		if end >= 0 {
			rest = end - start
		}
		rest -= int64(len(held))
		src := io.MultiReader(bytes.NewReader(held), io.NewSectionReader(fh, start+int64(len(held)), max(rest, 0)))
		r, c := reader.ReadFrom(src, start, fs.options(runs[i].line, &st))
		ok := fs.read(r, runs[i].line, &st)
		c.Close()
		if !ok {
			return
		}
		i = k
	}
}

// fileSearch is the search of one file's candidate lines.
type fileSearch struct {
	w    *worker
	job  *job
	f    *file
	r    *reader.Reader // the reader of the lines being searched
	last time.Time      // the last time seen in the file: the order of a line without one
	done bool           // the file's search is over (the hits wanted are found)
}

// options are the Reader's options for lines numbered from base on.
//
// Each line is handed to Want just before the Reader would parse it,
// exactly as it would parse it (trimmed, a crash's residue cut off). Want
// walks it once (reader.ParseSearchLine), searches it, and turns it down,
// so that the Reader does not parse it again. A line the walk refuses is
// left to the Reader, which says what is wrong with it, or (the first
// megabyte of a longer line) reads on and hands over the whole line.
func (fs *fileSearch) options(base int, st *Stats) reader.Options {
	o := &fs.w.e.o
	return reader.Options{Name: fs.f.path, Stdin: o.Stdin,
		Want: func(l []byte) bool {
			if fs.done {
				if fs.naming() { // read on for standard input's name only
					if sl, ok := reader.ParseSearchLine(l); ok {
						fs.job.nameStdin(&sl)
					}
				}
				return false
			}
			sl, ok := reader.ParseSearchLine(l)
			if !ok {
				return true
			}
			if fs.f.path == session.StdinPath {
				fs.job.nameStdin(&sl)
			}
			if fs.w.pre != nil && !fs.w.pre.candidate(l) {
				if !sl.Timestamp.IsZero() {
					fs.last = sl.Timestamp
				}
				return false
			}
			st.Lines++
			if o.Redact != nil {
				// The line as --redact shows it is what is searched: a
				// masked secret is not found, and nothing shown holds one.
				if sl, ok = reader.ParseSearchLine(o.Redact(l)); !ok {
					return true
				}
			}
			fs.line(&sl, fs.r.Line()+base-1)
			return false
		},
		OnIssue: func(is reader.Issue) {
			is.Line += base - 1
			o.Report.Line(is)
		}}
}

// read reads r's lines (see options); false when the file cannot be read
// or its search is over.
func (fs *fileSearch) read(r *reader.Reader, base int, st *Stats) bool {
	fs.r = r
	for !fs.done {
		if _, ok := r.Next(); !ok {
			break // (an entry comes back only when the walk and the Reader disagree, which they cannot)
		}
		if fs.w.e.stop.Load() {
			return false
		}
	}
	if err := r.Err(); err != nil {
		fs.w.e.o.Report.FileError(fs.f.path, err)
		return false
	}
	return !fs.done
}

// maxExcerpt is how much text is kept on each side of a hit's first
// match, and maxMatchText how much of a match's own text.
const (
	maxExcerpt   = 400
	maxMatchText = 1024
)

// line searches the texts of one line.
func (fs *fileSearch) line(l *reader.SearchLine, n int) {
	o := &fs.w.e.o
	if !l.Timestamp.IsZero() {
		fs.last = l.Timestamp
	}
	if !l.IsUser() && l.Type != "assistant" || l.Meta { // a queued input's attachment line is a user message
		return
	}
	if !l.Timestamp.IsZero() && (!o.Since.IsZero() && l.Timestamp.Before(o.Since) || !o.Until.IsZero() && l.Timestamp.After(o.Until)) {
		return
	}
	fs.w.dec.Texts(l, o.Roles.Has(RoleThinking), func(rd *reader.Readable) bool {
		role := roleOf(l.Type, rd.Kind)
		if !o.Roles.Has(role) {
			return true
		}
		m, over := o.Pattern.match(rd.Text)
		if len(m) == 0 {
			return true
		}
		fs.f.count++
		switch o.Mode {
		case Sessions:
			fs.job.found.Store(true)
			fs.f.hits = append(fs.f.hits, fs.hit(l, n, rd, role, m, over))
			fs.done = true
			return false
		case Hits:
			fs.f.hits = append(fs.f.hits, fs.hit(l, n, rd, role, m, over))
		}
		if o.MaxCount > 0 && fs.f.count >= o.MaxCount {
			fs.done = true
			return false
		}
		return true
	})
}

func roleOf(entryType, kind string) Role {
	switch kind {
	case reader.KindToolUse, reader.KindToolResult:
		return RoleTool
	case reader.KindThinking:
		return RoleThinking
	}
	if entryType == "assistant" {
		return RoleAssistant
	}
	return RoleUser
}

// hit makes a Hit of a matching text, copying what it keeps of it.
func (fs *fileSearch) hit(l *reader.SearchLine, n int, rd *reader.Readable, role Role, m [][]int, over bool) *Hit {
	text := rd.Text
	h := &Hit{
		SessionID: fs.job.Session.ID, AgentID: fs.f.agentID, UUID: l.UUID(), Time: l.Timestamp,
		Role: role, Kind: rd.Kind, Tool: rd.Tool, Field: rd.Field, File: fs.f.path, Line: n,
		Sidechain: l.Sidechain && fs.f.main, TextBytes: len(text), More: over,
	}
	h.at = l.Timestamp
	if h.at.IsZero() {
		h.at = fs.last // ordered where it was written; shown without a time
	}
	h.Matches = make([]Match, len(m))
	for i, x := range m {
		h.Matches[i] = Match{Start: x[0], End: x[1]}
		if fs.w.e.o.MatchText {
			h.Matches[i].Text = cutText(text, x[0], min(x[1], x[0]+maxMatchText))
		}
	}
	from := runeStart(text, max(0, m[0][0]-maxExcerpt))
	to := runeEnd(text, min(len(text), m[0][1]+maxExcerpt))
	h.Excerpt, h.ExcerptAt = string([]byte(text[from:to])), from
	if rd.Kind == reader.KindToolResult {
		h.Tool = "" // named from its call, when the conversation is loaded
		h.toolUseID = rd.ToolUseID
	}
	return h
}

// cutText copies text[from:to], to moved back to a rune boundary.
func cutText(text string, from, to int) string {
	return string([]byte(text[from:runeEnd(text, to)]))
}

// runeStart moves i back to the start of the rune it is in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// runeEnd moves i back to the start of the rune it is in (so that s[:i]
// ends on a whole rune).
func runeEnd(s string, i int) int { return runeStart(s, i) }

// finishEmpty ends the search of a session with no file to search.
func (e *engine) finishEmpty(j *job) {
	if len(j.files) == 0 {
		e.finish(j)
		return
	}
	close(j.done) // stopped
}

// finish ends a session's search: its hits are put together, annotated
// from the conversation when details are wanted, and handed over.
func (e *engine) finish(j *job) {
	defer close(j.done)
	var st Stats
	st.Sessions = 1
	e.stats.add(st)
	res := &Result{Target: j.Target}
	for i := range j.files {
		f := &j.files[i]
		res.Count += f.count
		for _, h := range f.hits {
			h.order = len(res.Hits)
			res.Hits = append(res.Hits, h)
		}
	}
	if e.o.MaxCount > 0 && len(res.Hits) > e.o.MaxCount {
		res.Hits = res.Hits[:e.o.MaxCount]
	}
	if e.o.MaxCount > 0 {
		res.Count = min(res.Count, e.o.MaxCount)
	}
	if e.o.Mode == Sessions && len(res.Hits) > 1 {
		res.Hits = res.Hits[:1]
	}
	if res.Count == 0 || e.stop.Load() {
		return
	}
	if j.Session.Path == session.StdinPath {
		j.namedStdin(res)
	} else if len(res.Hits) > 0 {
		e.annotate(j, res)
	}
	sort.Slice(res.Hits, func(a, b int) bool {
		ha, hb := res.Hits[a], res.Hits[b]
		if !ha.at.Equal(hb.at) {
			return ha.at.Before(hb.at)
		}
		return ha.order < hb.order
	})
	for _, h := range res.Hits {
		res.Agents = res.Agents || h.AgentID != ""
		res.Abandoned = res.Abandoned || h.Abandoned
		res.Thinking = res.Thinking || h.Role == RoleThinking
	}
	j.result = res
}

// naming reports whether standard input is read on after its search is
// over (-l, -m) for its first sessionId and cwd, not seen yet.
func (fs *fileSearch) naming() bool {
	return fs.f.path == session.StdinPath && (fs.job.stdinID == "" || fs.job.stdinCWD == "")
}

// nameStdin keeps the first sessionId and cwd of standard input's lines.
func (j *job) nameStdin(l *reader.SearchLine) {
	if j.stdinID == "" {
		j.stdinID = l.SessionID()
	}
	if j.stdinCWD == "" {
		j.stdinCWD = l.CWD()
	}
}

// namedStdin names the result of standard input, and its hits, after its
// lines (nameStdin): its project is its first cwd, as ls gives a file's.
func (j *job) namedStdin(res *Result) {
	s := *j.Session
	s.ID = j.stdinID
	res.Session = &s
	res.Info = &session.Info{Session: &s, Project: j.stdinCWD}
	for _, h := range res.Hits {
		h.SessionID = s.ID
	}
}
