package session

import (
	"path/filepath"
	"strings"
)

// InProject reports whether a recorded cwd is the project folder or inside
// it. Each path is compared by the rules of the system that wrote it, not
// of the one cctx runs on: a session recorded on Windows (C:\Users\me\app)
// is matched by --project C:\Users\me (or c:/users/me) on Linux or macOS
// too, case-insensitively and with either separator, as Windows compares.
func InProject(cwd, project string) bool {
	if cwd == "" || project == "" {
		return false
	}
	if windowsPath(cwd) {
		c, p := windowsKey(cwd), windowsKey(project)
		return c == p || strings.HasPrefix(c, p+`\`)
	}
	cwd, project = filepath.Clean(cwd), filepath.Clean(project)
	return cwd == project || strings.HasPrefix(cwd, strings.TrimSuffix(project, string(filepath.Separator))+string(filepath.Separator))
}

// ProjectPath turns a --project value into the path to compare recorded
// cwds with: ~ is the home folder, and a relative path is made absolute.
// A Windows path (C:\…, \\server\share) is taken as it is on any system:
// made absolute on Linux, it would name a folder no session ran in.
// No --project ("") is none ("").
func ProjectPath(arg, home string) string {
	if arg == "" || windowsPath(arg) {
		return arg
	}
	if home != "" && (arg == "~" || strings.HasPrefix(arg, "~/")) {
		arg = filepath.Join(home, arg[1:])
	}
	if abs, err := filepath.Abs(arg); err == nil {
		return abs
	}
	return arg
}

// windowsPath reports whether p is written the Windows way: a drive
// letter and a separator, or a UNC share.
func windowsPath(p string) bool {
	if len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		return true
	}
	return strings.HasPrefix(p, `\\`)
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// windowsKey is a Windows path as Windows compares it: one separator,
// no trailing one, case folded.
func windowsKey(p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	for len(p) > 3 && strings.HasSuffix(p, `\`) {
		p = p[:len(p)-1]
	}
	return strings.ToLower(p)
}

// Subagents is how many subagents a session ran whose transcript is
// there: its agent files (both layouts) and, in a ≤1.0.x session, its
// inline sidechains — not the agents Claude Code runs for itself to
// compact a conversation (agent-acompact-*). It is the one count of
// subagents: ls, show, tree and agents give it (tree.Tree.Subagents
// counts the same from the model).
func Subagents(files []Agent, in *Info) int {
	n := 0
	seen := make(map[string]bool, len(files))
	for _, a := range files {
		// An agent in both layouts (a flat file and one under
		// subagents/) is one agent, as the tree reads it.
		if !IsCompactionAgent(a.ID) && !seen[a.ID] {
			seen[a.ID] = true
			n++
		}
	}
	if in != nil && strings.HasPrefix(in.Version, "1.0.") && in.Path != "" {
		if !in.inlineKnown {
			in.inline, in.inlineKnown = inlineSidechains(in.Path), true
		}
		n += in.inline
	}
	return n
}

// IsCompactionAgent reports whether an agent id is a compaction agent's:
// Claude Code's own summariser, spawned by a compaction, not by a call.
func IsCompactionAgent(id string) bool { return strings.HasPrefix(id, "acompact") }
