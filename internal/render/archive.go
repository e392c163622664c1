package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/cctx-dev/cctx/internal/archive"
)

// ---- cctx archive: a run, and --status. The JSON documents are
// documented in docs/archive.md.

// ArchiveJSON is the document of `cctx archive --json`.
type ArchiveJSON struct {
	SchemaVersion int     `json:"schema_version"`
	Archive       string  `json:"archive"`
	Files         int     `json:"files"`
	New           int     `json:"new"`
	Extended      int     `json:"extended"`
	Versioned     int     `json:"versioned"`
	Unchanged     int     `json:"unchanged"`
	Empty         int     `json:"empty"`
	Kept          int     `json:"kept"`
	Failed        int     `json:"failed"`
	BytesAdded    int64   `json:"bytes_added"`
	TextBytes     int64   `json:"text_bytes"`
	StoredBytes   int64   `json:"stored_bytes"`
	Ratio         float64 `json:"compression_ratio"`
}

// NewArchiveJSON builds the document of a run.
func NewArchiveJSON(r archive.Result) ArchiveJSON {
	return ArchiveJSON{SchemaVersion: SchemaVersion, Archive: r.Dir, Files: r.Files, New: r.New, Extended: r.Extended,
		Versioned: r.Versioned, Unchanged: r.Unchanged, Empty: r.Empty, Kept: r.Kept, Failed: r.Failed, BytesAdded: r.TextAdded,
		TextBytes: r.TextTotal, StoredBytes: r.StoredTotal, Ratio: round2(r.Ratio())}
}

func round2(f float64) float64 { return float64(int64(f*100+0.5)) / 100 }

