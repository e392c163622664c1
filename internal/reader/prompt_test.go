package reader

import (
	"strconv"
	"strings"
	"testing"
)

// What a user message shows as its prompt, in ls titles and tree labels:
// the typed text, with what Claude Code added around it left out.
func TestPromptOf(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		label string
		kind  TextKind
	}{
		{"typed text", []string{"fix the login bug"}, "fix the login bug", TextTyped},
		{"on one line", []string{"  two\n\nlines\t here "}, "two lines here", TextTyped},
		{"cut at 200 characters", []string{strings.Repeat("é", 300)}, strings.Repeat("é", 200) + "…", TextTyped},
		{"control characters kept, to be escaped where printed", []string{"red \x1b[31mtext"}, "red \x1b[31mtext", TextTyped},
		{"an IDE selection before the prompt", []string{"<ide_selection>The user selected the lines 508 to 508 from x.py</ide_selection>", "How can I install it with uv?"}, "How can I install it with uv?", TextTyped},
		{"an opened file before the prompt", []string{"<ide_opened_file>The user opened README.md</ide_opened_file>", "add the steps"}, "add the steps", TextTyped},
		{"a system reminder before the prompt", []string{"<system-reminder>be careful</system-reminder>", "go on"}, "go on", TextTyped},
		{"a slash command run as a prompt, with arguments", []string{"<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>"}, "/orchestrator create TODO app by Next.js", TextCommand},
		{"a slash command run as a prompt, without arguments", []string{"<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args></command-args>"}, "/review", TextCommand},
		{"a local command", []string{"<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args>and continue</command-args>"}, "/compact and continue", TextLocalCommand},
		{"a local command of 1.0.x, no slash", []string{"<command-name>clear</command-name>\n<command-message>clear</command-message>"}, "/clear", TextLocalCommand},
		{"bash input", []string{"<bash-input>ls -la</bash-input>"}, "! ls -la", TextBash},
		{"a typed text wins over a local command before it", []string{"<command-name>/clear</command-name>", "then this"}, "then this", TextTyped},
		{"a task notification", []string{"<task-notification>\n<task-id>be613ab</task-id>\n</task-notification>"}, "", TextContext},
		{"a local command's output", []string{"<local-command-stdout>See ya!</local-command-stdout>"}, "", TextContext},
		{"an interruption", []string{"[Request interrupted by user for tool use]"}, "", TextContext},
		{"an IDE selection alone", []string{"<ide_selection>The user selected the lines 1 to 2</ide_selection>"}, "", TextContext},
		{"blank", []string{" \n "}, "", TextContext},
		{"a comparison is not a tag", []string{"<3 this, and a < b"}, "<3 this, and a < b", TextTyped},
		// Markup a person pastes is their prompt; only Claude Code's tags are context.
		{"a prompt that starts with HTML", []string{"<div> is not centered in the header"}, "<div> is not centered in the header", TextTyped},
		{"a prompt that starts with JSX and attributes", []string{"<Button onClick> handler fires twice"}, "<Button onClick> handler fires twice", TextTyped},
		{"a prompt that starts with a self-closing tag", []string{"<br/> renders as text, why?"}, "<br/> renders as text, why?", TextTyped},
		{"an IDE diagnostics block", []string{"<ide_diagnostics>3 errors</ide_diagnostics>"}, "", TextContext},
		{"hook output", []string{"<user-prompt-submit-hook>ok</user-prompt-submit-hook>"}, "", TextContext},
		{"a session start hook", []string{"<session-start-hook>loaded</session-start-hook>"}, "", TextContext},
		{"a teammate's message", []string{"<teammate-message teammate_id=\"bob\">done</teammate-message>"}, "", TextContext},
		{"a bash-mode output", []string{"<bash-stdout>ok</bash-stdout><bash-stderr></bash-stderr>"}, "", TextContext},
		{"a local command's caveat", []string{"<local-command-caveat>Caveat: …</local-command-caveat>"}, "", TextContext},
		{"memory input", []string{"<user-memory-input>remember this</user-memory-input>"}, "", TextContext},
		{"a scheduled tick", []string{"<tick>5m</tick>"}, "", TextContext},
		{"a Slack message", []string{"<slack-tag-message channel=\"dev\">deploy?</slack-tag-message>"}, "", TextContext},
		{"an MCP resource update", []string{"<mcp-resource-update uri=\"x\">changed</mcp-resource-update>"}, "", TextContext},
		{"an unknown tag of Claude Code's kind, wrapping the text", []string{"<brand-new-notice>hi</brand-new-notice>\n"}, "", TextContext},
		{"a custom element that starts a prompt", []string{"<router-view> renders nothing"}, "<router-view> renders nothing", TextTyped},
		{"elements of a list, and words between", []string{"<todo-item>milk</todo-item> and <todo-item>eggs</todo-item>"}, "<todo-item>milk</todo-item> and <todo-item>eggs</todo-item>", TextTyped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			label, kind := PromptOf(tt.texts)
			if label != tt.label || kind != tt.kind {
				t.Errorf("PromptOf = %q (kind %d), want %q (kind %d)", label, kind, tt.label, tt.kind)
			}
		})
	}
}

