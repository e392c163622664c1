package reader

import "testing"

// The types of line Claude Code writes, and the roles and speeds, are read
// without allocating: Peek reads the type of every line of a history.
func TestKnownWordsAllocateNothing(t *testing.T) {
	for _, w := range []string{
		"assistant", "user", "progress", "attachment", "system", "summary", "standard", "fast",
		"last-prompt", "mode", "ai-title", "permission-mode", "queue-operation", "bridge-session",
		"pr-link", "file-history-snapshot", "file-history-delta", "agent-name", "agent-setting",
		"agent-color", "relocated", "worktree-state", "custom-title",
	} {
		line := []byte(`{"type":"` + w + `","uuid":"u"}`)
		var typ string
		if n := testing.AllocsPerRun(20, func() { typ, _, _ = Peek(line) }); n != 0 || typ != w {
			t.Errorf("Peek of a %s line: type %q, %v allocations", w, typ, n)
		}
	}
	// Anything else is read as it is written, escapes and all.
	for _, c := range []struct{ raw, want string }{
		{`"new-kind"`, "new-kind"},
		{`"last\u002dprompt"`, "last-prompt"},
		{`"User"`, "User"},
		{`""`, ""},
	} {
		if got := wordStr([]byte(c.raw)); got != c.want {
			t.Errorf("wordStr(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}
