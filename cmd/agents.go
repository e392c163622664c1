package cmd

import (
	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// AgentsOptions are the flags of cctx agents.
type AgentsOptions struct {
	F       *Factory
	Session string
	Pricing string
}

// NewCmdAgents builds `cctx agents`. runF replaces the run function in tests.
func NewCmdAgents(f *Factory, runF func(*AgentsOptions) error) *cobra.Command {
	o := &AgentsOptions{F: f}
	c := &cobra.Command{
		Use:   "agents <session>",
		Short: "A session's subagents: the call that spawned each, its transcript",
		Long: `Every subagent of a session, linked from the Agent/Task call that spawned it
to its transcript, nested agents under their parent.

Calls are read in the main transcript and, recursively, in each subagent's
transcript. A call is linked to its transcript by the .meta.json sidecar
(toolUseId), else by toolUseResult.agentId among the agent-<id>.jsonl files of
the session (both the <session>/subagents/ layout and the flat 2.0.x one),
else, for the inline sidechains of 1.0.x, by the exact prompt text. Nothing is
guessed: a call without a transcript is "missing_transcript", a transcript
that no call spawned is an "orphan", and an agentId that could not be a file
name is reported and never looked up. Compaction agents (agent-acompact-*)
and 2.0.x warm-up agents are spawned by Claude Code itself and listed with
their own type.

Status: completed, failed, interrupted, running (no result yet), background
(launched in background, no completion seen), teammate, no_reply (a warm-up
agent that got no reply: nothing waits for one), missing_transcript (also
each agent of a transcript read from "-": stdin brings no agent file), orphan.

Tokens, API calls and cost are deduplicated exactly as cctx tokens counts
them: an agent's numbers equal its row in "cctx tokens <session> --by agent".
toolUseResult.totalTokens (the size of the agent's last API call) is checked
against the transcript; a mismatch is a warning.

-v adds the first line of each prompt and the transcript's path.` + "\n\n" + render.PipeHelp(render.AgentsPipeTables),
		Example: `  cctx agents latest
  cctx agents b3ed -v
  cctx agents b3ed --json | jq '.agents[] | select(.usage_known) | .total'`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			if runF != nil {
				return runF(o)
			}
			return agentsRun(o)
		},
	}
	c.Flags().Var(flagval.New(&o.Pricing, flagval.File), "pricing", "price table `FILE` (JSON) instead of the embedded one")
	return c
}

func agentsRun(o *AgentsOptions) error {
	f := o.F
	prices, err := tokens.PricesFrom(o.Pricing)
	if err != nil {
		return &UsageError{Err: err}
	}
	// The model's own warnings (islands, cycles) are not this command's:
	// what concerns agents, it says itself.
	_, t, err := f.loadTree(o.Session, tree.OpenQuiet)
	if err != nil {
		return err
	}
	defer t.Close()
	res := agents.Report(t, nil, prices)
	rep := f.Report()
	for _, w := range res.Warnings {
		rep.Warn("%s", w.String())
	}
	for _, n := range res.Notes {
		rep.Note("%s", n.String())
	}
	f.warnPrices(res.UnpricedModels(prices), prices)

	if f.Globals.JSON {
		err = render.JSON(f.Out(), render.NewAgentsJSON(res), f.Render())
	} else {
		if len(res.Agents) == 0 && f.IO.IsStdoutTTY() {
			rep.Info("session %s has no subagents", res.SessionID)
		}
		err = render.Agents(f.Out(), res, f.Render(), f.Globals.Verbose)
	}
	if err != nil {
		return err
	}
	return f.Report().Unreadable()
}
