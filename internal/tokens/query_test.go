package tokens

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestQueryParse(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	badPrices := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(badPrices, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		q       Query
		wantErr string // the whole message, or its start when it ends in …
		check   func(Plan) bool
	}{
		{name: "defaults", q: Query{}, check: func(p Plan) bool {
			return p.By == "" && p.Zone == time.Local && p.Format == FormatTable && !p.Budget.Set() && p.Window == (Window{}) && p.Interval == 0 && p.Prices != nil
		}},
		{name: "json", q: Query{JSON: true}, check: func(p Plan) bool { return p.Format == FormatJSON }},
		{name: "json and --format json", q: Query{JSON: true, Format: "json"}, check: func(p Plan) bool { return p.Format == FormatJSON }},
		{name: "by tool", q: Query{By: "tool"}, check: func(p Plan) bool { return p.By == ByTool }},
		{name: "by agent-type", q: Query{By: "agent-type"}, check: func(p Plan) bool { return p.By == ByAgentType }},
		{name: "bad by", q: Query{By: "colour"}, wantErr: `--by "colour": choose one of response, session, agent, model, hour, day, week, month, block, project, agent-type, tool`},
		{name: "bad tz", q: Query{TZ: "Mars/Base"}, wantErr: `--tz "Mars/Base": not a time zone…`},
		{name: "dates in --tz", q: Query{TZ: "Europe/Paris", Since: "2026-11-01"}, check: func(p Plan) bool {
			return p.Zone.String() == "Europe/Paris" && p.Window.Since.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, paris)) && p.Window.Until.IsZero()
		}},
		{name: "bad since", q: Query{Since: "someday"}, wantErr: `--since: cannot read "someday" as a date…`},
		{name: "until before since", q: Query{Since: "2026-11-02", Until: "2026-11-01"}, wantErr: "--until 2026-11-01 is before --since 2026-11-02"},
		{name: "budgets", q: Query{MaxTokens: "1.5M", MaxOutput: "2k", MaxContext: "150k", MaxCalls: "40", MaxCost: "$5"}, check: func(p Plan) bool {
			b := p.Budget
			return b.Tokens == 1_500_000 && b.Output == 2000 && b.Context == 150_000 && b.APICalls == 40 && b.CostUSD == 5
		}},
		{name: "one budget", q: Query{MaxCost: "0.5"}, check: func(p Plan) bool { return p.Budget.CostUSD == 0.5 && p.Budget.Tokens == -1 }},
		{name: "bad count", q: Query{MaxContext: "lots"}, wantErr: "--max-context: …"},
		{name: "bad calls", q: Query{MaxCalls: "x"}, wantErr: "--max-api-calls: …"},
		{name: "bad cost", q: Query{MaxCost: "five"}, wantErr: "--max-cost: …"},
		{name: "--budget-total without a budget", q: Query{BudgetTotal: true}, wantErr: "--budget-total checks the --max-* budgets against the sum of the sessions: give one too …"},
		{name: "--budget-total with one", q: Query{BudgetTotal: true, MaxCost: "20"}, check: func(p Plan) bool { return p.Budget.CostUSD == 20 }},
		{name: "budget before dates", q: Query{MaxTokens: "x", Since: "someday"}, wantErr: "--max-tokens: …"},
		{name: "bad format", q: Query{Format: "csv"}, wantErr: `--format "csv": choose one of table, json, markdown, ndjson`},
		{name: "json and markdown", q: Query{JSON: true, Format: "markdown"}, wantErr: "--json and --format markdown: choose one"},
		{name: "ndjson implies --by response", q: Query{Format: "ndjson"}, check: func(p Plan) bool { return p.Format == FormatNDJSON && p.By == ByResponse }},
		{name: "ndjson with another --by", q: Query{Format: "ndjson", By: "model"}, wantErr: "--format ndjson lists responses, not --by model: drop --by (or give --by response)"},
		{name: "ndjson with a budget", q: Query{Format: "ndjson", By: "response", MaxCost: "1"}, wantErr: "--format ndjson prints no totals to check budgets on: drop the --max-* flags, or use --format json"},
		{name: "ndjson", q: Query{Format: "ndjson", By: "response"}, check: func(p Plan) bool { return p.Format == FormatNDJSON }},
		{name: "watch", q: Query{Watch: "5"}, check: func(p Plan) bool {
			return p.Interval == 5*time.Second && p.By == ByBlock && p.Window.Since.Equal(now.Add(-WatchWindow))
		}},
		{name: "watch by day since", q: Query{Watch: "1.5", By: "day", Since: "2026-11-22"}, check: func(p Plan) bool {
			return p.Interval == 1500*time.Millisecond && p.By == ByDay && p.Window.Since.Equal(time.Date(2026, 11, 22, 0, 0, 0, 0, time.Local))
		}},
		{name: "watch too short", q: Query{Watch: "0.5"}, wantErr: `--watch "0.5": give the seconds between redraws, 1 or more`},
		{name: "watch not seconds", q: Query{Watch: "1e1"}, wantErr: `--watch "1e1": …`},
		{name: "watch too long", q: Query{Watch: "86401"}, wantErr: `--watch "86401": …`},
		{name: "watch by model", q: Query{Watch: "5", By: "model"}, wantErr: "--watch shows the current block or day: use it with --by block (the default) or --by day"},
		{name: "watch markdown", q: Query{Watch: "5", Format: "markdown"}, wantErr: "--watch redraws a status view: use it without --format markdown"},
		{name: "by tool on stdin", q: Query{By: "tool", Stdin: true}, wantErr: "--by tool reads each session twice: give the transcript as a file, not -"},
		{name: "by agent-type on stdin", q: Query{By: "agent-type", Stdin: true}, wantErr: "--by agent-type reads each session twice: …"},
		{name: "by model on stdin", q: Query{By: "model", Stdin: true}, check: func(p Plan) bool { return p.By == ByModel }},
		{name: "no pricing file", q: Query{Pricing: filepath.Join(t.TempDir(), "none.json")}, wantErr: "--pricing: …"},
		{name: "bad pricing file", q: Query{Pricing: badPrices}, wantErr: "--pricing: …"},
		{name: "pricing after the rest", q: Query{Pricing: badPrices, Format: "csv"}, wantErr: `--format "csv": …`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.q.Parse(now)
			if tc.wantErr != "" {
				want, prefix := strings.CutSuffix(tc.wantErr, "…")
				if err == nil || !prefix && err.Error() != want || prefix && !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !tc.check(p) {
				t.Fatalf("Parse = %+v, %v", p, err)
			}
		})
	}
}

