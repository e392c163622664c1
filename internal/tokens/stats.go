package tokens

import (
	"runtime"
	"sync"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// SessionStats are the counts `cctx ls --long` shows of one session, its
// subagents included.
type SessionStats struct {
	Prompts  int   // typed prompts of the main conversation, on every branch
	APICalls int   // API responses, each once
	Tokens   int64 // their total tokens
	Size     int64 // bytes of the main file and the subagent files
}

// Stats reads each session whole, subagents included, in parallel, and
// counts what ls --long shows. Each session is counted on its own, as
// `cctx tokens <session>` counts it.
func Stats(finder *session.Finder, ss []*session.Session, o ReadOptions) []SessionStats {
	out := make([]SessionStats, len(ss))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, s := range ss {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = sessionStats(finder, s, o)
		}()
	}
	wg.Wait()
	return out
}

func sessionStats(finder *session.Finder, s *session.Session, o ReadOptions) SessionStats {
	var st SessionStats
	agents := finder.Agents(s)
	st.Size = s.Size
	for _, a := range agents {
		st.Size += a.Size
	}
	c := NewCounter()
	ro := o.reader()
	if !o.Strict {
		ro.Want = statsWanted
	}
	onErr := o.OnError
	if onErr == nil {
		onErr = func(string, error) {}
	}
	// A line written twice (the same uuid) is one prompt, as in the tree
	// (tree.Prompts), which keeps the later line.
	seen := map[string]bool{}
	ReadSession(c, s, agents, ro, func(e *reader.Entry, agent bool) {
		if !agent && e.IsTypedPrompt() && !e.Sidechain && (e.UUID == "" || !seen[e.UUID]) {
			if e.UUID != "" {
				seen[e.UUID] = true
			}
			st.Prompts++
		}
	}, onErr)
	for _, r := range c.Responses() {
		st.APICalls++
		st.Tokens += r.Usage.Total()
	}
	return st
}

// statsWanted picks the lines Stats reads: those a counter needs and the
// user lines that may be typed prompts. Tool results, the bulk of a
// transcript, are skipped unparsed (and a long one is never held).
func statsWanted(line []byte) bool {
	if Wanted(line) {
		return true
	}
	typ, role, _ := reader.Peek(line)
	return (typ == "user" || role == "user") && !reader.StartsWithToolResult(line)
}
