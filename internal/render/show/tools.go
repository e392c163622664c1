package show

import (
	"fmt"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
)

// toolSummary is the one-line summary of a tool call: what a person wants
// to see at a glance (the command, the path, the pattern, the agent). It is
// raw transcript text: the caller cleans it.
func toolSummary(name, raw string, in reader.ToolInput) string {
	switch name {
	case "Bash":
		return firstLine(in.Command)
	case "Read":
		out := in.FilePath
		switch {
		case in.HasOffset && in.HasLimit:
			out += fmt.Sprintf(" (lines %d–%d)", in.Offset, in.Offset+in.Limit-1)
		case in.HasOffset:
			out += fmt.Sprintf(" (from line %d)", in.Offset)
		case in.HasLimit:
			out += fmt.Sprintf(" (first %d lines)", in.Limit)
		}
		return out
	case "Write":
		return fmt.Sprintf("%s (%s)", in.FilePath, plural(countLines(in.Content), "line"))
	case "Edit":
		out := in.FilePath
		if in.ReplaceAll {
			out += " (replace all)"
		}
		return out
	case "MultiEdit":
		return fmt.Sprintf("%s (%s)", in.FilePath, plural(in.EditCount, "edit"))
	case "NotebookEdit", "NotebookRead":
		return in.NotebookPath
	case "Grep":
		return join(quote(in.Pattern), inPath(in.Path), in.Glob, in.FileType)
	case "Glob":
		return join(in.Pattern, inPath(in.Path))
	case "LS":
		return in.Path
	case "WebFetch":
		return in.URL
	case "WebSearch":
		return in.Query
	case "Task", "Agent":
		typ := in.SubagentType
		if typ == "" {
			typ = "agent"
		}
		return typ + ": " + in.Description
	case "TodoWrite":
		return plural(in.TodoCount, "todo")
	case "Skill":
		return join(in.Skill, in.Command, in.Args)
	case "SlashCommand":
		return in.Command
	case "BashOutput", "KillShell", "KillBash":
		return join(in.BashID, in.ShellID)
	case "ExitPlanMode":
		return firstLine(in.Plan)
	}
	// A tool cctx does not know (MCP tools and newer built-ins): its first
	// string argument, else its input.
	for _, f := range in.Fields {
		if f.String && strings.TrimSpace(f.Value) != "" {
			return f.Key + ": " + firstLine(f.Value)
		}
	}
	if raw == "{}" || raw == "" {
		return ""
	}
	return firstLine(raw)
}

func inPath(p string) string {
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
