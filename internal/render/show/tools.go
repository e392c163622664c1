package show

import (
	"fmt"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
)

// toolSummary is the one-line summary of a tool call: what a person wants
// to see at a glance (the command, the path, the pattern, the agent). It is
// raw transcript text: the caller cleans it.
func toolSummary(name, input string) string {
	s := func(k string) string { return reader.InputString(input, k) }
	switch name {
	case "Bash":
		return firstLine(s("command"))
	case "Read":
		out := s("file_path")
		off, okOff := reader.InputInt(input, "offset")
		lim, okLim := reader.InputInt(input, "limit")
		switch {
		case okOff && okLim:
			out += fmt.Sprintf(" (lines %d–%d)", off, off+lim-1)
		case okOff:
			out += fmt.Sprintf(" (from line %d)", off)
		case okLim:
			out += fmt.Sprintf(" (first %d lines)", lim)
		}
		return out
	case "Write":
		return fmt.Sprintf("%s (%s)", s("file_path"), plural(countLines(s("content")), "line"))
	case "Edit":
		out := s("file_path")
		if reader.InputBool(input, "replace_all") {
			out += " (replace all)"
		}
		return out
	case "MultiEdit":
		return fmt.Sprintf("%s (%s)", s("file_path"), plural(reader.InputArrayLen(input, "edits"), "edit"))
	case "NotebookEdit", "NotebookRead":
		return s("notebook_path")
	case "Grep":
		return join(quote(s("pattern")), in(s("path")), s("glob"), s("type"))
	case "Glob":
		return join(s("pattern"), in(s("path")))
	case "LS":
		return s("path")
	case "WebFetch":
		return s("url")
	case "WebSearch":
		return s("query")
	case "Task", "Agent":
		typ := s("subagent_type")
		if typ == "" {
			typ = "agent"
		}
		return typ + ": " + s("description")
	case "TodoWrite":
		return plural(reader.InputArrayLen(input, "todos"), "todo")
	case "Skill":
		return join(s("skill"), s("command"), s("args"))
	case "SlashCommand":
		return s("command")
	case "BashOutput", "KillShell", "KillBash":
		return join(s("bash_id"), s("shell_id"))
	case "ExitPlanMode":
		return firstLine(s("plan"))
	}
	// A tool cctx does not know (MCP tools and newer built-ins): its first
	// string argument, else its input.
	for _, f := range reader.InputFields(input) {
		if f.String && strings.TrimSpace(f.Value) != "" {
			return f.Key + ": " + firstLine(f.Value)
		}
	}
	if input == "{}" || input == "" {
		return ""
	}
	return firstLine(input)
}

func in(p string) string {
	if p == "" {
		return ""
	}
	return "in " + p
}

func quote(p string) string {
	if p == "" {
		return ""
	}
	return fmt.Sprintf("%q", p)
}

func join(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " ")
}

// firstLine is the first non-blank line of s, with a count of the rest.
func firstLine(s string) string {
	s = strings.Trim(s, "\n")
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return s
	}
	rest := strings.Count(s[i:], "\n")
	return s[:i] + fmt.Sprintf(" … (+%s)", plural(rest, "line"))
}

func countLines(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// diffLine is one line of a line diff: ' ' kept, '-' removed, '+' added.
type diffLine struct {
	op   byte
	text string
}

// maxDiffCells bounds the LCS table of a diff; larger edits are shown as
// the old lines removed and the new lines added.
const maxDiffCells = 1 << 20

// lineDiff diffs two texts by lines (longest common subsequence).
func lineDiff(old, new string) []diffLine {
	a, b := splitKeep(old), splitKeep(new)
	if len(a)*len(b) > maxDiffCells {
		var out []diffLine
		for _, l := range a {
			out = append(out, diffLine{'-', l})
		}
		for _, l := range b {
			out = append(out, diffLine{'+', l})
		}
		return out
	}
	// lcs[i][j] is the LCS length of a[i:] and b[j:], filled bottom-up
	// (no recursion).
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			out = append(out, diffLine{' ', a[i]})
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			out = append(out, diffLine{'-', a[i]})
			i++
		default:
			out = append(out, diffLine{'+', b[j]})
			j++
		}
	}
	for ; i < len(a); i++ {
		out = append(out, diffLine{'-', a[i]})
	}
	for ; j < len(b); j++ {
		out = append(out, diffLine{'+', b[j]})
	}
	return out
}

func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
