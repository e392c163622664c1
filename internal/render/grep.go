package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cctx-dev/cctx/internal/search"
	"github.com/cctx-dev/cctx/internal/session"
)

// GrepOptions say how cctx grep's results are printed.
type GrepOptions struct {
	Mode search.Mode
	JSON bool
	// ShowPattern is the pattern as `cctx show --grep` reads it, Pattern as
	// typed (for --json).
	ShowPattern, Pattern string
	Fold                 bool
	Roles                []string
	Dirs                 []string // --dir values, repeated in the commands suggested
	Home                 string   // paths under it are shown with ~
	Now                  time.Time
	Context              int // -C: each hit's context_before and context_after, [] when none
}

// Grep prints each session's hits as the search yields them: on a
// terminal grouped under a header, with the match highlighted and the
// commands that open the session; in a pipe one tab-separated row per hit
// (session_id, uuid, timestamp, role, project, snippet, agent_id); or one
// JSON document. It reports whether any session had a hit.
func Grep(w io.Writer, results iter.Seq[*search.Result], ro Options, o GrepOptions) (bool, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	g := &grepView{w: bw, ro: ro, o: o}
	found := false
	if o.JSON {
		g.jsonStart()
	}
	for r := range results {
		if o.JSON {
			g.jsonSession(r, found)
		} else {
			g.session(r)
		}
		found = true
		if err := bw.Flush(); err != nil { // a session at a time: the output streams
			return found, err
		}
	}
	if o.JSON {
		g.jsonEnd(found)
	}
	return found, bw.Flush()
}

type grepView struct {
	w  *bufio.Writer
	ro Options
	o  GrepOptions
}

func (g *grepView) session(r *search.Result) {
	th := g.ro.Theme
	if !g.ro.TTY {
		switch g.o.Mode {
		case search.Sessions:
			fmt.Fprintf(g.w, "%s\t%s\n", grepTsvCell(r.Session.ID), grepTsvCell(grepTitle(r)))
		case search.Counts:
			fmt.Fprintf(g.w, "%s\t%d\n", grepTsvCell(r.Session.ID), r.Count)
		default:
			for _, h := range r.Hits {
				agent := h.AgentID
				fmt.Fprintf(g.w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", grepTsvCell(r.Session.ID), grepTsvCell(h.UUID), Timestamp(h.Time), h.Role,
					grepTsvCell(grepProject(r)), grepTsvCell(grepPlainSnippet(h)), grepTsvCell(agent))
			}
		}
		return
	}
	id := th.Cyan(shortID(r.Session.ID, true))
	if g.o.Mode == search.Sessions || g.o.Mode == search.Counts {
		// A row a session, in columns of fixed widths (the rows stream:
		// no width is known ahead): id, [count,] activity, project, title.
		head := id + "  "
		if g.o.Mode == search.Counts {
			head += fmt.Sprintf("%5d  ", r.Count)
		}
		when, place := g.metaCells(r)
		if when != "" {
			when = AgoCell(g.updated(r), g.o.Now)
		}
		head += th.Dim(grepPad(when, agoWidth)) + "  "
		// The project column as wide as the terminal leaves beside a
		// title of 20 (the same for every row: they stream), none when
		// under 8; the title takes the rest, one column to spare.
		if pw := min(grepPlaceWidth, g.ro.Width-1-StyledWidth(head)-2-20); pw >= 8 {
			head += th.Dim(grepPad(CutLeft(place, pw), pw)) + "  "
		}
		fmt.Fprintf(g.w, "%s%s\n", head, g.titleCell(r, g.ro.Width-1-StyledWidth(head)))
		return
	}
	g.header(r, id)
	day := grepSameDay(r)
	labels := make([]string, len(r.Hits))
	lw := 0
	for i, h := range r.Hits {
		labels[i] = grepLabel(h.AgentID, h.Role, h.Kind, h.Tool)
		lw = max(lw, Width(labels[i]))
		for _, c := range append(append([]search.Context{}, h.Before...), h.After...) {
			lw = max(lw, Width(grepLabel(h.AgentID, c.Role, c.Kind, c.Tool)))
		}
	}
	// A label takes at most a quarter of the terminal, and leaves the text
	// 10 columns beside the time: an agent's label (its id, a tool) is
	// cut, not the text the hit is about.
	if len(r.Hits) > 0 {
		timeW := Width(grepHitTime(r.Hits[0].Time, day))
		lw = min(lw, max(6, (g.ro.Width-1)/4), max(3, g.ro.Width-1-2-timeW-2-2-10))
	}
	for i, h := range r.Hits {
		for _, c := range h.Before {
			g.context(h.AgentID, c, day, lw)
		}
		g.hit(h, labels[i], day, lw)
		for _, c := range h.After {
			g.context(h.AgentID, c, day, lw)
		}
	}
	g.footer(r)
	fmt.Fprintln(g.w)
}

