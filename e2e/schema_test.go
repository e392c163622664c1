package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// jsonDoc is where the --json schemas are documented, relative to e2e/.
const jsonDoc = "../docs/json.md"

// The --json schemas of docs/json.md, field by field. A kind is "s"
// string, "n" number, "b" bool, "a" array, "o" object, with "?" when null
// is allowed. A field the output has and these schemas lack is an error
// too, and TestSchemasAreDocumented checks that docs/json.md names every
// field and value here: the output, the schemas and docs/json.md must not
// drift apart.
type schema map[string]string

var (
	lsSchema    = schema{"schema_version": "n", "sessions": "a"}
	liveSchema  = schema{"pid": "n", "status": "s"}
	totalSchema = schema{
		"input_tokens": "n", "output_tokens": "n", "cache_creation_input_tokens": "n",
		"cache_creation_5m_input_tokens": "n", "cache_creation_1h_input_tokens": "n",
		"cache_read_input_tokens": "n", "total_tokens": "n", "web_search_requests": "n",
		"api_calls": "n", "max_context_tokens": "n", "unpriced_api_calls": "n", "output_understated_calls": "n", "cost_usd": "n?",
		"cost_estimated": "b",
	}
	lsSessionSchema = schema{
		"session_id": "s", "project": "s", "project_key": "s", "path": "s", "title": "s",
		"title_source": "s", "first_prompt": "s", "started_at": "s", "updated_at": "s",
		"git_branch": "s", "version": "s", "subagents": "n", "size_bytes": "n", "live": "o?",
		"archived": "b", "main_transcript": "b",
	}
	lsLongExtra       = schema{"prompts": "n", "api_calls": "n", "total_tokens": "n"}
	tokensTopSchema   = schema{"schema_version": "n", "pricing": "o", "group_by": "s", "total": "o", "sessions": "a"}
	tokensOptional    = schema{"groups": "a", "responses": "a", "budget": "o", "current": "o", "tools": "a", "tools_total": "o"}
	pricingSchema     = schema{"date": "s", "unpriced_models": "a", "estimated_models": "a"}
	tokensSessSchema  = schema{"session_id": "s", "project": "s", "path": "s", "started_at": "s", "total": "o", "agents": "a", "models": "a", "missing_agent_transcripts": "a"}
	tokensAgentSchema = schema{"agent_id": "s", "total": "o"}
	tokensModelSchema = schema{"model": "s", "total": "o"}
	tokensGroupSchema = schema{"key": "s", "total": "o"}
	groupTimesSchema  = schema{"start": "s?", "end": "s?", "first_activity": "s?", "last_activity": "s?"}
	groupRunsSchema   = schema{"runs": "n"}
	currentSchema     = schema{
		"key": "s", "start": "s", "end": "s", "elapsed_seconds": "n", "remaining_seconds": "n", "total": "o",
		"tokens_per_hour": "n?", "cost_usd_per_hour": "n?", "projected_total_tokens": "n?", "projected_cost_usd": "n?",
	}
	toolSchema     = schema{"tool": "s", "calls": "n", "errors": "n", "result_bytes": "n", "result_images": "n", "estimated_result_tokens": "n"}
	responseSchema = schema{
		"timestamp": "s", "session_id": "s", "agent_id": "s", "model": "s", "message_id": "s", "request_id": "s",
		"input_tokens": "n", "output_tokens": "n", "cache_creation_input_tokens": "n",
		"cache_creation_5m_input_tokens": "n", "cache_creation_1h_input_tokens": "n",
		"cache_read_input_tokens": "n", "context_tokens": "n", "web_search_requests": "n",
		"speed": "s", "cost_usd": "n?", "cost_estimated": "b", "file": "s", "line": "n", "lines_merged": "n",
	}
	budgetSchema    = schema{"exceeded": "a", "unchecked": "a"}
	exceededSchema  = schema{"scope": "s", "flag": "s", "limit": "n", "actual": "n", "lower_bound": "b", "estimated": "b"}
	uncheckedSchema = schema{"scope": "s", "flag": "s", "limit": "n", "reason": "s"}
	treeSchema      = schema{"schema_version": "n", "session_id": "s", "active_leaf": "s?", "continues_from": "s?", "roots": "a", "leaves": "a", "nodes": "a", "warnings": "a"}
	treeNodeSchema  = schema{
		"uuid": "s", "parent_uuid": "s?", "logical_parent_uuid": "s?", "type": "s", "subtype": "s?",
		"timestamp": "s?", "agent_id": "s?", "message_id": "s?", "children": "a", "active": "b", "fork": "b",
		"bridged": "b", "foreign": "b",
	}
	agentsSchema     = schema{"schema_version": "n", "session_id": "s", "subagents": "n", "agents": "a", "main": "o", "warnings": "a"}
	agentEntrySchema = schema{
		"agent_id": "s?", "tool_use_id": "s", "parent_agent_id": "s", "depth": "n", "kind": "s",
		"subagent_type": "s", "description": "s", "name": "s", "team_name": "s", "prompt": "s",
		"model": "s", "models": "a", "status": "s", "background": "b", "path": "s", "meta_path": "s",
		"link": "s", "started_at": "s", "ended_at": "s", "duration_ms": "n", "api_calls": "n",
		"tool_uses": "n", "messages_sent": "n", "messages_received": "n", "total": "o", "usage_known": "b",
		"reported_total_tokens": "n?", "token_check": "s", "calls": "a", "problems": "a",
	}
	agentCallSchema = schema{
		"tool_use_id": "s", "tool": "s", "parent_agent_id": "s", "status": "s", "resume": "s",
		"background": "b", "error": "s", "file": "s", "line": "n", "at": "s", "result_agent_id": "s?",
		"result_status": "s", "reported_total_tokens": "n?", "reported_duration_ms": "n?", "reported_tool_uses": "n?",
	}
)

