package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokenreport"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// TokensOptions are the flags of cctx tokens.
type TokensOptions struct {
	F        *Factory
	Sessions []string
	Project  string
	// The flags that say what to count and how: --by, --since, --until,
	// --pricing, --tz, --format, --watch and the --max-* budgets.
	tokens.Query

	// Context ends --watch; nil: Ctrl-C does.
	Context context.Context

	plan tokens.Plan // what the flags say, parsed by validate
}

// NewCmdTokens builds `cctx tokens`.
func NewCmdTokens(f *Factory, runF func(*TokensOptions) error) *cobra.Command {
	o := &TokensOptions{F: f}
	c := &cobra.Command{
		Use:   "tokens [<session>...]",
		Short: "Token usage per API call, deduplicated: totals, cost, budgets",
		Long: `Token usage per API response, counted once, with totals and cost.

Claude Code writes one API response as several lines that repeat its usage,
early ones with a partial output count. cctx counts each response once: by
(message.id, requestId), keeping the largest usage. Every response counts: on
abandoned branches, in inline sidechains and in subagent transcripts (each
attributed to its agent). Across several sessions a response that a resumed
session replays counts once, in the session that started first.

With one session: a row per response, then totals by agent and by model.
With several, or none (every session under the roots, narrowed by --project,
--since and --until): a row per session. --by chooses another grouping:
  model, agent, session, project, response
  hour, day, week, month   in --tz (default: local time; weeks start Monday)
  block        5-hour windows as Claude's plan limits count them: a block
               starts at the hour of its first message and lasts 5 hours;
               the next message after it starts the next block; the
               current block shows its time left, burn rate and projection
  agent-type   subagent types (general-purpose, Explore, …) across sessions
  tool         calls, errors and result size of each tool (MCP tools by
               server: mcp:<server>); result tokens are an estimate (bytes/4)

Cost comes from an embedded, dated price table (--pricing FILE replaces it,
see docs/pricing.md); a model priced by an estimate is flagged (~$).

Budgets make a CI job fail: when a --max-* limit is exceeded the report is
printed all the same, stderr names each budget, and cctx exits 3. Each
session is checked on its own, each group with --by (--by block: every
block), or the sum with --budget-total. Counts accept k, M and G suffixes.

--format markdown writes a table for $GITHUB_STEP_SUMMARY or a pull request,
budgets marked ✔/✘; --format ndjson streams the responses (--by response),
one JSON object a line. --watch redraws the current block (or --by day:
today) every 5 s (--watch=N: every N) until Ctrl-C; in a pipe one snapshot
per interval.` + "\n\n" + render.PipeHelp(render.TokensPipeTables),
		Example: `  cctx tokens latest
  cctx tokens --since 7d --by day
  cctx tokens --by block --since 2d            # 5-hour plan windows
  cctx tokens --watch                          # live view of the current block
  cctx tokens --by tool --since 7d             # which tool fills the context
  cctx tokens --by response --format ndjson > usage.ndjson
  cctx tokens --max-cost 20 --format markdown >> "$GITHUB_STEP_SUMMARY"
  cctx tokens "$SESSION" --max-cost 5 --max-context 150k   # exit 3 when over`,
		Args: argsBetween(0, -1),
		RunE: func(c *cobra.Command, args []string) (err error) {
			if o.Sessions, o.Watch, err = tokens.WatchArgs(f.Args, args, o.Watch); err != nil {
				return &UsageError{Err: err}
			}
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return tokensRun(o)
		},
	}
	o.addFlags(c)
	return c
}

