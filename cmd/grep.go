package cmd

import (
	"errors"
	"strings"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/dates"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/search"
	"github.com/cctx-dev/cctx/internal/session"
)

// GrepOptions are the flags of cctx grep.
type GrepOptions struct {
	F        *Factory
	Pattern  string
	Sessions []string

	IgnoreCase, CaseSensitive, Fixed, Word bool

	Roles    []string
	Thinking bool

	FilesOnly, Count  bool
	MaxCount, Context int

	Project, Since, Until string
}

// NewCmdGrep builds `cctx grep`.
func NewCmdGrep(f *Factory, runF func(*GrepOptions) error) *cobra.Command {
	o := &GrepOptions{F: f}
	c := &cobra.Command{
		Use:     "grep PATTERN [<session>...]",
		Aliases: []string{"search"},
		Short:   "Find sessions by what was said in them, across every project",
		Long: `Search the text a person reads in sessions: typed prompts, replies, tool
calls (the command, file path, pattern, description and the other strings of
their input) and what the tools returned, in subagents too (marked as such).
Never JSON keys, ids, signatures, base64 data or token counts, nor the text
Claude Code writes itself (a slash command's expansion, which show --all
shows); text that JSON escaped ("quoted", C:\path, a line break) is found
as it reads.
--thinking also searches thinking; --role narrows it to user, assistant,
tool or thinking (repeatable).

PATTERN is a Go regular expression (RE2), ^ and $ at each line of a text;
all lower case means case-insensitive (smart case), -i and -s force it.
-F takes it as a fixed string, -w matches whole words.

Without a <session>, every session under the roots is searched (narrowed by
--project, --since and --until, as ls chooses them); --since and --until
also apply to the hits. Every branch is searched: a hit on a branch the
conversation left (a rewind, an edited prompt) says so.

On a terminal, hits are grouped by session, newest activity first, each on
one line cut around the match, with the commands that open the session.
In a pipe: one tab-separated line per hit: session_id, uuid, timestamp,
role, project, snippet, agent_id. -l lists the sessions only, -c counts.

Exit status: 0 a match was found, 1 none (or an error), 2 usage error.`,
		Example: `  cctx grep 'login bug'                   # which session was that?
  cctx grep --role tool 'docker compose'   # a command I ran
  cctx grep -F -l src/auth/session.go      # sessions that touched a file
  cctx grep -w TODO latest -C 1            # a message of context around hits
  cctx grep panic --json | jq -r '.sessions[].hits[].snippet'`,
		Args: argsBetween(1, -1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Pattern, o.Sessions = args[0], args[1:]
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return grepRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVarP(&o.IgnoreCase, "ignore-case", "i", false, "case-insensitive (the default for an all lower-case pattern)")
	fl.BoolVarP(&o.CaseSensitive, "case-sensitive", "s", false, "case-sensitive, even for an all lower-case pattern")
	fl.BoolVarP(&o.Fixed, "fixed-strings", "F", false, "PATTERN is a fixed string, not a regular expression")
	fl.BoolVarP(&o.Word, "word-regexp", "w", false, "match whole words only")
	fl.StringArrayVar(&o.Roles, "role", nil, "search only `ROLE` text: user, assistant, tool or thinking (repeatable)")
	fl.BoolVar(&o.Thinking, "thinking", false, "also search the model's thinking")
	fl.BoolVarP(&o.FilesOnly, "files-with-matches", "l", false, "list the sessions with a hit (and their titles) only")
	fl.BoolVarP(&o.Count, "count", "c", false, "print the number of hits per session")
	fl.IntVarP(&o.MaxCount, "max-count", "m", 0, "stop after `N` hits in a session (0: all)")
	fl.IntVarP(&o.Context, "context", "C", 0, "show `N` messages before and after each hit (terminal and --json)")
	fl.Var(flagval.New(&o.Project, flagval.Folder), "project", "only sessions whose cwd is `PATH` or inside it")
	fl.Var(dates.Date(&o.Since), "since", "only sessions and hits since `DATE` (2026-01-31, 12h, 7d, today)")
	fl.Var(dates.Date(&o.Until), "until", "only sessions and hits until `DATE` (a bare date includes that day)")
	return c
}

func (o *GrepOptions) validate() error {
	switch {
	case o.IgnoreCase && o.CaseSensitive:
		return usageErrorf("-i and -s contradict each other: choose one")
	case o.FilesOnly && o.Count:
		return usageErrorf("-l and -c are two different outputs: choose one")
	case o.MaxCount < 0:
		return usageErrorf("--max-count must be 0 or more, not %d", o.MaxCount)
	case o.Context < 0:
		return usageErrorf("--context must be 0 or more, not %d", o.Context)
	case o.Context > 0 && (o.FilesOnly || o.Count):
		return usageErrorf("--context shows hits: it does not go with -l or -c")
	case o.Pattern == "":
		return usageErrorf("the pattern is empty: it would match everything")
	}
	_, err := o.roles()
	return err
}

// roles reads --role (repeatable, or comma-separated) and --thinking.
func (o *GrepOptions) roles() (search.RoleSet, error) {
	set := search.RoleSet(0)
	for _, v := range o.Roles {
		for _, part := range strings.Split(v, ",") {
			r, ok := search.ParseRole(part)
			if !ok {
				return 0, usageErrorf("--role %q: choose user, assistant, tool or thinking", part)
			}
			set = set.With(r)
		}
	}
	if set == 0 {
		set = search.DefaultRoles
	}
	if o.Thinking {
		set = set.With(search.RoleThinking)
	}
	return set, nil
}

// pattern compiles PATTERN: case-insensitive when -i, or when it has no
// capital letter and -s is not given (smart case, as show --grep reads it).
func (o *GrepOptions) pattern() (*search.Pattern, error) {
	capital := search.HasCapital(o.Pattern)
	if o.Fixed {
		capital = strings.ContainsFunc(o.Pattern, unicode.IsUpper)
	}
	fold := o.IgnoreCase || !o.CaseSensitive && !capital
	p, err := search.Compile(o.Pattern, search.PatternOptions{Fold: fold, Fixed: o.Fixed, Word: o.Word})
	var pe *search.PatternError
	if errors.As(err, &pe) {
		return nil, usageErrorf("pattern %s: %v (a regular expression; -F takes it as it is)", search.QuotePattern(o.Pattern), pe)
	}
	return p, err
}

func grepRun(o *GrepOptions) error {
	f := o.F
	pat, err := o.pattern()
	if err != nil {
		return err
	}
	roles, _ := o.roles()
	window, err := dates.ParseRange(o.Since, o.Until, f.Now())
	if err != nil {
		return &UsageError{Err: err}
	}
	find := f.Finder
	if len(o.Sessions) == 0 {
		find = f.listing // every session: the roots must all be there
	}
	finder, err := find()
	if err != nil {
		return err
	}
	sel := search.Selection{Since: window.Since, Until: window.Until, Project: session.ProjectPath(o.Project, f.Env.Home)}
	targets, err := search.Targets(finder, o.Sessions, sel)
	if err != nil {
		return err
	}
	ro := f.Render()
	so, view := o.searchOptions(pat, roles, window, ro)
	var stats search.Stats
	so.Stats = &stats
	found, err := render.Grep(f.Out(), search.Run(finder, targets, so), ro, view)
	if err != nil {
		return err
	}
	f.Report().Note("searched %d session(s), %d file(s), %s; %d line(s) read past the prefilter %q",
		stats.Sessions, stats.Files, render.Bytes(stats.Bytes), stats.Lines, pat.Literals())
	if len(o.Sessions) > 0 {
		if err := f.Report().Unreadable(); err != nil {
			return err
		}
	}
	if !found { // as grep: exit 1; a terminal is also told, as ls and tokens tell it
		switch {
		case f.Globals.Redact && f.redactor().String(o.Pattern) != o.Pattern: // said on stderr masked too ("[EMAIL]")
			f.Report().Info("no match: the pattern is what --redact masks in the text searched, so it cannot be found; search without --redact")
		case f.IO.IsStdoutTTY() && !f.Globals.JSON:
			f.Report().Info("no match for %q in %d session file(s)", o.Pattern, stats.Sessions)
		}
		return &silentError{code: ExitError}
	}
	// Hits show their own "→ cctx resume" lines; stdin is not resumable.
	if f.IO.IsStdoutTTY() && !f.Globals.JSON && (o.FilesOnly || o.Count) && (len(targets) > 1 || targets[0].Session.Path != session.StdinPath) {
		f.Report().Hint("cctx resume <id> reopens a session in Claude Code, from the directory it ran in", nil)
	}
	return nil
}

// searchOptions are how the search runs and how its results print.
func (o *GrepOptions) searchOptions(pat *search.Pattern, roles search.RoleSet, window dates.Range, ro render.Options) (search.Options, render.GrepOptions) {
	f := o.F
	mode := search.Hits
	switch {
	case o.FilesOnly:
		mode = search.Sessions
	case o.Count:
		mode = search.Counts
	}
	so := search.Options{
		Pattern: pat, Roles: roles, Mode: mode, MaxCount: o.MaxCount, Since: window.Since, Until: window.Until,
		Details: mode == search.Hits && (ro.TTY || f.Globals.JSON), Context: o.Context, MatchText: f.Globals.JSON,
		Every: f.Globals.Strict, Report: f.Report(), Stdin: f.IO.In,
	}
	if f.Globals.Redact {
		so.Redact = f.redactor().Bytes
	}
	var names []string
	for _, r := range search.Roles {
		if roles.Has(r) {
			names = append(names, string(r))
		}
	}
	view := render.GrepOptions{
		Mode: mode, JSON: f.Globals.JSON, Pattern: o.Pattern, ShowPattern: pat.ShowPattern(),
		Fold: pat.Opts.Fold, Roles: names, Dirs: f.Globals.Dirs, Home: f.Env.Home, Now: f.Now(), Context: o.Context,
	}
	return so, view
}
