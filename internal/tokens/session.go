package tokens

import (
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// Wanted picks the lines a Counter needs: assistant messages (they carry
// the usage) and inline sidechain lines (their chain names the agent).
// Give it to reader.Options.Want when nothing else reads the entries: most
// bytes of a transcript are tool results that a counter never parses.
func Wanted(line []byte) bool {
	typ, role, sidechain := reader.Peek(line)
	return sidechain || role == "assistant" || typ == "assistant"
}

// ReadSession counts a session's main file and its subagent files into c.
// visit, when not nil, sees every entry of the main file (agent false) and
// of each subagent file (agent true). A file that cannot be read is
// reported through onErr and skipped; the rest still count.
func ReadSession(c *Counter, s *session.Session, agents []session.Agent, o reader.Options,
	visit func(e *reader.Entry, agent bool), onErr func(path string, err error)) {
	read := func(src Source, agent bool) {
		r, closer, err := reader.Open(src.Path, o)
		if err != nil {
			onErr(src.Path, err)
			return
		}
		defer closer.Close()
		f := c.File(src)
		for {
			e, ok := r.Next()
			if !ok {
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
	read(Source{SessionID: s.ID, Path: s.Path}, false)
	for _, a := range agents {
		read(Source{SessionID: s.ID, AgentID: a.ID, Path: a.Path}, true)
	}
}
