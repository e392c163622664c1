package agents

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// Report describes every subagent of the session t models. src re-reads
// the few lines it quotes (t.Source() when nil).
func Report(t *tree.Tree, src *tree.Source, prices *tokens.Prices) *Result {
	if src == nil {
		src = t.Source()
		defer src.Close()
	}
	r := &reporter{t: t, src: src, res: &Result{SessionID: t.SessionID, Subagents: t.Subagents()}, byID: map[string]*Agent{},
		calls: map[*tree.Call]*Call{}, stats: map[*Agent]*transcript{}, notices: map[string]reader.TaskNotice{}}
	if w := t.MainDeleted; w != nil {
		// Said when the tree was opened; the JSON repeats it.
		r.res.FileErrors = append(r.res.FileErrors, Warning{File: w.File, Line: w.Line, Msg: w.Msg})
	}
	r.collect()
	r.tokens(prices)
	for _, a := range r.list {
		r.finish(a)
	}
	if r.unspawned > 0 {
		r.note(t.MainDeleted.File, 0, "%d agent(s) no call spawned: their calls were in %s", r.unspawned, t.MainWas)
	}
	r.messages()
	r.order()
	return r.res
}

type reporter struct {
	t     *tree.Tree
	src   *tree.Source
	res   *Result
	byID  map[string]*Agent
	list  []*Agent
	calls map[*tree.Call]*Call
	stats map[*Agent]*transcript // what each transcript says of itself
	byAgt map[string][]tokens.Response
	// notices are background task id → its last <task-notification>.
	notices map[string]reader.TaskNotice
	sends   []message // SendMessage calls
	// unspawned counts the agents no call spawned when the main transcript
	// was deleted: said once, not one warning each.
	unspawned int
}

// transcript is what one agent's own lines say about it.
type transcript struct {
	node          *tree.Agent
	toolUses      int
	lastAssistant bool   // the last user/assistant line is an assistant line
	firstPrompt   string // the text of the first user line
	sent          int    // SendMessage calls made
	unreadable    bool
	apiError      bool // the last user/assistant line is an API error or a rate limit (<synthetic>)
}

// message is one SendMessage call: who sent it to which name.
type message struct {
	from, to string
	call     *tree.Node
}

