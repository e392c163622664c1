// Package tokenreport makes the reports of cctx tokens: the deduplicated count
// of internal/tokens and, when a grouping asks for it, what needs more
// than the count: the use of each tool (tokens.Tools reads the tool
// results), and the type of each subagent, linked to its call as cctx
// agents links it (internal/agents).
package tokenreport

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Options say what a report holds.
type Options struct {
	By   tokens.Grouping
	Zone *time.Location // of time groupings (nil: local)
	// Detail lists every response (tokens.Count); otherwise only totals.
	Detail bool
	// DropEmpty leaves out the sessions without a counted response (a
	// report over every session; a session named as an argument stays).
	DropEmpty bool
}

// Result is a report, and the use of tools with --by tool.
type Result struct {
	*tokens.Report
	Tools *tokens.ToolReport
}

// Report counts the sessions of inputs inside w. With --by tool it also
// reads their tool results; with --by agent-type it links every subagent
// to its call to learn its type (a second reading of each session, as
// cctx agents does).
func Report(finder *session.Finder, inputs []tokens.Input, prices *tokens.Prices, w tokens.Window, ro tokens.ReadOptions, o Options) (res Result) {
	if finder == nil {
		return report(finder, inputs, prices, w, ro, o)
	}
	// The count's warnings in one write, before the report is printed: a
	// count says them at its end, once its readers are done (a reader
	// that panicked would lose what a batch held, but has said nothing).
	finder.Report.Batch(func() { res = report(finder, inputs, prices, w, ro, o) })
	return res
}

func report(finder *session.Finder, inputs []tokens.Input, prices *tokens.Prices, w tokens.Window, ro tokens.ReadOptions, o Options) Result {
	rep := tokens.Count(inputs, prices, w, ro, o.Detail)
	rep.Zone = o.Zone
	if o.DropEmpty {
		rep.DropEmpty()
	}
	res := Result{Report: rep}
	switch o.By {
	case tokens.ByTool:
		res.Tools = tokens.Tools(inputs, w)
	case tokens.ByAgentType:
		types := AgentTypes(finder, rep, prices)
		rep.AgentType = func(sessionID, agentID string) string { return types[sessionID][agentID] }
	}
	return res
}

// AgentTypes is the type of every subagent of the report's sessions that
// has a response in it, by session id and agent id (the key tokens --by
// agent uses): the subagent_type of the call that spawned it, else its
// sidecar's agentType, else its kind (compaction, warmup, sidechain), as
// cctx agents gives it. The trees are built quietly: what the files hold
// that is wrong, the token count has said.
func AgentTypes(finder *session.Finder, rep *tokens.Report, prices *tokens.Prices) map[string]map[string]string {
	out := make([]map[string]string, len(rep.Sessions))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, sr := range rep.Sessions {
		if sr.Session.Path == session.StdinPath || !hasAgents(sr) {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			t, err := tree.OpenQuiet(finder, sr.Session, nil, diag.Discard())
			if err != nil {
				return
			}
			defer t.Close()
			types := map[string]string{}
			for _, a := range agents.Report(t, nil, prices).Agents {
				if a.ID != "" && a.Type != "" {
					types[a.ID] = a.Type
				}
			}
			out[i] = types
		}()
	}
	wg.Wait()
	m := map[string]map[string]string{}
	for i, sr := range rep.Sessions {
		if out[i] != nil {
			m[sr.ID] = out[i]
		}
	}
	return m
}

// hasAgents reports whether a session's report has responses of agents.
func hasAgents(sr *tokens.SessionReport) bool {
	for _, a := range sr.Agents {
		if a.Key != "" {
			return true
		}
	}
	return false
}

// NothingNote is the line stderr says when a report counted no API call:
// there is no session to count where the finder looked (after the
// filters given), or none of the sessions named made one in the window
// (--since, --until). On a terminal, where such a report prints no table,
// it also says that the sessions named made none at all; in a pipe their
// rows (none, or zeros) say it (""). unread is what it adds to "no
// sessions" about the session files it could not read
// (session.UnreadNote).
func (r Result) NothingNote(where string, fl session.Filters, terminal bool, unread string) string {
	switch {
	case len(r.Sessions) == 0 && fl.Names(false) != "":
		return "no sessions to count" + where + " that match " + fl.Names(false) + unread
	case len(r.Sessions) == 0:
		return "no sessions to count" + where + unread
	case r.StdinEmpty: // in a pipe too, as show says it
		return session.StdinNothing("", 0)
	case fl.Names(true) != "":
		return "no API call of the session(s) named falls within " + fl.Names(true)
	case !terminal:
		return ""
	case len(r.Sessions) == 1 && r.Sessions[0].ID != "":
		return "session " + r.Sessions[0].ID + " has no API call"
	case len(r.Sessions) == 1:
		return "the transcript has no API call"
	}
	return fmt.Sprintf("none of the %d sessions named has an API call", len(r.Sessions))
}
