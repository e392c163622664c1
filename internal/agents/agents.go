// Package agents finds the subagents of one session and links each to the
// call that spawned it: Agent/Task tool calls in the main transcript and,
// recursively, in subagent transcripts; their results (toolUseResult); the
// transcript files in both layouts and the inline sidechains of 1.0.x.
//
// A link is made only from what the files record — the .meta.json
// sidecar's toolUseId, toolUseResult.agentId matched against the file names
// the session.Finder listed, or (for inline sidechains, which have no id)
// the exact prompt text. Anything that does not link is reported, never
// guessed: a call without a transcript, a transcript without a call, an
// agentId that cannot be a file name (never looked up), a totalTokens that
// the transcript does not show.
//
// Tokens per agent come from one tokens.Counter over the main file and all
// agent files, keyed exactly as `cctx tokens --by agent` keys them.
package agents

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Kinds of agent.
const (
	KindSubagent   = "subagent"   // its own transcript file
	KindSidechain  = "sidechain"  // inline isSidechain lines of the main file (≤1.0.x)
	KindCompaction = "compaction" // agent-acompact-*: spawned by compaction, not by a call
	KindWarmup     = "warmup"     // a 2.0.x cache warm-up agent ("Warmup"), not spawned by a call
)

// Statuses.
const (
	StatusCompleted   = "completed"
	StatusFailed      = "failed"
	StatusInterrupted = "interrupted"
	StatusRunning     = "running"    // the call has no result yet (or the session died)
	StatusBackground  = "background" // launched in background; no completion seen
	StatusTeammate    = "teammate"   // spawned as a team member; runs on its own
	StatusMissing     = "missing_transcript"
	StatusOrphan      = "orphan" // a transcript no call spawned
	// StatusNoReply is a warm-up agent whose transcript holds no reply:
	// Claude Code did not wait for one, so it is not running, and a
	// warm-up is never a problem.
	StatusNoReply = "no_reply"
)

// Token checks: how toolUseResult.totalTokens compares with the transcript.
const (
	CheckOK           = "ok"                  // the transcript holds the API call Claude Code reported
	CheckFinalMissing = "final_usage_missing" // same call, but the transcript kept only a partial output count
	CheckMismatch     = "mismatch"            // no API call of the transcript has the reported usage
)

// Call is one Agent/Task tool call and its result.
type Call struct {
	ToolUseID     string
	Tool          string // Agent or Task
	ParentAgentID string // the agent whose transcript holds the call; "" = main
	Input         reader.AgentInput
	Time          time.Time
	File          string
	Line          int

	Answered   bool // a tool_result answers it
	ResultTime time.Time
	ResultFile string
	ResultLine int
	IsError    bool
	ErrorText  string // an error result's text, unwrapped and cut (errorText)
	Result     reader.AgentResult
}

// Agent is one subagent: its transcript, the calls that spawned or resumed
// it, and its deduplicated usage.
type Agent struct {
	// ID is the key tokens uses: the file's agent id, "sidechain-<root>"
	// for inline sidechains, or the reported agentId of a call whose
	// transcript is missing. "" for a call that never got an id.
	ID          string
	Kind        string
	Type        string // subagent_type, agentType, or the kind for agents no call spawned
	Description string
	Name        string // teammate name
	TeamName    string
	Prompt      string // the full prompt (the call's, else the transcript's first user text)
	Status      string
	Background  bool
	Path        string // transcript file ("" for inline sidechains and missing ones)
	MetaPath    string
	Link        string // how call and transcript were linked: meta, agent_id, prompt, or ""
	ParentID    string // the parent agent's ID; "" = the main conversation
	Depth       int    // nesting level in Agents' order (0 = spawned by the main thread)
	Calls       []*Call

	Started, Ended    time.Time
	DurationMs        int64 // totalDurationMs summed over the calls, else the transcript's span
	Models            []string
	ToolUses          int // tool_use blocks in its transcript (reported count when there is none)
	MessagesSent      int // SendMessage calls it made
	MessagesIn        int // SendMessage calls addressed to its name
	Total             tokens.Total
	ReportedTokens    int64  // toolUseResult.totalTokens of its last call that has one
	HasReportedTokens bool   // some call reported totalTokens
	TokenCheck        string // CheckOK, CheckFinalMissing, CheckMismatch, or "" (nothing to check)
	Problems          []string

	hasTranscript bool
	firstSeen     int // creation order, for a stable display order
}

