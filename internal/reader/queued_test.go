package reader

import (
	"encoding/json"
	"strings"
	"testing"
)

// queuedLineOf is an attachment line of Claude Code 2.1.2xx delivering a
// queued input (attachment written before type, as Claude Code writes
// it). attachment is the attachment object's JSON.
func queuedLineOf(attachment string) string {
	return `{"parentUuid":"p1","isSidechain":false,"attachment":` + attachment + `,"type":"attachment","uuid":"q1","timestamp":"2026-07-16T02:06:49.862Z","sessionId":"s1","version":"2.1.209"}`
}

// A queued input delivered as an attachment (queued_command) is a user
// message: with commandMode "prompt" or none, and a text ClassifyText
// calls a prompt, it is a typed prompt for every rule; a task
// notification, or a mode cctx does not know, is a user message and no
// prompt. Anything but a queued_command attachment stays an attachment.
func TestQueuedInput(t *testing.T) {
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		name, line string
		kind       QueuedKind
		typed      bool
		head       string
		content    ContentFlags
		texts      []string
	}{
		{"a prompt typed while the model worked",
			queuedLineOf(`{"type":"queued_command","prompt":"Will there be a race condition with the cron job?","source_uuid":"416a","commandMode":"prompt","origin":{"kind":"human"},"timestamp":"2026-07-16T02:06:49.862Z"}`),
			QueuedPrompt, true, "Will there be a race condition with the cron job?", HasText, []string{"Will there be a race condition with the cron job?"}},
		{"an array prompt: an IDE selection, an image and the typed text",
			queuedLineOf(`{"type":"queued_command","prompt":[{"type":"text","text":"<ide_selection>The user selected line 3 of x.go</ide_selection>"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}},{"type":"text","text":"and why is this nil?"}],"commandMode":"prompt"}`),
			QueuedPrompt, true, "and why is this nil?", HasText | HasImage, []string{"<ide_selection>The user selected line 3 of x.go</ide_selection>", "and why is this nil?"}},
		{"no commandMode (an older writer)",
			queuedLineOf(`{"type":"queued_command","prompt":"also check the tests"}`),
			QueuedPrompt, true, "also check the tests", HasText, []string{"also check the tests"}},
		{"commandMode null",
			queuedLineOf(`{"type":"queued_command","prompt":"also check the tests","commandMode":null}`),
			QueuedPrompt, true, "also check the tests", HasText, []string{"also check the tests"}},
		{"a background agent's task notification",
			queuedLineOf(`{"type":"queued_command","prompt":` + str("<task-notification>\n<task-id>a57202b946919e2a9</task-id>\n<status>completed</status>\n</task-notification>") + `,"commandMode":"task-notification"}`),
			QueuedNotification, false, "", HasText, []string{"<task-notification>\n<task-id>a57202b946919e2a9</task-id>\n<status>completed</status>\n</task-notification>"}},
		{"a queued prompt that is context (a system reminder)",
			queuedLineOf(`{"type":"queued_command","prompt":"<system-reminder>be careful</system-reminder>","commandMode":"prompt"}`),
			QueuedPrompt, false, "", HasText, []string{"<system-reminder>be careful</system-reminder>"}},
		{"a queued prompt that is a local command",
			queuedLineOf(`{"type":"queued_command","prompt":"<command-name>/model</command-name><command-args></command-args>","commandMode":"prompt"}`),
			QueuedPrompt, false, "", HasText, []string{"<command-name>/model</command-name><command-args></command-args>"}},
		{"a blank prompt",
			queuedLineOf(`{"type":"queued_command","prompt":"  \n ","commandMode":"prompt"}`),
			QueuedPrompt, false, "", 0, []string{"  \n "}},
		{"a mode cctx does not know (bash)",
			queuedLineOf(`{"type":"queued_command","prompt":"ls -la","commandMode":"bash"}`),
			QueuedOther, false, "", HasText, []string{"ls -la"}},
		{"commandMode not a string",
			queuedLineOf(`{"type":"queued_command","prompt":"fix it","commandMode":7}`),
			QueuedOther, false, "", HasText, []string{"fix it"}},
		{"a prompt that is a number",
			queuedLineOf(`{"type":"queued_command","prompt":42,"commandMode":"prompt"}`),
			QueuedPrompt, false, "", 0, nil},
		{"a prompt that is an object",
			queuedLineOf(`{"type":"queued_command","prompt":{"text":"fix it"},"commandMode":"prompt"}`),
			QueuedPrompt, false, "", 0, nil},
		{"no prompt",
			queuedLineOf(`{"type":"queued_command","commandMode":"prompt"}`),
			QueuedPrompt, false, "", 0, nil},
		{"an array prompt with blocks of the wrong types",
			queuedLineOf(`{"type":"queued_command","prompt":[7,"x",{"type":"text","text":5},{"type":"text","text":"fix it"}]}`),
			QueuedPrompt, true, "fix it", HasText, []string{"", "fix it"}},
		{"attachment.type not a string",
			queuedLineOf(`{"type":["queued_command"],"prompt":"fix it"}`),
			NotQueued, false, "", 0, nil},
		{"the attachment is not an object",
			queuedLineOf(`"queued_command"`),
			NotQueued, false, "", 0, nil},
		{"another attachment (a hook's output)",
			queuedLineOf(`{"type":"hook_success","content":"fix it","prompt":"fix it"}`),
			NotQueued, false, "", 0, nil},
		{"a queued_command attachment on a line that is no attachment",
			`{"type":"progress","attachment":{"type":"queued_command","prompt":"fix it"},"uuid":"q1"}`,
			NotQueued, false, "", 0, nil},
		{"the first of two attachments counts",
			`{"type":"attachment","attachment":{"type":"queued_command","prompt":"fix it"},"attachment":{"type":"hook_success"},"uuid":"q1"}`,
			QueuedPrompt, true, "fix it", HasText, []string{"fix it"}},
		{"a prompt written with escapes",
			queuedLineOf(`{"type":"queued_command","prompt":"\u0066ix \"it\"\nnow","commandMode":"prompt"}`),
			QueuedPrompt, true, "fix \"it\"\nnow", HasText, []string{"fix \"it\"\nnow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := ParseLine([]byte(tt.line))
			if !ok {
				t.Fatalf("not parsed: %s", tt.line)
			}
			if e.Queued != tt.kind || e.IsTypedPrompt() != tt.typed || e.TextHead != tt.head || e.Content != tt.content {
				t.Errorf("Queued %d, IsTypedPrompt %v, TextHead %q, Content %b; want %d, %v, %q, %b",
					e.Queued, e.IsTypedPrompt(), e.TextHead, e.Content, tt.kind, tt.typed, tt.head, tt.content)
			}
			if user := tt.kind != NotQueued; e.IsUser() != user || e.IsConversation() != user || (e.Role == "user") != user {
				t.Errorf("IsUser %v, IsConversation %v, Role %q; want a user message: %v", e.IsUser(), e.IsConversation(), e.Role, user)
			}
			if tt.kind != NotQueued && e.Type != "attachment" {
				t.Errorf("Type %q: a queued input's line keeps its type", e.Type)
			}
			if got := Queued([]byte(tt.line)); got != tt.kind {
				t.Errorf("Queued(line) = %d, want %d", got, tt.kind)
			}
			if got := MayBeQueued([]byte(tt.line)); tt.kind != NotQueued && !got {
				t.Errorf("MayBeQueued turns down a queued input's line")
			}
			// What show, export, grep and agents read of it.
			if tt.kind != NotQueued {
				if got := Texts([]byte(tt.line)); strings.Join(got, "|") != strings.Join(tt.texts, "|") {
					t.Errorf("Texts = %q, want %q", got, tt.texts)
				}
				var blockTexts []string
				for _, b := range Blocks([]byte(tt.line)) {
					if b.Type == "text" {
						blockTexts = append(blockTexts, b.Text)
					}
				}
				if strings.Join(blockTexts, "|") != strings.Join(tt.texts, "|") {
					t.Errorf("Blocks' texts %q, want %q", blockTexts, tt.texts)
				}
				sl, ok := ParseSearchLine([]byte(tt.line))
				var searched []string
				d := &TextDecoder{}
				d.Texts(&sl, false, func(r *Readable) bool {
					searched = append(searched, r.Text)
					return true
				})
				var want []string
				for _, s := range tt.texts {
					if s != "" {
						want = append(want, s)
					}
				}
				if !ok || !sl.IsUser() || sl.Queued != tt.kind || strings.Join(searched, "|") != strings.Join(want, "|") {
					t.Errorf("grep reads user %v (%d), texts %q; want %q", sl.IsUser(), sl.Queued, searched, want)
				}
			}
			// The tree's facts: the prompt of a user message.
			f := ExtractTreeFacts([]byte(tt.line))
			if wantPrompt := tt.kind != NotQueued && strings.TrimSpace(strings.Join(tt.texts, "\n")) != ""; (f.Prompt != "") != wantPrompt {
				t.Errorf("facts' prompt %q, want one: %v", f.Prompt, wantPrompt)
			}
			if tt.typed && f.Label != OneLine(tt.head) {
				t.Errorf("facts' label %q, want %q", f.Label, tt.head)
			}
		})
	}
}

