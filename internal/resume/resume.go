// Package resume reopens a session in Claude Code. Claude Code finds a
// session to resume in the project folder of its current directory
// (<config>/projects/<the directory, sanitized>), so `claude --resume
// <id>` fails with "session not found" anywhere else: cctx runs it in the
// directory the session recorded, with CLAUDE_CONFIG_DIR set when the
// session lives under another config directory than Claude Code's own.
package resume

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cctx-dev/cctx/internal/session"
)

// Target is how to resume one session.
type Target struct {
	SessionID string
	Dir       string // the directory the session recorded: its first cwd
	// ConfigDir is the config directory Claude Code must read the session
	// from, when it is not its default (CLAUDE_CONFIG_DIR, else
	// ~/.claude): then CLAUDE_CONFIG_DIR is set to it.
	ConfigDir string
}

// Plan says how to resume s. It fails for what Claude Code cannot resume:
// standard input, a session whose main transcript was deleted, one only
// cctx's archive holds, one whose transcript holds no conversation
// (emptied), one outside any config directory, or one that recorded no
// directory.
func Plan(s *session.Session, env session.Env) (Target, error) {
	t := Target{SessionID: s.ID}
	switch {
	case s.Path == session.StdinPath:
		return t, errors.New("a transcript on standard input cannot be resumed: give its session id")
	case !session.IsSessionID(s.ID):
		return t, fmt.Errorf("%s: no session id Claude Code can resume (its lines record none)", s.Path)
	case s.Orphan:
		return t, fmt.Errorf("session %s: its main transcript %s: Claude Code cannot resume it", s.ID, s.MainGone())
	case s.Archived:
		return t, fmt.Errorf("session %s: only cctx's archive holds it (%s); Claude Code resumes the sessions of its own config directory: put the transcript back first, %s", s.ID, s.Path, restoreHint(s, env))
	}
	if why := s.NoConversation(); why != "" {
		return t, fmt.Errorf("session %s: %s: there is no conversation for Claude Code to resume", s.ID, why)
	}
	config := configOf(s)
	if config == "" {
		return t, fmt.Errorf("session %s: %s is not in a Claude Code config directory (<config>/projects/<project>/), where claude --resume looks", s.ID, s.Path)
	}
	_, dir, err := session.Start(s)
	if err != nil {
		return t, err
	}
	if dir == "" {
		return t, fmt.Errorf("session %s: its transcript records no directory (cwd) to resume it in", s.ID)
	}
	t.Dir = dir
	if !sameDir(config, defaultConfig(env)) {
		t.ConfigDir = config
	}
	return t, nil
}

// restoreHint is how to put an archived transcript back where claude
// --resume finds it: compressed (.zst), it is decompressed there.
func restoreHint(s *session.Session, env session.Env) string {
	to := filepath.Join("<config>", "projects", s.ProjectKey(), s.ID+".jsonl")
	if c := defaultConfig(env); c != "" {
		to = filepath.Join(c, "projects", s.ProjectKey(), s.ID+".jsonl")
	}
	if strings.HasSuffix(s.Path, ".zst") {
		return "decompressed (zstd -d) to " + to
	}
	return "copied to " + to
}

// configOf is the config directory that holds s, absolute (claude runs
// in the session's directory, where a relative one would name another):
// its root's, else the one its path is in, <config>/projects/<project>/
// (a session found from a project folder given as --dir, or by its
// path). "" when it is in none.
func configOf(s *session.Session) string {
	config := s.Root.ConfigDir
	if config == "" {
		abs, err := filepath.Abs(s.Path)
		if err != nil {
			return ""
		}
		projects := filepath.Dir(filepath.Dir(abs))
		if filepath.Base(projects) != "projects" {
			return ""
		}
		config = filepath.Dir(projects)
	}
	if abs, err := filepath.Abs(config); err == nil {
		config = abs
	}
	return config
}

// defaultConfig is the config directory claude reads: CLAUDE_CONFIG_DIR
// (claude takes one directory), else ~/.claude.
func defaultConfig(env session.Env) string {
	if env.Getenv != nil {
		if v := strings.TrimSpace(env.Getenv("CLAUDE_CONFIG_DIR")); v != "" && !strings.Contains(v, ",") {
			return v
		}
	}
	if env.Home == "" {
		return ""
	}
	return filepath.Join(env.Home, ".claude")
}

func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	abs := func(p string) string {
		if q, err := filepath.Abs(p); err == nil {
			p = q
		}
		if q, err := filepath.EvalSymlinks(p); err == nil {
			p = q
		}
		return filepath.Clean(p)
	}
	return abs(a) == abs(b)
}

// Env is the environment claude runs with: this process's, with
// CLAUDE_CONFIG_DIR when the target needs it.
func (t Target) Env(environ []string) []string {
	if t.ConfigDir == "" {
		return environ
	}
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "CLAUDE_CONFIG_DIR=") {
			out = append(out, kv)
		}
	}
	return append(out, "CLAUDE_CONFIG_DIR="+t.ConfigDir)
}

// Args are claude's arguments (the program name first).
func (t Target) Args() []string { return []string{"claude", "--resume", t.SessionID} }

// DirError is a session whose directory is gone: Claude Code would not
// find the session from anywhere else.
type DirError struct {
	Target Target
	Err    error
}

func (e *DirError) Error() string {
	if errors.Is(e.Err, os.ErrNotExist) {
		return fmt.Sprintf("session %s ran in %s, which no longer exists (moved or deleted); Claude Code looks for a session from the directory it ran in", e.Target.SessionID, e.Target.Dir)
	}
	return fmt.Sprintf("session %s ran in %s: %v", e.Target.SessionID, e.Target.Dir, e.Err)
}

// NoClaudeError is a claude command that is not on PATH.
type NoClaudeError struct{ Err error }

func (e *NoClaudeError) Error() string {
	return "claude (Claude Code's command) is not on PATH"
}

// Check finds the claude program with lookPath and checks the target's
// directory.
func Check(t Target, lookPath func(string) (string, error)) (string, error) {
	st, err := os.Stat(t.Dir)
	if err == nil && !st.IsDir() {
		err = errors.New("not a directory")
	}
	if err != nil {
		return "", &DirError{t, err}
	}
	claude, err := lookPath("claude")
	if err != nil {
		return "", &NoClaudeError{err}
	}
	return claude, nil
}

// Stdio are the streams claude runs with where it runs as cctx's child
// (Windows): cctx's own, the terminal it hands over.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
}

// ExitError is claude's exit code, when it ran as cctx's child (Windows).
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("claude exited with %d", e.Code) }
