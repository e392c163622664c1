package reader

import (
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
		{"control characters dropped", []string{"red \x1b[31mtext"}, "red [31mtext", TextTyped},
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

// A listing shows a bad byte sequence as one replacement mark, as every
// other view does (termsafe): not dropped, not one mark a byte.
func TestOneLineMarksBadBytes(t *testing.T) {
	for in, want := range map[string]string{
		"caf\xe9":                    "caf\ufffd",
		"a \xe2\x9c\xff b":           "a \ufffd b",
		"x\xff y\xfe":                "x\ufffd y\ufffd",
		"a real \ufffd stays":        "a real \ufffd stays",
		"ctrl\x1b[31m and \u009b ok": "ctrl[31m and ok",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
