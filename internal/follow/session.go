package follow

import (
	"context"
	"math"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Event is one entry a followed session appended, ready to show.
type Event struct {
	Entry reader.Entry
	Line  []byte // the raw line (redacted when Session.Redact is set)
	Agent string // the subagent whose file it is in; "" for the main transcript
	For   string // the tool_use id a tool result answers
}

// Session follows the files of a session whose tree was read: each file
// from past the last line the tree read whole (a line still being written
// then is read once it ends, and nothing read is read again), and the
// subagent files that appear meanwhile. Lines are read as the reader reads
// them: a crash's NUL run is residue and the line after it is read, a line
// that does not parse is a warning, an entry already seen (by uuid) is not
// shown again, and show's visibility rule (tree.Visible) applies.
type Session struct {
	Tree     *tree.Tree
	Finder   *session.Finder
	Session  *session.Session
	All      bool                // --all: every line, not only what show shows
	Redact   func([]byte) []byte // --redact
	Report   *diag.Reporter
	Interval time.Duration // polling period (tests shorten it)
}

// Run follows until ctx is done, calling emit for each new visible entry.
// When following ends, the last lines still not whole are reported.
func (s *Session) Run(ctx context.Context, emit func(Event) error) error {
	t, rep := s.Tree, s.Report
	seen := make(map[string]bool, len(t.Nodes))
	for _, n := range t.Nodes {
		seen[n.UUID] = true
	}
	fw := &Follower{Interval: s.Interval, OnError: rep.FileError, OnReset: rep.Note}
	if t.Main != nil { // none when Claude Code deleted it: only agents are followed
		fw.Add(File{Path: t.Main.Path, Offset: t.Main.Done, Line: t.Main.DoneLines})
	}
	// The agent files the tree read, and only those: a second transcript
	// of the same agent (the tree reads one) would be replayed from its
	// start.
	read := map[string]string{} // agent id → the file read
	for _, a := range t.Agents {
		if a.Inline || a.File == nil {
			continue
		}
		read[a.ID] = a.File.Path
		fw.Add(File{Path: a.File.Path, Offset: a.File.Done, Line: a.File.DoneLines, Tag: a.ID})
	}
	// An agent whose file could not be read was reported then; its other
	// copies, if any, are not followed either (they would replay it).
	failed := map[string]bool{}
	for _, p := range t.Unreadable {
		failed[p] = true
	}
	failedID := map[string]bool{}
	for _, a := range s.Finder.Agents(s.Session) {
		if failed[a.Path] {
			failedID[a.ID] = true
		}
	}
	fw.Discover = func() []File {
		var out []File
		// As the folders are now: a flat agent-<id>.jsonl (2.0.x) that
		// appears while following is found as a subagents/ one is.
		for _, a := range s.Finder.AgentsNow(s.Session) {
			if p, ok := read[a.ID]; ok && p != a.Path || failedID[a.ID] {
				continue
			}
			out = append(out, File{Path: a.Path, Tag: a.ID})
		}
		return out
	}
	// What is wrong with a followed line is said as the reader says it;
	// following starts past what the tree read, so nothing is said twice.
	fw.OnLong = func(path string, line int, size int64) {
		rep.Line(reader.Issue{File: path, Line: line, Kind: reader.TooLong, Size: int(min(size, math.MaxInt32)), Limit: LineLimit})
	}
	err := fw.Run(ctx, func(fl Line) error {
		line := fl.Text
		if cut, rest := reader.SplitCrashResidue(line); cut > 0 && (len(rest) == 0 || rest[0] == '{') {
			rep.Line(reader.Issue{File: fl.Path, Line: fl.N, Kind: reader.CrashResidue, Size: cut}) // the line after it is read
			if line = rest; len(line) == 0 {
				return nil
			}
		}
		e, ok := reader.ParseLine(line)
		if !ok {
			// Also the line a crash cut, with the next one appended to it.
			rep.Line(reader.Issue{File: fl.Path, Line: fl.N, Kind: reader.Malformed, Size: len(line)})
			return nil
		}
		if e.UUID == "" || seen[e.UUID] {
			return nil
		}
		seen[e.UUID] = true
		if !tree.Visible(&e, s.All) {
			return nil
		}
		if s.Redact != nil {
			line = s.Redact(line)
		}
		ev := Event{Entry: e, Line: line, Agent: fl.Tag}
		if fa := reader.ExtractTreeFacts(line); len(fa.ToolResults) > 0 {
			ev.For = fa.ToolResults[0]
		}
		return emit(ev)
	})
	// A last line still cut when following ends was cut for good.
	var tails []reader.Issue
	for _, tl := range fw.Tails() {
		tails = append(tails, reader.Issue{File: tl.Path, Line: tl.Line, Kind: reader.TruncatedTail, Size: int(min(tl.Size, math.MaxInt32))})
	}
	rep.FollowEnded(true, tails)
	return err
}
