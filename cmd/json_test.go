package cmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// timedSession has times written with trailing zeros dropped (".8Z", "Z",
// ".05Z"), as Claude Code's own lines may have them, and a failed Task call
// so that agents has a row.
var timedSession = []string{
	`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/tmp/proj","timestamp":"2026-02-11T21:41:44.8Z","message":{"role":"user","content":"go"}}`,
	`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/tmp/proj","timestamp":"2026-02-11T21:41:45Z","requestId":"r1","message":{"id":"m1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Task","input":{"description":"d","prompt":"p"}}],"usage":{"input_tokens":1,"output_tokens":2}}}`,
	`{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"11111111-2222-3333-4444-555555555555","cwd":"/tmp/proj","timestamp":"2026-02-11T21:41:46.05Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","is_error":true,"content":"<tool_use_error>boom</tool_use_error>"}]}}`,
}

// jsonTimes collects the values of the time fields of a JSON document,
// leaving out the transcript's own lines (show's raw and content).
func jsonTimes(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "raw", "content":
				continue
			case "timestamp", "started_at", "ended_at", "updated_at", "at":
				if s, ok := x.(string); ok && s != "" {
					*out = append(*out, s)
				}
				continue
			}
			jsonTimes(x, out)
		}
	case []any:
		for _, x := range v {
			jsonTimes(x, out)
		}
	}
}

// Every command writes every time of its --json in one layout: UTC with
// exactly three fractional digits.
func TestJSONTimesHaveMilliseconds(t *testing.T) {
	p := writeSession(t, timedSession...)
	dir := filepath.Dir(filepath.Dir(p))
	const (
		t44 = "2026-02-11T21:41:44.800Z"
		t45 = "2026-02-11T21:41:45.000Z"
		t46 = "2026-02-11T21:41:46.050Z"
	)
	layout := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	tests := []struct {
		cmd  []string
		want []string // times the document must hold
	}{
		{[]string{"ls"}, []string{t44, t46}},                // started_at, updated_at
		{[]string{"show", "1111"}, []string{t44, t45, t46}}, // session and messages
		{[]string{"tree", "1111"}, []string{t44, t45, t46}}, // nodes
		{[]string{"tokens", "1111"}, []string{t44, t45}},    // session started_at, response timestamp
		{[]string{"agents", "1111"}, []string{t45, t46}},    // started_at and calls[].at, ended_at
	}
	for _, tc := range tests {
		t.Run(tc.cmd[0], func(t *testing.T) {
			r := run(t, false, nil, append(append([]string{}, tc.cmd...), "--json", "--dir", dir)...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
			}
			var doc any
			if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			jsonTimes(doc, &got)
			for _, s := range got {
				if !layout.MatchString(s) {
					t.Errorf("time %q is not in the layout 2006-01-02T15:04:05.000Z", s)
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("no time %s among %v", w, got)
				}
			}
		})
	}
}

// A Task call that failed before spawning an agent has no agent id. In
// `tokens --by agent` the key "" is the main conversation, so agents must
// not write "" for it: a script joining the two would give the main
// conversation's tokens to the failed call.
func TestAgentsCallWithoutAnAgentHasNoID(t *testing.T) {
	p := writeSession(t, timedSession...)
	dir := filepath.Dir(filepath.Dir(p))

	js := run(t, false, nil, "agents", "--json", "--dir", dir, "1111")
	var doc struct {
		Agents []map[string]any `json:"agents"`
	}
	if err := json.Unmarshal([]byte(js.out), &doc); err != nil || len(doc.Agents) != 1 {
		t.Fatalf("exit %d, %v, agents %v", js.code, err, doc.Agents)
	}
	if id, present := doc.Agents[0]["agent_id"]; !present || id != nil {
		t.Errorf("--json agent_id = %#v (present %v), want null", id, present)
	}

	tests := []struct {
		name      string
		tty       bool
		wantFirst string // the row's first cell
	}{
		{"a pipe says - (an empty cell is the main conversation)", false, "-"},
		{"a terminal names the call", true, "(toolu_1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, tc.tty, map[string]string{"NO_COLOR": "1"}, "agents", "--dir", dir, "1111")
			lines := strings.Split(r.out, "\n")
			got := strings.Split(lines[0], "\t")[0]
			if tc.tty {
				got = strings.Fields(lines[1])[0] // under the header
			}
			if got != tc.wantFirst {
				t.Errorf("first cell %q, want %q; output:\n%s", got, tc.wantFirst, r.out)
			}
		})
	}
}