// header is a session's line above its hits: id, title, then project,
// last activity and hits, dim. It fits the terminal (one column to spare):
// the title keeps 20 columns while the project is cut from the left (as
// ls cuts it) down to 8, then left out; a terminal too narrow for even 10
// of title has the rest on a line of its own.
func (g *grepView) header(r *search.Result, id string) {
	th := g.ro.Theme
	when, place := g.metaCells(r)
	hits := grepPlural(r.Count, "hit")
	meta := func(pw int) string {
		parts := []string{}
		if pw > 0 {
			parts = append(parts, CutLeft(place, pw))
		}
		if when != "" {
			parts = append(parts, when)
		}
		return strings.Join(append(parts, hits), " · ")
	}
	fixed := Width(shortID(r.Session.ID, true)) + 4
	pw := min(32, Width(place))
	if when == "" {
		pw = Width(place) // standard input: the place is what it says
	}
	room := func() int { return g.ro.Width - 1 - fixed - Width(meta(pw)) }
	for pw > 8 && room() < 20 {
		pw--
	}
	if room() < 20 && when != "" {
		pw = 0
	}
	if room() < 10 {
		// The rest under the title, the project cut or left out as above.
		rest := g.ro.Width - 1 - (fixed - 2)
		pw = min(32, Width(place))
		for pw > 8 && Width(meta(pw)) > rest {
			pw--
		}
		if Width(meta(pw)) > rest && when != "" {
			pw = 0
		}
		fmt.Fprintf(g.w, "%s  %s\n", id, g.titleCell(r, rest))
		fmt.Fprintf(g.w, "%s%s\n", strings.Repeat(" ", fixed-2), th.Dim(Cut(meta(pw), rest)))
		return
	}
	fmt.Fprintf(g.w, "%s  %s  %s\n", id, g.titleCell(r, room()), th.Dim(meta(pw)))
}

// grepPlaceWidth is the project column of grep -l and -c on a terminal.
const grepPlaceWidth = 24

// metaCells are a session's last activity ("" on standard input) and
// project, safe for the terminal.
func (g *grepView) metaCells(r *search.Result) (when, place string) {
	if r.Session.Path == session.StdinPath {
		return "", "standard input"
	}
	p := grepProject(r)
	if p == "" {
		p = r.Session.ProjectKey()
	}
	return Ago(g.updated(r), g.o.Now), Safe(grepTilde(p, g.o.Home))
}

// updated is a session's last activity: its listing's, else its file's.
func (g *grepView) updated(r *search.Result) time.Time {
	if r.Info != nil {
		return r.Info.UpdatedAt
	}
	return r.Session.ModTime
}

// titleCell is the session's title cut to room columns (10 at least).
func (g *grepView) titleCell(r *search.Result, room int) string {
	t := Safe(g.ro.Redacted(grepTitle(r)))
	if t == "" {
		return g.ro.Theme.Dim(Cut("(untitled)", max(10, room)))
	}
	return g.ro.Theme.Bold(Cut(t, max(10, room)))
}

func (g *grepView) hit(h *search.Hit, lbl string, day bool, lw int) {
	th := g.ro.Theme
	lbl = grepPad(Cut(lbl, lw), lw)
	prefix := "  " + grepHitTime(h.Time, day) + "  " + lbl + "  "
	room := g.ro.Width - 1 - Width(prefix) // one column to spare
	var lead string
	if h.Abandoned {
		lead = "(abandoned branch) "
	}
	if h.Kind == "tool_use" {
		lead += h.Field + ": "
	}
	before, match, after := grepParts(h)
	lead = Cut(Safe(lead), max(0, min(room/2, room-10))) // the match keeps half the room, and 10 columns
	room -= Width(lead)
	fmt.Fprintf(g.w, "%s%s%s\n", th.Dim("  "+grepHitTime(h.Time, day)+"  ")+grepPaintRole(th, h.Role, lbl)+"  ",
		th.Dim(lead), grepFitAround(th, before, match, after, max(room, 10)))
}

