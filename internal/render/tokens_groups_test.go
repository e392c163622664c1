package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// On a terminal a total's calls are whole (as agents and the notes under
// the table give them), its tokens in human units; in a pipe every number
// is whole.
func TestTokenCells(t *testing.T) {
	tot := tokens.Total{APICalls: 3262, Input: 31400, Output: 2_400_000, CacheCreation: 999, CacheRead: 0, Tokens: 514_200_000}
	if got, want := tokenCells(tot, Options{TTY: true})[:6], []string{"3262", "31.4k", "2.4M", "999", "0", "514.2M"}; !slices.Equal(got, want) {
		t.Errorf("terminal: %q, want %q", got, want)
	}
	if got, want := tokenCells(tot, Options{})[:6], []string{"3262", "31400", "2400000", "999", "0", "514200000"}; !slices.Equal(got, want) {
		t.Errorf("pipe: %q, want %q", got, want)
	}
}

// --by tool on a terminal counts calls, errors and images whole, and
// gives bytes and tokens in human units.
func TestToolsTableCountsWhole(t *testing.T) {
	tr := &tokens.ToolReport{Tools: []tokens.ToolGroup{{Tool: "Bash", Calls: 1142, Errors: 1203, ResultBytes: 4_000_000, ResultImages: 1500}}}
	tr.Total = tr.Tools[0]
	var out bytes.Buffer
	if err := toolsTable(&out, tr, Options{TTY: true, Width: 200}); err != nil {
		t.Fatal(err)
	}
	row := strings.Fields(strings.Split(out.String(), "\n")[1])
	if want := []string{"Bash", "1142", "1203", "3.8", "MiB", "1M", "1500"}; !slices.Equal(row, want) {
		t.Errorf("row %q, want %q\n%s", row, want, out.String())
	}
}

// A cost at the most a total holds is said as "at least" (≥): the true
// cost of the crafted responses is more.
func TestCostTextAtTheCap(t *testing.T) {
	huge := tokens.Response{Model: "claude-opus-4-1", Usage: reader.Usage{Input: 1<<40 - 1, Output: 1<<40 - 1}}
	capped := tokens.Sum([]tokens.Response{huge, huge}, tokens.DefaultPrices())
	if got := costText(capped); got != "≥$9223372.04" {
		t.Errorf("capped: %q", got)
	}
	small := tokens.Sum([]tokens.Response{{Model: "claude-opus-4-1", Usage: reader.Usage{Input: 1000}}}, tokens.DefaultPrices())
	if got := costText(small); strings.HasPrefix(got, "≥") {
		t.Errorf("not capped: %q", got)
	}
}
