package reader

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextKind is what one text of a user message is (a string content, or
// one text block): something a person typed, or something Claude Code
// wrote into the user's turn. ClassifyText decides it, and with it every
// command's notion of a typed prompt (Entry.IsTypedPrompt), of a session's
// title and of a tree run's label (PromptOf).
type TextKind uint8

const (
	// TextContext is text Claude Code or an integration added: an IDE
	// selection or opened file, hook output, a system reminder, a task
	// notification, a local command's output or caveat, memory input, an
	// interruption marker; any text that starts with a tag.
	TextContext TextKind = iota
	// TextTyped is text a person typed.
	TextTyped
	// TextCommand is a slash command that runs as a prompt (a custom
	// command, a skill): Claude Code records it with <command-message>
	// first, then <command-name> and <command-args>, sends its expansion
	// (a meta line) to the model, and the model answers it.
	TextCommand
	// TextLocalCommand is a built-in local command (/clear, /model,
	// /compact, /doctor, /exit): recorded with <command-name> first,
	// answered by <local-command-stdout>, never by the model. Two of them
	// in a row share a parent, so they are not rewinds either.
	TextLocalCommand
	// TextBash is bash-mode input (! cmd): run locally, answered by
	// <bash-stdout>.
	TextBash
)

// IsPrompt reports whether a text of this kind makes its line a typed
// prompt: typed text, or a slash command that runs as a prompt. Local
// commands and bash input are typed too, but they never reach the model
// as a turn, so they count as prompts nowhere (ls, show, tree).
func (k TextKind) IsPrompt() bool { return k == TextTyped || k == TextCommand }

// ClassifyText tells what a text of a user message is, from its start
// (leading space ignored) and, for a tag not known, its end.
func ClassifyText(s string) TextKind {
	return classify(s, textProbe{
		closesOnce: func(name string) bool {
			closing := "</" + name + ">"
			t := strings.TrimRight(s, " \t\n\r") // as rawClosesOnce trims the raw end
			i := strings.Index(t, closing)
			return i >= 0 && i+len(closing) == len(t)
		},
		hasArgs: func() bool { return between(s, "<command-args>", "</command-args>") != "" },
	})
}

// textProbe answers what the start of a text cannot tell: whether its
// first </name> is its end (a tag not known), and whether a command has
// arguments. The envelope parser asks them of the raw JSON string, without
// decoding a text that may be megabytes long.
type textProbe struct {
	closesOnce func(name string) bool
	hasArgs    func() bool
}

// classify is ClassifyText for a text known by its start (the first few
// dozen bytes decide) and by closesOnce, which says whether the text's
// first </name> is its end: called only for a tag not known.
func classify(start string, p textProbe) TextKind {
	s := strings.TrimLeftFunc(start, unicode.IsSpace)
	switch {
	case s == "":
		return TextContext
	case strings.HasPrefix(s, "<command-message>"):
		return TextCommand
	case strings.HasPrefix(s, "<command-name>"):
		// /plan with a text (2.1.22x) turns plan mode on and gives the
		// model the text to plan: a prompt the model works on, though it
		// is recorded as a local command.
		if between(s, "<command-name>", "</command-name>") == "/plan" && p.hasArgs() {
			return TextCommand
		}
		return TextLocalCommand
	case strings.HasPrefix(s, "<bash-input>"):
		return TextBash
	case strings.HasPrefix(s, "[Request interrupted by user"):
		return TextContext
	}
	if name, ok := leadingTag(s); ok && (contextTag(name) || wrapped(name, p.closesOnce)) {
		return TextContext
	}
	return TextTyped
}

// leadingTag returns the name of the tag s starts with, if it starts with
// one (<name>, <name attr…>, <name/>).
func leadingTag(s string) (string, bool) {
	if len(s) < 3 || s[0] != '<' || !isASCIILetter(s[1]) {
		return "", false
	}
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-':
		case c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return s[1:i], true
		default:
			return "", false
		}
	}
	return "", false
}

