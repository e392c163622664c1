package cmd

import (
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/render"
)

// The tables that --help says a command prints in a pipe are the ones it
// prints: every row has the columns listed (with its bracketed ones
// exactly when they are said to be there), and --help lists them.
func TestPipeColumnsAreTheOnesHelpLists(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		table     render.PipeTable
		bracketed bool
	}{
		{[]string{"tokens"}, render.TokensPipeTables[0], false},
		{[]string{"tokens", "b3edadab"}, render.TokensPipeTables[1], false},
		{[]string{"tokens", "--by", "response"}, render.TokensPipeTables[1], true},
		{[]string{"tokens", "b3edadab", "--by", "response"}, render.TokensPipeTables[1], false},
		{[]string{"tokens", "--by", "model"}, render.TokensPipeTables[2], false},
		{[]string{"tokens", "--by", "day"}, render.TokensPipeTables[2], false},
		{[]string{"tokens", "--by", "agent-type"}, render.TokensPipeTables[2], true},
		{[]string{"tokens", "--by", "tool"}, render.TokensPipeTables[3], false},
		{[]string{"ls"}, render.LsPipeTables[0], false},
		{[]string{"ls", "--long"}, render.LsPipeTables[0], true},
		{[]string{"agents", "ef958aa1"}, render.AgentsPipeTables[0], false},
		{[]string{"agents", "-v", "ef958aa1"}, render.AgentsPipeTables[0], true},
	} {
		name := strings.Join(tc.args, " ")
		r := run(t, false, nil, append(tc.args, "--dir", samples)...)
		if r.code != 0 || r.out == "" {
			t.Errorf("%s: exit %d, %d bytes: %s", name, r.code, len(r.out), r.errOut)
			continue
		}
		want := tc.table.Fields(tc.bracketed)
		for i, line := range strings.Split(strings.TrimSuffix(r.out, "\n"), "\n") {
			if got := strings.Count(line, "\t") + 1; got != want {
				t.Errorf("%s: row %d has %d columns, --help lists %d (%s %v): %q", name, i+1, got, want, tc.table.Name, tc.table.Columns, line)
				break
			}
		}
	}
	for c, tables := range map[string][]render.PipeTable{"tokens": render.TokensPipeTables, "ls": render.LsPipeTables, "agents": render.AgentsPipeTables} {
		if help := run(t, false, nil, c, "--help").out; !strings.Contains(help, render.PipeHelp(tables)) {
			t.Errorf("%s --help does not list its tables in a pipe:\n%s", c, help)
		}
	}
}
