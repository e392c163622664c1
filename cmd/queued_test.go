package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// queuedLines is a session of Claude Code 2.1.2xx in which the user typed
// twice while the model worked: each prompt was queued, then delivered
// in the middle of the turn as an attachment line (queued_command), once
// as a string and once as content blocks; a background task's notice
// came the same way. The queue operations Claude Code writes around them
// are there too, and a prompt that was queued and taken back (an enqueue
// and a remove, never delivered).
var queuedLines = []string{
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:00.000Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"start the build"}`,
	`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-07-16T02:00:00.050Z","sessionId":"11111111-2222-3333-4444-555555555555"}`,
	`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"start the build"},"uuid":"u1","timestamp":"2026-07-16T02:00:00.100Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"u1","isSidechain":false,"type":"assistant","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"output_tokens":5}},"uuid":"a1","timestamp":"2026-07-16T02:00:01.000Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:02.000Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"also bump the version to 2.0"}`,
	`{"parentUuid":"a1","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"built"}]},"uuid":"r1","timestamp":"2026-07-16T02:00:03.000Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"r1","isSidechain":false,"attachment":{"type":"queued_command","prompt":"also bump the version to 2.0","commandMode":"prompt","origin":{"kind":"human"},"timestamp":"2026-07-16T02:00:03.100Z"},"type":"attachment","uuid":"q1","timestamp":"2026-07-16T02:00:03.100Z","userType":"external","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"type":"queue-operation","operation":"remove","timestamp":"2026-07-16T02:00:03.200Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"also bump the version to 2.0"}`,
	`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-07-16T02:00:03.300Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"never mind the docs"}`,
	`{"type":"queue-operation","operation":"remove","timestamp":"2026-07-16T02:00:03.400Z","sessionId":"11111111-2222-3333-4444-555555555555","content":"never mind the docs"}`,
	`{"parentUuid":"q1","isSidechain":false,"type":"assistant","message":{"id":"m2","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"make test","run_in_background":true}}],"usage":{"input_tokens":20,"output_tokens":5}},"uuid":"a2","timestamp":"2026-07-16T02:00:04.000Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"a2","isSidechain":false,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"started bxq1"}]},"uuid":"r2","timestamp":"2026-07-16T02:00:05.000Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"r2","isSidechain":false,"attachment":{"type":"queued_command","prompt":[{"type":"text","text":"<ide_selection>The user selected line 3 of CHANGELOG.md</ide_selection>"},{"type":"text","text":"and write the changelog entry"}],"origin":{"kind":"human"}},"type":"attachment","uuid":"q2","timestamp":"2026-07-16T02:00:05.100Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"q2","isSidechain":false,"attachment":{"type":"queued_command","prompt":"<task-notification>\n<task-id>bxq1</task-id>\n<status>completed</status>\n<summary>Background command \"make test\" completed (exit code 0)</summary>\n</task-notification>","commandMode":"task-notification"},"type":"attachment","uuid":"q3","timestamp":"2026-07-16T02:00:05.200Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
	`{"parentUuid":"q3","isSidechain":false,"type":"assistant","message":{"id":"m3","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"Version bumped, tests pass, changelog written."}],"usage":{"input_tokens":30,"output_tokens":9}},"uuid":"a3","timestamp":"2026-07-16T02:00:06.000Z","cwd":"/w/app","sessionId":"11111111-2222-3333-4444-555555555555","version":"2.1.209","gitBranch":"main"}`,
}

// A queued prompt is the user's message in every view: show (a ❯ user
// message marked queued, --json "queued": true), export, grep (role
// user), and the prompt counts of show's header and ls -l; a prompt that
// was queued and never delivered is none of them, and one delivered is
// counted once though the queue operations name it too.
func TestQueuedPrompts(t *testing.T) {
	p := writeSession(t, queuedLines...)
	dir := filepath.Dir(filepath.Dir(p))

	t.Run("show", func(t *testing.T) {
		r := run(t, false, nil, "show", "--dir", dir, "11111111")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.errOut)
		}
		for _, want := range []string{
			"❯ user · 2026-07-16 02:00:00\n  start the build\n",
			"❯ user · 02:00:03 · queued\n  also bump the version to 2.0\n",
			"❯ user · 02:00:05 · queued\n  <ide_selection>The user selected line 3 of CHANGELOG.md</ide_selection>\n  and write the changelog entry\n",
			"❯ user · 02:00:05 · queued\n  <task-notification>",
			"usage    3 prompts · 3 API calls",
		} {
			if !strings.Contains(r.out, want) {
				t.Errorf("show has no %q:\n%s", want, r.out)
			}
		}
		for _, not := range []string{"attachment/queued_command", "never mind the docs", "queue-operation"} {
			if strings.Contains(r.out, not) {
				t.Errorf("show has %q:\n%s", not, r.out)
			}
		}
		tail := run(t, false, nil, "show", "--dir", dir, "11111111", "--tail", "1")
		if !strings.Contains(tail.out, "and write the changelog entry") || strings.Contains(tail.out, "bump the version") {
			t.Errorf("show --tail 1 starts the last turn at the last queued prompt:\n%s", tail.out)
		}
	})

	t.Run("show --json", func(t *testing.T) {
		var doc struct {
			Session struct {
				Prompts      int `json:"prompts"`
				PromptsShown int `json:"prompts_shown"`
			} `json:"session"`
			Messages []map[string]any `json:"messages"`
		}
		decode(t, run(t, false, nil, "show", "--json", "--dir", dir, "11111111"), &doc)
		if doc.Session.Prompts != 3 || doc.Session.PromptsShown != 3 {
			t.Errorf("prompts %d, shown %d; want 3 (the typed one and two queued)", doc.Session.Prompts, doc.Session.PromptsShown)
		}
		var got []string
		for _, m := range doc.Messages {
			q, has := m["queued"]
			if has && q != true {
				t.Errorf("%v: queued is %v (present only as true)", m["uuid"], q)
			}
			text := ""
			if c, _ := m["content"].([]any); len(c) > 0 {
				text, _ = c[len(c)-1].(map[string]any)["text"].(string)
			}
			got = append(got, strings.Join([]string{m["uuid"].(string), m["type"].(string), str(m["role"]), str(q), firstLineOf(text)}, " "))
		}
		want := []string{
			"u1 user user  start the build",
			"a1 assistant assistant  ",
			"r1 user user  ",
			"q1 attachment user true also bump the version to 2.0",
			"a2 assistant assistant  ",
			"r2 user user  ",
			"q2 attachment user true and write the changelog entry",
			"q3 attachment user true <task-notification>",
			"a3 assistant assistant  Version bumped, tests pass, changelog written.",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("messages:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})

	t.Run("grep", func(t *testing.T) {
		var doc struct {
			Sessions []struct {
				Hits []struct {
					Role  string `json:"role"`
					Kind  string `json:"kind"`
					UUID  string `json:"uuid"`
					Line  int    `json:"line"`
					Field string `json:"field"`
				} `json:"hits"`
			} `json:"sessions"`
		}
		decode(t, run(t, false, nil, "grep", "--json", "--dir", dir, "bump the version"), &doc)
		if len(doc.Sessions) != 1 || len(doc.Sessions[0].Hits) != 1 {
			t.Fatalf("grep finds %+v, want the queued prompt", doc.Sessions)
		}
		if h := doc.Sessions[0].Hits[0]; h.Role != "user" || h.Kind != "text" || h.UUID != "q1" || h.Line != 7 {
			t.Errorf("hit %+v, want role user, text, q1, line 7", h)
		}
		for _, args := range [][]string{
			{"grep", "--dir", dir, "--role", "assistant", "bump the version"},
			{"grep", "--dir", dir, "never mind the docs"}, // only a queue operation: never delivered
		} {
			if r := run(t, false, nil, args...); r.code != 1 || r.out != "" {
				t.Errorf("%v: exit %d, %q; want no match", args, r.code, r.out)
			}
		}
		if r := run(t, false, nil, "grep", "--dir", dir, "-l", "--role", "user", "changelog entry"); r.code != 0 || !strings.Contains(r.out, "11111111") {
			t.Errorf("grep --role user on a queued prompt of content blocks: exit %d, %q", r.code, r.out)
		}
	})

	t.Run("export", func(t *testing.T) {
		r := run(t, false, nil, "export", "--dir", dir, "11111111", "-o", "-", "--format", "md")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.errOut)
		}
		for _, want := range []string{
			"3 prompts · 3 API calls",
			"### ❯ Prompt 1 · 2026-07-16 02:00:00\n\n> start the build",
			"### ❯ Prompt 2 · queued · 02:00:03\n\n> also bump the version to 2.0",
			"### ❯ Prompt 3 · queued · 02:00:05\n\n> *\\<ide\\_selection\\>The user selected line 3 of CHANGELOG.md\\</ide\\_selection\\>*\n>\n> and write the changelog entry",
			"### ❯ user · queued · 02:00:05\n\n> *\\<task-notification\\>",
		} {
			if !strings.Contains(r.out, want) {
				t.Errorf("export has no %q:\n%s", want, r.out)
			}
		}
	})

	t.Run("ls -l", func(t *testing.T) {
		var ls struct {
			Sessions []struct {
				Prompts     int    `json:"prompts"`
				FirstPrompt string `json:"first_prompt"`
			} `json:"sessions"`
		}
		decode(t, run(t, false, nil, "ls", "-l", "--json", "--dir", dir), &ls)
		if len(ls.Sessions) != 1 || ls.Sessions[0].Prompts != 3 || ls.Sessions[0].FirstPrompt != "start the build" {
			t.Errorf("ls -l: %+v, want 3 prompts and the first one typed", ls.Sessions)
		}
	})
}

func str(v any) string {
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// A real session (entire-wakil 719e4ab3, Claude Code 2.1.224) whose
// background agent a57202b946919e2a9 was notified only by a queued input
// (line 164, an attachment): its duration, tool calls and reported
// tokens are the notice's, not the launch's 0s and 0 tools. Its
// transcript is not in the corpus, so it is missing_transcript, as the
// foreground agents beside it.
func TestQueuedNoticeOfARealBackgroundAgent(t *testing.T) {
	dir := filepath.Join(realCorpus(t), "entire-wakil")
	var doc struct {
		Agents []struct {
			ID         string `json:"agent_id"`
			Status     string `json:"status"`
			Background bool   `json:"background"`
			DurationMs int64  `json:"duration_ms"`
			ToolUses   int    `json:"tool_uses"`
			Reported   *int64 `json:"reported_total_tokens"`
		} `json:"agents"`
	}
	decode(t, run(t, false, nil, "agents", "--json", "--dir", dir, "719e4ab3"), &doc)
	var got []string
	for _, a := range doc.Agents {
		rep := "null"
		if a.Reported != nil {
			rep = str(*a.Reported)
		}
		got = append(got, strings.Join([]string{a.ID, a.Status, str(a.Background), str(a.DurationMs), str(a.ToolUses), rep}, " "))
	}
	want := "a0757a4018813f763 missing_transcript false 217173 27 81065\n" +
		"a09e1eb393f6983c9 missing_transcript false 296033 35 110180\n" +
		"a57202b946919e2a9 missing_transcript true 515405 28 110581"
	if strings.Join(got, "\n") != want {
		t.Errorf("agents:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	var show struct {
		Messages []struct {
			Line   int    `json:"line"`
			Type   string `json:"type"`
			Role   string `json:"role"`
			Queued bool   `json:"queued"`
		} `json:"messages"`
	}
	decode(t, run(t, false, nil, "show", "--json", "--dir", dir, "719e4ab3"), &show)
	var queued []string
	for _, m := range show.Messages {
		if m.Queued {
			queued = append(queued, str(m.Line)+" "+m.Type+" "+m.Role)
		}
	}
	if strings.Join(queued, ",") != "164 attachment user" {
		t.Errorf("queued messages shown: %q, want line 164's", queued)
	}
}
