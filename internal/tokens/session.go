package tokens

import (
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Wanted picks the lines a Counter needs: assistant messages (they carry
// the usage) and inline sidechain lines (their chain names the agent).
// Give it to reader.Options.Want when nothing else reads the entries: most
// bytes of a transcript are tool results that a counter never parses.
//
// When the start of a line does not tell (the reader shows Want only the
// first megabyte of a longer line), the line is wanted: it is parsed whole
// rather than risk dropping a response.
func Wanted(line []byte) bool {
	typ, role, sidechain := reader.Peek(line)
	return sidechain || role == "assistant" || typ == "assistant" || typ == "" && role == ""
}

// ReadSession counts a session's main file and its subagent files into c
// (only the subagent files when the main one was deleted: Session.Orphan).
// visit, when not nil, sees every entry of the main file (agent false) and
// of each subagent file (agent true); the pointer is valid during the call
// only. A file that cannot be read is
// reported through onErr and skipped; the rest still count. It returns
// the issues of the agents the session's Agent/Task results name that
// have no transcript among agents (unlinkedAgents), for the caller to
// check against other sessions (Input.Elsewhere) and say.
func ReadSession(c *Counter, s *session.Session, agents []session.Agent, o reader.Options,
	visit func(e *reader.Entry, agent bool), onErr func(path string, err error)) []reader.Issue {
	var named []fileAgent
	read := func(src Source, agent bool) {
		f := c.File(src)
		so := o
		if want := o.Want; want != nil {
			so.Want = func(line []byte) bool { return f.wants(want, line) }
			so.WantHead = func(head []byte) bool { return f.wantsHead(want, head) }
		}
		defer func() {
			for _, n := range f.named {
				named = append(named, fileAgent{src.Path, n})
			}
		}()
		r, closer, err := reader.Open(src.Path, so)
		if err != nil {
			onErr(src.Path, err)
			return
		}
		defer closer.Close()
		// One Entry for the whole file: visit gets a pointer to it, which
		// would otherwise move every line's Entry to the heap.
		var e reader.Entry
		for {
			var ok bool
			if e, ok = r.Next(); !ok {
				break
			}
			f.Add(&e)
			if visit != nil {
				visit(&e, agent)
			}
		}
		if err := r.Err(); err != nil {
			onErr(src.Path, err)
		}
	}
	if !s.Orphan { // a session whose main transcript was deleted is its subagents
		read(Source{SessionID: s.ID, Path: s.Path}, false)
	}
	for _, a := range agents {
		read(Source{SessionID: s.ID, AgentID: a.ID, Path: a.Path}, true)
	}
	if s.Path == session.StdinPath {
		// No folder comes with it: every agent it names is missing from
		// the count, which is said as such.
		unread := unlinkedAgents(nil, named)
		for k := range unread {
			if unread[k].Kind == reader.UnlinkedAgent {
				unread[k].Kind, unread[k].File = reader.UnreadAgent, reader.StdinName
			}
		}
		return unread
	}
	return unlinkedAgents(agents, named)
}