// /plan with a text (2.1.22x) is a prompt the model works on, though it
// is recorded as a local command; /plan alone only toggles plan mode, and
// other local commands with arguments stay local.
func TestPlanWithATextIsAPrompt(t *testing.T) {
	for _, tc := range []struct {
		text string
		want TextKind
	}{
		{"<command-name>/plan</command-name>\n            <command-message>plan</command-message>\n            <command-args>add a --tz flag to every time grouping</command-args>", TextCommand},
		{"<command-name>/plan</command-name>\n            <command-message>plan</command-message>\n            <command-args></command-args>", TextLocalCommand},
		{"<command-name>/plan</command-name>\n<command-message>plan</command-message>\n<command-args>   </command-args>", TextLocalCommand},
		{"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>", TextLocalCommand},
	} {
		if got := ClassifyText(tc.text); got != tc.want {
			t.Errorf("ClassifyText(%.60q) = %v, want %v", tc.text, got, tc.want)
		}
		// The envelope parser decides from the raw line, as ClassifyText does.
		line := `{"type":"user","uuid":"u1","message":{"role":"user","content":` + strconv.Quote(tc.text) + `}}`
		e, ok := ParseLine([]byte(line))
		if !ok || e.IsTypedPrompt() != tc.want.IsPrompt() {
			t.Errorf("line %.60q: IsTypedPrompt %v, want %v", tc.text, e.IsTypedPrompt(), tc.want.IsPrompt())
		}
	}
	if l, k := PromptOf([]string{"<command-name>/plan</command-name>\n<command-message>plan</command-message>\n<command-args>add a --tz flag</command-args>"}); l != "/plan add a --tz flag" || k != TextCommand {
		t.Errorf("PromptOf = %q, %v", l, k)
	}
}

// A line of a response still streaming, in a file of Claude Code 2.1.49 or
// older, holds only the usage the response began with.
func TestStreamingStart(t *testing.T) {
	line := func(version, stop string, out int) string {
		return `{"type":"assistant","uuid":"a","version":"` + version + `","message":{"id":"m","role":"assistant","stop_reason":` + stop + `,"usage":{"input_tokens":3,"output_tokens":` + strconv.Itoa(out) + `}}}`
	}
	for _, tc := range []struct {
		line string
		want bool
	}{
		{line("2.1.49", "null", 1), true},
		{line("2.0.76", "null", 4), true},
		{line("1.0.98", "null", 2), true},
		{line("2.1.50", "null", 1), false},
		{line("2.1.49", `"end_turn"`, 1), false},
		{line("2.1.49", "null", 5), false},
		{line("2.1.49", "null", 0), false},
		{line("", "null", 1), false},
		{line("2.1", "null", 1), false},
		{strings.Replace(line("2.1.49", "null", 1), `"stop_reason":null,`, "", 1), false},
	} {
		e, ok := ParseLine([]byte(tc.line))
		if !ok || e.StreamingStart() != tc.want {
			t.Errorf("%s: StreamingStart %v, want %v", tc.line, e.StreamingStart(), tc.want)
		}
	}
}

// A listing shows a bad byte sequence as one replacement mark, as every
// other view does (termsafe): not dropped, not one mark a byte.
func TestOneLineMarksBadBytes(t *testing.T) {
	for in, want := range map[string]string{
		"caf\xe9":             "caf\ufffd",
		"a \xe2\x9c\xff b":    "a \ufffd b",
		"x\xff y\xfe":         "x\ufffd y\ufffd",
		"a real \ufffd stays": "a real \ufffd stays",
		// Escapes stay, to be shown escaped (\x1b[31m) where the line is
		// printed: dropped, they left "[31m" behind as if it were text.
		"ctrl\x1b[31m and \u009b ok": "ctrl\x1b[31m and \u009b ok",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
