package cmd

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// LsOptions are the flags of cctx ls.
type LsOptions struct {
	F       *Factory
	Long    bool
	Project string
	Since   string
	Until   string
	Limit   int
	All     bool
	Empty   bool
}

// NewCmdLs builds `cctx ls`. runF replaces the run function in tests.
func NewCmdLs(f *Factory, runF func(*LsOptions) error) *cobra.Command {
	o := &LsOptions{F: f}
	c := &cobra.Command{
		Use:   "ls",
		Short: "List sessions across projects, newest activity first",
		Long: `List sessions across projects, newest activity first.

Each row shows the session id (a prefix of it works as a <session> argument),
when it was last active, its project (the cwd Claude Code recorded), git
branch, number of subagent transcripts, and its title: the custom title, else
the AI title, else the last prompt, else the summary, else the first prompt.
Running sessions show their state (working or idle).

Without --long only the first and last 64 KiB of each file are read, so the
listing stays fast on thousands of sessions; lines are not checked, and
--strict fails only on a file that cannot be read. --long reads every file to
count prompts, API calls (deduplicated) and tokens, subagents included; with
--strict it parses and checks every line.

Files without any conversation (empty, or only metadata) are left out unless
--empty is given.`,
		Example: `  cctx ls
  cctx ls -l --since 7d
  cctx ls --project ~/src/app --limit 10
  cctx ls --all --json | jq -r '.sessions[] | [.session_id, .title] | @tsv'`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrorf("%s takes no argument, got %q: to list the sessions run in a folder, use --project %s (see '%s --help')",
					c.CommandPath(), strings.Join(args, " "), args[0], c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			if o.Limit < 0 {
				return usageErrorf("--limit must be 0 or more")
			}
			if runF != nil {
				return runF(o)
			}
			return lsRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVarP(&o.Long, "long", "l", false, "also count prompts, API calls, tokens and size (reads every file)")
	fl.StringVar(&o.Project, "project", "", "only sessions whose cwd is `PATH` or inside it")
	fl.StringVar(&o.Since, "since", "", "only sessions active since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.StringVar(&o.Until, "until", "", "only sessions active until `DATE` (a bare date includes that day)")
	fl.IntVar(&o.Limit, "limit", 50, "show at most `N` sessions (0: all)")
	fl.BoolVarP(&o.All, "all", "a", false, "show every session (same as --limit 0)")
	fl.BoolVar(&o.Empty, "empty", false, "also list files without a conversation")
	return c
}

// lsRow is one session as the JSON output describes it.
type lsRow struct {
	SessionID   string  `json:"session_id"`
	Project     string  `json:"project"`
	ProjectKey  string  `json:"project_key"`
	Path        string  `json:"path"`
	Title       string  `json:"title"`
	TitleSource string  `json:"title_source"`
	FirstPrompt string  `json:"first_prompt"`
	StartedAt   string  `json:"started_at"`
	UpdatedAt   string  `json:"updated_at"`
	GitBranch   string  `json:"git_branch"`
	Version     string  `json:"version"`
	Subagents   int     `json:"subagents"`
	SizeBytes   int64   `json:"size_bytes"`
	Live        *lsLive `json:"live"`
	Prompts     *int    `json:"prompts,omitempty"`
	APICalls    *int    `json:"api_calls,omitempty"`
	TotalTokens *int64  `json:"total_tokens,omitempty"`
}

type lsLive struct {
	PID    int    `json:"pid"`
	Status string `json:"status"`
}

// lsStats are the --long counts of one session.
type lsStats struct {
	Prompts, APICalls int
	Tokens, Size      int64
}

func lsRun(o *LsOptions) error {
	f := o.F
	finder, err := f.listing()
	if err != nil {
		return err
	}
	dates, err := parseRange(o.Since, o.Until, f.Now())
	if err != nil {
		return err
	}
	lo := session.ListOptions{Since: dates.Since, Until: dates.Until, IncludeEmpty: o.Empty, Limit: o.Limit}
	if o.All {
		lo.Limit = 0
	}
	if o.Project != "" {
		lo.Project = projectPath(o.Project, f.Env.Home)
	}
	list := finder.List(lo)

	var stats []lsStats
	if o.Long {
		stats = make([]lsStats, len(list.Sessions))
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for i, in := range list.Sessions {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				stats[i] = sessionStats(f, finder, in.Session)
			}()
		}
		wg.Wait()
	}

	if f.Globals.JSON {
		rows := make([]lsRow, len(list.Sessions))
		for i, in := range list.Sessions {
			rows[i] = lsRow{
				SessionID: in.ID, Project: in.Project, ProjectKey: in.ProjectKey(), Path: in.Path,
				Title: in.Title, TitleSource: in.TitleSource, FirstPrompt: in.FirstPrompt,
				StartedAt: render.JSONTime(in.StartedAt), UpdatedAt: render.JSONTime(in.UpdatedAt),
				GitBranch: in.GitBranch, Version: in.Version, Subagents: in.Subagents, SizeBytes: in.Size,
			}
			if in.Live != nil {
				rows[i].Live = &lsLive{PID: in.Live.PID, Status: in.Live.Status}
			}
			if o.Long {
				st := stats[i]
				rows[i].Prompts, rows[i].APICalls, rows[i].TotalTokens = &st.Prompts, &st.APICalls, &st.Tokens
				rows[i].SizeBytes = st.Size
			}
		}
		if err := render.JSON(f.IO.Out, map[string]any{"schema_version": 1, "sessions": rows}, f.Render()); err != nil {
			return err
		}
		lsNotes(f, list, finder, o)
		return nil
	}

	ro := f.Render()
	th := ro.Theme
	cols := []string{"ID", "ACTIVE", "PROJECT", "BRANCH", "AGENTS>"}
	if o.Long {
		cols = append(cols, "PROMPTS>", "CALLS>", "TOKENS>", "SIZE>")
	}
	cols = append(cols, "TITLE")
	t := render.NewTable(ro, cols...)
	rows := make([][]string, len(list.Sessions))
	for i, in := range list.Sessions {
		row := lsCells(in, ro, f)
		if o.Long {
			st := stats[i]
			if ro.TTY {
				row = append(row, fmt.Sprint(st.Prompts), fmt.Sprint(st.APICalls), render.Count(st.Tokens), render.Bytes(st.Size))
			} else {
				row = append(row, fmt.Sprint(st.Prompts), fmt.Sprint(st.APICalls), fmt.Sprint(st.Tokens), fmt.Sprint(st.Size))
			}
		}
		rows[i] = row
	}
	tw := titleWidth(ro.Width, cols, rows)
	for i, in := range list.Sessions {
		title := render.Safe(in.Title)
		switch {
		case !ro.TTY:
		case title == "":
			when := in.StartedAt
			if when.IsZero() {
				when = in.UpdatedAt // no timestamp in the file: its last write
			}
			title = th.Dim("(untitled session of " + when.Local().Format("2006-01-02 15:04") + ")")
		default:
			title = render.Cut(title, tw)
		}
		t.Row(append(rows[i], title)...)
	}
	if err := t.Render(f.IO.Out); err != nil {
		return err
	}
	lsNotes(f, list, finder, o)
	return nil
}

// lsCells are the columns before the --long counts: id, activity, project,
// branch, subagents. A terminal gets short ids and relative times, a pipe
// full ids and RFC 3339.
func lsCells(in *session.Info, ro render.Options, f *Factory) []string {
	th := ro.Theme
	if !ro.TTY {
		// The data, as in JSON: no project when no line records a cwd.
		// Safe here too: a pipe often ends on a terminal (| less, | cat).
		return []string{in.ID, render.Timestamp(in.UpdatedAt), render.Safe(in.Project), render.Safe(in.GitBranch), fmt.Sprint(in.Subagents)}
	}
	project := in.Project
	if project == "" {
		project = in.ProjectKey() // a hint for people: the folder's name
	}
	active := render.Ago(in.UpdatedAt, f.Now())
	if in.Live != nil {
		switch in.Live.Status {
		case "working":
			active = th.Green("● working")
		default:
			active = th.Yellow("● " + in.Live.Status)
		}
	}
	agents := ""
	if in.Subagents > 0 {
		agents = fmt.Sprint(in.Subagents)
	}
	return []string{th.Cyan(in.ID[:min(8, len(in.ID))]), active,
		render.CutLeft(render.Safe(tildePath(project, f.Env.Home)), 32), render.Cut(render.Safe(in.GitBranch), 20), agents}
}

// titleWidth is what is left of the terminal for the last (title) column
// once the other columns have their widest cell and two spaces each.
func titleWidth(width int, header []string, rows [][]string) int {
	used := 0
	for c := range len(header) - 1 {
		w := render.Width(strings.TrimSuffix(header[c], ">"))
		for _, r := range rows {
			w = max(w, render.Width(stripANSI(r[c])))
		}
		used += w + 2
	}
	return max(20, width-used-1)
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func tildePath(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}

// projectPath turns a --project value into an absolute path.
func projectPath(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = filepath.Join(home, p[1:])
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// sessionStats reads a whole session with its subagents for ls --long.
func sessionStats(f *Factory, finder *session.Finder, s *session.Session) lsStats {
	var st lsStats
	agents := finder.Agents(s)
	st.Size = s.Size
	for _, a := range agents {
		st.Size += a.Size
	}
	c := tokens.NewCounter()
	o := reader.Options{OnIssue: f.Report().Line, Want: lsWanted}
	if f.Globals.Strict {
		o.Want = nil // every line validated, as tokens does
	}
	tokens.ReadSession(c, s, agents, o,
		func(e *reader.Entry, agent bool) {
			if !agent && isPrompt(e) {
				st.Prompts++
			}
		},
		f.Report().FileError)
	for _, r := range c.Responses() {
		st.APICalls++
		st.Tokens += r.Usage.Total()
	}
	return st
}

// lsWanted picks the lines ls --long reads: those a token counter needs
// and the user lines that may be typed prompts. Tool results, the bulk of
// a transcript, are skipped unparsed (and a long one is never held).
func lsWanted(line []byte) bool {
	if tokens.Wanted(line) {
		return true
	}
	typ, role, _ := reader.Peek(line)
	return (typ == "user" || role == "user") && !reader.StartsWithToolResult(line)
}

// isPrompt reports whether an entry is a prompt a person typed in the main
// conversation (see reader.Entry.IsTypedPrompt).
func isPrompt(e *reader.Entry) bool { return e.IsTypedPrompt() && !e.Sidechain }

// lsNotes says on stderr what the listing left out, in a pipe and in JSON
// too: a script that reads 50 rows should know there were more.
func lsNotes(f *Factory, list session.Listing, finder *session.Finder, o *LsOptions) {
	var notes []string
	if list.Matched > len(list.Sessions) {
		notes = append(notes, fmt.Sprintf("%d of %d sessions shown (--all shows every one)", len(list.Sessions), list.Matched))
	}
	if list.Empty > 0 && f.IO.IsStdoutTTY() {
		notes = append(notes, fmt.Sprintf("%d file(s) without conversation hidden (--empty)", list.Empty))
	}
	if list.Matched == 0 {
		switch {
		case list.Found > 0 && (o.Since != "" || o.Until != "" || o.Project != ""):
			notes = append([]string{fmt.Sprintf("none of the %d sessions found%s match --since, --until or --project", list.Found, finder.Where())}, notes...)
		case f.IO.IsStdoutTTY():
			notes = append([]string{"no sessions found" + finder.Where()}, notes...)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(f.IO.ErrOut, f.Render().Theme.Dim("cctx: "+n))
	}
}