// Enumerations docs/json.md documents.
var (
	titleSources  = set("custom-title", "ai-title", "last-prompt", "summary", "first-prompt", "none")
	agentKinds    = set("subagent", "sidechain", "compaction", "warmup")
	agentStatuses = set("completed", "failed", "interrupted", "rejected", "api_error", "running", "background", "teammate", "no_reply", "missing_transcript", "orphan", "other")
	agentLinks    = set("meta", "agent_id", "progress", "parent_uuid", "prompt", "resume", "")
	tokenChecks   = set("ok", "final_usage_missing", "mismatch", "")
	liveStatuses  = set("working", "idle")
)

var (
	grepSchema        = schema{"schema_version": "n", "pattern": "s", "ignore_case": "b", "roles": "a", "sessions": "a"}
	grepSessionSchema = schema{"session_id": "s", "title": "s", "project": "s", "path": "s", "started_at": "s?", "updated_at": "s?", "hit_count": "n"}
	grepSessionHits   = schema{"hits": "a"}
	grepHitSchema     = schema{
		"session_id": "s", "agent_id": "s?", "uuid": "s?", "timestamp": "s?", "role": "s", "kind": "s", "tool": "s?", "field": "s",
		"abandoned": "b", "file": "s", "line": "n", "text_bytes": "n", "matches": "a", "more_matches": "b", "snippet": "s",
	}
	grepHitContext = schema{"context_before": "a", "context_after": "a"}
	grepMatch      = schema{"start": "n", "end": "n", "text": "s"}
	grepContext    = schema{"uuid": "s?", "timestamp": "s?", "role": "s", "text": "s"}
	grepRoles      = set("user", "assistant", "tool", "thinking")
	grepKinds      = set("text", "tool_use", "tool_result", "thinking")

	archiveSchema = schema{
		"schema_version": "n", "archive": "s", "files": "n", "new": "n", "extended": "n", "versioned": "n", "unchanged": "n", "empty": "n", "kept": "n",
		"failed": "n", "bytes_added": "n", "text_bytes": "n", "stored_bytes": "n", "compression_ratio": "n",
	}
	archiveStatusSchema = schema{
		"schema_version": "n", "archive": "s", "exists": "b", "last_run": "s?", "sessions": "n", "files": "n", "bytes": "n",
		"pending_sessions": "n", "pending_files": "n", "pending_bytes": "n", "cleanup_period_days": "n", "settings": "s",
		"at_risk": "a", "at_risk_sessions": "n", "at_risk_files": "n", "at_risk_bytes": "n", "text_bytes": "n", "stored_bytes": "n",
	}
	archiveRiskSchema = schema{"session": "s", "session_id": "s", "files": "a", "modified_at": "s", "deleted_after": "s", "pending_bytes": "n"}
)

