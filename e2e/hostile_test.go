package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/termcheck"
)

// hostile is what a field of a transcript may hold to take over a
// terminal: an OSC that retitles the window, colours (one the theme also
// writes: "\x1b[31mRED" must never reach the screen as a colour), a screen
// clear, a C1 CSI as a character, bidi overrides and isolates, NUL, DEL, a
// carriage return and a backspace. tag names the field, so that a leak
// says where it came from.
func hostile(tag string) string {
	return tag + "\x1b]0;PWN\x07\x1b[5m\x1b[31mRED\x1b[2J\u009b31m\u202eevil\u2066x\u2069\u061c\x00\x7f\r\b" + tag
}

// everyFieldSession writes a projects root whose session holds hostile
// text in every field Claude Code writes (titles, prompts, text, thinking,
// tool names and inputs, results, statuses, models, cwd, gitBranch,
// version, slug, ids, agent descriptions and types, system and hook text,
// errors) and in its file and folder names. It returns the root and the
// session id.
func everyFieldSession(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	const id = "b0b0b0b0-0000-4000-8000-00000000000b"
	project := "-w-\x1b]0;folder\x07\u202edlof" // a folder name that retitles the window
	var ls []string
	add := func(v map[string]any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, string(b))
	}
	ts := func(s int) string { return fmt.Sprintf("2026-01-01T10:00:%02dZ", s) }
	base := func(typ, uuid, parent string, s int) map[string]any {
		m := map[string]any{"type": typ, "uuid": uuid, "sessionId": id, "timestamp": ts(s),
			"cwd": "/w/" + hostile("cwd"), "gitBranch": hostile("branch"), "version": "2.1.0" + hostile("version"),
			"slug": hostile("slug"), "userType": "external", "isSidechain": false}
		if parent == "" {
			m["parentUuid"] = nil
		} else {
			m["parentUuid"] = parent
		}
		return m
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100}
	assistant := func(uuid, parent string, s int, msgID string, content ...map[string]any) {
		m := base("assistant", uuid, parent, s)
		m["requestId"] = "req_" + msgID
		m["message"] = map[string]any{"id": msgID, "role": "assistant", "model": "claude-opus-4-6" + hostile("model"),
			"type": "message", "stop_reason": hostile("stop"), "content": content, "usage": usage}
		add(m)
	}
	toolUse := func(tid, name string, input map[string]any) map[string]any {
		return map[string]any{"type": "tool_use", "id": tid, "name": name, "input": input}
	}
	result := func(uuid, parent string, s int, tid string, content any, tur any) {
		m := base("user", uuid, parent, s)
		m["message"] = map[string]any{"role": "user", "content": []map[string]any{{"type": "tool_result", "tool_use_id": tid, "content": content, "is_error": false}}}
		if tur != nil {
			m["toolUseResult"] = tur
		}
		add(m)
	}

	add(map[string]any{"type": "custom-title", "customTitle": hostile("title"), "sessionId": id})
	add(map[string]any{"type": "ai-title", "aiTitle": hostile("aititle"), "sessionId": id})
	add(map[string]any{"type": "summary", "summary": hostile("summary"), "leafUuid": "a9"})
	u := base("user", "u1", "", 0)
	u["message"] = map[string]any{"role": "user", "content": hostile("prompt")}
	add(u)
	assistant("a1", "u1", 1, "msg_1"+hostile("msgid"),
		map[string]any{"type": "thinking", "thinking": hostile("thinking"), "signature": "sig"})
	assistant("a2", "a1", 2, "msg_1"+hostile("msgid"),
		map[string]any{"type": "text", "text": hostile("text")},
		toolUse("t1", "Bash", map[string]any{"command": hostile("command"), "description": hostile("bashdesc")}))
	result("r1", "a2", 3, "t1", hostile("result"), map[string]any{"stdout": hostile("stdout"), "stderr": hostile("stderr"), "interrupted": false})
	assistant("a3", "r1", 4, "msg_2",
		toolUse("t2", "Read", map[string]any{"file_path": "/w/" + hostile("path")}),
		toolUse("t3", "Edit", map[string]any{"file_path": "/w/" + hostile("editpath"), "old_string": hostile("old"), "new_string": hostile("new")}),
		toolUse("t4", "Grep", map[string]any{"pattern": hostile("pattern"), "path": "/w/" + hostile("grepath")}),
		toolUse("t5", "TodoWrite", map[string]any{"todos": []map[string]any{{"content": hostile("todo"), "status": hostile("todostatus"), "activeForm": hostile("active")}}}),
		toolUse("t6", "WebFetch", map[string]any{"url": "https://e.x/" + hostile("url"), "prompt": hostile("fetchprompt")}),
		toolUse("t7", hostile("toolname"), map[string]any{hostile("inputkey"): hostile("inputvalue")}),
		toolUse("t8", "mcp__"+hostile("mcp")+"__x", map[string]any{"q": hostile("mcpq")}))
	result("r2", "a3", 5, "t2", []map[string]any{{"type": "text", "text": hostile("blockresult")}}, hostile("turstring"))
	result("r3", "r2", 5, "t3", hostile("editresult"), nil)
	result("r4", "r3", 5, "t4", hostile("grepresult"), nil)
	result("r5", "r4", 5, "t5", hostile("todoresult"), nil)
	result("r6", "r5", 5, "t6", hostile("fetchresult"), nil)
	result("r7", "r6", 5, "t7", hostile("unknownresult"), nil)
	result("r8", "r7", 5, "t8", hostile("mcpresult"), nil)
	// A subagent, linked by toolUseResult.agentId, with a status that is
	// none of the documented ones.
	assistant("a4", "r8", 6, "msg_3", toolUse("t9", "Task", map[string]any{
		"description": hostile("taskdesc"), "prompt": hostile("taskprompt"), "subagent_type": hostile("agenttype")}))
	result("r9", "a4", 8, "t9", []map[string]any{{"type": "text", "text": hostile("agentreply")}}, map[string]any{
		"status": "completed" + hostile("status"), "agentId": "ok1", "prompt": hostile("turprompt"),
		"totalTokens": 15, "totalDurationMs": 1000, "totalToolUseCount": 1,
		"content": []map[string]any{{"type": "text", "text": hostile("turcontent")}}})
	// System, hook and attachment lines, an API error and a compaction.
	sys := base("system", "s1", "r9", 9)
	sys["subtype"], sys["content"], sys["level"] = hostile("subtype"), hostile("system"), hostile("level")
	add(sys)
	att := base("attachment", "h1", "s1", 9)
	att["attachment"] = map[string]any{"type": "hook_success", "hookName": hostile("hookname"), "content": hostile("hook"), "stdout": hostile("hookout")}
	add(att)
	apiErr := base("assistant", "e1", "h1", 10)
	apiErr["isApiErrorMessage"], apiErr["error"] = true, hostile("apierror")
	apiErr["message"] = map[string]any{"id": "msg_err", "role": "assistant", "model": "<synthetic>", "content": []map[string]any{{"type": "text", "text": hostile("errortext")}}}
	add(apiErr)
	cb := base("system", "c1", "", 11)
	cb["subtype"], cb["content"], cb["logicalParentUuid"] = "compact_boundary", hostile("boundary"), "e1"
	cb["compactMetadata"] = map[string]any{"trigger": hostile("trigger"), "preTokens": 1000}
	add(cb)
	cs := base("user", "c2", "c1", 11)
	cs["isCompactSummary"] = true
	cs["message"] = map[string]any{"role": "user", "content": hostile("compactsummary")}
	add(cs)
	u2 := base("user", "u2"+hostile("uuid"), "c2", 12)
	u2["message"] = map[string]any{"role": "user", "content": "/plan " + hostile("plan")}
	add(u2)
	assistant("a9", "u2"+hostile("uuid"), 13, "msg_9", map[string]any{"type": "text", "text": hostile("final")})
	// A line that is not JSON, with a raw escape in it.
	ls = append(ls, "\x1b]0;notjson\x07\x1b[2J")
	writeFile(t, root, filepath.Join(project, id+".jsonl"), strings.Join(ls, "\n")+"\n")

	agent := []string{}
	ls = nil
	a := base("user", "g1", "", 6)
	a["isSidechain"], a["agentId"] = true, "ok1"
	a["message"] = map[string]any{"role": "user", "content": hostile("taskprompt")}
	add(a)
	a = base("assistant", "g2", "g1", 7)
	a["isSidechain"], a["agentId"], a["requestId"] = true, "ok1", "req_g"
	a["message"] = map[string]any{"id": "msg_g", "role": "assistant", "model": "claude-sonnet-4-5" + hostile("agentmodel"),
		"content": []map[string]any{{"type": "text", "text": hostile("agenttext")}}, "usage": usage}
	add(a)
	agent = append(agent, ls...)
	sub := filepath.Join(project, id, "subagents")
	writeFile(t, root, filepath.Join(sub, "agent-ok1.jsonl"), strings.Join(agent, "\n")+"\n")
	meta, _ := json.Marshal(map[string]any{"agentType": hostile("metatype"), "description": hostile("metadesc")})
	writeFile(t, root, filepath.Join(sub, "agent-ok1.meta.json"), string(meta))
	// An agent file whose name holds escapes and a bidi override (its own
	// entries: another copy of ok1's would be read once, as ok1's or its).
	orphan := strings.NewReplacer(`"g1"`, `"o1"`, `"g2"`, `"o2"`, `"msg_g"`, `"msg_o"`).Replace(strings.Join(agent, "\n") + "\n")
	writeFile(t, root, filepath.Join(sub, "agent-\x1b[2J\u202exyz.jsonl"), orphan)
	return root, id
}