// Budgets in --json are numbers a script can compare: counts as integers,
// cost in USD. A cost budget that could not be checked (a model without a
// price) is listed apart, and a cost over its limit by its priced part
// alone is exceeded, as a lower bound.
func TestTokensBudgetJSONHasNumbers(t *testing.T) {
	unpriced := writeSession(t,
		`{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m1","role":"assistant","model":"mystery-model","content":[],"usage":{"input_tokens":1,"output_tokens":2}}}`)
	opusOnly := []string{"--dir", samples, "b3edadab", "--pricing", "testdata/prices-opus-only.json"}
	tests := []struct {
		name      string
		args      []string
		code      int
		exceeded  string // flag limit actual lower_bound, as written in the JSON
		unchecked string // flag limit reason
	}{
		{"tokens", []string{"--dir", samples, "b3edadab", "--max-tokens", "300k"}, ExitBudget, "--max-tokens 300000 363124 false", ""},
		{"output tokens", []string{"--dir", samples, "b3edadab", "--max-output-tokens", "1k"}, ExitBudget, "--max-output-tokens 1000 1740 false", ""},
		{"API calls", []string{"--dir", samples, "b3edadab", "--max-api-calls", "10"}, ExitBudget, "--max-api-calls 10 18 false", ""},
		{"context", []string{"--dir", samples, "b3edadab", "--max-context", "20k"}, ExitBudget, "--max-context 20000 22680 false", ""},
		{"cost in USD, no currency sign", []string{"--dir", samples, "b3edadab", "--max-cost", "$0.1"}, ExitBudget, "--max-cost 0.1 0.445957 false", ""},
		{"an unknown cost is not checked", []string{unpriced, "--max-cost", "1"}, ExitError, "", `--max-cost 1 "cost unknown: $0 priced, 1 call(s) of unpriced models; see --pricing"`},
		{"a priced part over the limit is a lower bound", append(opusOnly, "--max-cost", "0.1"), ExitBudget, "--max-cost 0.1 0.384592 true", ""},
		{"a priced part within the limit is not checked", append(opusOnly, "--max-cost", "100"), ExitError, "", `--max-cost 100 "cost unknown: $0.384592 priced, 3 call(s) of unpriced models; see --pricing"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, false, nil, append([]string{"tokens", "--json"}, tc.args...)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d, stderr %q", r.code, tc.code, r.errOut)
			}
			var doc struct {
				Budget struct {
					Exceeded []struct {
						Flag       string          `json:"flag"`
						Limit      json.RawMessage `json:"limit"`
						Actual     json.RawMessage `json:"actual"`
						LowerBound bool            `json:"lower_bound"`
					} `json:"exceeded"`
					Unchecked []struct {
						Flag   string          `json:"flag"`
						Limit  json.RawMessage `json:"limit"`
						Reason string          `json:"reason"`
					} `json:"unchecked"`
				} `json:"budget"`
			}
			if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
				t.Fatal(err)
			}
			var ex, un []string
			for _, e := range doc.Budget.Exceeded {
				ex = append(ex, fmt.Sprintf("%s %s %s %v", e.Flag, e.Limit, e.Actual, e.LowerBound))
			}
			for _, u := range doc.Budget.Unchecked {
				un = append(un, fmt.Sprintf("%s %s %q", u.Flag, u.Limit, u.Reason))
			}
			if strings.Join(ex, "|") != tc.exceeded || strings.Join(un, "|") != tc.unchecked {
				t.Errorf("exceeded %q, unchecked %q; want %q, %q", ex, un, tc.exceeded, tc.unchecked)
			}
		})
	}
}

// A line gjson reads but a strict parser refuses (a raw ESC or TAB inside
// a string) is still in show --json, written as \u escapes: one such line
// made the whole document fail with encoding/json's error.
func TestShowJSONWithRawControlBytes(t *testing.T) {
	p := writeSession(t,
		"{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"11111111-2222-3333-4444-555555555555\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"clear\x1b[2J\tscreen\"}}",
		"{\"type\":\"assistant\",\"uuid\":\"a1\",\"parentUuid\":\"u1\",\"sessionId\":\"11111111-2222-3333-4444-555555555555\",\"timestamp\":\"2026-11-22T10:00:01Z\",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"done\x07\"}],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}")
	r := run(t, false, nil, "show", "--json", p)
	var doc struct {
		Messages []struct {
			Raw     map[string]any   `json:"raw"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.out), &doc) != nil || len(doc.Messages) != 2 {
		t.Fatalf("exit %d, %d bytes, stderr %q", r.code, len(r.out), r.errOut)
	}
	if got := doc.Messages[0].Raw["message"].(map[string]any)["content"]; got != "clear\x1b[2J\tscreen" {
		t.Errorf("the raw line's text: %q", got)
	}
	if got := doc.Messages[1].Content[0]["text"]; got != "done\a" {
		t.Errorf("the block's text: %q", got)
	}
}