func set(vs ...string) map[string]bool {
	m := map[string]bool{}
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// check compares one JSON object with a schema; optional fields may be
// absent. It returns the differences, each prefixed with where.
func (s schema) check(where string, v any, optional ...schema) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: not an object: %T", where, v)}
	}
	var errs []string
	allowed := map[string]string{}
	for k, kind := range s {
		allowed[k] = kind
		if _, ok := obj[k]; !ok {
			errs = append(errs, fmt.Sprintf("%s: field %q missing", where, k))
		}
	}
	for _, o := range optional {
		for k, kind := range o {
			allowed[k] = kind
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kind, ok := allowed[k]
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: field %q is not documented in docs/json.md", where, k))
			continue
		}
		if !kindOK(kind, obj[k]) {
			errs = append(errs, fmt.Sprintf("%s.%s: want %s, got %T %v", where, k, kind, obj[k], obj[k]))
		}
	}
	return errs
}

func kindOK(kind string, v any) bool {
	if v == nil {
		return strings.HasSuffix(kind, "?")
	}
	switch strings.TrimSuffix(kind, "?") {
	case "s":
		_, ok := v.(string)
		return ok
	case "n":
		_, ok := v.(float64)
		return ok
	case "b":
		_, ok := v.(bool)
		return ok
	case "a":
		_, ok := v.([]any)
		return ok
	case "o":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

// decode parses one JSON document that must be the whole of stdout, on a
// single line (compact in a pipe, as docs/json.md says).
func decode(t *testing.T, r result) map[string]any {
	t.Helper()
	if strings.Count(strings.TrimSuffix(r.stdout, "\n"), "\n") != 0 {
		t.Errorf("JSON in a pipe should be compact, one line; got %d lines", strings.Count(r.stdout, "\n"))
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, r)
	}
	if v["schema_version"] != float64(1) {
		t.Errorf("schema_version = %v, want 1", v["schema_version"])
	}
	return v
}

func report(t *testing.T, errs []string) {
	t.Helper()
	const most = 25
	for i, e := range errs {
		if i == most {
			t.Errorf("… and %d more", len(errs)-most)
			break
		}
		t.Error(e)
	}
}

func objs(v any) []map[string]any {
	a, _ := v.([]any)
	var out []map[string]any
	for _, x := range a {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// isJSONTime: docs/json.md, every --json time is UTC with exactly three
// fractional digits (2026-02-11T21:41:44.800Z), in every command.
func isJSONTime(s string) bool {
	const layout = "2006-01-02T15:04:05.000Z"
	t, err := time.Parse(layout, s)
	return err == nil && t.Format(layout) == s
}

func num(v any) int64 { f, _ := v.(float64); return int64(f) }

// The checker itself must catch drift, or every schema test passes for
// nothing.
func TestSchemaCheckCatchesDrift(t *testing.T) {
	s := schema{"a": "s", "b": "n?"}
	tests := []struct {
		doc  string
		errs int
	}{
		{`{"a":"x","b":null}`, 0},
		{`{"a":"x","b":1}`, 0},
		{`{"a":"x"}`, 1},                // missing
		{`{"a":"x","b":1,"c":true}`, 1}, // undocumented
		{`{"a":1,"b":"1"}`, 2},          // wrong kinds
		{`{"a":null,"b":null}`, 1},      // null where not allowed
	}
	for _, tt := range tests {
		var v any
		if err := json.Unmarshal([]byte(tt.doc), &v); err != nil {
			t.Fatal(err)
		}
		if got := s.check("x", v); len(got) != tt.errs {
			t.Errorf("%s: %d errors %q, want %d", tt.doc, len(got), got, tt.errs)
		}
	}
}

// docSections splits docs/json.md at its "## " headings: heading (without
// backquotes) → the text under it.
func docSections(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(jsonDoc)
	if err != nil {
		t.Fatalf("the --json schemas are documented in docs/json.md: %v", err)
	}
	out := map[string]string{}
	head := ""
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			head = strings.ReplaceAll(strings.TrimSpace(h), "`", "")
			continue
		}
		out[head] += line
	}
	return out
}

// undocumented lists the fields of the schemas that a section of
// docs/json.md does not name: as `field`, "field" (jsonc) or `a[].field`.
func undocumented(section string, schemas ...schema) []string {
	var missing []string
	for _, s := range schemas {
		for k := range s {
			if !regexp.MustCompile("[`\".]" + regexp.QuoteMeta(k) + "[`\"]").MatchString(section) {
				missing = append(missing, k)
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// unnamed lists the values of enumerations that a section does not name.
func unnamed(section string, enums ...map[string]bool) []string {
	var missing []string
	for _, e := range enums {
		for v := range e {
			if v != "" && !regexp.MustCompile(`(^|[^a-z_-])`+regexp.QuoteMeta(v)+`([^a-z_-]|$)`).MatchString(section) {
				missing = append(missing, v)
			}
		}
	}
	sort.Strings(missing)
	return missing
}

// The schemas above are those of docs/json.md: every field and every
// enumerated value they allow is named in the section of its command.
func TestSchemasAreDocumented(t *testing.T) {
	sections := docSections(t)
	tests := []struct {
		section string
		schemas []schema
		enums   []map[string]bool
	}{
		{"cctx ls --json", []schema{lsSchema, lsSessionSchema, lsLongExtra, liveSchema}, []map[string]bool{titleSources, liveStatuses}},
		{"cctx tokens --json", []schema{tokensTopSchema, tokensOptional, pricingSchema, totalSchema, tokensSessSchema,
			tokensAgentSchema, tokensModelSchema, tokensGroupSchema, groupTimesSchema, groupRunsSchema, currentSchema, toolSchema,
			responseSchema, budgetSchema, exceededSchema, uncheckedSchema}, nil},
		{"cctx tree --json", []schema{treeSchema, treeNodeSchema}, nil},
		{"cctx agents --json", []schema{agentsSchema, agentEntrySchema, agentCallSchema}, []map[string]bool{agentKinds, agentStatuses, agentLinks, tokenChecks}},
		{"cctx grep --json", []schema{grepSchema, grepSessionSchema, grepSessionHits, grepHitSchema, grepHitContext, grepMatch, grepContext}, []map[string]bool{grepRoles, grepKinds}},
		{"cctx archive --json", []schema{archiveSchema, archiveStatusSchema, archiveRiskSchema}, nil},
	}
	for _, tt := range tests {
		text, ok := sections[tt.section]
		if !ok {
			t.Errorf("docs/json.md has no section \"## `%s`\"", tt.section)
			continue
		}
		if m := undocumented(text, tt.schemas...); len(m) > 0 {
			t.Errorf("docs/json.md, %s: fields not documented: %s", tt.section, strings.Join(m, ", "))
		}
		if m := unnamed(text, tt.enums...); len(m) > 0 {
			t.Errorf("docs/json.md, %s: values not documented: %s", tt.section, strings.Join(m, ", "))
		}
	}
	// The check itself catches a field or a value the text does not name.
	if m := undocumented("`a`, \"b\": 1, `x[].c`, d", schema{"a": "s", "b": "n", "c": "s", "d": "s"}); len(m) != 1 || m[0] != "d" {
		t.Errorf("undocumented = %q, want [d]", m)
	}
	if m := unnamed("`on` | off", set("on", "off", "of", "")); len(m) != 1 || m[0] != "of" {
		t.Errorf("unnamed = %q, want [of]", m)
	}
}

func TestLsJSON(t *testing.T) {
	for _, long := range []bool{false, true} {
		t.Run(fmt.Sprintf("long=%v", long), func(t *testing.T) {
			args := []string{"ls", "--dir", samples, "--all", "--json"}
			if long {
				args = append(args, "--long")
			}
			r := cctx(t, args...)
			expect(t, r, 0, "ls --json")
			v := decode(t, r)
			report(t, lsSchema.check("ls", v))
			sessions := objs(v["sessions"])
			if len(sessions) < 7 {
				t.Fatalf("%d sessions in the samples, want at least 7", len(sessions))
			}
			want := lsSessionSchema
			if long {
				want = merge(lsSessionSchema, lsLongExtra)
			}
			var errs []string
			for i, s := range sessions {
				where := fmt.Sprintf("sessions[%d]", i)
				errs = append(errs, want.check(where, s)...)
				if ts, _ := s["title_source"].(string); !titleSources[ts] {
					errs = append(errs, fmt.Sprintf("%s.title_source %q is not documented", where, ts))
				}
				for _, k := range []string{"started_at", "updated_at"} {
					if ts, _ := s[k].(string); ts != "" && !isJSONTime(ts) {
						errs = append(errs, fmt.Sprintf("%s.%s %q is not 2006-01-02T15:04:05.000Z", where, k, ts))
					}
				}
				if live, ok := s["live"].(map[string]any); ok {
					errs = append(errs, liveSchema.check(where+".live", live)...)
					if st, _ := live["status"].(string); !liveStatuses[st] {
						errs = append(errs, fmt.Sprintf("%s.live.status %q", where, st))
					}
				}
				if i > 0 && s["updated_at"].(string) > sessions[i-1]["updated_at"].(string) {
					errs = append(errs, fmt.Sprintf("%s: not sorted newest first", where))
				}
			}
			report(t, errs)
		})
	}
}

func merge(a, b schema) schema {
	out := schema{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func TestTokensJSON(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		code      int
		groups    bool // "groups" must be present
		responses bool // "responses" must be present
		budget    bool
	}{
		{"one session", []string{"b3edadab"}, 0, false, true, false},
		{"every session", nil, 0, false, false, false},
		{"by model", []string{"--by", "model"}, 0, true, false, false},
		{"by day", []string{"--by", "day"}, 0, true, false, false},
		{"by agent", []string{"b3edadab", "--by", "agent"}, 0, true, true, false},
		{"by response", []string{"--by", "response"}, 0, false, true, false},
		{"budget exceeded", []string{"b3edadab", "--max-tokens", "1k"}, 3, false, true, true},
		{"budget kept", []string{"b3edadab", "--max-tokens", "1G"}, 0, false, true, true},
		{"cost budget not checked", []string{"b3edadab", "--pricing", opusOnlyPrices, "--max-cost", "100"}, 1, false, true, true},
		{"cost budget exceeded by its priced part", []string{"b3edadab", "--pricing", opusOnlyPrices, "--max-cost", "0.1"}, 3, false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cctx(t, append([]string{"tokens", "--dir", samples, "--json"}, tt.args...)...)
			expect(t, r, tt.code, "tokens --json")
			v := decode(t, r)
			errs := tokensTopSchema.check("tokens", v, tokensOptional)
			errs = append(errs, pricingSchema.check("pricing", v["pricing"])...)
			errs = append(errs, totalSchema.check("total", v["total"])...)
			for _, k := range []struct {
				key  string
				want bool
			}{{"groups", tt.groups}, {"responses", tt.responses}, {"budget", tt.budget}} {
				if _, has := v[k.key]; has != k.want {
					errs = append(errs, fmt.Sprintf("%q present: %v, want %v", k.key, has, k.want))
				}
			}
			var apiCalls int64
			for i, s := range objs(v["sessions"]) {
				where := fmt.Sprintf("sessions[%d]", i)
				errs = append(errs, tokensSessSchema.check(where, s)...)
				errs = append(errs, totalSchema.check(where+".total", s["total"])...)
				for j, a := range objs(s["agents"]) {
					errs = append(errs, tokensAgentSchema.check(fmt.Sprintf("%s.agents[%d]", where, j), a)...)
					errs = append(errs, totalSchema.check(fmt.Sprintf("%s.agents[%d].total", where, j), a["total"])...)
				}
				for j, m := range objs(s["models"]) {
					errs = append(errs, tokensModelSchema.check(fmt.Sprintf("%s.models[%d]", where, j), m)...)
				}
				apiCalls += num(s["total"].(map[string]any)["api_calls"])
			}
			if got := num(v["total"].(map[string]any)["api_calls"]); got != apiCalls && len(tt.args) > 0 && tt.args[0] == "b3edadab" {
				errs = append(errs, fmt.Sprintf("total api_calls %d, sessions sum to %d", got, apiCalls))
			}
			for i, g := range objs(v["groups"]) {
				errs = append(errs, tokensGroupSchema.check(fmt.Sprintf("groups[%d]", i), g, groupTimesSchema)...)
			}
			var respTokens int64
			resps := objs(v["responses"])
			for i, rs := range resps {
				where := fmt.Sprintf("responses[%d]", i)
				errs = append(errs, responseSchema.check(where, rs)...)
				if ts, _ := rs["timestamp"].(string); !isJSONTime(ts) {
					errs = append(errs, fmt.Sprintf("%s.timestamp %q", where, ts))
				}
				respTokens += num(rs["input_tokens"]) + num(rs["output_tokens"]) + num(rs["cache_creation_input_tokens"]) + num(rs["cache_read_input_tokens"])
			}
			if tt.responses && len(tt.args) > 0 && tt.args[0] == "b3edadab" {
				total := v["total"].(map[string]any)
				if int64(len(resps)) != num(total["api_calls"]) || respTokens != num(total["total_tokens"]) {
					errs = append(errs, fmt.Sprintf("responses: %d with %d tokens; total says %d calls, %d tokens",
						len(resps), respTokens, num(total["api_calls"]), num(total["total_tokens"])))
				}
			}
			if tt.budget {
				b := v["budget"]
				errs = append(errs, budgetSchema.check("budget", b)...)
				ex := objs(b.(map[string]any)["exceeded"])
				if (len(ex) > 0) != (tt.code == 3) {
					errs = append(errs, fmt.Sprintf("%d budgets exceeded with exit %d", len(ex), tt.code))
				}
				if un := objs(b.(map[string]any)["unchecked"]); (len(un) > 0) != (tt.code == 1) {
					errs = append(errs, fmt.Sprintf("%d budgets not checked with exit %d", len(un), tt.code))
				}
				for i, e := range ex {
					errs = append(errs, exceededSchema.check(fmt.Sprintf("budget.exceeded[%d]", i), e)...)
				}
				for i, e := range objs(b.(map[string]any)["unchecked"]) {
					errs = append(errs, uncheckedSchema.check(fmt.Sprintf("budget.unchecked[%d]", i), e)...)
				}
			}
			report(t, errs)
		})
	}
}

func TestTreeJSON(t *testing.T) {
	for _, id := range []string{"b3edadab", "ef958aa1", "5c0375b4", "e9fb405b"} {
		t.Run(id, func(t *testing.T) {
			r := cctx(t, "tree", "--dir", samples, "--json", id)
			expect(t, r, 0, "tree --json")
			v := decode(t, r)
			errs := treeSchema.check("tree", v)
			nodes := objs(v["nodes"])
			byUUID := map[string]map[string]any{}
			for i, n := range nodes {
				errs = append(errs, treeNodeSchema.check(fmt.Sprintf("nodes[%d]", i), n)...)
				u, _ := n["uuid"].(string)
				if byUUID[u] != nil {
					errs = append(errs, fmt.Sprintf("uuid %s listed twice", u))
				}
				byUUID[u] = n
				if ts, ok := n["timestamp"].(string); ok && !isJSONTime(ts) {
					errs = append(errs, fmt.Sprintf("nodes[%d].timestamp %q", i, ts))
				}
			}
			if len(nodes) == 0 {
				t.Fatal("no nodes")
			}
			// The graph holds together: every parent and child is a node,
			// and each child names its parent.
			for _, n := range nodes {
				if p, ok := n["parent_uuid"].(string); ok && byUUID[p] == nil {
					errs = append(errs, fmt.Sprintf("%s: parent %s is not a node", n["uuid"], p))
				}
				for _, c := range n["children"].([]any) {
					cn := byUUID[c.(string)]
					if cn == nil || cn["parent_uuid"] != n["uuid"] {
						errs = append(errs, fmt.Sprintf("%s: child %s does not name it as parent", n["uuid"], c))
					}
				}
			}
			leaf, _ := v["active_leaf"].(string)
			if leaf == "" || byUUID[leaf] == nil || byUUID[leaf]["active"] != true {
				errs = append(errs, fmt.Sprintf("active_leaf %q is not an active node", leaf))
			}
			for _, l := range v["leaves"].([]any) {
				if byUUID[l.(string)] == nil {
					errs = append(errs, fmt.Sprintf("leaf %s is not a node", l))
				}
			}
			for _, rt := range v["roots"].([]any) {
				if n := byUUID[rt.(string)]; n == nil {
					errs = append(errs, fmt.Sprintf("root %s is not a node", rt))
				}
			}
			report(t, errs)
		})
	}
}

func TestAgentsJSON(t *testing.T) {
	// c7d3d95c has a call whose transcript is missing.
	for _, id := range []string{"ef958aa1", "b3edadab", "5c0375b4", "e9fb405b", "c7d3d95c"} {
		t.Run(id, func(t *testing.T) {
			r := cctx(t, "agents", "--dir", samples, "--json", id)
			expect(t, r, 0, "agents --json")
			v := decode(t, r)
			errs := agentsSchema.check("agents", v)
			errs = append(errs, totalSchema.check("main", v["main"])...)
			agents := objs(v["agents"])
			if len(agents) == 0 {
				t.Fatal("no agents in a session known to have some")
			}
			byAgent := map[string]int64{}
			missing := 0
			for i, a := range agents {
				where := fmt.Sprintf("agents[%d]", i)
				errs = append(errs, agentEntrySchema.check(where, a)...)
				errs = append(errs, totalSchema.check(where+".total", a["total"])...)
				for j, c := range objs(a["calls"]) {
					errs = append(errs, agentCallSchema.check(fmt.Sprintf("%s.calls[%d]", where, j), c)...)
				}
				for field, allowed := range map[string]map[string]bool{"kind": agentKinds, "status": agentStatuses, "link": agentLinks, "token_check": tokenChecks} {
					if s, _ := a[field].(string); !allowed[s] {
						errs = append(errs, fmt.Sprintf("%s.%s %q is not documented", where, field, s))
					}
				}
				for _, k := range []string{"started_at", "ended_at"} {
					if ts, _ := a[k].(string); ts != "" && !isJSONTime(ts) {
						errs = append(errs, fmt.Sprintf("%s.%s %q", where, k, ts))
					}
				}
				// A call that spawned no agent has agent_id null and no row
				// in tokens, where "" is the main conversation.
				id, isID := a["agent_id"].(string)
				if isID && id == "" {
					errs = append(errs, where+`.agent_id is "", the main conversation's key in tokens --by agent`)
				}
				// A missing transcript's usage is not known: its zeros are
				// no count (docs/json.md), and usage_known says so.
				if a["status"] == "missing_transcript" {
					missing++
					if a["usage_known"] != false {
						errs = append(errs, where+": missing_transcript with usage_known not false")
					}
				}
				if tot, ok := a["total"].(map[string]any); ok && isID {
					byAgent[id] += num(tot["total_tokens"])
				}
			}
			if id == "c7d3d95c" && missing == 0 {
				errs = append(errs, "no agent is missing_transcript: the usage_known check ran on none")
			}
			report(t, errs)

			// docs/json.md and the README: an agent's numbers equal its
			// row in `cctx tokens <session> --by agent`.
			tr := cctx(t, "tokens", "--dir", samples, "--json", "--by", "agent", id)
			expect(t, tr, 0, "tokens --by agent")
			groups := map[string]int64{}
			for _, g := range objs(decode(t, tr)["groups"]) {
				groups[g["key"].(string)] = num(g["total"].(map[string]any)["total_tokens"])
			}
			for agent, tok := range byAgent {
				if tok > 0 && groups[agent] != tok {
					t.Errorf("agent %s: agents says %d tokens, tokens --by agent says %d", agent, tok, groups[agent])
				}
			}
		})
	}
}

func TestGrepJSON(t *testing.T) {
	for _, args := range [][]string{{"grep", "--json", "-C", "1", "revert"}, {"grep", "--json", "-l", "revert"}} {
		r := cctx(t, append(args, "--dir", samples)...)
		expect(t, r, 0, strings.Join(args, " "))
		v := decode(t, r)
		errs := grepSchema.check("grep", v)
		hits := 0
		for i, s := range objs(v["sessions"]) {
			where := fmt.Sprintf("sessions[%d]", i)
			errs = append(errs, grepSessionSchema.check(where, s, grepSessionHits)...)
			for j, h := range objs(s["hits"]) {
				hits++
				hw := fmt.Sprintf("%s.hits[%d]", where, j)
				errs = append(errs, grepHitSchema.check(hw, h, grepHitContext)...)
				if !grepRoles[fmt.Sprint(h["role"])] || !grepKinds[fmt.Sprint(h["kind"])] {
					errs = append(errs, fmt.Sprintf("%s: role %v kind %v", hw, h["role"], h["kind"]))
				}
				for k, m := range objs(h["matches"]) {
					errs = append(errs, grepMatch.check(fmt.Sprintf("%s.matches[%d]", hw, k), m)...)
				}
				for _, side := range []string{"context_before", "context_after"} {
					for k, c := range objs(h[side]) {
						errs = append(errs, grepContext.check(fmt.Sprintf("%s.%s[%d]", hw, side, k), c)...)
					}
				}
			}
		}
		if len(objs(v["sessions"])) == 0 || args[2] == "-C" && hits == 0 {
			errs = append(errs, "no session or no hit to check")
		}
		report(t, errs)
	}
}

func TestArchiveJSON(t *testing.T) {
	to, root := t.TempDir(), t.TempDir()
	r := cctx(t, "archive", "--json", "--to", to, "--dir", samples)
	expect(t, r, 0, "archive --json")
	report(t, archiveSchema.check("archive", decode(t, r)))
	// A session not archived that Claude Code deletes within days: a row
	// of at_risk.
	old := writeFile(t, root, "-w-app/0ld0ld00-0000-4000-8000-000000000001.jsonl", `{"type":"user","uuid":"u1","parentUuid":null,"message":{"role":"user","content":"hi"}}`+"\n")
	when := time.Now().Add(-28 * 24 * time.Hour)
	os.Chtimes(old, when, when)
	r = cctx(t, "archive", "--status", "--json", "--to", to, "--dir", root)
	expect(t, r, 0, "archive --status --json")
	v := decode(t, r)
	errs := archiveStatusSchema.check("status", v)
	for i, a := range objs(v["at_risk"]) {
		errs = append(errs, archiveRiskSchema.check(fmt.Sprintf("at_risk[%d]", i), a)...)
	}
	if len(objs(v["at_risk"])) != 1 {
		errs = append(errs, fmt.Sprintf("at_risk: want the one old session, got %v", v["at_risk"]))
	}
	report(t, errs)
}