// Every command in every format, on a session with hostile text in every
// field: whatever the transcript holds, only text and cctx's own colours
// reach the terminal, and JSON stays JSON.
func TestEveryFieldEveryCommandIsInert(t *testing.T) {
	root, id := everyFieldSession(t)
	type run struct {
		args  []string
		json  bool // the output is JSON (or JSONL with jsonl)
		jsonl bool
	}
	runs := []run{
		{args: []string{"ls"}}, {args: []string{"ls", "-l"}}, {args: []string{"ls", "-a"}}, {args: []string{"ls", "--json"}, json: true},
		{args: []string{"show", id}}, {args: []string{"show", "--all", "--thinking", "--full", "--agents", id}},
		{args: []string{"show", "--grep", "evil", id}}, {args: []string{"show", "--final", id}},
		{args: []string{"show", "--json", "--all", "--agents", id}, json: true}, {args: []string{"show", "--raw", "--all", id}, jsonl: true},
		{args: []string{"tree", id}}, {args: []string{"tree", "--full", id}}, {args: []string{"tree", "--agents", id}},
		{args: []string{"tree", "--json", "--agents", id}, json: true},
		{args: []string{"tokens"}}, {args: []string{"tokens", id}}, {args: []string{"tokens", "--json", id}, json: true},
		{args: []string{"agents", id}}, {args: []string{"agents", "-v", id}}, {args: []string{"agents", "--json", id}, json: true},
		{args: []string{"grep", "evil"}}, {args: []string{"grep", "--json", "evil"}, json: true},
		{args: []string{"export", id}}, {args: []string{"export", "--format", "html", id}},
	}
	for _, by := range []string{"response", "model", "agent", "project", "session", "day"} {
		runs = append(runs, run{args: []string{"tokens", "--by", by, id}}, run{args: []string{"tokens", "--by", by, "--json", id}, json: true})
	}
	modes := []struct {
		name string
		args []string
		tty  bool
	}{
		{"pipe", nil, false},
		{"forced colour", []string{"--color", "always"}, false},
		{"verbose", []string{"-v"}, false},
		{"terminal", nil, true},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			if m.tty {
				scriptPath(t)
			}
			for _, rn := range runs {
				args := append(append(append([]string(nil), rn.args...), "--dir", root), m.args...)
				if m.tty && rn.args[0] == "export" { // a page is refused on a terminal: its Markdown
					args = append(args, "--format", "md")
				}
				what := strings.Join(rn.args, " ")
				var r result
				if m.tty {
					r = onTTY(t, []string{"CCTX_PAGER=cat"}, args...)
				} else {
					r = cctx(t, args...)
				}
				if r.code != 0 && !(rn.args[0] == "grep" && r.code == 1) {
					t.Errorf("%s: exit %d\n%s", what, r.code, r)
					continue
				}
				if len(r.stdout) == 0 {
					t.Errorf("%s: no output", what)
				}
				if bad := termcheck.Foreign(r.stdout, true); len(bad) > 0 {
					t.Errorf("%s: stdout lets the transcript drive the terminal (%d places), e.g. %v", what, len(bad), bad[:min(3, len(bad))])
				}
				if bad := termcheck.Foreign(r.stderr, false); !m.tty && len(bad) > 0 {
					t.Errorf("%s: stderr lets the transcript drive the terminal (%d places), e.g. %v", what, len(bad), bad[:min(3, len(bad))])
				}
				switch {
				case rn.json && !json.Valid([]byte(r.stdout)):
					t.Errorf("%s: not JSON:\n%s", what, cut(r.stdout, 400))
				case rn.jsonl:
					for _, l := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
						if !json.Valid([]byte(l)) {
							t.Errorf("%s: a line is not JSON: %s", what, cut(l, 200))
						}
					}
				}
			}
		})
	}
}
