package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// Crafted sessions (cmd/testdata/prices). estimated: a response of a
// model that has no price of its own (claude-opus-6, estimated at the
// newest opus row, claude-opus-5-5: 1M input = $4) and one of a model that
// has (claude-opus-5, 100k output = $2.5): $6.5, estimated. models: a
// response of each model of issue 16, haiku-5-5 at 100,000 and 100,001
// prompt tokens, and ccusage's opus-5 session ($11.4790005).
const (
	estimatedDir  = "testdata/prices/estimated"
	estimatedPath = estimatedDir + "/-tmp-proj/11111111-2222-3333-4444-555555555555.jsonl"
	modelsDir     = "testdata/prices/models"
)

func estimatedSession(*testing.T) string { return estimatedPath }

const estimateWarning = "cctx: warning: model claude-opus-6 has no price: its cost is estimated at the claude-opus-5-5 rates (the newest opus in the price table; set one with --pricing FILE)\n"

// An estimated cost is checked by --max-cost: over the limit exit 3, under
// it exit 0; the estimate is said once on stderr.
func TestMaxCostOnAnEstimatedCost(t *testing.T) {
	s := estimatedSession(t)
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"over the limit", []string{"tokens", s, "--max-cost", "6"}, ExitBudget,
			estimateWarning + "cctx: budget exceeded: session 11111111-2222-3333-4444-555555555555: cost $6.50 (estimated) > $6 (--max-cost)\n"},
		{"under the limit", []string{"tokens", s, "--max-cost", "7"}, ExitOK, estimateWarning},
		{"a total over the limit", []string{"tokens", "--dir", estimatedDir, "--max-cost", "6.4", "--budget-total"}, ExitBudget,
			estimateWarning + "cctx: budget exceeded: session 11111111-2222-3333-4444-555555555555: cost $6.50 (estimated) > $6.4 (--max-cost)\n"},
		{"agents say it too", []string{"agents", s}, ExitOK, estimateWarning},
		{"--strict fails on it", []string{"tokens", s, "--strict"}, ExitError, estimateWarning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, false, nil, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tt.code, r.errOut)
			}
			if !strings.HasPrefix(r.errOut, tt.stderr) || tt.name != "--strict fails on it" && r.errOut != tt.stderr {
				t.Errorf("stderr %q, want %q", r.errOut, tt.stderr)
			}
		})
	}
}

// The JSON says which costs are estimated: the responses, every total
// that includes one, the budget, and pricing.estimated_models.
func TestEstimatedCostInJSON(t *testing.T) {
	s := estimatedSession(t)
	r := run(t, false, nil, "tokens", "--json", s, "--max-cost", "6")
	if r.code != ExitBudget {
		t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
	}
	type total struct {
		Cost      *float64 `json:"cost_usd"`
		Estimated bool     `json:"cost_estimated"`
	}
	var doc struct {
		Pricing struct {
			Estimated []struct {
				Model    string `json:"model"`
				PricedAs string `json:"priced_as"`
			} `json:"estimated_models"`
		} `json:"pricing"`
		Total    total `json:"total"`
		Sessions []struct {
			Models []struct {
				Model string `json:"model"`
				Total total  `json:"total"`
			} `json:"models"`
		} `json:"sessions"`
		Responses []struct {
			Model     string   `json:"model"`
			Cost      *float64 `json:"cost_usd"`
			Estimated bool     `json:"cost_estimated"`
		} `json:"responses"`
		Budget struct {
			Exceeded []struct {
				Actual    json.Number `json:"actual"`
				Estimated bool        `json:"estimated"`
			} `json:"exceeded"`
		} `json:"budget"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pricing.Estimated) != 1 || doc.Pricing.Estimated[0].Model != "claude-opus-6" || doc.Pricing.Estimated[0].PricedAs != "claude-opus-5-5" {
		t.Errorf("pricing.estimated_models %+v", doc.Pricing.Estimated)
	}
	if doc.Total.Cost == nil || *doc.Total.Cost != 6.5 || !doc.Total.Estimated {
		t.Errorf("total %+v", doc.Total)
	}
	for _, m := range doc.Sessions[0].Models {
		if m.Total.Estimated != (m.Model == "claude-opus-6") {
			t.Errorf("model %s: cost_estimated %v", m.Model, m.Total.Estimated)
		}
	}
	if len(doc.Responses) != 2 || !doc.Responses[0].Estimated || *doc.Responses[0].Cost != 4 || doc.Responses[1].Estimated || *doc.Responses[1].Cost != 2.5 {
		t.Errorf("responses %+v", doc.Responses)
	}
	if ex := doc.Budget.Exceeded; len(ex) != 1 || !ex[0].Estimated || ex[0].Actual != "6.5" {
		t.Errorf("budget.exceeded %+v", ex)
	}

	sh := run(t, false, nil, "show", "--json", s)
	if sh.code != ExitOK {
		t.Fatalf("show: exit %d, stderr %q", sh.code, sh.errOut)
	}
	var show struct {
		Session struct {
			Usage total `json:"usage"`
		} `json:"session"`
		Messages []struct {
			Model *string `json:"model"`
			Usage *struct {
				Cost      *float64 `json:"cost_usd"`
				Estimated bool     `json:"cost_estimated"`
			} `json:"usage"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(sh.out), &show); err != nil {
		t.Fatal(err)
	}
	if !show.Session.Usage.Estimated {
		t.Errorf("show: session usage not estimated")
	}
	n := 0
	for _, m := range show.Messages {
		if m.Usage != nil {
			n++
			if m.Usage.Estimated != (*m.Model == "claude-opus-6") {
				t.Errorf("show: %s cost_estimated %v", *m.Model, m.Usage.Estimated)
			}
		}
	}
	if n != 2 {
		t.Errorf("show: %d messages with usage, want 2", n)
	}
}

// A model without a family stays unpriced: no estimate, and --max-cost
// cannot be checked (exit 1), as before.
func TestNoEstimateWithoutAFamily(t *testing.T) {
	s := writeSession(t,
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","model":"gpt-4","content":[],"usage":{"input_tokens":1,"output_tokens":2}}}`)
	r := run(t, false, nil, "tokens", s, "--max-cost", "1")
	if r.code != ExitError || strings.Contains(r.errOut, "estimated") || !strings.Contains(r.errOut, "no price for model(s) gpt-4") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}

// A price file in the format before per-row sources and explicit cache
// rates still loads (--pricing).
func TestOldPricingFileLoads(t *testing.T) {
	r := run(t, false, nil, "tokens", "--dir", samples, "b3edadab", "--pricing", "../internal/tokens/testdata/prices-2026-11-01.json", "--json")
	if r.code != ExitOK || !strings.Contains(r.out, `"cost_usd": 0.445957`) && !strings.Contains(r.out, `"cost_usd":0.445957`) {
		t.Errorf("exit %d, stderr %q, stdout %.300s", r.code, r.errOut, r.out)
	}
}

// The price of each new model, and of an estimate, as the views print it.
func TestPriceViews(t *testing.T) {
	for _, tc := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"new-models-pipe", false, []string{"--dir", modelsDir, "--by", "response"}},
		{"new-models-terminal", true, []string{"--dir", modelsDir, "22222222"}},
		{"estimated-terminal", true, []string{"--dir", estimatedDir, "11111111"}},
		{"estimated-json", false, []string{"--dir", estimatedDir, "11111111", "--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.tty, nil, append([]string{"tokens", "--color", "never"}, tc.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			golden(t, "tokens/"+tc.name+".txt", r.out+"--- stderr\n"+r.errOut)
		})
	}
}
