package cmd

import (
	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TreeOptions are the flags of cctx tree.
type TreeOptions struct {
	F       *Factory
	Session string
	Full    bool
	Agents  bool
}

// NewCmdTree builds `cctx tree`. runF replaces the run function in tests.
func NewCmdTree(f *Factory, runF func(*TreeOptions) error) *cobra.Command {
	o := &TreeOptions{F: f}
	c := &cobra.Command{
		Use:   "tree <session>",
		Short: "Show the branches, compactions and subagents of a session",
		Long: `Show the shape of a session: its uuid DAG as a compact tree.

Linear runs of entries are collapsed to one line with their count, time,
tokens and first prompt. Real forks (a rewind, an edited prompt, a
regenerated reply) show each branch; the active branch (the one the session
ends on) is marked with ●, abandoned ones with ○ and dimmed. Recording
artifacts (parallel tool results, progress and hook lines, chunks of one
response) are not forks and stay folded into their run. Compactions show as
junctions with their trigger and the tokens before them; subagents hang
under the run holding the tool call that spawned them. Islands (entries whose
parent is missing) and cycles are listed at the end.

--full shows every entry on its own line. --json prints a flat list of nodes.`,
		Example: `  cctx tree latest
  cctx tree b3ed --full
  cctx tree b3ed --agents=false
  cctx tree b3ed --json | jq -r '.nodes[] | select(.fork) | .uuid'`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			if runF != nil {
				return runF(o)
			}
			return treeRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.Full, "full", false, "show every entry, not collapsed runs")
	fl.BoolVar(&o.Agents, "agents", true, "show subagents under the tool calls that spawned them")
	return c
}

func treeRun(o *TreeOptions) error {
	f := o.F
	_, t, err := f.loadTree(o.Session, tree.Open)
	if err != nil {
		return err
	}
	defer t.Close()
	if f.Globals.JSON {
		err = render.JSON(f.Out(), render.NewTreeJSON(t, o.Agents), f.Render())
	} else {
		err = render.Tree(f.Out(), t, f.Render(), render.TreeOptions{Full: o.Full, Agents: o.Agents})
	}
	if err != nil {
		return err
	}
	return f.Report().Unreadable()
}
