package archive

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
)

// source is one transcript file under the roots.
type source struct {
	Rel   string // relative to the projects dir, with /: <project-key>/…
	Path  string
	Size  int64
	Mtime time.Time
	Whole bool // a .meta.json sidecar: copied whole, not by lines
}

// Session is the session a source belongs to, <project-key>/<id> (or the
// file itself for a file of no session folder: a flat agent file).
func (s source) Session() string {
	parts := strings.SplitN(s.Rel, "/", 3)
	if len(parts) < 2 {
		return s.Rel
	}
	id, _ := session.TranscriptStem(parts[1])
	return parts[0] + "/" + id
}

// TopLevel reports whether the file sits in its project folder (a main
// transcript, a flat agent): what Claude Code's cleanup deletes.
func (s source) TopLevel() bool { return strings.Count(s.Rel, "/") == 1 }

// findSources lists the transcripts under the roots: in each project
// folder, every .jsonl file, and in each session folder (<id>/) every
// .jsonl and .meta.json, at any depth. Links are followed where the
// listing follows them (docs/rules.md, "Links and paths"), so that every
// session cctx lists is archived: a project folder, a session file or a
// session folder may be a symlink, wherever it points (history moved to
// another disk); inside a session folder a link is said and left, so that
// a loop cannot trap the walk. Two roots holding the same path: the first
// is archived, the second said.
func findSources(roots []session.Root, rep *diag.Reporter) []source {
	var out []source
	seen := map[string]string{}
	for _, r := range roots {
		base, err := filepath.EvalSymlinks(r.ProjectsDir)
		if err != nil {
			rep.FileError(r.ProjectsDir, err) // nothing of it is archived: exit 1
			continue
		}
		w := &walker{rep: rep}
		ents, err := os.ReadDir(r.ProjectsDir)
		if err != nil {
			rep.FileError(r.ProjectsDir, err)
			continue
		}
		// A root that holds sessions itself is one project folder.
		self := false
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
				self = true
			}
		}
		var found []source
		if self {
			found = w.project(r.ProjectsDir, filepath.Base(base))
		} else {
			for _, e := range ents {
				p := filepath.Join(r.ProjectsDir, e.Name())
				if dir, ok := w.follow(p, e, true); ok && dir {
					found = append(found, w.project(p, e.Name())...)
				}
			}
		}
		for _, s := range found {
			if first, dup := seen[s.Rel]; dup {
				rep.Warn("%s: the same path as %s in an earlier root; only that one is archived", s.Path, first)
				continue
			}
			seen[s.Rel] = s.Path
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out
}

type walker struct {
	rep *diag.Reporter
}

// follow says whether p (an entry of a directory) is a directory, and
// whether it may be read; links only where links are taken (links).
func (w *walker) follow(p string, e os.DirEntry, links bool) (dir, ok bool) {
	if e.Type()&os.ModeSymlink == 0 {
		return e.IsDir(), e.IsDir() || e.Type().IsRegular()
	}
	if !links {
		// Said when it stands for a transcript or a folder, as the
		// listing says it, so that a missing agent is not a mystery.
		if st, err := os.Stat(p); strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".meta.json") || err == nil && st.IsDir() {
			w.rep.Warn("%s: a symlink, not followed (agent transcripts are read inside the session's folder only)", p)
		}
		return false, false
	}
	st, err := os.Stat(p)
	if err != nil {
		// A link to nothing, or a loop of links. One named as a
		// transcript is a file that cannot be read, said as the listing
		// says it (the run exits 1); another (notes.txt, a project
		// folder on a disk not mounted) is left as the listing leaves
		// it, said only with -v.
		name := e.Name()
		if strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.zst") || session.IsSessionID(name) {
			w.rep.FileError(p, err)
		} else {
			w.rep.Note("%s: %v, not archived", p, diag.FileErrorText(p, err))
		}
		return false, false
	}
	return st.IsDir(), st.IsDir() || st.Mode().IsRegular()
}

// project lists a project folder: its .jsonl files, and what its session
// folders hold.
func (w *walker) project(dir, key string) []source {
	ents, err := os.ReadDir(dir)
	if err != nil {
		w.rep.FileError(dir, err) // its sessions are not archived: a run, and --status, exit 1
		return nil
	}
	var out []source
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		isDir, ok := w.follow(p, e, true)
		switch {
		case !ok:
		case isDir && session.IsSessionID(e.Name()):
			out = append(out, w.sessionFolder(p, key+"/"+e.Name(), 0)...)
		case !isDir && strings.HasSuffix(e.Name(), ".jsonl"):
			if s, ok := w.file(p, key+"/"+e.Name(), false); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func (w *walker) sessionFolder(dir, rel string, depth int) []source {
	if depth > 16 {
		w.rep.Warn("%s: folders nested too deep, not read further", dir)
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		w.rep.FileError(dir, err)
		return nil
	}
	var out []source
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		isDir, ok := w.follow(p, e, false)
		switch {
		case !ok:
		case isDir:
			out = append(out, w.sessionFolder(p, rel+"/"+e.Name(), depth+1)...)
		case strings.HasSuffix(e.Name(), ".jsonl"):
			if s, ok := w.file(p, rel+"/"+e.Name(), false); ok {
				out = append(out, s)
			}
		case strings.HasSuffix(e.Name(), ".meta.json"):
			if s, ok := w.file(p, rel+"/"+e.Name(), true); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

func (w *walker) file(p, rel string, whole bool) (source, bool) {
	st, err := os.Stat(p)
	if err != nil {
		w.rep.FileError(p, err)
		return source{}, false
	}
	if !st.Mode().IsRegular() {
		return source{}, false
	}
	return source{Rel: rel, Path: p, Size: st.Size(), Mtime: st.ModTime(), Whole: whole}, true
}