func TestIsSeconds(t *testing.T) {
	for s, want := range map[string]bool{
		"2": true, "0.5": true, "30": true, "1234": true,
		"": false, "1e3": false, "NaN": false, "Inf": false, "0x10": false, "abcd": false, "5s": false,
	} {
		if got := IsSeconds(s); got != want {
			t.Errorf("IsSeconds(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestViolationLines(t *testing.T) {
	vs := []ScopedViolation{
		{Violation{Flag: "--max-cost", Limit: "1", Actual: "2"}, "total"},
		{Violation{Flag: "--max-cost", Limit: "1", Unknown: "x"}, "session abc"},
	}
	over, unchecked := ViolationLines(vs)
	if len(over) != 1 || !strings.HasPrefix(over[0], "total: ") || len(unchecked) != 1 || !strings.HasPrefix(unchecked[0], "session abc: ") {
		t.Errorf("ViolationLines = %q, %q", over, unchecked)
	}
	if over, unchecked := ViolationLines(nil); over != nil || unchecked != nil {
		t.Errorf("ViolationLines(nil) = %q, %q", over, unchecked)
	}
}

func TestPriceWarnings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		unpriced []string
		priced   []string // models looked up before: an estimated one is warned about
		want     []string // each warning's start
	}{
		{name: "none"},
		{name: "priced", priced: []string{"claude-sonnet-4-5-20250929"}},
		{name: "unpriced", unpriced: []string{"gpt-x", "llama"}, want: []string{"no price for model(s) gpt-x, llama: their cost is unknown (add them with --pricing FILE)"}},
		{name: "estimated", priced: []string{"claude-opus-9-9"}, want: []string{"model claude-opus-9-9 has no price: its cost is estimated at the "}},
		{name: "both", unpriced: []string{"gpt-x"}, priced: []string{"claude-opus-9-9"}, want: []string{"no price for model(s) gpt-x:", "model claude-opus-9-9 has no price"}},
	} {
		p := DefaultPrices()
		for _, m := range tc.priced {
			p.Model(m)
		}
		got := p.Warnings(tc.unpriced)
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], tc.want[i])
		}
		if !ok {
			t.Errorf("%s: Warnings = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestUnderstatedNote(t *testing.T) {
	for _, tc := range []struct {
		t    Total
		want string
	}{
		{Total{APICalls: 5}, ""},
		{Total{APICalls: 5, OutputUnderstated: 2}, "2 of 5 API calls kept only the usage they began streaming with (Claude Code 2.1.49 or older wrote no final count): their output tokens are understated"},
	} {
		if got := tc.t.UnderstatedNote(); got != tc.want {
			t.Errorf("UnderstatedNote(%+v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