// contextTag reports whether a tag name is one of those Claude Code and
// its integrations are known to write into a user turn: IDE context
// (ide_selection, ide_opened_file, ide_diagnostics), local command and
// bash-mode output, hook output (user-prompt-submit-hook, …), system
// reminders, task, teammate, agent and cross-session messages, channel
// and Slack messages, remote reviews, fetched web content, MCP resource
// updates, memory input, and the <tick> and <goal> of scheduled prompts.
// Command and bash input are classified before this (classify).
func contextTag(name string) bool {
	switch name {
	case "system-reminder", "task-notification", "teammate-message", "agent-message", "cross-session-message",
		"channel", "coordinator-relay", "fetched-web-content", "fork-boilerplate", "forked-skill-launch",
		"artifact-type-instructions", "cowritten-artifact-html", "user-memory-input", "tick", "goal",
		"command-name", "command-message", "command-args":
		return true
	}
	for _, prefix := range []string{"ide_", "local-command-", "bash-", "remote-review", "slack-", "mcp-"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return strings.HasSuffix(name, "-hook")
}

// wrapped reports whether a text that starts with tag name is one element
// of it, closed once, at its end, and the name is of Claude Code's kind
// (words joined by - or _). New integrations keep adding such tags; a
// person's prompt that starts with markup ("<div> is not centered",
// "<router-view> renders nothing", "<todo-item>milk</todo-item> and
// <todo-item>eggs</todo-item>") goes on after the element, so it stays a
// prompt.
func wrapped(name string, closesOnce func(string) bool) bool {
	return strings.ContainsAny(name, "-_") && closesOnce(name)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// PromptOf is what a user message shows as its prompt, on one line: the
// first text a person typed ("/name args" for a slash command), else the
// first bash input ("! cmd") or local command ("/clear"), with its kind.
// It is "" (TextContext) when every text is context. ls titles and tree
// labels both come from here.
func PromptOf(texts []string) (string, TextKind) {
	fallback, fallbackKind := "", TextContext
	for _, t := range texts {
		k := ClassifyText(t)
		switch {
		case k == TextContext:
			continue
		case k.IsPrompt():
			return promptLabel(t, k), k
		case fallback == "":
			fallback, fallbackKind = promptLabel(t, k), k
		}
	}
	if fallback == "" {
		return "", TextContext
	}
	return fallback, fallbackKind
}

// promptLabel is the one-line form of a text of kind k.
func promptLabel(t string, k TextKind) string {
	switch k {
	case TextCommand, TextLocalCommand:
		name := strings.TrimPrefix(between(t, "<command-name>", "</command-name>"), "/")
		if name == "" {
			name = strings.TrimSuffix(between(t, "<command-message>", "</command-message>"), " is running…")
		}
		if name == "" {
			return OneLine(t)
		}
		l := "/" + name
		if args := between(t, "<command-args>", "</command-args>"); args != "" {
			l += " " + args
		}
		return OneLine(l)
	case TextBash:
		return OneLine("! " + between(t, "<bash-input>", "</bash-input>"))
	}
	return OneLine(t)
}

// between is the trimmed text between the first open tag and the close
// tag after it (to the end when the close is missing), or "".
func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	if j := strings.Index(s, close); j >= 0 {
		s = s[:j]
	}
	return strings.TrimSpace(s)
}

// OneLine makes text fit one line of a listing: whitespace runs become one
// space, control characters are dropped, a run of bytes that are not UTF-8
// becomes one U+FFFD, and it is cut to PromptRunes runes with an ellipsis,
// before a token the cut would split (cutToken).
func OneLine(s string) string {
	var b strings.Builder
	// At most PromptRunes runes and the ellipsis are written: one
	// allocation (a builder grown a rune at a time was most of what ls
	// spent on a cached row's title).
	b.Grow(min(len(s), PromptRunes*utf8.UTFMax) + len("…"))
	n := 0
	// emit writes r unless the line is full: then there is more than
	// PromptRunes runes, and the rest is not read (a pasted prompt may be
	// megabytes long).
	emit := func(r rune) bool {
		if n == PromptRunes {
			return false
		}
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
		} else {
			b.WriteRune(r)
		}
		n++
		return true
	}
	space, bad := false, false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		// A run of bytes that are not UTF-8 shows as one replacement
		// mark, as termsafe shows it in every other view.
		wasBad := bad
		bad = r == utf8.RuneError && size == 1
		switch {
		case bad && wasBad:
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		// A control character is kept, for whatever prints the line to
		// escape (render.Safe shows ESC as \x1b): dropped, it left the
		// rest of an escape sequence behind as if it were text ("[31m").
		if space && !emit(' ') {
			return b.String() + "…" // full at the end of a word
		}
		if !emit(r) {
			if space || !tokenRune(r) { // no token goes on past the cut
				return strings.TrimRightFunc(b.String(), unicode.IsSpace) + "…"
			}
			return cutToken(b.String()) + "…"
		}
		space = false
	}
	return b.String()
}

// cutToken is a line cut inside a token (a run of tokenRune) without
// that token's part: a secret cut short (an API key, an email address,
// the end of a path) is no longer one --redact knows, and would show as it
// is (`ghp_a1B2c3…`). A line that is one token, all of it cut, keeps
// nothing of it.
func cutToken(s string) string {
	i := len(s)
	for i > 0 && s[i-1] < utf8.RuneSelf && tokenRune(rune(s[i-1])) {
		i--
	}
	return s[:i]
}

// tokenRune reports whether r may be part of a secret --redact masks: the
// ASCII letters and digits, and what keys, tokens and email addresses
// hold besides.
func tokenRune(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._%+@~=-", r))
}

// IsWarmup reports whether an agent's first prompt is the "Warmup" that
// Claude Code 2.0.x sends a subagent of its own at start, to warm the
// prompt cache: no tool call spawns that agent, and nothing waits for its
// reply. agents (kind warmup) and tree (Agent.Warmup) both ask this.
func IsWarmup(firstPrompt string) bool { return strings.TrimSpace(firstPrompt) == "Warmup" }

// IsTypedPrompt reports whether the entry is a prompt a person typed: a
// user message (a user line, or a queued prompt delivered as an
// attachment: IsUser) that is not meta (a command's expansion, a
// caveat), not a compaction summary, not a tool result, and has a text
// ClassifyText calls a prompt (TextHead is that text's start; a queued
// input has one only when it is a QueuedPrompt). This one predicate
// counts prompts for ls and show, starts turns for show --tail, and tells
// a rewind from a recording artifact in tree.
func (e *Entry) IsTypedPrompt() bool {
	return e.IsUser() && !e.Meta && !e.CompactSummary && e.Content&HasToolResult == 0 && e.TextHead != ""
}