// Archive prints what a run did.
func Archive(w io.Writer, r archive.Result, o Options) error {
	th := o.Theme
	fmt.Fprintf(w, "%s %s\n", th.Bold("archive"), Safe(TildePath(r.Dir, o.Home)))
	fmt.Fprintf(w, "  %d files: %d new, %d extended, %d new version(s), %d unchanged", r.Files, r.New, r.Extended, r.Versioned, r.Unchanged)
	if r.Empty > 0 {
		fmt.Fprintf(w, ", %d with nothing whole to archive yet", r.Empty)
	}
	if r.Kept > 0 {
		fmt.Fprintf(w, ", %d without conversation now (their archived copy kept)", r.Kept)
	}
	if r.Failed > 0 {
		fmt.Fprintf(w, ", %s", th.Red(fmt.Sprintf("%d failed", r.Failed)))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  added %s of transcript; the archive holds %s in %s", Bytes(r.TextAdded), Bytes(r.TextTotal), Bytes(r.StoredTotal))
	if ratio := r.Ratio(); ratio > 0 {
		fmt.Fprintf(w, " (%.1f×)", ratio)
	}
	_, err := fmt.Fprintln(w)
	return err
}

// ArchiveStatusJSON is the document of `cctx archive --status --json`.
type ArchiveStatusJSON struct {
	SchemaVersion   int              `json:"schema_version"`
	Archive         string           `json:"archive"`
	Exists          bool             `json:"exists"`
	LastRun         *string          `json:"last_run"`
	Sessions        int              `json:"sessions"`
	Files           int              `json:"files"`
	Bytes           int64            `json:"bytes"`
	PendingSessions int              `json:"pending_sessions"`
	PendingFiles    int              `json:"pending_files"`
	PendingBytes    int64            `json:"pending_bytes"`
	CleanupDays     int              `json:"cleanup_period_days"`
	Settings        string           `json:"settings"`
	AtRisk          []ArchiveRiskRow `json:"at_risk"`
	AtRiskSessions  int              `json:"at_risk_sessions"`
	AtRiskFiles     int              `json:"at_risk_files"`
	AtRiskBytes     int64            `json:"at_risk_bytes"`
	TextBytes       int64            `json:"text_bytes"`
	StoredBytes     int64            `json:"stored_bytes"`
}

// ArchiveRiskRow is a session Claude Code will delete soon, or a file
// of no session (SessionID "").
type ArchiveRiskRow struct {
	Session   string   `json:"session"`
	SessionID string   `json:"session_id"`
	Files     []string `json:"files"`
	Modified  string   `json:"modified_at"`
	DeletedAt string   `json:"deleted_after"`
	Bytes     int64    `json:"pending_bytes"`
}

// NewArchiveStatusJSON builds the document of --status.
func NewArchiveStatusJSON(s archive.Status) ArchiveStatusJSON {
	doc := ArchiveStatusJSON{SchemaVersion: SchemaVersion, Archive: s.Dir, Exists: s.Exists, LastRun: JSONTimeOrNull(s.LastRun),
		Sessions: s.Sessions, Files: s.Files, Bytes: s.Bytes, PendingSessions: s.PendingSessions, PendingFiles: s.PendingFiles,
		PendingBytes: s.PendingBytes, CleanupDays: s.CleanupDays, Settings: s.Settings, AtRisk: []ArchiveRiskRow{},
		AtRiskSessions: s.AtRiskSessions, AtRiskFiles: s.AtRiskFiles, AtRiskBytes: s.AtRiskBytes, TextBytes: s.TextTotal, StoredBytes: s.StoredTotal}
	for _, r := range s.AtRisk {
		doc.AtRisk = append(doc.AtRisk, ArchiveRiskRow{Session: r.Session, SessionID: r.ID, Files: r.Files, Modified: JSONTime(r.Modified), DeletedAt: JSONTime(r.DeletedAt), Bytes: r.Bytes})
	}
	return doc
}

// ArchiveStatus prints --status; again are the flags of the run it
// suggests (--dir and --to as given).
func ArchiveStatus(w io.Writer, s archive.Status, o Options, again []string) error {
	th := o.Theme
	last := "never run"
	if !s.LastRun.IsZero() {
		last = "last run " + Ago(s.LastRun, o.Now)
		if !o.TTY {
			last = "last run " + Timestamp(s.LastRun)
		}
	}
	fmt.Fprintf(w, "%s %s (%s)\n", th.Bold(fmt.Sprintf("%-13s", "archive")), Safe(TildePath(s.Dir, o.Home)), last)
	if s.StoredTotal > 0 {
		fmt.Fprintf(w, "%-13s %s of transcript in %s (%.1f×)\n", "holds", Bytes(s.TextTotal), Bytes(s.StoredTotal), float64(s.TextTotal)/float64(s.StoredTotal))
	}
	fmt.Fprintf(w, "%-13s %d of %s, %s of %s (%s)\n", "not archived", s.PendingSessions, Plural(s.Sessions, "session", "sessions"),
		Bytes(s.PendingBytes), Bytes(s.Bytes), Plural(s.PendingFiles, "file", "files"))
	src := "default"
	if s.Settings != "" {
		src = Safe(TildePath(s.Settings, o.Home))
	}
	what := Plural(s.AtRiskSessions, "session", "sessions")
	if s.AtRiskFiles > 0 {
		what += " and " + Plural(s.AtRiskFiles, "file", "files") + " of no session"
	}
	parts := []string{fmt.Sprintf("%s, %s:", what, Bytes(s.AtRiskBytes)), "Claude Code deletes them within 7 days",
		fmt.Sprintf("(cleanupPeriodDays %d, %s)", s.CleanupDays, src)}
	width := 0
	if o.TTY && o.Width > 0 {
		width = o.Width - 1 - 14 // wrapped between its parts, under the value's column
	}
	for i, l := range FitParts(parts, " ", width, 0) {
		if len(s.AtRisk) > 0 {
			l = th.Yellow(l)
		}
		fmt.Fprintf(w, "%-13s %s\n", map[bool]string{true: "at risk", false: ""}[i == 0], l)
	}
	for _, r := range s.AtRisk {
		// Past its date, the cleanup deletes it at Claude Code's next start.
		when := "deleted after " + r.DeletedAt.Local().Format("2006-01-02")
		if !o.Now.IsZero() && r.DeletedAt.Before(o.Now) {
			when = "due since " + r.DeletedAt.Local().Format("2006-01-02") + ": deleted at Claude Code's next start"
		}
		name := r.Session
		if r.ID == "" && len(r.Files) == 1 {
			name = r.Files[0] + " (of no session)"
		}
		parts := []string{Safe(name) + " ", "last written " + r.Modified.Local().Format("2006-01-02") + ",", when + ",", Bytes(r.Bytes) + " not archived"}
		rowWidth := 0 // a pipe: one line
		if width > 0 {
			rowWidth = width + 14 - 2 // the terminal's, less the row's indent
		}
		for _, l := range FitParts(parts, " ", rowWidth, 4) { // under the session, indented
			fmt.Fprintf(w, "  %s\n", l)
		}
		// A session's files at risk, one a line, unless it is its main
		// transcript alone.
		if r.ID != "" && !(len(r.Files) == 1 && strings.HasPrefix(r.Files[0], r.Session+".jsonl")) {
			for _, f := range r.Files {
				for _, l := range FitParts([]string{Safe(f)}, " ", max(0, rowWidth-2), 0) {
					fmt.Fprintf(w, "    %s\n", l)
				}
			}
		}
	}
	if s.PendingFiles > 0 {
		run := "cctx archive"
		for i, a := range again {
			if i%2 == 1 {
				a = ShellQuote(a) // a value
			}
			run += " " + a
		}
		_, err := fmt.Fprintln(w, th.Dim("run `"+run+"` to archive them"))
		return err
	}
	return nil
}