// A queued input's line read by a counter (Options.Count) or for its
// envelope only is a user message still, without its content.
func TestQueuedInputInEveryMode(t *testing.T) {
	line := []byte(queuedLineOf(`{"type":"queued_command","prompt":"fix it","commandMode":"prompt"}`))
	for _, mode := range []readMode{readFull, readNoMessage, readForCount} {
		e, ok := parseEntry(line, nil, nil, mode)
		if !ok || e.Queued != QueuedPrompt || !e.IsUser() {
			t.Errorf("mode %d: ok %v, Queued %d", mode, ok, e.Queued)
		}
		if full := mode == readFull; (e.TextHead == "fix it") != full || (e.Content == HasText) != full {
			t.Errorf("mode %d: TextHead %q, Content %b", mode, e.TextHead, e.Content)
		}
	}
}

// The notice of a background task: its id and status, and its own
// <usage> (not one the agent's result quotes).
func TestTaskNotification(t *testing.T) {
	tests := []struct {
		name, text string
		ok         bool
		want       TaskNotice
	}{
		{"an agent's notice with its usage",
			"<task-notification>\n<task-id>a57202b946919e2a9</task-id>\n<tool-use-id>toolu_01</tool-use-id>\n<status>completed</status>\n<summary>Agent \"Design\" finished</summary>\n<result># Design\n\nquoting <usage><tool_uses>999</tool_uses></usage> in its text</result>\n<usage><subagent_tokens>110581</subagent_tokens><tool_uses>28</tool_uses><duration_ms>515405</duration_ms></usage>\n</task-notification>",
			true, TaskNotice{ID: "a57202b946919e2a9", Status: "completed", DurationMs: 515405, ToolUses: 28, Tokens: 110581, HasUsage: true}},
		{"a shell command's notice without usage",
			"<task-notification>\n<task-id>bstv3e4tn</task-id>\n<status>failed</status>\n<summary>Background command failed</summary>\n</task-notification>",
			true, TaskNotice{ID: "bstv3e4tn", Status: "failed"}},
		{"usage with counts that are no numbers",
			"<task-notification><task-id>a1</task-id><status>killed</status><usage><tool_uses>many</tool_uses><duration_ms>12</duration_ms><subagent_tokens>99999999999999999999</subagent_tokens></usage></task-notification>",
			true, TaskNotice{ID: "a1", Status: "killed", DurationMs: 12, HasUsage: true}},
		{"no status", "<task-notification><task-id>a1</task-id></task-notification>", false, TaskNotice{}},
		{"no notice", "the <task-id>a1</task-id> is <status>done</status>", false, TaskNotice{}},
	}
	for _, tt := range tests {
		got, ok := TaskNotification(tt.text)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// Which lines are user messages, and which may title a session: every
// reading of a line asks these two, so they are the rule.
func TestUserMessageAndMayTitle(t *testing.T) {
	tests := []struct {
		typ            string
		queued         QueuedKind
		user, mayTitle bool
	}{
		{"user", NotQueued, true, true},
		{"assistant", NotQueued, false, false},
		{"attachment", NotQueued, false, false},
		{"attachment", QueuedPrompt, true, true},
		{"attachment", QueuedNotification, true, false},
		{"attachment", QueuedOther, true, false},
		{"system", NotQueued, false, false},
	}
	for _, tt := range tests {
		if got := UserMessage(tt.typ, tt.queued); got != tt.user {
			t.Errorf("UserMessage(%q, %d) = %v, want %v", tt.typ, tt.queued, got, tt.user)
		}
		if got := MayTitle(tt.typ, tt.queued); got != tt.mayTitle {
			t.Errorf("MayTitle(%q, %d) = %v, want %v", tt.typ, tt.queued, got, tt.mayTitle)
		}
		e := Entry{Type: tt.typ, Queued: tt.queued}
		l := SearchLine{Type: tt.typ, Queued: tt.queued}
		if e.IsUser() != tt.user || l.IsUser() != tt.user {
			t.Errorf("%q %d: Entry.IsUser %v, SearchLine.IsUser %v, want %v", tt.typ, tt.queued, e.IsUser(), l.IsUser(), tt.user)
		}
	}
}

// TalksAt is a quick yes for a whole user or assistant line, whatever the
// order of its keys; anything else says nothing.
func TestTalksAt(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`{"type":"user","message":{"role":"user","content":"hi"}}`, true},
		{`{"message":{"role":"assistant","content":[]},"type":"assistant"}`, true},
		{`{"parentUuid":null,"isSidechain":false,"type":"assistant","message":{}}`, true},
		{`{"type":"summary","summary":"x"}`, false},
		{`{"type":"file-history-snapshot","snapshot":{}}`, false},
		{`{"type":"user","message":{"role":"user","content":"cut`, false},
		{`{"type":"attachment","attachment":{"type":"queued_command","prompt":"x"}}`, false}, // the full read tells
		{`not json`, false},
		{``, false},
		{`{"message":{"role":"user","content":"hi"}}`, false}, // no type: no user line, as the full read has it
	} {
		if got := TalksAt([]byte(tc.line)); got != tc.want {
			t.Errorf("TalksAt(%s) = %v, want %v", tc.line, got, tc.want)
		}
		// A quick yes is the full read's yes.
		if e, ok := ParseLine([]byte(tc.line)); TalksAt([]byte(tc.line)) && !(ok && e.IsConversation()) {
			t.Errorf("TalksAt(%s) says yes where the full read says no", tc.line)
		}
	}
}