// context prints a line around a hit (-C), set apart from the hits
// without colour too: "·" where a hit has a space (grep's "-" for ":").
// A text of only spaces is no context.
func (g *grepView) context(agent string, c search.Context, day bool, lw int) {
	th := g.ro.Theme
	if strings.TrimSpace(c.Excerpt) == "" && c.Kind != "tool_use" {
		return
	}
	lbl := grepLabel(agent, c.Role, c.Kind, c.Tool)
	prefix := "· " + grepHitTime(c.Time, day) + "  " + grepPad(Cut(lbl, lw), lw) + "  "
	lead := ""
	if c.Kind == "tool_use" {
		lead = c.Field + ": "
	}
	text := Safe(lead + grepOneLine(c.Excerpt))
	fmt.Fprintln(g.w, th.Dim(prefix+Cut(text, max(10, g.ro.Width-1-Width(prefix)))))
}

// footer suggests the commands that open the session: cctx show on the
// hits, and cctx resume.
func (g *grepView) footer(r *search.Result) {
	th := g.ro.Theme
	if r.Session.Path == session.StdinPath {
		return
	}
	show := []string{"cctx"}
	for _, d := range g.o.Dirs {
		show = append(show, "--dir", grepShellQuote(d))
	}
	show = append(show, "show", shortID(r.Session.ID, true))
	if r.Agents {
		show = append(show, "--agents")
	}
	if r.Thinking {
		show = append(show, "--thinking")
	}
	show = append(show, "--grep", grepShellQuote(g.o.ShowPattern))
	// The active branch's command only when a hit is on it (or in an
	// agent, which show --agents reaches from there): one that found
	// nothing was a dead end.
	onActive := false
	for _, h := range r.Hits {
		onActive = onActive || !h.Abandoned
	}
	if onActive {
		fmt.Fprintln(g.w, th.Dim("  → "+Safe(strings.Join(show, " "))))
	}
	if r.Abandoned {
		for _, h := range r.Hits {
			if h.Abandoned && h.UUID != "" {
				leaf := append(append([]string{}, show[:len(show)-2]...), "--leaf", shortID(h.UUID, true), "--grep", grepShellQuote(g.o.ShowPattern))
				fmt.Fprintln(g.w, th.Dim("  → "+Safe(strings.Join(leaf, " "))+"   (the abandoned branch)"))
				break
			}
		}
	}
	// Reopening it is cctx resume's (it knows the directory and the config
	// directory claude needs, or says why Claude Code cannot resume it).
	if !r.Session.Orphan && !r.Session.Archived {
		cctx := show[:1+2*len(g.o.Dirs)] // cctx and its --dir flags
		resume := append(append([]string{}, cctx...), "resume", shortID(r.Session.ID, true))
		fmt.Fprintln(g.w, th.Dim("  → "+Safe(strings.Join(resume, " "))))
	}
}

// parts are a hit's excerpt before its first match, the match, and after,
// each on one line.
func grepParts(h *search.Hit) (before, match, after string) {
	if len(h.Matches) == 0 {
		return grepOneLine(h.Excerpt), "", ""
	}
	s := min(max(h.Matches[0].Start-h.ExcerptAt, 0), len(h.Excerpt))
	e := min(max(h.Matches[0].End-h.ExcerptAt, s), len(h.Excerpt))
	before, match, after = grepOneLine(h.Excerpt[:s]), grepOneLine(h.Excerpt[s:e]), grepOneLine(h.Excerpt[e:])
	if h.ExcerptAt > 0 {
		before = "…" + strings.TrimLeft(before, " ")
	}
	if h.ExcerptAt+len(h.Excerpt) < h.TextBytes {
		after = strings.TrimRight(after, " ") + "…"
	}
	if strings.TrimSpace(before) == "" {
		before = ""
	}
	return before, match, after
}

// plainSnippet is a hit's excerpt on one line for a pipe: some text before
// the match, the match, some after.
func grepPlainSnippet(h *search.Hit) string {
	if h.Kind == "tool_use" {
		return Safe(h.Field) + ": " + grepSnippet(h, Safe)
	}
	return grepSnippet(h, Safe)
}

