package archive

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
)

// DefaultCleanupDays is Claude Code's cleanupPeriodDays when
// settings.json does not set it.
const DefaultCleanupDays = 30

// RiskWindow is how far ahead --status looks for deletions.
const RiskWindow = 7 * 24 * time.Hour

// RiskNote is what `cctx ls -v` says of what is at risk ("" when nothing
// is); size is the bytes at risk, as the caller writes sizes.
func (st Status) RiskNote(size string) string {
	if len(st.AtRisk) == 0 {
		return ""
	}
	what := fmt.Sprintf("%d session(s)", st.AtRiskSessions)
	switch {
	case st.AtRiskSessions == 0:
		what = fmt.Sprintf("%d file(s) of no session", st.AtRiskFiles)
	case st.AtRiskFiles > 0:
		what += fmt.Sprintf(" and %d file(s) of no session", st.AtRiskFiles)
	}
	return fmt.Sprintf("%s (%s) will be deleted by Claude Code within 7 days and are not archived: run `cctx archive` (cctx archive --status lists them)", what, size)
}

// Status is how much of the transcripts under the roots the archive
// lacks, and what Claude Code will delete soon.
type Status struct {
	Dir     string
	Exists  bool      // the archive has a manifest
	LastRun time.Time // zero: never
	// Under the roots; the sessions as cctx ls lists them (sessionOf).
	Sessions, Files int
	Bytes           int64
	// Not archived yet, wholly or in part (a file that grew since).
	PendingSessions, PendingFiles int
	PendingBytes                  int64
	// Of those, the sessions a file of which Claude Code deletes within
	// RiskWindow (a main transcript or a flat agent file whose
	// modification time is older than cleanupPeriodDays less the window),
	// each once with its files at risk (a session in two folders too),
	// and the files of no session at risk, each on its own; oldest
	// first. AtRiskSessions of them are sessions, AtRiskFiles files of no
	// session.
	AtRisk                      []Risk
	AtRiskSessions, AtRiskFiles int
	AtRiskBytes                 int64
	CleanupDays                 int    // cleanupPeriodDays in force
	Settings                    string // the settings.json it came from ("" : the default)
	// The archive itself.
	TextTotal, StoredTotal int64
}

// Risk is a session Claude Code will delete soon, or a file of no
// session.
type Risk struct {
	Session   string    // <project-key>/<session-id> of its first file at risk (a file of no session: <project-key>/<name> without .jsonl)
	ID        string    // the session's id; "" for a file of no session
	Files     []string  // its files at risk, <project-key>/<name>, sorted
	Modified  time.Time // the last write of its newest file at risk
	DeletedAt time.Time // when the cleanup may delete it (at a start-up after this)
	Bytes     int64     // not archived
}