// Warning is a problem found while linking, with the file and line it is
// about when there is one.
type Warning struct {
	File string
	Line int
	Msg  string
}

func (w Warning) String() string {
	file := w.File
	if file == session.StdinPath {
		file = "<stdin>" // as the reader names it
	}
	switch {
	case file != "" && w.Line > 0:
		return fmt.Sprintf("%s:%d: %s", file, w.Line, w.Msg)
	case file != "":
		return file + ": " + w.Msg
	}
	return w.Msg
}

// Result is every agent of a session, in tree order: each agent is
// followed by the agents it spawned.
type Result struct {
	SessionID string
	Agents    []*Agent
	Main      tokens.Total // the main conversation's own usage
	// MainUnpriced are the models of main-conversation responses that have
	// no price (their cost is unknown).
	MainUnpriced []string
	Warnings     []Warning // mismatches that deserve attention
	Notes        []Warning // known recording gaps (shown with -v)
}

// Options tune Find.
type Options struct {
	Prices *tokens.Prices
	// OnIssue receives skipped lines (reader.Options.OnIssue).
	OnIssue func(reader.Issue)
	// OnError receives files that cannot be read.
	OnError func(path string, err error)
	// Stdin is read for the path "-" (default os.Stdin).
	Stdin io.Reader
	// Elsewhere, when set, finds the transcript of an agent that ran in
	// the session this one resumed (session.Finder.AgentElsewhere).
	Elsewhere func(agentID string) string
}

// Find reads the session's main file and the agent files listed for it
// (session.Finder.Agents) and links them.
func Find(s *session.Session, files []session.Agent, o Options) *Result {
	sc := newScan()
	ro := reader.Options{KeepRaw: true, OnIssue: o.OnIssue, Stdin: o.Stdin}
	read := func(path, agentID string) {
		r, closer, err := reader.Open(path, ro)
		if err != nil {
			sc.unreadable[path] = true // reported as such, not as an empty transcript
			if o.OnError != nil {
				o.OnError(path, err)
			}
			return
		}
		defer closer.Close()
		// The same Source as tokens.ReadSession gives each file, so the
		// counts match `cctx tokens --by agent`.
		f := sc.counter.File(tokens.Source{SessionID: s.ID, AgentID: agentID, Path: path})
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			f.Add(&e)
			sc.add(path, agentID, &e)
			e.Raw = nil
		}
		if err := r.Err(); err != nil {
			sc.unreadable[path] = true
			if o.OnError != nil {
				o.OnError(path, err)
			}
		}
	}
	read(s.Path, "")
	for _, a := range files {
		read(a.Path, a.ID)
	}
	res := link(sc, files, o.Prices, o.Elsewhere)
	res.SessionID = s.ID
	if res.SessionID == "" {
		res.SessionID = sc.sessionID
	}
	return res
}

// linker builds the agents from a finished scan.
type linker struct {
	sc    *scan
	res   *Result
	byID  map[string]*Agent
	list  []*Agent
	metas map[string][]*Agent // meta toolUseId → agents claiming it

	elsewhere func(string) string // see Options.Elsewhere
}