// snippet is a hit's excerpt on one line: some text before the match, the
// match, some after, each part passed through clean.
func grepSnippet(h *search.Hit, clean func(string) string) string {
	before, match, after := grepParts(h)
	return CutLeft(clean(before), 60) + clean(match) + Cut(clean(after), 100)
}

// fitAround fits before+match+after into room columns, keeping the match
// in view, and highlights it. Each part is made safe first: what a
// transcript holds is shown, never sent to the terminal as a sequence.
func grepFitAround(th Theme, before, match, after string, room int) string {
	before, match, after = Safe(before), Safe(match), Safe(after)
	mw := Width(match)
	if mw >= room {
		return th.Bold(th.Red(Cut(match, room)))
	}
	rest := room - mw
	wb, wa := Width(before), Width(after)
	if wb+wa > rest {
		give := min(wb, max(rest/3, rest-wa))
		before = CutLeft(before, give)
		after = Cut(after, rest-Width(before))
	}
	return before + th.Bold(th.Red(match)) + after
}

// oneLine folds runs of whitespace (newlines included) into one space.
func grepOneLine(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) && r != ' ' }) < 0 && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// label names who a text is from: the role, the tool for a tool call or
// its result, and the subagent.
func grepLabel(agent string, role search.Role, kind, tool string) string {
	l := string(role)
	switch {
	case kind == "tool_use" && tool != "":
		l = tool
	case kind == "tool_result" && tool != "":
		l = tool + " result"
	case kind == "tool_result":
		l = "tool result"
	}
	if agent != "" {
		l = "↳" + agent[:min(7, len(agent))] + " " + l
	}
	return Cut(Safe(l), 28)
}

func grepPaintRole(th Theme, r search.Role, s string) string {
	switch r {
	case search.RoleUser:
		return th.Green(s)
	case search.RoleAssistant:
		return th.Cyan(s)
	case search.RoleTool:
		return th.Yellow(s)
	}
	return th.Magenta(s)
}

func grepPad(s string, w int) string { return s + strings.Repeat(" ", max(0, w-Width(s))) }

// sameDay reports whether a session's hits (and context) are all on one
// local day: their times are then shown without the date.
func grepSameDay(r *search.Result) bool {
	var first string
	for _, h := range r.Hits {
		for _, t := range grepHitTimes(h) {
			if t.IsZero() {
				continue
			}
			d := t.Local().Format("2006-01-02")
			if first == "" {
				first = d
			} else if d != first {
				return false
			}
		}
	}
	return true
}

func grepHitTimes(h *search.Hit) []time.Time {
	ts := []time.Time{h.Time}
	for _, c := range h.Before {
		ts = append(ts, c.Time)
	}
	for _, c := range h.After {
		ts = append(ts, c.Time)
	}
	return ts
}

func grepHitTime(t time.Time, day bool) string {
	switch {
	case t.IsZero() && day:
		return "     "
	case t.IsZero():
		return strings.Repeat(" ", 16)
	case day:
		return t.Local().Format("15:04")
	}
	return t.Local().Format("2006-01-02 15:04")
}

func grepTitle(r *search.Result) string {
	if r.Info == nil {
		return ""
	}
	return r.Info.Title
}

func grepProject(r *search.Result) string {
	if r.Info == nil {
		return ""
	}
	return r.Info.Project
}

func grepPlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// tsvCell is a tab-separated field: safe, on one line, without tabs.
func grepTsvCell(s string) string { return Safe(grepOneLine(s)) }

func grepTilde(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func grepShellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("@%+=:,./_-", r)))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// The JSON document: {"schema_version", "pattern", ..., "sessions": [...]}.

type grepJSON struct {
	SchemaVersion int      `json:"schema_version"`
	Pattern       string   `json:"pattern"`
	IgnoreCase    bool     `json:"ignore_case"`
	Roles         []string `json:"roles"`
}

type grepSessionJSON struct {
	SessionID string        `json:"session_id"`
	Title     string        `json:"title"`
	Project   string        `json:"project"`
	Path      string        `json:"path"`
	StartedAt string        `json:"started_at"`
	UpdatedAt string        `json:"updated_at"`
	HitCount  int           `json:"hit_count"`
	Hits      []grepHitJSON `json:"hits,omitempty"`
}

