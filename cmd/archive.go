package cmd

import (
	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/archive"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
)

// ArchiveOptions are the flags of cctx archive.
type ArchiveOptions struct {
	F          *Factory
	To         string
	NoCompress bool
	Status     bool
	// Hook is archive.Options.Hook (tests).
	Hook func(point, path string)
}

// NewCmdArchive builds `cctx archive`. runF replaces the run function in tests.
func NewCmdArchive(f *Factory, runF func(*ArchiveOptions) error) *cobra.Command {
	o := &ArchiveOptions{F: f}
	c := &cobra.Command{
		Use:   "archive",
		Short: "Copy every transcript, safe from Claude Code's 30-day cleanup",
		Long: `Copy every transcript under the roots (main files, subagent files, .meta.json
sidecars) into an archive, so that none is lost when Claude Code deletes
transcripts older than cleanupPeriodDays (30 by default) at start-up.

The archive is a projects tree (ARCHIVE/projects/<project>/…): every cctx
command reads it with --dir ARCHIVE, and, when it exists, finds in it the
sessions Claude Code deleted (ls marks them "archived").

The archive is --to DIR, else $CCTX_ARCHIVE, else the user data directory's
cctx/archive ($XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application
Support on macOS, %LOCALAPPDATA% on Windows).

Each run is incremental: an unchanged file (size and time) is skipped; a file
that grew gets its new complete lines, after a check that the archived bytes
are still its start; a file whose start changed is archived anew and the old
copy kept beside it (name@1.jsonl.zst), unless it now holds no conversation
(emptied, truncated): then the archived copy stays the one read; a file
deleted at the source stays.
Files are compressed with zstd (.jsonl.zst) unless --no-compress, written to
a temporary name and renamed, 0600 in 0700 folders; an interrupted run leaves
the archive whole and the next run finishes the work.

--status says what is not archived yet, and which sessions Claude Code will
delete within 7 days (cleanupPeriodDays from settings.json). Run it from a
SessionEnd hook or a timer: see docs/archive.md.`,
		Example: `  cctx archive
  cctx archive --status
  cctx archive --to /mnt/backup/claude --no-compress
  cctx ls --dir ~/.local/share/cctx/archive --all`,
		Args: argsBetween(0, 0),
		RunE: func(c *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return archiveRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.To, "to", "", "archive directory `DIR` (default: $CCTX_ARCHIVE, else the user data dir's cctx/archive)")
	fl.BoolVar(&o.NoCompress, "no-compress", false, "store new files as plain .jsonl, not .jsonl.zst")
	fl.BoolVar(&o.Status, "status", false, "say what is not archived yet and what Claude Code deletes within 7 days")
	return c
}

func archiveRun(o *ArchiveOptions) error {
	f := o.F
	roots, dir, err := o.where()
	if err != nil {
		return err
	}
	if o.Status {
		if o.NoCompress {
			return usageErrorf("--no-compress is for a run that stores files, not --status")
		}
		st, err := archive.GetStatus(roots, dir, f.Env.Home, f.Now(), f.Report())
		if err != nil {
			return err
		}
		if f.Globals.JSON {
			err = render.JSON(f.Out(), render.NewArchiveStatusJSON(st), f.Render())
		} else {
			var again []string // the run --status suggests: over the same roots, into the same archive
			for _, d := range f.Globals.Dirs {
				again = append(again, "--dir", d)
			}
			if o.To != "" {
				again = append(again, "--to", o.To)
			}
			err = render.ArchiveStatus(f.Out(), st, f.Render(), again)
		}
		if err != nil {
			return err
		}
		return f.Report().Unreadable() // a transcript it could not see is not "archived", as a run says
	}
	res, err := archive.Run(archive.Options{Roots: roots, Dir: dir, NoCompress: o.NoCompress, Report: f.Report(), Now: f.Now, Hook: o.Hook})
	if err != nil {
		return err
	}
	if f.Globals.JSON {
		err = render.JSON(f.Out(), render.NewArchiveJSON(res), f.Render())
	} else {
		err = render.Archive(f.Out(), res, f.Render())
	}
	if err != nil {
		return err
	}
	return f.Report().Unreadable()
}

// where are the live roots to archive and the archive directory.
func (o *ArchiveOptions) where() ([]session.Root, string, error) {
	f := o.F
	finder, err := f.listing()
	if err != nil {
		return nil, "", err
	}
	var roots []session.Root
	for _, r := range finder.Roots {
		if !r.Archive {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 && len(finder.Roots) > 0 {
		return nil, "", usageErrorf("no transcripts to archive%s: every root given is an archive, and an archive is not archived again (give Claude Code's projects dir or config dir)", finder.Where())
	} else if len(roots) == 0 {
		return nil, "", usageErrorf("no transcripts to archive%s", finder.Where())
	}
	dir := o.To
	if dir == "" {
		dir = session.ArchiveDir(f.Env)
	}
	if dir == "" {
		return nil, "", usageErrorf("no archive directory: give --to DIR or set CCTX_ARCHIVE (no home directory known)")
	}
	dir = session.ProjectPath(dir, f.Env.Home)
	if err := archive.Check(roots, dir); err != nil {
		return nil, "", &UsageError{Err: err}
	}
	return roots, dir, nil
}

// archiveHint is ls -v's line when sessions Claude Code will soon delete
// are not archived.
func archiveHint(f *Factory, finder *session.Finder) {
	if !f.Globals.Verbose {
		return
	}
	var roots []session.Root
	for _, r := range finder.Roots {
		if !r.Archive {
			roots = append(roots, r)
		}
	}
	dir := session.ArchiveDir(f.Env)
	if len(roots) == 0 || dir == "" {
		return
	}
	st, err := archive.GetStatus(roots, dir, f.Env.Home, f.Now(), nil)
	if note := st.RiskNote(render.Bytes(st.AtRiskBytes)); err == nil && note != "" {
		f.Report().Note("%s", note)
	}
}
