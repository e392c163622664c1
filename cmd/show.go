package cmd

import (
	"context"
	"io"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/follow"
	"github.com/cctx-dev/cctx/internal/pager"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/search"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// ShowOptions are the flags of cctx show.
type ShowOptions struct {
	F       *Factory
	Session string

	Final        bool
	Tail         int
	Grep         string
	Leaf         string
	SinceCompact bool
	leafSet      bool           // --leaf was given (even empty)
	grep         *regexp.Regexp // --grep, compiled by validate
	All          bool
	Thinking     bool
	Full         bool
	Agents       bool
	Raw          bool
	NoPager      bool
	Follow       bool

	// Context ends --follow (nil: Ctrl-C); PollInterval is its period.
	Context      context.Context
	PollInterval time.Duration
}

// NewCmdShow builds `cctx show`.
func NewCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	o := &ShowOptions{F: f}
	c := &cobra.Command{
		Use:   "show <session>",
		Short: "Read a session: prompts, replies, tool calls and their results",
		Long: `Show the conversation a session ends on (its active path), across compactions.

Streaming lines of one API response are shown as one message, with the
response's usage (counted once, as cctx tokens counts it). Tool calls are
shown with a one-line summary and their result beneath (a few lines unless
--full), Edit calls as a diff, errors in red, images as placeholders.
Thinking is hidden (with its length) unless --thinking; meta, hook, system,
attachment and progress lines unless --all. A compaction is a divider with
the summary collapsed. Subagents are a one-line link under their call, or
with --agents their whole conversation indented under it.

On a terminal the output goes through a pager (CCTX_PAGER, PAGER, else
less -FRX; --no-pager turns it off). Control characters and escape
sequences from the transcript are shown visibly, never sent raw.

--json prints {"schema_version","session","messages"} with every message's
content blocks, deduplicated usage and the original entry (raw); --raw
prints the original JSONL lines of the shown entries (control characters
as JSON's \u escapes: the same JSON, nothing a terminal obeys). Both
honour --tail, --grep, --leaf, --since-compact, --all and --agents.`,
		Example: `  cctx show latest
  cctx show b3ed --tail 3 --thinking
  cctx show b3ed --grep 'migration' --full
  cctx show b3ed --final                 # the last reply's text, for scripts
  cctx show b3ed --json | jq '.messages[] | select(.usage) | .usage'
  cctx show b3ed --raw --since-compact > context.jsonl
  cctx show latest -f                    # follow a running session`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			o.leafSet = c.Flags().Changed("leaf")
			if err := o.validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return showRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.Final, "final", false, "print only the text of the last real API response")
	fl.IntVar(&o.Tail, "tail", 0, "show only the last `N` turns (a turn starts at a prompt or a compaction; 0: all)")
	fl.StringVar(&o.Grep, "grep", "", "show only turns whose text matches `REGEXP` (case-insensitive unless it has capitals)")
	fl.StringVar(&o.Leaf, "leaf", "", "show the branch ending at `UUID` (or a unique prefix) instead of the active one")
	fl.BoolVar(&o.SinceCompact, "since-compact", false, "show only what follows the last compaction")
	fl.BoolVar(&o.All, "all", false, "also show meta, hook, system, attachment and progress lines")
	fl.BoolVar(&o.Thinking, "thinking", false, "show thinking text")
	fl.BoolVar(&o.Full, "full", false, "show whole tool results, diffs and compaction summaries")
	fl.BoolVar(&o.Agents, "agents", false, "show subagent conversations inline under their call")
	fl.BoolVar(&o.Raw, "raw", false, "print the original JSONL lines of the shown entries")
	fl.BoolVar(&o.NoPager, "no-pager", false, "do not use a pager")
	fl.BoolVarP(&o.Follow, "follow", "f", false, "keep printing as the session grows (Ctrl-C stops)")
	return c
}

