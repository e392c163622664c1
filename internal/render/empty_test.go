package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// An empty result writes no table on a terminal: no header over no row,
// no total of 0 (the command says on stderr why it is empty). A pipe
// writes its rows, of zeros for a session named; a report with tool calls
// (--by tool) is not empty.
func TestEmptyResultWritesNoTable(t *testing.T) {
	named := &tokens.Report{Prices: tokens.DefaultPrices(), Sessions: []*tokens.SessionReport{
		{Input: tokens.Input{Session: &session.Session{ID: "0d3b22c1-ba90-4fd3-b8d2-056ffc626725"}}, ID: "0d3b22c1-ba90-4fd3-b8d2-056ffc626725"},
	}}
	none := &tokens.Report{Prices: tokens.DefaultPrices()}
	tools := &tokens.ToolReport{Tools: []tokens.ToolGroup{{Tool: "Bash", Calls: 2}}, Total: tokens.ToolGroup{Calls: 2}}
	for _, tc := range []struct {
		name  string
		tty   bool
		write func(w *bytes.Buffer, o Options) error
		want  string // "" for nothing, else a part of the output
	}{
		{"ls, terminal", true, func(w *bytes.Buffer, o Options) error { return Ls(w, nil, nil, o) }, ""},
		{"ls --long, terminal", true, func(w *bytes.Buffer, o Options) error { return Ls(w, nil, []tokens.SessionStats{}, o) }, ""},
		{"ls, pipe", false, func(w *bytes.Buffer, o Options) error { return Ls(w, nil, nil, o) }, ""},
		{"tokens, terminal", true, func(w *bytes.Buffer, o Options) error { return Tokens(w, none, o, TokensOptions{}) }, ""},
		{"tokens --by day, terminal", true, func(w *bytes.Buffer, o Options) error { return Tokens(w, none, o, TokensOptions{By: tokens.ByDay}) }, ""},
		{"tokens, a session named, terminal", true, func(w *bytes.Buffer, o Options) error {
			return Tokens(w, named, o, TokensOptions{Responses: true, Single: true})
		}, ""},
		{"tokens, sessions named, pipe", false, func(w *bytes.Buffer, o Options) error { return Tokens(w, named, o, TokensOptions{}) }, "0d3b22c1-ba90-4fd3-b8d2-056ffc626725\t\t\t0\t0"},
		{"tokens --by tool with calls, terminal", true, func(w *bytes.Buffer, o Options) error {
			return Tokens(w, none, o, TokensOptions{By: tokens.ByTool, Tools: tools})
		}, "Bash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.write(&b, Options{TTY: tc.tty, Width: 100}); err != nil {
				t.Fatal(err)
			}
			if tc.want == "" && b.Len() > 0 || tc.want != "" && !strings.Contains(b.String(), tc.want) {
				t.Errorf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}
