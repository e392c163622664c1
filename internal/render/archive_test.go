package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/archive"
)

// TestArchiveStatusDates: a session at risk is deleted after its date, or,
// once the date is past, at Claude Code's next start.
func TestArchiveStatusDates(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.Local)
	st := archive.Status{CleanupDays: 30, AtRisk: []archive.Risk{
		{Session: "p/old", Modified: now.AddDate(0, 0, -40), DeletedAt: now.AddDate(0, 0, -10), Bytes: 1},
		{Session: "p/soon", Modified: now.AddDate(0, 0, -27), DeletedAt: now.AddDate(0, 0, 3), Bytes: 1},
	}}
	var b bytes.Buffer
	if err := ArchiveStatus(&b, st, Options{Now: now}, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"p/old  last written 2026-10-15, due since 2026-11-14: deleted at Claude Code's next start,",
		"p/soon  last written 2026-10-28, deleted after 2026-11-27,",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

// The run --status suggests repeats the --dir and --to it was given,
// quoted for the shell.
func TestArchiveStatusSuggestsTheSameRun(t *testing.T) {
	st := archive.Status{PendingFiles: 2, PendingSessions: 1, Sessions: 1}
	var b bytes.Buffer
	if err := ArchiveStatus(&b, st, Options{}, []string{"--dir", "src dir", "--to", "/mnt/arch"}); err != nil {
		t.Fatal(err)
	}
	if want := "run `cctx archive --dir 'src dir' --to '/mnt/arch'` to archive them"; !strings.Contains(b.String(), want) {
		t.Errorf("no %q in:\n%s", want, b.String())
	}
}