func (l *linker) warn(file string, line int, format string, args ...any) {
	l.res.Warnings = append(l.res.Warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (l *linker) note(file string, line int, format string, args ...any) {
	l.res.Notes = append(l.res.Notes, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// agent returns the agent with an id, creating it.
func (l *linker) agent(id, kind string) *Agent {
	if a := l.byID[id]; a != nil && id != "" {
		return a
	}
	a := &Agent{ID: id, Kind: kind, firstSeen: len(l.list)}
	if id != "" {
		l.byID[id] = a
	}
	l.list = append(l.list, a)
	return a
}

func link(sc *scan, files []session.Agent, prices *tokens.Prices, elsewhere func(string) string) *Result {
	l := &linker{sc: sc, res: &Result{}, byID: map[string]*Agent{}, metas: map[string][]*Agent{}, elsewhere: elsewhere}

	// 1. Transcript files, as the Finder listed them.
	for _, f := range files {
		if prev := l.byID[f.ID]; prev != nil {
			// tokens counts both files under the one id; so does this row.
			prev.Problems = append(prev.Problems, "second transcript with the same agent id: "+f.Path)
			l.warn(f.Path, 0, "a second transcript for agent %s (first: %s); their usage is counted together", f.ID, prev.Path)
			continue
		}
		kind := KindSubagent
		if strings.HasPrefix(f.ID, "acompact-") {
			kind = KindCompaction
		}
		a := l.agent(f.ID, kind)
		a.Path, a.MetaPath, a.hasTranscript = f.Path, f.MetaPath, true
		if f.MetaPath != "" {
			m, err := reader.ReadAgentMeta(f.MetaPath)
			if err != nil {
				a.Problems = append(a.Problems, "unreadable .meta.json: "+err.Error())
				l.warn(f.MetaPath, 0, "unreadable sidecar: %v", err)
			} else {
				applyMeta(a, m)
				if m.ToolUseID != "" {
					l.metas[m.ToolUseID] = append(l.metas[m.ToolUseID], a)
				}
				if m.ParentAgentID != "" {
					a.ParentID = m.ParentAgentID
				}
			}
		}
	}
	// 2. Inline sidechains of the main file.
	for _, id := range sc.chains {
		a := l.agent(id, KindSidechain)
		a.hasTranscript = true
	}
	// 3. Calls, in file order: each finds its transcript or stays alone.
	for _, c := range sc.calls {
		l.linkCall(c)
	}
	// 4. Tokens, keyed as tokens keys them.
	byAgent := map[string][]tokens.Response{}
	for _, r := range sc.counter.Responses() {
		if r.AgentID == "" {
			l.res.Main.Add(&r, prices)
			if _, ok := prices.Cost(&r); !ok && !slices.Contains(l.res.MainUnpriced, r.Model) {
				l.res.MainUnpriced = append(l.res.MainUnpriced, r.Model)
			}
			continue
		}
		byAgent[r.AgentID] = append(byAgent[r.AgentID], r)
	}
	for id, rs := range byAgent {
		a := l.byID[id]
		if a == nil {
			a = l.agent(id, KindSubagent)
			a.hasTranscript = true
			l.warn("", 0, "API responses are tagged with agent %s, which has no transcript file and no call", id)
		}
		a.Total = tokens.Sum(rs, prices)
		a.Models = models(rs)
	}
	// 5. What each agent says about itself.
	for _, a := range l.list {
		l.finish(a, byAgent[a.ID])
	}
	l.messages()
	l.order()
	return l.res
}

func applyMeta(a *Agent, m reader.AgentMeta) {
	a.Type, a.Description, a.Name, a.TeamName = m.AgentType, m.Description, m.Name, m.TeamName
	if m.Model != "" {
		a.Models = []string{m.Model}
	}
}

// linkCall finds the transcript of one call: the sidecar that names its
// tool_use id, else the file named after toolUseResult.agentId (or the
// agent it resumes), else the inline sidechain that received its exact
// prompt.
func (l *linker) linkCall(c *Call) {
	if ms := l.metas[c.ToolUseID]; len(ms) == 1 {
		l.attach(ms[0], c, "meta")
		if id := c.Result.AgentID; id != "" && id != ms[0].ID {
			l.problem(ms[0], c, "toolUseResult.agentId %q disagrees with the .meta.json link to %s", id, ms[0].ID)
		}
		return
	} else if len(ms) > 1 {
		l.warn(c.File, c.Line, "%d .meta.json sidecars name %s call %s; none is linked", len(ms), c.Tool, c.ToolUseID)
	}
	id, how := c.Result.AgentID, "agent_id"
	if id == "" && c.Input.Resume != "" {
		id, how = c.Input.Resume, "resume"
	}
	if id != "" {
		if !session.SafeAgentID(id) {
			a := l.agent("", KindSubagent)
			l.attach(a, c, "")
			a.ID = id // shown, never looked up
			l.problem(a, c, "agentId %s cannot be a file name: its transcript was not looked up", session.QuoteAgentID(id))
			return
		}
		a := l.byID[id]
		if a == nil {
			a = l.agent(id, KindSubagent)
			how = ""
		} else if !a.hasTranscript {
			how = ""
		}
		l.attach(a, c, how)
		return
	}
	if c.Input.Prompt != "" {
		var cands []*Agent
		for _, cid := range l.sc.chains {
			a := l.byID[cid]
			if len(a.Calls) == 0 && l.sc.stats[cid].firstPrompt == strings.TrimSpace(c.Input.Prompt) {
				cands = append(cands, a)
			}
		}
		if len(cands) == 1 {
			l.attach(cands[0], c, "prompt")
			return
		}
		if len(cands) > 1 {
			a := l.agent("", KindSubagent)
			l.attach(a, c, "")
			l.problem(a, c, "%d inline sidechains received this prompt; none is linked", len(cands))
			return
		}
	}
	l.attach(l.agent("", KindSubagent), c, "")
}

func (l *linker) attach(a *Agent, c *Call, how string) {
	if len(a.Calls) == 0 {
		a.ParentID = c.ParentAgentID
		a.Link = how
	}
	a.Calls = append(a.Calls, c)
}

func (l *linker) problem(a *Agent, c *Call, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	a.Problems = append(a.Problems, msg)
	file, line := "", 0
	if c != nil {
		file, line = c.File, c.Line
	}
	l.warn(file, line, "%s", msg)
}

// finish fills what an agent's calls, transcript and responses say.
func (l *linker) finish(a *Agent, rs []tokens.Response) {
	t := l.sc.stats[a.ID]
	if a.Kind == KindSidechain || a.hasTranscript {
		if t == nil {
			t = &transcript{}
		}
	} else {
		t = nil
	}
	var first *Call
	if len(a.Calls) > 0 {
		first = a.Calls[0]
	}
	if first != nil {
		in := first.Input
		a.Type = firstOf(in.SubagentType, first.Result.AgentType, a.Type)
		a.Description = firstOf(in.Description, a.Description)
		a.Name = firstOf(in.Name, a.Name)
		a.TeamName = firstOf(in.TeamName, a.TeamName)
		a.Prompt = in.Prompt
		if len(a.Models) == 0 && in.Model != "" {
			a.Models = []string{in.Model}
		}
	}
	if a.Prompt == "" && t != nil {
		a.Prompt = t.firstPrompt
	}
	if first == nil && t != nil && a.Kind == KindSubagent && a.Path != "" && reader.IsWarmup(t.firstPrompt) {
		a.Kind = KindWarmup
	}
	if a.Type == "" && first == nil && a.Kind != KindSubagent {
		a.Type = a.Kind
	}
	for _, c := range a.Calls {
		if c.Input.Background || c.Result.IsAsync || c.Result.Status == "async_launched" || c.Result.Status == "remote_launched" {
			a.Background = true
		}
		a.DurationMs += c.Result.TotalDurationMs
	}

	// Times: the transcript's own, else the calls'.
	if t != nil && !t.started.IsZero() {
		a.Started, a.Ended = t.started, t.ended
	} else if first != nil {
		a.Started = first.Time
		last := a.Calls[len(a.Calls)-1]
		a.Ended = last.ResultTime
	}
	if a.DurationMs == 0 && !a.Started.IsZero() && a.Ended.After(a.Started) {
		a.DurationMs = a.Ended.Sub(a.Started).Milliseconds()
	}
	if t != nil {
		a.ToolUses = t.toolUses
		a.MessagesSent = t.sent
	} else {
		for _, c := range a.Calls {
			a.ToolUses += int(c.Result.TotalToolUseCount)
		}
	}

	a.Status = l.status(a, t)
	if a.hasTranscript && l.sc.unreadable[a.Path] {
		// Its numbers are what could be read: say so on its row (the file
		// error itself was reported when it was met).
		a.Problems = append(a.Problems, "transcript could not be read: "+a.Path)
	}
	l.checkTokens(a, rs)
}

// status is what the last call's result says, corrected by what is on
// disk: a call that should have left a transcript and did not is
// missing_transcript; a transcript no call spawned is an orphan.
func (l *linker) status(a *Agent, t *transcript) string {
	if len(a.Calls) == 0 {
		switch a.Kind {
		case KindCompaction, KindWarmup:
			switch {
			case t != nil && t.lastAssistant:
				return StatusCompleted
			case a.Kind == KindWarmup:
				return StatusNoReply
			}
			return StatusRunning // a compaction in progress, or cut short
		}
		file := a.Path
		if file == "" && a.Kind == KindSidechain {
			l.warn("", 0, "inline sidechain %s has no Task call with its prompt", a.ID)
		} else {
			l.warn(file, 0, "no Agent/Task call spawned agent %s", a.ID)
		}
		return StatusOrphan
	}
	c := a.Calls[len(a.Calls)-1]
	st := CallStatus(c)
	if st == StatusBackground && a.ID != "" {
		// A background agent's result only says it was launched; the
		// <task-notification> that Claude Code injects later says how it
		// ended.
		if n, ok := l.sc.notices[a.ID]; ok && n != "" {
			st = n
		}
	}
	if t != nil {
		return st
	}
	switch st {
	case StatusCompleted, StatusBackground, StatusTeammate:
		// It ran (or was launched), so it wrote a transcript somewhere:
		// in the session this one resumed, when the call was replayed.
		if a.ID != "" && l.elsewhere != nil {
			if p := l.elsewhere(a.ID); p != "" {
				l.note(c.File, c.Line, "agent %s ran in the session this one resumed: its transcript is %s", a.ID, p)
				return st
			}
		}
		where := "no transcript file or inline sidechain matches it"
		if a.ID != "" {
			where = fmt.Sprintf("no transcript agent-%s.jsonl was found for it", a.ID)
		}
		if a.ID == "" || session.SafeAgentID(a.ID) { // an unsafe id has its own problem
			l.problem(a, c, "%s call %s (%s): %s", c.Tool, c.ToolUseID, st, where)
		}
		return StatusMissing
	}
	return st
}

// CallStatus is what one call's result says about its agent.
func CallStatus(c *Call) string {
	switch {
	case !c.Answered:
		return StatusRunning
	case c.IsError:
		// The first line says what happened ("[Request interrupted by user
		// for tool use]"); the lines after it are details, which may
		// mention the word for another reason.
		if strings.Contains(strings.ToLower(firstLine(c.ErrorText)), "interrupted") {
			return StatusInterrupted
		}
		return StatusFailed
	}
	switch c.Result.Status {
	case "", "completed":
		return StatusCompleted
	case "async_launched", "remote_launched":
		return StatusBackground
	case "teammate_spawned":
		return StatusTeammate
	}
	return c.Result.Status
}

// checkTokens compares toolUseResult.totalTokens with the transcript.
// Claude Code reports the agent's last API call there (its final context
// plus output, with that call's usage), not a sum; the transcript should
// hold that call.
func (l *linker) checkTokens(a *Agent, rs []tokens.Response) {
	var c *Call
	for _, x := range a.Calls {
		if x.Result.HasTotalTokens {
			c = x
		}
	}
	if c == nil {
		return
	}
	a.ReportedTokens, a.HasReportedTokens = c.Result.TotalTokens, true
	if len(rs) == 0 {
		if a.hasTranscript && !l.sc.unreadable[a.Path] && c.Result.TotalTokens > 0 {
			// An empty file (or one without a single response) where the
			// call says the agent spent tokens.
			a.TokenCheck = CheckMismatch
			l.problem(a, c, "the transcript of agent %s holds no API call, but its %s result reports %d tokens", a.ID, c.Tool, c.Result.TotalTokens)
		}
		return
	}
	check := CheckMismatch
	var partial *tokens.Response
	for i := range rs {
		u := rs[i].Usage
		if c.Result.HasUsage {
			ru := c.Result.Usage
			if u.Input != ru.Input || u.CacheCreation != ru.CacheCreation || u.CacheRead != ru.CacheRead {
				continue
			}
			if u.Output == ru.Output {
				check = CheckOK
				break
			}
			if u.Output < ru.Output {
				partial = &rs[i]
			}
			continue
		}
		if u.Total() == c.Result.TotalTokens {
			check = CheckOK
			break
		}
	}
	if check != CheckOK && partial != nil {
		check = CheckFinalMissing
	}
	a.TokenCheck = check
	switch check {
	case CheckFinalMissing:
		l.note(partial.File, partial.Line, "agent %s: the transcript kept a partial output count (%d) for its last API call; Claude Code reported %d output tokens (totalTokens %d)",
			a.ID, partial.Usage.Output, c.Result.Usage.Output, c.Result.TotalTokens)
	case CheckMismatch:
		l.problem(a, c, "toolUseResult.totalTokens %d of agent %s matches no API call in its transcript", c.Result.TotalTokens, a.ID)
	}
}

// messages counts SendMessage calls addressed to each agent's name. A
// name can be reused; a message goes to the newest agent of that name
// spawned before it, as Claude Code routes it.
func (l *linker) messages() {
	for _, m := range l.sc.messages {
		var to *Agent
		for _, a := range l.list {
			if a.Name == "" || a.Name != m.to || len(a.Calls) == 0 {
				continue
			}
			if !m.time.IsZero() && a.Calls[0].Time.After(m.time) {
				continue
			}
			if to == nil || a.Calls[0].Time.After(to.Calls[0].Time) {
				to = a
			}
		}
		if to != nil {
			to.MessagesIn++
		}
	}
}

// order lays the agents out as a tree: each parent followed by its
// children, siblings by start time. Walked with an explicit stack, so depth
// is not bounded by Go's stack; a parent cycle is cut and reported.
func (l *linker) order() {
	sorted := append([]*Agent(nil), l.list...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Started.IsZero() != b.Started.IsZero() {
			return !a.Started.IsZero()
		}
		if !a.Started.Equal(b.Started) {
			return a.Started.Before(b.Started)
		}
		return a.firstSeen < b.firstSeen
	})
	children := map[*Agent][]*Agent{}
	var roots []*Agent
	for _, a := range sorted {
		p := l.byID[a.ParentID]
		switch {
		case a.ParentID == "":
			roots = append(roots, a)
		case p == nil || p == a:
			a.Problems = append(a.Problems, fmt.Sprintf("parent agent %s not found", a.ParentID))
			l.warn(a.Path, 0, "agent %s: parent agent %s not found; shown at the top level", a.ID, a.ParentID)
			roots = append(roots, a)
		default:
			children[p] = append(children[p], a)
		}
	}
	done := map[*Agent]bool{}
	walk := func(root *Agent) {
		type item struct {
			a     *Agent
			depth int
		}
		stack := []item{{root, 0}}
		for len(stack) > 0 {
			it := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if done[it.a] {
				continue
			}
			done[it.a] = true
			it.a.Depth = it.depth
			l.res.Agents = append(l.res.Agents, it.a)
			kids := children[it.a]
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, item{kids[i], it.depth + 1})
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	// Whatever is left hangs off a parent cycle.
	for _, a := range sorted {
		if !done[a] {
			a.Problems = append(a.Problems, "its parent chain is a cycle")
			l.warn(a.Path, 0, "agent %s: its parent chain is a cycle; shown at the top level", a.ID)
			walk(a)
		}
	}
}

func models(rs []tokens.Response) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rs {
		if r.Model != "" && !seen[r.Model] {
			seen[r.Model] = true
			out = append(out, r.Model)
		}
	}
	return out
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