func tokensRun(o *TokensOptions) error {
	switch {
	case o.plan.Interval > 0:
		return tokensWatch(o)
	case o.plan.Format == tokens.FormatNDJSON:
		return tokensStream(o)
	}
	f := o.F
	if o.plan.By != tokens.ByTool && o.plan.By != tokens.ByAgentType { // these build trees
		defer boundMemory(-1)() // collect near the limit only (docs/architecture.md, "Memory")
	}
	finder, inputs, err := o.inputs()
	if err != nil {
		return err
	}
	if err := o.plan.Budget.NothingChecked(len(inputs), func() bool {
		return len(o.Sessions) > 0 || (o.Project != "" || o.plan.Window != (tokens.Window{})) && len(finder.Recent("", 1)) > 0
	}, finder.Where()); err != nil {
		return err
	}
	// One session argument is a per-response report, whatever it holds.
	single := len(o.Sessions) == 1
	withResponses := single || o.plan.By == tokens.ByResponse
	ro := f.readOptions()
	ro.WriteBehind = true // while the report prints; Run waits for it (not --watch: its notes would land in a frame)
	f.holdSigpipe()
	res := tokenreport.Report(finder, inputs, o.plan.Prices, o.plan.Window, ro,
		tokenreport.Options{By: o.plan.By, Zone: o.plan.Zone, Detail: withResponses, DropEmpty: len(o.Sessions) == 0})
	f.warnPrices(res.UnpricedModels(), o.plan.Prices)
	if note := res.Total.UnderstatedNote(); note != "" {
		f.Report().Caveat(f.IO.IsStdoutTTY() && o.plan.Format == tokens.FormatTable || o.plan.Format == tokens.FormatJSON || f.Globals.JSON, "%s", note)
	}
	if n := res.MissingAgentCount(); n > 0 && o.plan.By == tokens.ByAgentType {
		f.Report().Info("%s without a transcript %s not among the runs (their type is in cctx agents <session>)", render.Plural(n, "agent", "agents"), map[bool]string{true: "is", false: "are"}[n == 1])
	}
	if arg := res.MissingAgentsArg(); arg != "" && f.IO.IsStdoutTTY() && !f.Globals.JSON {
		f.Report().Hint("cctx agents "+arg+" lists each Agent/Task call of a session with the transcript it left, or why there is none", nil)
	}
	scopes := o.plan.Budget.Scopes(res.Report, o.plan.By, o.Query.BudgetTotal || single && !o.plan.By.PerGroup())
	violations := o.plan.Budget.CheckScopes(scopes)
	unread := session.UnreadNote("transcript", f.Report().UnreadableFiles(), f.Report().UnreadableUTF16()) // a subagent's too
	if note := res.NothingNote(finder.Where(), session.Filters{Since: o.plan.Window.Since, Until: o.plan.Window.Until, Project: session.ProjectPath(o.Project, f.Env.Home), Now: f.Now(), Zone: o.plan.Zone}, f.IO.IsStdoutTTY(), unread); note != "" && res.Total.APICalls == 0 && o.plan.Format == tokens.FormatTable && !f.Globals.JSON {
		f.Report().Info("%s", note)
	}
	if err := o.print(res, withResponses, scopes, violations); err != nil {
		return err
	}
	if len(violations) > 0 {
		be := &BudgetError{} // the report was printed: Run says why, exits 3 (or 1)
		be.Lines, be.Unchecked = tokens.ViolationLines(violations)
		return be
	}
	// Counts that leave out a file are not an answer for the sessions the
	// user named, nor a budget that passed: that is an error. Over every
	// session (no budget), an unreadable file is a warning, as in ls.
	if len(o.Sessions) > 0 || o.plan.Budget.Set() {
		return f.Report().Unreadable()
	}
	return nil
}

// print writes the report in the chosen format.
func (o *TokensOptions) print(res tokenreport.Result, withResponses bool, scopes []tokens.Scope, violations []tokens.ScopedViolation) error {
	f := o.F
	ro := f.Render()
	switch {
	case o.plan.Format == tokens.FormatJSON:
		doc := render.NewTokensJSON(res.Report, o.plan.By, withResponses)
		if o.plan.Budget.Set() {
			doc.Budget = render.NewBudgetJSON(violations)
		}
		doc.AddCurrent(res.Report, o.plan.By, f.Now())
		doc.AddTools(res.Tools)
		return render.JSON(f.OutJSON(), doc, ro)
	case o.plan.Format == tokens.FormatMarkdown:
		return render.TokensMarkdown(f.Out(), res.Report, render.TokensOptions{By: o.plan.By, Tools: res.Tools}, o.plan.Budget.Lines(scopes), ro)
	}
	// A pipe gets one table: the responses, or the groups of --by.
	rows := withResponses && (f.IO.IsStdoutTTY() || o.plan.By == "" || o.plan.By == tokens.ByResponse)
	return render.Tokens(f.Out(), res.Report, ro, render.TokensOptions{By: o.plan.By, Responses: rows, Single: len(o.Sessions) == 1, Tools: res.Tools})
}

// tokensStream writes every response as a line of JSON as soon as its
// project folder is counted (--format ndjson).
func tokensStream(o *TokensOptions) error {
	f := o.F
	_, inputs, err := o.inputs()
	if err != nil {
		return err
	}
	out := render.NewNDJSON(f.OutJSON(), o.plan.Prices)
	if err := tokens.Stream(inputs, o.plan.Prices, o.plan.Window, f.readOptions(), out.Write); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if len(o.Sessions) > 0 {
		return f.Report().Unreadable()
	}
	return nil
}

// inputs are the sessions to count: those named, or every session under
// the roots (which must then all be there), narrowed by --project.
func (o *TokensOptions) inputs() (*session.Finder, []tokens.Input, error) {
	f := o.F
	find := f.Finder
	if len(o.Sessions) == 0 {
		find = f.listing
	}
	finder, err := find()
	if err != nil {
		return nil, nil, err
	}
	sel := tokens.Selection{Args: o.Sessions, Since: o.plan.Window.Since, Project: session.ProjectPath(o.Project, f.Env.Home), Cache: f.Cache()}
	inputs, err := tokens.Inputs(finder, sel)
	return finder, inputs, err
}