func (r *reporter) warn(file string, line int, format string, args ...any) {
	r.res.Warnings = append(r.res.Warnings, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (r *reporter) note(file string, line int, format string, args ...any) {
	r.res.Notes = append(r.res.Notes, Warning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (r *reporter) problem(a *Agent, c *Call, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	a.Problems = append(a.Problems, msg)
	file, line := "", 0
	if c != nil {
		file, line = c.File, c.Line
	}
	r.warn(file, line, "%s", msg)
}

// agent returns the agent with an id, creating it ("" is never shared).
func (r *reporter) agent(id, kind string) *Agent {
	if a := r.byID[id]; a != nil && id != "" {
		return a
	}
	a := &Agent{ID: id, Kind: kind, firstSeen: len(r.list)}
	if id != "" {
		r.byID[id] = a
	}
	r.list = append(r.list, a)
	return a
}

// collect makes an agent of every transcript of the tree, then of every
// call whose transcript is not there, and reads what the lines say.
func (r *reporter) collect() {
	t := r.t
	for _, ta := range t.Agents {
		kind := KindSubagent
		switch {
		case ta.Inline:
			kind = KindSidechain
		case ta.Compaction:
			kind = KindCompaction
		}
		a := r.agent(ta.ID, kind)
		a.hasTranscript = true
		st := &transcript{node: ta}
		r.stats[a] = st
		if !ta.Inline {
			a.Path, a.MetaPath = ta.File.Path, ta.MetaPath
			if st.unreadable = ta.ReadErr != nil; st.unreadable {
				r.res.FileErrors = append(r.res.FileErrors, Warning{File: a.Path, Msg: diag.FileErrorText(a.Path, ta.ReadErr)})
			}
		}
		for _, p := range ta.Skipped {
			a.Problems = append(a.Problems, "second transcript with the same agent id, not read: "+p)
			r.warn(p, 0, "a second transcript for agent %s; reading %s only", ta.ID, a.Path)
		}
		if ta.MetaErr != nil {
			a.Problems = append(a.Problems, "unreadable .meta.json: "+ta.MetaErr.Error())
			r.warn(ta.MetaPath, 0, "unreadable sidecar: %v", ta.MetaErr)
		}
		m := ta.Meta
		a.Type, a.Description, a.Name, a.TeamName, a.ParentID = m.AgentType, m.Description, m.Name, m.TeamName, m.ParentAgentID
		if m.Model != "" {
			a.Models = []string{m.Model}
		}
	}
	// Calls in file order: each is its agent's, or makes one.
	shared := map[string]bool{}
	for _, tc := range t.Calls {
		c := r.call(tc)
		if tc.Agent != nil {
			a := r.byID[tc.Agent.ID]
			r.attach(a, c, link(tc.Agent, tc))
			if tc.Agent.MetaShared == 0 && tc.Agent.LinkedBy == "meta.json" && c.Result.AgentID != "" && c.Result.AgentID != a.ID {
				r.problem(a, c, "toolUseResult.agentId %q disagrees with the .meta.json link to %s", c.Result.AgentID, a.ID)
			}
			continue
		}
		for _, ta := range t.Agents {
			if ta.MetaShared > 1 && ta.Meta.ToolUseID == tc.ToolUseID && !shared[tc.ToolUseID] {
				shared[tc.ToolUseID] = true
				r.warn(c.File, c.Line, "%d .meta.json sidecars name %s call %s; none is linked", ta.MetaShared, c.Tool, c.ToolUseID)
			}
		}
		r.orphanCall(tc, c)
	}
	r.transcripts()
}

// link says how a call and its agent were linked, in the words of the
// JSON's "link" field.
func link(ta *tree.Agent, tc *tree.Call) string {
	if len(ta.Calls) > 0 && ta.Calls[0] != tc {
		if tc.ResultAgentID == ta.ID {
			return "agent_id"
		}
		return "resume"
	}
	switch ta.LinkedBy {
	case "meta.json":
		return "meta"
	case "toolUseResult":
		return "agent_id"
	case "parentUuid":
		return "parent_uuid"
	}
	return ta.LinkedBy // progress, prompt
}

// orphanCall places a call whose transcript the tree did not find: under
// the agent its result (or input.resume) names, which is missing, or
// alone. What the tree said of the agent its result names (a transcript
// not found, an agentId that cannot be a file name, one not read from
// standard input) is the agent's problem, in the tree's words and at its
// line: one fact, said alike by tree, show, tokens and agents.
func (r *reporter) orphanCall(tc *tree.Call, c *Call) {
	id, how := c.Result.AgentID, "agent_id"
	if id == "" && c.Input.Resume != "" {
		id, how = c.Input.Resume, "resume"
	}
	if id != "" {
		var a *Agent
		if session.SafeAgentID(id) {
			a = r.byID[id]
			if a == nil {
				a = r.agent(id, KindSubagent)
				how = ""
			} else if !a.hasTranscript {
				how = ""
			}
			if tc.Elsewhere != "" { // said on the first call naming it only
				a.elsewhere = tc.Elsewhere
				n := tc.ElsewhereNote()
				r.note(n.File, n.Line, "%s", n.Msg)
			}
			r.attach(a, c, how)
		} else {
			a = r.agent("", KindSubagent)
			r.attach(a, c, "")
			a.ID = id // shown, never looked up
		}
		switch w := tc.Unlinked; {
		case w != nil:
			a.said = true
			a.Problems = append(a.Problems, w.Msg)
			r.warn(w.File, w.Line, "%s", w.Msg)
		case !session.SafeAgentID(id):
			// Each such call is an agent of its own (never looked up), and
			// the tree said the id once: a later result naming it is said
			// in the same words, one input.resume alone names in its own.
			a.said = true
			file, line := resultLine(c)
			msg := reader.UnsafeAgentText(session.QuoteAgentID(id))
			if how == "resume" {
				msg = fmt.Sprintf("the Agent/Task call resumes agentId %s, which cannot be a file name: its transcript was not looked up", session.QuoteAgentID(id))
			}
			a.Problems = append(a.Problems, msg)
			r.warn(file, line, "%s", msg)
		}
		return
	}
	if n := r.sharedPrompt(tc); n > 1 {
		a := r.agent("", KindSubagent)
		r.attach(a, c, "")
		r.problem(a, c, "%d inline sidechains received this prompt; none is linked", n)
		return
	}
	r.attach(r.agent("", KindSubagent), c, "")
}

// sharedPrompt is how many inline sidechains received a call's prompt
// when the tree could not tell which one the call spawned.
func (r *reporter) sharedPrompt(tc *tree.Call) int {
	n := 0
	for _, ta := range r.t.Agents {
		if ta.Inline && ta.PromptShared > 0 && len(ta.Roots) > 0 && ta.Roots[0].PromptHash() == tc.Fact.PromptHash {
			n++
		}
	}
	return n
}

func (r *reporter) attach(a *Agent, c *Call, how string) {
	if len(a.Calls) == 0 {
		a.ParentID = c.ParentAgentID
		a.Link = how
	}
	a.Calls = append(a.Calls, c)
}

// call reads one call: its input from the line that made it, its result
// from the line that answered it.
func (r *reporter) call(tc *tree.Call) *Call {
	n := tc.Node
	c := &Call{ToolUseID: tc.ToolUseID, Tool: tc.Tool, Time: n.Timestamp(), File: n.File.Path, Line: n.Line}
	if n.Agent() != nil {
		c.ParentAgentID = n.Agent().ID
	}
	if raw, err := r.src.Line(n); err == nil {
		for _, b := range reader.Blocks(raw) {
			if b.Type == "tool_use" && b.ID == tc.ToolUseID {
				c.Input = reader.ParseAgentInput(b.Input)
				break
			}
		}
	}
	r.calls[tc] = c
	res := tc.Result
	if res == nil {
		return c
	}
	c.Answered, c.ResultTime, c.ResultFile, c.ResultLine = true, res.Timestamp(), res.File.Path, res.Line
	raw, err := r.src.Line(res)
	if err != nil {
		return c
	}
	for _, b := range reader.Blocks(raw) {
		if b.Type == "tool_result" && b.ToolUseID == tc.ToolUseID {
			c.IsError = b.IsError
			if b.IsError {
				c.ErrorText = errorText(b.Text)
			}
			break
		}
	}
	if len(res.ToolResults()) == 1 {
		c.Result = reader.ParseAgentResult(raw)
	}
	return c
}

// transcripts reads what each agent's own lines say: its tool calls, its
// first prompt, its SendMessage calls, and the task notifications of the
// whole session.
func (r *reporter) transcripts() {
	for _, a := range r.list {
		st := r.stats[a]
		if st == nil {
			continue
		}
		seen := map[string]bool{}
		for _, n := range st.node.Nodes {
			if n.IsConversation() {
				st.lastAssistant = n.Type == "assistant"
				st.apiError = n.Type == "assistant" && (n.Synthetic() || n.APIError)
			}
			for _, f := range n.ToolUses() {
				if f.ID == "" || seen[f.ID] {
					continue
				}
				seen[f.ID] = true
				st.toolUses++
				if f.Name == "SendMessage" {
					st.sent++
				}
			}
		}
		if first := st.node.FirstPrompt(); first != nil {
			if raw, err := r.src.Line(first); err == nil {
				st.firstPrompt = strings.TrimSpace(strings.Join(reader.Texts(raw), "\n"))
			}
		}
	}
	sent := map[string]bool{}
	for _, n := range r.t.Nodes {
		for _, f := range n.ToolUses() {
			if f.Name != "SendMessage" || f.ID == "" || sent[f.ID] {
				continue
			}
			sent[f.ID] = true
			raw, err := r.src.Line(n)
			if err != nil {
				continue
			}
			for _, b := range reader.Blocks(raw) {
				if b.Type == "tool_use" && b.ID == f.ID {
					if to := reader.SendMessageTarget(b.Input); to != "" {
						from := ""
						if n.Agent() != nil {
							from = n.Agent().ID
						}
						r.sends = append(r.sends, message{from: from, to: to, call: n})
					}
				}
			}
		}
		// A notice comes on a user line, or on the attachment line of a
		// queued input (2.1.2xx): both are user messages, read alike.
		if n.IsUser() && len(n.ToolResults()) == 0 && strings.Contains(n.Prompt(), "<task-notification>") {
			if raw, err := r.src.Line(n); err == nil {
				for _, text := range reader.Texts(raw) {
					if nt, ok := reader.TaskNotification(text); ok && nt.ID != "" {
						r.notices[nt.ID] = nt
					}
				}
			}
		}
	}
}

// tokens totals each agent's responses, keyed as tokens keys them.
func (r *reporter) tokens(prices *tokens.Prices) {
	usage := tokens.CountTree(r.t, "", "", prices)
	r.byAgt = map[string][]tokens.Response{}
	for _, rs := range usage.Responses() {
		if rs.AgentID == "" {
			r.res.Main.Add(&rs, prices)
			if _, ok := prices.Cost(&rs); !ok && !slices.Contains(r.res.MainUnpriced, rs.Model) {
				r.res.MainUnpriced = append(r.res.MainUnpriced, rs.Model)
			}
			continue
		}
		r.byAgt[rs.AgentID] = append(r.byAgt[rs.AgentID], rs)
	}
	var ids []string
	for id := range r.byAgt {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		rs := r.byAgt[id]
		a := r.byID[id]
		if a == nil {
			a = r.agent(id, KindSubagent)
			a.hasTranscript = true
			r.warn("", 0, "API responses are tagged with agent %s, which has no transcript file and no call", id)
		}
		a.Total = tokens.Sum(rs, prices)
		a.Models = models(rs)
	}
}

// finish fills what an agent's calls, transcript and responses say.
func (r *reporter) finish(a *Agent) {
	st := r.stats[a]
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
	if a.Prompt == "" && st != nil {
		a.Prompt = st.firstPrompt
	}
	if first == nil && st != nil && a.Kind == KindSubagent && a.Path != "" && st.node.Warmup {
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
	if st != nil {
		for _, n := range st.node.Nodes {
			if n.Timestamp().IsZero() {
				continue
			}
			if a.Started.IsZero() || n.Timestamp().Before(a.Started) {
				a.Started = n.Timestamp()
			}
			if n.Timestamp().After(a.Ended) {
				a.Ended = n.Timestamp()
			}
		}
	}
	if a.Started.IsZero() && first != nil {
		a.Started = first.Time
		a.Ended = a.Calls[len(a.Calls)-1].ResultTime
	}
	notice, notified := r.notice(a)
	if a.DurationMs == 0 && notified {
		a.DurationMs = notice.DurationMs // a background agent's launch reports none
	}
	if a.DurationMs == 0 && !a.Started.IsZero() && a.Ended.After(a.Started) {
		a.DurationMs = a.Ended.Sub(a.Started).Milliseconds()
	}
	if st != nil {
		a.ToolUses = st.toolUses
		a.MessagesSent = st.sent
	} else {
		for _, c := range a.Calls {
			a.ToolUses += int(c.Result.TotalToolUseCount)
		}
		if a.ToolUses == 0 && notified {
			a.ToolUses = int(notice.ToolUses)
		}
	}
	a.Status = r.status(a, st)
	if st != nil && st.unreadable {
		// Its numbers are not known: say why on its row (the file error
		// itself was reported when it was met).
		a.unreadable = true
		a.Problems = append(a.Problems, "transcript could not be read: "+a.Path)
	}
	r.checkTokens(a, st)
}

// status is what the last call's result says, corrected by what is on
// disk: a call that should have left a transcript and did not is
// missing_transcript; a transcript no call spawned is an orphan.
func (r *reporter) status(a *Agent, st *transcript) string {
	if len(a.Calls) == 0 {
		switch a.Kind {
		case KindCompaction, KindWarmup:
			switch {
			case st != nil && st.lastAssistant:
				return StatusCompleted
			case a.Kind == KindWarmup:
				return StatusNoReply
			}
			return StatusRunning // a compaction in progress, or cut short
		}
		switch {
		case a.Kind == KindSidechain:
			r.warn("", 0, "inline sidechain %s has no Task call with its prompt", a.ID)
		case r.t.MainDeleted != nil:
			r.unspawned++ // its call was in the main transcript deleted (or emptied), as its warning says
		default:
			r.warn(a.Path, 0, "no Agent/Task call spawned agent %s", a.ID)
		}
		return StatusOrphan
	}
	c := a.Calls[len(a.Calls)-1]
	s := CallStatus(c)
	if n, ok := r.notice(a); ok && n.Status != "" {
		s = knownStatus(n.Status)
	}
	if st != nil {
		if st.apiError && (s == StatusCompleted || s == StatusFailed) {
			return StatusAPIError
		}
		return s
	}
	switch s {
	case StatusCompleted, StatusBackground, StatusTeammate:
		// It ran (or was launched), so it wrote a transcript somewhere:
		// in the session this one resumed, when the call was replayed
		// (noted where the call was placed).
		if a.elsewhere != "" {
			return s
		}
		if !a.said { // the tree said nothing of it: its result names no agent, or only input.resume does
			file, line := resultLine(c)
			msg := fmt.Sprintf("%s call %s (%s): no transcript file or inline sidechain matches it", c.Tool, c.ToolUseID, s)
			if a.ID != "" {
				msg = fmt.Sprintf("the Agent/Task call resumes agent %s, but no transcript agent-%s.jsonl was found", a.ID, a.ID)
			}
			a.Problems = append(a.Problems, msg)
			r.warn(file, line, "%s", msg)
		}
		return StatusMissing
	}
	return s
}

// resultLine is where a call's missing transcript is said: its result's
// line, as the tree says it (tree.Call.Unlinked: the result names the
// agent, and says the status that makes a transcript expected); the
// call's own line when it has no result.
func resultLine(c *Call) (string, int) {
	if c.Answered {
		return c.ResultFile, c.ResultLine
	}
	return c.File, c.Line
}

// notice is the <task-notification> of a background agent: one whose
// last call's result only says it was launched. Claude Code injects the
// notice when the agent ends; it says how it ended, and its usage (the
// duration, tool calls and tokens the launch could not report).
func (r *reporter) notice(a *Agent) (reader.TaskNotice, bool) {
	if a.ID == "" || len(a.Calls) == 0 || CallStatus(a.Calls[len(a.Calls)-1]) != StatusBackground {
		return reader.TaskNotice{}, false
	}
	n, ok := r.notices[a.ID]
	return n, ok
}

// CallStatus is what one call's result says about its agent.
func CallStatus(c *Call) string {
	switch {
	case !c.Answered:
		return StatusRunning
	case c.IsError:
		// The first line says what happened ("[Request interrupted by user
		// for tool use]", "The user doesn't want to proceed with this tool
		// use. The tool use was rejected …"); the lines after it are
		// details, which may mention the words for another reason.
		first := strings.ToLower(firstLine(c.ErrorText))
		switch {
		case strings.Contains(first, "interrupted"):
			return StatusInterrupted
		case strings.Contains(first, "was rejected") || strings.Contains(first, "doesn't want to proceed"):
			return StatusRejected
		}
		return StatusFailed
	}
	return knownStatus(c.Result.Status)
}

// knownStatus maps a status Claude Code wrote (toolUseResult.status, a
// task notification's <status>) to one of the documented statuses. One it
// does not know is not printed as the transcript wrote it (it is content,
// and may hold anything): it is StatusOther, and the raw value stays in
// calls[].result_status.
func knownStatus(raw string) string {
	switch raw {
	case "", "completed":
		return StatusCompleted
	case "async_launched", "remote_launched":
		return StatusBackground
	case "teammate_spawned":
		return StatusTeammate
	case "failed", "error":
		return StatusFailed
	case "interrupted", "killed", "cancelled", "canceled", "stopped":
		return StatusInterrupted
	}
	return StatusOther
}

// checkTokens compares toolUseResult.totalTokens with the transcript.
// Claude Code reports the agent's last API call there (its final context
// plus output, with that call's usage), not a sum; the transcript should
// hold that call.
func (r *reporter) checkTokens(a *Agent, st *transcript) {
	var c *Call
	for _, x := range a.Calls {
		if x.Result.HasTotalTokens {
			c = x
		}
	}
	if c == nil {
		// A background agent's launch reports no tokens; its notice may.
		// They are shown, not checked against the transcript: no
		// transcript at hand holds a notified agent to check them by.
		if n, ok := r.notice(a); ok && n.Tokens > 0 {
			a.ReportedTokens, a.HasReportedTokens = n.Tokens, true
		}
		return
	}
	a.ReportedTokens, a.HasReportedTokens = c.Result.TotalTokens, true
	if st != nil && st.apiError && c.Result.TotalTokens == 0 {
		// It stopped on an API error or a rate limit: Claude Code reports
		// no tokens for it, and its transcript's calls are not that zero.
		r.note(c.File, c.Line, "agent %s ended on an API error: its %s result reports 0 tokens", a.ID, c.Tool)
		return
	}
	rs := r.byAgt[a.ID]
	if len(rs) == 0 {
		if st != nil && !st.unreadable && c.Result.TotalTokens > 0 {
			// An empty file (or one without a single response) where the
			// call says the agent spent tokens.
			a.TokenCheck = CheckMismatch
			r.problem(a, c, "the transcript of agent %s holds no API call, but its %s result reports %d tokens", a.ID, c.Tool, c.Result.TotalTokens)
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
		r.note(partial.File, partial.Line, "agent %s: the transcript kept a partial output count (%d) for its last API call; Claude Code reported %d output tokens (totalTokens %d)",
			a.ID, partial.Usage.Output, c.Result.Usage.Output, c.Result.TotalTokens)
	case CheckMismatch:
		r.problem(a, c, "toolUseResult.totalTokens %d of agent %s matches no API call in its transcript", c.Result.TotalTokens, a.ID)
	}
}

// messages counts SendMessage calls addressed to each agent's name. A
// name can be reused; a message goes to the newest agent of that name
// spawned before it, as Claude Code routes it.
func (r *reporter) messages() {
	for _, m := range r.sends {
		var to *Agent
		for _, a := range r.list {
			if a.Name == "" || a.Name != m.to || len(a.Calls) == 0 {
				continue
			}
			if !m.call.Timestamp().IsZero() && a.Calls[0].Time.After(m.call.Timestamp()) {
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

// MaxErrorRunes caps the error text kept for a call. The reason often comes
// after the first line ("InputValidationError: Task failed due to the
// following issue:\nThe required parameter `prompt` is missing"), so the
// whole text is kept, but a failed result can be long and one is held per
// call.
const MaxErrorRunes = 2000

// errorText is a tool_result error as a person reads it: without the
// <tool_use_error> tags Claude Code wraps it in, cut to MaxErrorRunes
// (ending in "…").
func errorText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<tool_use_error>")
	s = strings.TrimSuffix(s, "</tool_use_error>")
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxErrorRunes {
		s = string([]rune(s)[:MaxErrorRunes-1]) + "…"
	}
	return s
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
