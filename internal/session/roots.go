// Package session finds Claude Code sessions on disk: the roots that hold
// them, the session and subagent files in each project folder, a cheap
// head-and-tail summary of each session for listing, and the resolution of
// a user's <session> argument to a file.
package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Root is one projects directory (…/projects) and, when known, the config
// directory that holds it (where sessions/<pid>.json live records are).
type Root struct {
	ProjectsDir string
	ConfigDir   string
	// Archive: the root is a cctx archive (`cctx archive`), read after the
	// live roots: its sessions are listed when no live root has them
	// (Session.Archived).
	Archive bool
	// Added: the root was not named (the archive beside the default
	// roots): when it holds nothing yet, there is nothing to say.
	Added bool
}

// Env is what root discovery reads from the environment; tests fake it.
type Env struct {
	Getenv func(string) string
	Home   string
}

// OSEnv is the process environment.
func OSEnv() Env {
	home, _ := os.UserHomeDir()
	return Env{Getenv: os.Getenv, Home: home}
}

// Roots decides where transcripts are:
//   - each --dir, which may name a projects dir or a config dir holding projects/;
//   - else CLAUDE_CONFIG_DIR, a comma-separated list read as --dir is;
//   - else ~/.claude and ~/.config/claude, whichever have a projects dir.
//
// A --dir or CLAUDE_CONFIG_DIR entry that does not exist is an error;
// defaults that do not exist are skipped. An empty result is not an error: there is simply nothing to list.
func Roots(dirs []string, env Env) ([]Root, error) {
	var roots []Root
	seen := map[string]bool{}
	add := func(r Root) {
		key := r.ProjectsDir
		if abs, err := filepath.Abs(key); err == nil {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			roots = append(roots, r)
		}
	}
	if len(dirs) > 0 {
		for _, d := range dirs {
			r, err := rootFromDir("--dir", expandHome(d, env.Home)) // --dir=~/.claude: no shell expands it
			if err != nil {
				return nil, err
			}
			add(r)
		}
		return roots, nil
	}
	// The archive, when there is one, comes with the default roots:
	// sessions Claude Code deleted are still found. An explicit --dir
	// reads what it names only (--dir ARCHIVE reads the archive alone).
	archive := func() {
		if a := ArchiveDir(env); a != "" && IsArchive(a) {
			add(Root{ProjectsDir: filepath.Join(a, "projects"), ConfigDir: a, Archive: true, Added: true})
		}
	}
	// CLAUDE_CONFIG_DIR is read as --dir is: a directory that is not
	// there is a mistake to report (a typo must not make a CI budget pass
	// on nothing), and it may name the projects dir itself.
	if v := strings.TrimSpace(env.Getenv("CLAUDE_CONFIG_DIR")); v != "" {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c == "" {
				continue
			}
			r, err := rootFromDir("CLAUDE_CONFIG_DIR", expandHome(c, env.Home))
			if err != nil {
				return roots, &ConfigDirError{Err: err}
			}
			add(r)
		}
		archive()
		return roots, nil
	}
	var configs []string
	if env.Home != "" {
		configs = []string{filepath.Join(env.Home, ".claude"), filepath.Join(env.Home, ".config", "claude")}
	}
	for _, c := range configs {
		p := filepath.Join(c, "projects")
		if isDir(p) {
			add(Root{ProjectsDir: p, ConfigDir: c})
		}
	}
	archive()
	return roots, nil
}

// ConfigDirError is a CLAUDE_CONFIG_DIR entry that is not a directory. It
// matters only to a command that looks sessions up: a file or standard
// input given as the session needs no roots (Finder.RootsErr).
type ConfigDirError struct{ Err error }

func (e *ConfigDirError) Error() string { return e.Err.Error() }
func (e *ConfigDirError) Unwrap() error { return e.Err }

// rootFromDir reads a directory given by the user (what names where it
// came from, for errors): a config dir holding projects/, or a projects dir.
func rootFromDir(what, d string) (Root, error) {
	st, err := os.Stat(d)
	if err != nil {
		if os.IsNotExist(err) {
			return Root{}, fmt.Errorf("%s %s: no such directory", what, d)
		}
		return Root{}, fmt.Errorf("%s %s: %w", what, d, err)
	}
	if !st.IsDir() {
		return Root{}, fmt.Errorf("%s %s: not a directory", what, d)
	}
	if p := filepath.Join(d, "projects"); isDir(p) {
		return Root{ProjectsDir: p, ConfigDir: d, Archive: IsArchive(d)}, nil
	}
	r := Root{ProjectsDir: d}
	if abs, err := filepath.Abs(d); err == nil && filepath.Base(abs) == "projects" {
		r.ConfigDir = filepath.Dir(abs)
		r.Archive = IsArchive(r.ConfigDir)
	}
	return r, nil
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ArchiveMarker is the file that makes a directory a cctx archive: its
// manifest (written by internal/archive).
const ArchiveMarker = "cctx-archive.jsonl"

// IsArchive reports whether dir is a cctx archive: it holds projects/ and
// the archive's manifest.
func IsArchive(dir string) bool {
	return isDir(filepath.Join(dir, "projects")) && fileExists(filepath.Join(dir, ArchiveMarker))
}

// ArchiveDir is where `cctx archive` keeps its copy: CCTX_ARCHIVE when
// set, else the user data directory's cctx/archive: $XDG_DATA_HOME (else
// ~/.local/share) on Linux and the BSDs, ~/Library/Application Support on
// macOS (XDG_DATA_HOME first when set), %LOCALAPPDATA% on Windows. "" when
// no home is known.
func ArchiveDir(env Env) string {
	get := func(k string) string {
		if env.Getenv == nil {
			return ""
		}
		return strings.TrimSpace(env.Getenv(k))
	}
	if v := get("CCTX_ARCHIVE"); v != "" {
		return expandHome(v, env.Home)
	}
	if v := get("XDG_DATA_HOME"); v != "" && filepath.IsAbs(v) && runtime.GOOS != "windows" {
		return filepath.Join(v, "cctx", "archive")
	}
	switch runtime.GOOS {
	case "windows":
		if v := get("LOCALAPPDATA"); v != "" {
			return filepath.Join(v, "cctx", "archive")
		}
		if env.Home != "" {
			return filepath.Join(env.Home, "AppData", "Local", "cctx", "archive")
		}
	case "darwin", "ios":
		if env.Home != "" {
			return filepath.Join(env.Home, "Library", "Application Support", "cctx", "archive")
		}
	default:
		if env.Home != "" {
			return filepath.Join(env.Home, ".local", "share", "cctx", "archive")
		}
	}
	return ""
}