func (o *ShowOptions) validate() error {
	j := o.F.Globals.JSON
	switch {
	case o.Final && (j || o.Raw || o.Follow):
		return usageErrorf("--final prints text only: it cannot be combined with --json, --raw or --follow")
	case j && o.Raw:
		return usageErrorf("--json and --raw are two different outputs: choose one")
	case o.Follow && j:
		return usageErrorf("--follow cannot print one JSON document; use --raw --follow for a stream of JSONL lines")
	case o.Follow && o.Session == session.StdinPath:
		return usageErrorf("--follow needs a file: standard input cannot grow")
	case o.Final && (o.Grep != "" || o.Tail > 0 || o.SinceCompact):
		return usageErrorf("--final prints the last reply only: --grep, --tail and --since-compact do not apply to it")
	case o.Tail < 0:
		return usageErrorf("--tail must be 0 or more, not %d", o.Tail)
	case o.leafSet && o.Leaf == "":
		return usageErrorf("--leaf needs a uuid or a prefix of one (cctx tree lists the leaves)")
	}
	var err error
	if o.grep, err = search.GrepFlag(o.Grep); err != nil {
		return &UsageError{Err: err}
	}
	return nil
}

func showRun(o *ShowOptions) error {
	f := o.F
	if o.Follow {
		f.Report().Following() // the last line, if cut, is followed to its end
		// Reported if show ends before it follows (the pager closed, an
		// error); after following, this finds nothing left.
		defer f.Report().FollowEnded(false, nil)
	}
	open, counted := tokens.CountWhileOpening(tokens.DefaultPrices(), !o.Final) // --final needs no usage
	s, t, err := f.loadTree(o.Session, open)
	if err != nil {
		return err
	}
	defer t.Close()
	src := t.Source()
	defer src.Close()
	leaf, err := t.FindLeaf(o.Leaf)
	if err != nil {
		return &UsageError{Err: err}
	}
	if o.Final {
		return show.Final(f.Out(), t, leaf, src)
	}
	doc, err := show.New(t, src, tokens.DefaultPrices(), show.Options{
		Leaf: leaf, SinceCompact: o.SinceCompact, All: o.All, Agents: o.Agents, Tail: o.Tail, Grep: o.grep, Warn: f.Report().Warn, Title: s.Title(),
	}, o.redactor(), counted)
	if err != nil {
		return err
	}
	if doc.NoCompaction {
		f.Report().Info("no compaction on this branch: --since-compact shows all of it")
	}
	out, done := f.pager(o.NoPager || o.Follow, f.Globals.JSON || o.Raw)
	err = o.render(out, doc, src)
	if derr := done(); err == nil {
		err = derr
	}
	if err == nil && o.Follow {
		err = o.follow(out, s, t)
	}
	if pager.IsClosed(err) {
		return nil // the pager was closed: not an error
	}
	if err != nil {
		return err
	}
	if o.grep != nil && len(doc.Items) == 0 {
		// As grep: no match is exit 1 (what was printed is the header).
		f.Report().Info("no turn matches --grep %s", o.Grep)
		return &silentError{code: ExitError}
	}
	return f.Report().Unreadable()
}

// redactor is --redact's, or nil: show redacts each line as it reads it.
func (o *ShowOptions) redactor() *redact.Redactor {
	if !o.F.Globals.Redact {
		return nil
	}
	o.F.redactsItsInput()
	return o.F.redactor()
}

// render prints doc in the chosen format.
func (o *ShowOptions) render(w io.Writer, doc *show.Doc, src *tree.Source) error {
	f := o.F
	tty := f.IO.IsStdoutTTY()
	switch {
	case f.Globals.JSON || o.Raw:
		if o.Raw {
			return show.RenderRaw(w, doc, src)
		}
		return show.RenderJSON(w, doc, src, tty)
	}
	return show.RenderTerminal(w, doc, src, o.termOptions())
}

func (o *ShowOptions) termOptions() show.TermOptions {
	ro := o.F.Render()
	to := show.TermOptions{Theme: ro.Theme, Thinking: o.Thinking, Full: o.Full, Grep: o.grep}
	if ro.TTY {
		to.Width = ro.Width
	}
	return to
}

// follow prints what the session's files gain until Ctrl-C (or Context).
func (o *ShowOptions) follow(w io.Writer, s *session.Session, t *tree.Tree) error {
	f := o.F
	ctx, stop := untilInterrupt(o.Context)
	defer stop()
	finder, err := f.Finder()
	if err != nil {
		return err
	}
	fs := &follow.Session{Tree: t, Finder: finder, Session: s, All: o.All, Report: f.Report(), Interval: o.PollInterval}
	if red := o.redactor(); red != nil {
		fs.Redact = red.Bytes
	}
	p := show.NewFollowPrinter(w, o.Raw, o.termOptions())
	return fs.Run(ctx, p.Print)
}
