package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
)

// MinPrefix is the shortest session id prefix accepted.
const MinPrefix = 4

// StdinPath is the <session> argument that reads a transcript from stdin.
const StdinPath = "-"

// ResolveError is a <session> argument that names no single session. It is
// a usage error: the user can fix the argument.
type ResolveError struct {
	Arg        string
	Reason     string
	Candidates []*Session // for an ambiguous prefix
}

func (e *ResolveError) Error() string {
	return fmt.Sprintf("session %q: %s", e.Arg, e.Reason)
}

// Resolve turns a <session> argument into a file:
//   - "-": standard input (Path is "-");
//   - a path to a .jsonl file (its subagents are found next to it);
//   - "latest": the session of the newest activity (the first row of ls);
//   - a full session id or a unique prefix of at least MinPrefix characters.
func (f *Finder) Resolve(arg string) (*Session, error) {
	switch {
	case arg == StdinPath:
		return &Session{ID: "", Path: StdinPath}, nil
	case arg == "":
		return nil, &ResolveError{Arg: arg, Reason: "empty session argument"}
	case strings.HasSuffix(arg, ".jsonl") || strings.HasSuffix(arg, ".jsonl.zst") || strings.ContainsRune(arg, os.PathSeparator) || strings.ContainsRune(arg, '/'):
		// A bare <id>.jsonl, as seen in a project folder, that is not in
		// the current directory: the session of that id.
		if id, ok := TranscriptStem(arg); ok && IsSessionID(id) && !strings.ContainsAny(arg, `/\`) {
			if _, err := os.Lstat(arg); os.IsNotExist(err) { // a broken link here is this file, not an id
				return f.Resolve(id)
			}
		}
		s, err := sessionFromPath(arg)
		if err == nil && !s.Orphan {
			f.emptiedMain(s) // read as the listing reads it
		}
		return s, err
	case f.RootsErr != nil:
		return nil, &ResolveError{Arg: arg, Reason: f.RootsErr.Error() + fileHere(arg)}
	case arg == "latest":
		// The first row of `cctx ls`: the newest activity inside the
		// files, not the newest file time (a copied or synced file).
		l := f.List(ListOptions{Limit: 1})
		if len(l.Sessions) == 0 {
			return nil, &ResolveError{Arg: arg, Reason: l.NoneFound(f.Where(), Filters{})}
		}
		return l.Sessions[0].Session, nil
	}
	if len(arg) < MinPrefix {
		return nil, &ResolveError{Arg: arg, Reason: fmt.Sprintf("a session prefix needs at least %d characters", MinPrefix)}
	}
	want := strings.ToLower(arg)
	var matches []*Session
	// Quiet about other sessions' files when the lookup succeeds; when it
	// does not, what was skipped may be why.
	var skipped []string
	quiet := func(format string, args ...any) { skipped = append(skipped, fmt.Sprintf(format, args...)) }
	sayWhy := func() {
		said := map[string]bool{} // each pass that listed the folders skipped the same
		for _, w := range skipped {
			if !said[w] {
				said[w] = true
				f.Report.Warn("%s", w)
			}
		}
	}
	// The sessions of flat agent files without their main transcript
	// (which takes reading every such file's head) only when no other
	// matches.
	for _, flat := range []bool{false, true} {
		for _, s := range f.sessionsOf(quiet, nil, flat, func(id string) bool { return strings.HasPrefix(strings.ToLower(id), want) }) {
			id := strings.ToLower(s.ID)
			if id == want {
				return s, nil
			}
			if strings.HasPrefix(id, want) {
				matches = append(matches, s)
			}
		}
		if len(matches) > 0 {
			break
		}
	}
	switch len(matches) {
	case 0:
		sayWhy()
		return nil, &ResolveError{Arg: arg, Reason: "no such session" + f.Where() + " (cctx ls lists them; --dir or CLAUDE_CONFIG_DIR look elsewhere)" + fileHere(arg)}
	case 1:
		return matches[0], nil
	}
	sayWhy()
	return nil, &ResolveError{Arg: arg, Reason: fmt.Sprintf("ambiguous prefix: %d sessions match", len(matches)), Candidates: matches}
}

// fileHere is what a failed lookup adds when its argument, taken for a
// session id (no separator, no .jsonl), names a file in the current
// directory: the way to read that file.
func fileHere(arg string) string {
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		return fmt.Sprintf("; %s is a file here: ./%s reads it as a transcript", arg, arg)
	}
	return ""
}

// Where names the roots searched, for messages.
func (f *Finder) Where() string {
	if len(f.Roots) == 0 {
		return " (no projects directory found)"
	}
	var dirs []string
	for _, r := range f.Roots {
		dirs = append(dirs, r.ProjectsDir)
	}
	return " in " + strings.Join(dirs, ", ")
}

func sessionFromPath(p string) (*Session, error) {
	st, err := os.Stat(p)
	if err != nil {
		if os.IsNotExist(err) {
			if to, lerr := os.Readlink(p); lerr == nil {
				return nil, &ResolveError{Arg: p, Reason: "a symbolic link to " + strconv.Quote(to) + ", which does not exist"}
			}
			return nil, &ResolveError{Arg: p, Reason: "no such file"}
		}
		return nil, err
	}
	if !st.Mode().IsRegular() {
		reason := "not a regular file"
		folder := strings.TrimRight(p, `/\`)
		if t := folder + ".jsonl"; st.IsDir() && fileExists(t) {
			reason = "a session's folder (it holds its subagents); the transcript is " + t
		} else if t := folder + ".jsonl.zst"; st.IsDir() && fileExists(t) {
			reason = "a session's folder (it holds its subagents); the transcript is " + t
		} else if id := filepath.Base(folder); st.IsDir() && IsSessionID(id) && hasSubagents(folder) {
			// A session folder whose main transcript was deleted: the
			// session is its subagents.
			return &Session{ID: id, ProjectDir: filepath.Dir(folder), Root: Root{ProjectsDir: filepath.Dir(filepath.Dir(folder))},
				Orphan: true, ModTime: st.ModTime()}, nil
		} else if st.IsDir() && holdsSessions(folder) {
			reason = "a folder of sessions, not one: list them with cctx ls --dir " + folder + ", then give one's id"
		}
		return nil, &ResolveError{Arg: p, Reason: reason}
	}
	dir := filepath.Dir(p)
	// The id is the file's name when it is one; a renamed or exported file
	// is known by the sessionId its lines record, as every command names it.
	id, _ := TranscriptStem(filepath.Base(p))
	if !IsSessionID(id) {
		if sid := headSessionID(p); sid != "" {
			id = sid
		}
	}
	return &Session{
		ID:         id,
		Path:       p,
		ProjectDir: dir,
		Root:       Root{ProjectsDir: filepath.Dir(dir)},
		ModTime:    st.ModTime(),
		Size:       reader.TextSize(p, st.Size()),
	}, nil
}

// holdsSessions reports whether dir holds a session transcript
// (<session-id>.jsonl): a project folder, given where one session goes.
func holdsSessions(dir string) bool {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if isSessionName(e.Name()) {
			return true
		}
	}
	return false
}