// GetStatus compares the transcripts under the roots with the archive. It
// reads file metadata and the archive's manifest, the first lines of each
// flat agent file (its session), and opens each file not archived yet,
// to say the ones a run could not read.
func GetStatus(roots []session.Root, dir string, home string, now time.Time, rep *diag.Reporter) (Status, error) {
	if rep == nil {
		rep = diag.Discard()
	}
	st := Status{Dir: dir}
	st.CleanupDays, st.Settings = cleanupDays(roots, home, rep)
	m, err := loadManifest(dir)
	if err != nil {
		return st, err
	}
	st.Exists, st.LastRun = session.IsArchive(dir), m.lastRun
	for _, e := range m.entries {
		st.TextTotal += e.Text
		st.StoredTotal += e.StoredSize
	}
	a := &archiver{m: m, projects: filepath.Join(dir, "projects")}
	sessions, pending := map[string]bool{}, map[string]bool{}
	risk := map[string]*Risk{}
	limit := now.Add(-time.Duration(st.CleanupDays)*24*time.Hour + RiskWindow)
	for _, s := range findSources(roots, rep) {
		st.Files++
		st.Bytes += s.Size
		id, where := sessionOf(s)
		if id != "" {
			sessions[id] = true
		}
		left := s.Size
		if e := m.entries[s.Rel]; e != nil && e.SrcSize == s.Size && e.SrcMtime == s.Mtime.UnixNano() && a.intact(e) {
			left = 0
		} else if e != nil && e.Text <= s.Size {
			left = s.Size - e.Text
		}
		if left == 0 {
			continue
		}
		// One the run would fail to read (permission denied) is said, as
		// the run says it: --status exits 1 then too.
		if fh, err := os.Open(s.Path); err != nil {
			rep.FileError(s.Path, err)
		} else {
			fh.Close()
		}
		st.PendingFiles++
		st.PendingBytes += left
		if id != "" {
			pending[id] = true
		}
		// What the cleanup deletes: the files in a project folder, a
		// main transcript or a flat agent file.
		// A session is at risk once, whatever files and folders of it
		// are; a file of no session on its own.
		if s.TopLevel() && s.Mtime.Before(limit) {
			key := id
			if key == "" {
				key = "\x00" + s.Rel
			}
			r := risk[key]
			if r == nil {
				r = &Risk{ID: id, Modified: s.Mtime}
				risk[key] = r
			}
			r.Files = append(r.Files, s.Rel)
			if r.Session == "" || where < r.Session {
				r.Session = where
			}
			r.Bytes += left
			if s.Mtime.After(r.Modified) {
				r.Modified = s.Mtime
			}
		}
	}
	st.Sessions, st.PendingSessions = len(sessions), len(pending)
	for _, r := range risk {
		r.DeletedAt = r.Modified.Add(time.Duration(st.CleanupDays) * 24 * time.Hour)
		sort.Strings(r.Files)
		st.AtRisk = append(st.AtRisk, *r)
		st.AtRiskBytes += r.Bytes
		if r.ID != "" {
			st.AtRiskSessions++
		} else {
			st.AtRiskFiles++
		}
	}
	sort.Slice(st.AtRisk, func(i, j int) bool {
		a, b := st.AtRisk[i], st.AtRisk[j]
		if !a.Modified.Equal(b.Modified) {
			return a.Modified.Before(b.Modified)
		}
		return a.Session < b.Session
	})
	return st, nil
}

// sessionOf is the session a file under the roots belongs to, as cctx ls
// lists it: id, the session's id in lower case ("" for a file of no
// session, such as notes.jsonl; a session in two folders is one), and
// where, <project-key>/<session-id>, its place (the file's own name when
// it belongs to no session). A 2.0.x flat agent file belongs to the
// session its lines record, whether or not that session's main
// transcript is still beside it (ls lists it then as its subagents).
func sessionOf(s source) (id, where string) {
	where = s.Session()
	project, stem := path.Split(where)
	if s.TopLevel() && session.AgentFileID(s.Path) != "" {
		if stem = session.FlatAgentSession(s.Path); !session.IsSessionID(stem) {
			return "", where
		}
		where = project + stem
	}
	if !session.IsSessionID(stem) {
		return "", where
	}
	return strings.ToLower(stem), where
}

// intact reports whether an entry's stored file is as it records.
func (a *archiver) intact(e *entry) bool {
	st, err := os.Stat(a.abs(e.Stored))
	return err == nil && st.Size() == e.StoredSize && st.ModTime().UnixNano() == e.StoredMtime
}

// cleanupDays reads cleanupPeriodDays from the settings.json of the
// roots' config directories (else ~/.claude/settings.json); 30 when unset.
func cleanupDays(roots []session.Root, home string, rep *diag.Reporter) (int, string) {
	var files []string
	for _, r := range roots {
		if r.ConfigDir != "" && !r.Archive {
			files = append(files, filepath.Join(r.ConfigDir, "settings.json"))
		}
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var s struct {
			CleanupPeriodDays *float64 `json:"cleanupPeriodDays"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			rep.Warn("%s: %v; assuming cleanupPeriodDays %d", p, err, DefaultCleanupDays)
			return DefaultCleanupDays, ""
		}
		if s.CleanupPeriodDays != nil && *s.CleanupPeriodDays >= 0 {
			return int(*s.CleanupPeriodDays), p
		}
		return DefaultCleanupDays, ""
	}
	return DefaultCleanupDays, ""
}
