package tree

import (
	"errors"
	"io"
	"os"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
)

// Open builds the tree of a resolved session: its main file and the
// subagent files the finder lists for it. A transcript on standard input
// (s.Path "-", read from stdin) is spooled to a temporary file while it is
// read, so that its lines can be re-read by offset as a file's are (see
// Source); Close removes the spool. A tree without a sessionId in its
// lines is named after the session argument's id. A main file that is not
// a transcript (Tree.NotTranscript) is an error, unless its subagents have
// lines to show.
func Open(f *session.Finder, s *session.Session, stdin io.Reader, rep *diag.Reporter) (*Tree, error) {
	return open(f, s, stdin, rep, false)
}

// OpenQuiet is Open for a command that reports on something else than the
// conversation's shape (cctx agents): the model's own warnings (islands,
// cycles, agent links) are kept in Tree.Warnings but not said; skipped
// lines and unreadable files are said as always.
func OpenQuiet(f *session.Finder, s *session.Session, stdin io.Reader, rep *diag.Reporter) (*Tree, error) {
	return open(f, s, stdin, rep, true)
}

// OpenWith is Open that runs also(t) on another core as soon as every
// line of the session is read, while the tree's links are made: a long
// session's usage is counted meanwhile, not after (show). also may read
// what the lines say — Files, File.Dropped, Entries, Tree.SessionID —
// never the links (Parent, Children, Active, agents, leaves). The tree is
// returned once also is done.
func OpenWith(also func(*Tree)) func(*session.Finder, *session.Session, io.Reader, *diag.Reporter) (*Tree, error) {
	return func(f *session.Finder, s *session.Session, stdin io.Reader, rep *diag.Reporter) (*Tree, error) {
		return openAlso(f, s, stdin, rep, false, also)
	}
}

func open(f *session.Finder, s *session.Session, stdin io.Reader, rep *diag.Reporter, quiet bool) (*Tree, error) {
	return openAlso(f, s, stdin, rep, quiet, nil)
}

func openAlso(f *session.Finder, s *session.Session, stdin io.Reader, rep *diag.Reporter, quiet bool, also func(*Tree)) (*Tree, error) {
	var t *Tree
	var err error
	if s.Path != session.StdinPath {
		var agents []session.Agent
		var elsewhere func(string) string
		if f != nil {
			agents = f.Agents(s)
			elsewhere = func(id string) string { return f.AgentElsewhere(s, id) }
		}
		b := newBuilder(rep)
		b.quiet, b.elsewhere, b.also, b.fallbackID = quiet, elsewhere, also, s.ID
		if s.Orphan {
			// Claude Code's cleanup deleted the main transcript (or it
			// was emptied, or cannot be read): the tree has no main conversation, only the
			// subagents (Tree.Main nil). Said by every command, agents'
			// quiet one too.
			w := Warning{File: s.Where(), Msg: sprintf("session %s: its main transcript %s; only its %d subagent transcript(s) are left",
				s.ID, s.MainGone(), len(agents))}
			b.t.Warnings = append(b.t.Warnings, w)
			b.t.MainDeleted, b.t.MainWas = &w, s.MainPhrase()
			if s.MainUnreadable() { // a file of the session that could not be read: exit 1
				b.rep.FileWarn("%s", w.String())
			} else {
				b.rep.Warn("%s", w.String())
			}
		}
		t, err = b.load(s.Path, agents)
	} else {
		b := newBuilder(rep)
		b.quiet, b.also, b.fallbackID = quiet, also, s.ID
		t, err = readStdin(b, stdin)
	}
	if err != nil {
		return nil, err
	}
	if t.NotTranscript != "" {
		if !t.hasAgentNodes() { // nothing to show of it: not an empty session
			t.Close()
			return nil, errors.New(t.NotTranscript)
		}
		if !quiet { // its subagents are still shown: a warning
			rep.Warn("%s", t.NotTranscript)
		}
	}
	if t.SessionID == "" {
		t.SessionID = s.ID
	}
	// Nothing to show, and why (every command that opens it says so, in
	// a pipe too): an emptied file with no subagent to read instead.
	if rep != nil && t.MainEntries() == 0 && len(t.Agents) == 0 {
		if s.Path == session.StdinPath {
			if st, err := os.Stat(t.spool); err == nil {
				if why := session.StdinNothing(t.spool, st.Size()); why != "" {
					rep.Info("%s", why)
				}
			}
		} else if why := s.NoConversation(); why != "" {
			rep.Info("session %s: %s", s.ID, why)
		}
	}
	return t, nil
}

func readStdin(b *builder, stdin io.Reader) (*Tree, error) {
	tmp, err := os.CreateTemp("", "cctx-stdin-*.jsonl")
	if err != nil {
		return nil, err
	}
	t, err := readOne(b, io.TeeReader(stdin, tmp), session.StdinPath, "<stdin>")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	t.spool = tmp.Name()
	return t, nil
}

// Spool is the temporary file a transcript read from standard input was
// copied to ("" for a tree read from files).
func (t *Tree) Spool() string { return t.spool }

// Close removes the spool of a transcript read from standard input.
func (t *Tree) Close() error {
	if t.spool == "" {
		return nil
	}
	err := os.Remove(t.spool)
	t.spool = ""
	return err
}

// hasAgentNodes reports whether any subagent of t has an entry.
func (t *Tree) hasAgentNodes() bool {
	for _, a := range t.Agents {
		if len(a.Nodes) > 0 {
			return true
		}
	}
	return false
}
