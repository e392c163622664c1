package tokenreport

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

func corpusInputs(t *testing.T) (*session.Finder, []tokens.Input) {
	t.Helper()
	var roots []session.Root
	for _, d := range []string{"claude-code-log", "spotter", "kfischer-claude-history", "claude-code-viewer", "codemie", "claude-reliability"} {
		roots = append(roots, session.Root{ProjectsDir: testcorpus.Dir(d)})
	}
	f := session.NewFinder(roots, diag.Discard())
	ins, err := tokens.Inputs(f, tokens.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	return f, ins
}

// --by agent-type groups every response under the type cctx agents gives
// its agent; the groups add up to the total, and each subagent is a run.
func TestByAgentType(t *testing.T) {
	f, ins := corpusInputs(t)
	res := Report(f, ins, tokens.DefaultPrices(), tokens.Window{}, tokens.ReadOptions{}, Options{By: tokens.ByAgentType, DropEmpty: true})
	gs := res.GroupBy(tokens.ByAgentType)
	var sum tokens.Total
	got := map[string]int{}
	for _, g := range gs {
		sum.Merge(g.Total)
		got[g.Key] = g.Runs
	}
	if fmt.Sprintf("%+v", sum) != fmt.Sprintf("%+v", res.Total) {
		t.Errorf("groups sum to %+v, total %+v", sum, res.Total)
	}
	// What cctx agents says of each session, agent by agent.
	want := map[string]map[string]bool{}
	for _, sr := range res.Sessions {
		tr, err := tree.OpenQuiet(f, sr.Session, nil, diag.Discard())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range agents.Report(tr, nil, tokens.DefaultPrices()).Agents {
			if a.Total.APICalls > 0 {
				if want[a.Type] == nil {
					want[a.Type] = map[string]bool{}
				}
				want[a.Type][sr.ID+"/"+a.ID] = true
			}
		}
		tr.Close()
	}
	for typ, runs := range want {
		if got[typ] != len(runs) {
			t.Errorf("type %q: %d runs, cctx agents has %d", typ, got[typ], len(runs))
		}
	}
	for _, typ := range []string{tokens.MainType, "general-purpose", "Explore", "compaction", "solution-architect"} {
		if got[typ] == 0 {
			t.Errorf("no group %q: %v", typ, got)
		}
	}
	if got[tokens.UnknownType] != 0 {
		t.Errorf("%d agents of unknown type", got[tokens.UnknownType])
	}
}

// --by tool counts every tool call of the corpus once: the calls add up
// to the total, and to the tool_use blocks of the transcripts.
func TestByToolOnTheCorpus(t *testing.T) {
	f, ins := corpusInputs(t)
	res := Report(f, ins, tokens.DefaultPrices(), tokens.Window{}, tokens.ReadOptions{}, Options{By: tokens.ByTool})
	var calls int64
	for _, g := range res.Tools.Tools {
		calls += g.Calls
		if g.Tool == "" || filepath.Base(g.Tool) != g.Tool {
			t.Errorf("odd tool name %q", g.Tool)
		}
	}
	if calls != res.Tools.Total.Calls || calls < 100 {
		t.Errorf("calls %d, total %d", calls, res.Tools.Total.Calls)
	}
}
