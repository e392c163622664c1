// Package follow tails transcript files that Claude Code is still writing:
// it hands out each line once it is complete (a half-written last line is
// waited for, never reported), and picks up files that appear meanwhile
// (subagent transcripts).
//
// It polls: transcripts live on every kind of file system (network mounts,
// containers, WSL) where change notifications are unreliable, and a few
// stat calls per interval cost nothing.
package follow

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"time"

	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// maxReadPerPoll bounds what one poll reads from one file, so that a file
// that grows by gigabytes is read in steps. It is also the longest line
// followed: a longer line (a pathological tool result) is skipped, where
// the reader would accept up to reader.MaxLineBytes.
const maxReadPerPoll = 64 << 20

// LineLimit is the longest line followed (maxReadPerPoll).
const LineLimit = maxReadPerPoll

// DefaultInterval is how often files are polled.
const DefaultInterval = 250 * time.Millisecond

// File is a file to follow from Offset on. Tag is handed back with each of
// its lines (an agent id; "" for the main transcript). Line is how many
// lines come before Offset, so that lines are numbered as a reader of the
// whole file numbers them.
type File struct {
	Path   string
	Offset int64
	Line   int
	Tag    string
}

// Line is one complete line of a followed file.
type Line struct {
	Tag, Path string
	N         int    // its 1-based number in the file
	Text      []byte // without its newline, CR or surrounding whitespace
}

// Follower polls a set of files.
type Follower struct {
	// Interval between polls; DefaultInterval when zero.
	Interval time.Duration
	// Discover, when set, is called about once a second and returns the
	// files that should be followed; new paths are added from offset 0
	// (a file that appears is read whole), known paths are ignored.
	Discover func() []File
	// OnError reports a file that cannot be read (it is retried).
	OnError func(path string, err error)
	// OnLong, when set, is told of a line longer than maxReadPerPoll,
	// which is skipped: its number and the bytes skipped.
	OnLong func(path string, line int, size int64)
	// OnReset, when set, is told (a message, as diag.Reporter.Note takes
	// one) of a file that was truncated, or replaced by another file at
	// its path: it is read again from its start.
	OnReset func(format string, args ...any)

	files []*tailed
	known map[string]bool
	limit int64 // maxReadPerPoll; tests set less
}

type tailed struct {
	File
	info     os.FileInfo // the file followed, to tell when another one takes its path
	skipping bool        // inside a line longer than maxReadPerPoll
	skipped  int64       // bytes of it skipped so far
	reported bool
}

// Add follows a file from f.Offset.
func (fl *Follower) Add(f File) {
	if reader.IsCompressed(f.Path) { // an archived copy (.jsonl.zst) does not grow
		return
	}
	if fl.known == nil {
		fl.known = map[string]bool{}
	}
	if fl.known[f.Path] {
		return
	}
	fl.known[f.Path] = true
	t := &tailed{File: f}
	t.info, _ = os.Stat(f.Path) // nil if it is not there yet
	fl.files = append(fl.files, t)
}

// Run polls until ctx is done and calls emit with each complete line
// (blank lines are skipped). It returns nil when ctx ends, or emit's error.
func (fl *Follower) Run(ctx context.Context, emit func(Line) error) error {
	interval := fl.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	discoverEvery := max(int(time.Second/interval), 1)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for round := 0; ; round++ {
		if fl.Discover != nil && round%discoverEvery == 0 {
			for _, f := range fl.Discover() {
				fl.Add(f)
			}
		}
		if err := fl.Poll(emit); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			// One last look: a line finished or a file created since the
			// last poll is read, not taken for one that never ended.
			if fl.Discover != nil {
				for _, f := range fl.Discover() {
					fl.Add(f)
				}
			}
			return fl.Poll(emit)
		case <-tick.C:
		}
	}
}

// Tail is the last line of a followed file that is not whole yet.
type Tail struct {
	Path string
	Line int   // its 1-based number
	Size int64 // its bytes so far
}

// Tails lists the files whose last line is not whole, as of now.
func (fl *Follower) Tails() []Tail {
	var out []Tail
	for _, t := range fl.files {
		st, err := os.Stat(t.Path)
		if err != nil || st.Size() <= t.Offset {
			continue
		}
		out = append(out, Tail{Path: t.Path, Line: t.Line + 1, Size: st.Size() - t.Offset + t.skipped})
	}
	return out
}

// Poll reads what every file gained since the last poll.
func (fl *Follower) Poll(emit func(Line) error) error {
	for _, t := range fl.files {
		if err := t.poll(fl, emit); err != nil {
			var ee *emitError
			if errors.As(err, &ee) {
				return ee.err
			}
			if fl.OnError != nil && !t.reported {
				fl.OnError(t.Path, err)
			}
			t.reported = true
			continue
		}
		t.reported = false
	}
	return nil
}

type emitError struct{ err error }

func (e *emitError) Error() string { return e.err.Error() }

func (t *tailed) poll(fl *Follower, emit func(Line) error) error {
	f, err := rawfile.OpenOS(t.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	replaced := t.info != nil && !os.SameFile(t.info, st)
	if replaced || size < t.Offset {
		// The file was truncated or replaced: start again from its start.
		if fl.OnReset != nil && (replaced || t.Offset > 0) {
			if replaced {
				fl.OnReset("%s was replaced by another file: following it from its start", t.Path)
			} else {
				fl.OnReset("%s was truncated: following it again from its start", t.Path)
			}
		}
		t.Offset, t.Line, t.skipping, t.skipped = 0, 0, false, 0
	}
	t.info = st
	if size == t.Offset {
		return nil
	}
	limit := fl.limit
	if limit == 0 {
		limit = maxReadPerPoll
	}
	n := min(size-t.Offset, limit)
	buf := make([]byte, n)
	got, err := f.ReadAt(buf, t.Offset)
	if err != nil && err != io.EOF {
		return err
	}
	buf = buf[:got]
	last := bytes.LastIndexByte(buf, '\n')
	if last < 0 {
		if int64(got) == limit {
			// No end in sight: skip this line's bytes.
			t.skipping = true
			t.skipped += int64(got)
			t.Offset += int64(got)
		}
		return nil
	}
	complete := buf[:last+1]
	t.Offset += int64(len(complete))
	for len(complete) > 0 {
		i := bytes.IndexByte(complete, '\n')
		line := complete[:i]
		complete = complete[i+1:]
		t.Line++
		if t.skipping {
			t.skipping = false
			if fl.OnLong != nil {
				fl.OnLong(t.Path, t.Line, t.skipped+int64(len(line)))
			}
			t.skipped = 0
			continue
		}
		if t.Line == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a BOM, as the reader drops it
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := emit(Line{Tag: t.Tag, Path: t.Path, N: t.Line, Text: line}); err != nil {
			return &emitError{err}
		}
	}
	return nil
}