type grepHitJSON struct {
	SessionID     string        `json:"session_id"`
	AgentID       *string       `json:"agent_id"`
	UUID          *string       `json:"uuid"`
	Timestamp     *string       `json:"timestamp"`
	Role          string        `json:"role"`
	Kind          string        `json:"kind"`
	Tool          *string       `json:"tool"`
	Field         string        `json:"field"`
	Abandoned     bool          `json:"abandoned"`
	File          string        `json:"file"`
	Line          int           `json:"line"`
	TextBytes     int           `json:"text_bytes"`
	Matches       []grepMatch   `json:"matches"`
	MoreMatches   bool          `json:"more_matches"`
	Snippet       string        `json:"snippet"`
	ContextBefore []grepContext `json:"context_before,omitzero"`
	ContextAfter  []grepContext `json:"context_after,omitzero"`
}

type grepMatch struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

type grepContext struct {
	UUID      *string `json:"uuid"`
	Timestamp *string `json:"timestamp"`
	Role      string  `json:"role"`
	Text      string  `json:"text"`
}

func (g *grepView) jsonStart() {
	head := g.marshal(grepJSON{SchemaVersion: SchemaVersion, Pattern: g.o.Pattern, IgnoreCase: g.o.Fold, Roles: g.o.Roles}, "")
	head = bytes.TrimSuffix(head, []byte("}"))
	head = bytes.TrimRight(head, "\n ")
	g.w.Write(head)
	if g.ro.TTY {
		g.w.WriteString(",\n  \"sessions\": [")
	} else {
		g.w.WriteString(`,"sessions":[`)
	}
}

func (g *grepView) jsonSession(r *search.Result, after bool) {
	s := grepSessionJSON{SessionID: r.Session.ID, Title: grepTitle(r), Project: grepProject(r), Path: r.Session.Path, HitCount: r.Count}
	if r.Info != nil {
		s.StartedAt, s.UpdatedAt = JSONTime(r.Info.StartedAt), JSONTime(r.Info.UpdatedAt)
	}
	if g.o.Mode == search.Hits {
		for _, h := range r.Hits {
			hj := grepHitOf(h)
			if g.o.Context > 0 && hj.ContextBefore == nil {
				hj.ContextBefore = []grepContext{}
			}
			if g.o.Context > 0 && hj.ContextAfter == nil {
				hj.ContextAfter = []grepContext{}
			}
			s.Hits = append(s.Hits, hj)
		}
	}
	if after {
		g.w.WriteByte(',')
	}
	if g.ro.TTY {
		g.w.WriteString("\n    ")
	}
	g.w.Write(g.marshal(s, "    "))
}

func (g *grepView) jsonEnd(found bool) {
	if g.ro.TTY {
		if found {
			g.w.WriteString("\n  ")
		}
		g.w.WriteString("]\n}\n")
		return
	}
	g.w.WriteString("]}\n")
}

func (g *grepView) marshal(v any, prefix string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if g.ro.TTY {
		enc.SetIndent(prefix, "  ")
	}
	enc.Encode(v) // plain structs: cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func grepHitOf(h *search.Hit) grepHitJSON {
	j := grepHitJSON{
		SessionID: h.SessionID, AgentID: grepOrNull(h.AgentID), UUID: grepOrNull(h.UUID), Timestamp: JSONTimeOrNull(h.Time),
		Role: string(h.Role), Kind: h.Kind, Tool: grepOrNull(h.Tool), Field: h.Field, Abandoned: h.Abandoned,
		File: h.File, Line: h.Line, TextBytes: h.TextBytes, MoreMatches: h.More, Snippet: grepSnippet(h, func(s string) string { return s }),
		Matches: make([]grepMatch, len(h.Matches)),
	}
	for i, m := range h.Matches {
		j.Matches[i] = grepMatch{Start: m.Start, End: m.End, Text: m.Text}
	}
	for _, c := range h.Before {
		j.ContextBefore = append(j.ContextBefore, grepContextJSON(c))
	}
	for _, c := range h.After {
		j.ContextAfter = append(j.ContextAfter, grepContextJSON(c))
	}
	return j
}

func grepContextJSON(c search.Context) grepContext {
	return grepContext{UUID: grepOrNull(c.UUID), Timestamp: JSONTimeOrNull(c.Time), Role: string(c.Role), Text: c.Excerpt}
}

func grepOrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
