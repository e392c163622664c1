package diag

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
)

func TestLineWarningsAreCountedAndCappedPerFile(t *testing.T) {
	var b strings.Builder
	r := New(&b, false, false)
	for i := 1; i <= 8; i++ {
		r.Line(reader.Issue{File: "a.jsonl", Line: i, Kind: reader.Malformed, Size: 10})
	}
	r.Line(reader.Issue{File: "b.jsonl", Line: 3, Kind: reader.TruncatedTail, Size: 5})
	r.Flush()
	out := b.String()
	if got := strings.Count(out, "skipped malformed line"); got != perFileLimit {
		t.Errorf("%d line warnings printed, want %d:\n%s", got, perFileLimit, out)
	}
	if !strings.Contains(out, "cctx: warning: a.jsonl: 3 more line warning(s) (-v shows each)") {
		t.Errorf("no summary line:\n%s", out)
	}
	if strings.Contains(out, "b.jsonl") {
		t.Errorf("a truncated last line is a note, printed only with -v:\n%s", out)
	}
	if r.Warnings() != 9 {
		t.Errorf("warnings %d: every skipped line counts for --strict", r.Warnings())
	}
}

// An agent whose tokens are not in the totals is said even in a file
// whose few line warnings are used up, and does not take one of them.
func TestAMissingAgentIsSaidPastTheCap(t *testing.T) {
	var b strings.Builder
	r := New(&b, false, false)
	for i := 1; i <= perFileLimit+2; i++ {
		r.Line(reader.Issue{File: "a.jsonl", Line: i, Kind: reader.Malformed, Size: 10})
	}
	r.Line(reader.Issue{File: "a.jsonl", Line: 20, Kind: reader.UnlinkedAgent, Detail: "zzz"})
	r.Line(reader.Issue{File: "<stdin>", Line: 21, Kind: reader.UnreadAgent, Detail: "yyy"})
	r.Flush()
	out := b.String()
	for _, want := range []string{
		"cctx: warning: a.jsonl:20: the Agent/Task result names agent zzz",
		"cctx: warning: <stdin>:21: the Agent/Task result names agent yyy",
		"cctx: warning: a.jsonl: 2 more line warning(s) (-v shows each)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if r.Warnings() != perFileLimit+4 {
		t.Errorf("warnings %d, want %d (--strict counts them all)", r.Warnings(), perFileLimit+4)
	}
}

// Agents whose tokens are not counted have their own cap: five a file,
// then how many more at the end (a history of hundreds of them buried a
// CI job's budget lines); -v names each; --strict counts every one.
func TestMissingAgentsAreCappedPerFile(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var b strings.Builder
		r := New(&b, verbose, false)
		for i := 1; i <= perFileLimit+3; i++ {
			r.Line(reader.Issue{File: "a.jsonl", Line: i, Kind: reader.UnlinkedAgent, Detail: fmt.Sprintf("a%d", i)})
		}
		r.Line(reader.Issue{File: "b.jsonl", Line: 1, Kind: reader.UnreadAgent, Detail: "b1"})
		r.Flush()
		out := b.String()
		said, summary := strings.Count(out, "the Agent/Task result names agent a"), "cctx: warning: a.jsonl: 3 more agent(s) whose tokens are not counted (-v names each)"
		switch {
		case !verbose && (said != perFileLimit || !strings.Contains(out, summary)):
			t.Errorf("%d agents said (want %d) and the summary %q:\n%s", said, perFileLimit, summary, out)
		case verbose && (said != perFileLimit+3 || strings.Contains(out, "more agent(s)")):
			t.Errorf("-v: %d agents said, want every one (%d), no summary:\n%s", said, perFileLimit+3, out)
		}
		if !strings.Contains(out, "b.jsonl:1: the Agent/Task result names agent b1") {
			t.Errorf("another file's agent not said:\n%s", out)
		}
		if r.Warnings() != perFileLimit+4 {
			t.Errorf("warnings %d, want %d", r.Warnings(), perFileLimit+4)
		}
	}
}

func TestVerbosePrintsEverythingAndNotes(t *testing.T) {
	var b strings.Builder
	r := New(&b, true, false)
	for i := 1; i <= 8; i++ {
		r.Line(reader.Issue{File: "a.jsonl", Line: i, Kind: reader.Malformed})
	}
	r.Line(reader.Issue{File: "b.jsonl", Line: 3, Kind: reader.TruncatedTail})
	r.Note("hello %d", 1)
	out := b.String()
	if strings.Count(out, "skipped malformed line") != 8 || !strings.Contains(out, "cctx: note: b.jsonl:3: last line is incomplete") ||
		!strings.Contains(out, "cctx: note: hello 1\n") {
		t.Errorf("verbose output:\n%s", out)
	}
}

func TestMessagesAreTerminalSafe(t *testing.T) {
	var b strings.Builder
	r := New(&b, true, false)
	r.Warn("%s: bad", "evil\x1b]0;owned\x07.jsonl")
	r.Note("%s", "\u202eabc")
	r.Line(reader.Issue{File: "x\x1b[2J.jsonl", Line: 1, Kind: reader.Malformed})
	if out := b.String(); strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("raw control characters reached stderr: %q", out)
	}
}

// Under --strict every warning fails the run, so a failing run must say
// why without -v: the truncated last line of a live session, a note
// otherwise, is printed as a warning.
func TestStrictPrintsWhatFailsTheRun(t *testing.T) {
	for _, strict := range []bool{false, true} {
		var b strings.Builder
		r := New(&b, false, strict)
		r.Line(reader.Issue{File: "b.jsonl", Line: 3, Kind: reader.TruncatedTail, Size: 5})
		printed := strings.Contains(b.String(), "cctx: warning: b.jsonl:3: last line is incomplete")
		if printed != strict || r.Warnings() != 1 {
			t.Errorf("strict=%v: printed %v, %d warning(s):\n%s", strict, printed, r.Warnings(), b.String())
		}
	}
}

// While show --follow follows, an incomplete last line is held back: it
// is the line being written. When following ends, the last lines still
// not whole are reported; if show ended before following, the lines held
// back are. Ending twice says nothing more.
func TestFollowingHoldsBackTheLineBeingWritten(t *testing.T) {
	held := reader.Issue{File: "a.jsonl", Line: 3, Kind: reader.TruncatedTail, Size: 5}
	tail := reader.Issue{File: "a.jsonl", Line: 4, Kind: reader.TruncatedTail, Size: 7}
	for _, tc := range []struct {
		name     string
		followed bool
		want     string // the line reported
	}{
		{"followed: the tails when it stopped", true, "a.jsonl:4:"},
		{"ended before following: the lines held back", false, "a.jsonl:3:"},
	} {
		var b strings.Builder
		r := New(&b, false, true)
		r.Following()
		r.Line(held)
		if r.Warnings() != 0 || b.Len() != 0 {
			t.Fatalf("%s: held back, yet %d warning(s): %q", tc.name, r.Warnings(), b.String())
		}
		r.FollowEnded(tc.followed, []reader.Issue{tail})
		r.FollowEnded(tc.followed, []reader.Issue{tail})
		if r.Warnings() != 1 || strings.Count(b.String(), "cctx: warning: ") != 1 || !strings.Contains(b.String(), tc.want) {
			t.Errorf("%s: %d warning(s): %q, want one for %s", tc.name, r.Warnings(), b.String(), tc.want)
		}
	}
}

func TestUnreadable(t *testing.T) {
	for _, tc := range []struct {
		files int
		want  string
	}{
		{0, ""},
		{1, "1 file(s) could not be read: the output above leaves them out"},
		{3, "3 file(s) could not be read: the output above leaves them out"},
	} {
		var b strings.Builder
		r := New(&b, false, false)
		r.Warn("not a file error")
		for i := 0; i < tc.files; i++ {
			r.FileError("a.jsonl", errors.New("permission denied"))
		}
		err := r.Unreadable()
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && got != tc.want {
			t.Errorf("%d unreadable files: Unreadable() = %v, want %q", tc.files, err, tc.want)
		}
	}
}

// Of the files that could not be read, those saved as UTF-16 are told
// apart (an empty count says so), a wrapped error too.
func TestUnreadableUTF16(t *testing.T) {
	var b strings.Builder
	r := New(&b, false, false)
	r.FileError("a.jsonl", errors.New("permission denied"))
	r.FileError("b.jsonl", &fs.PathError{Op: "read", Path: "b.jsonl", Err: reader.ErrUTF16})
	r.FileError("c.jsonl", fmt.Errorf("read c.jsonl: %w", reader.ErrUTF16))
	if n, u := r.UnreadableFiles(), r.UnreadableUTF16(); n != 3 || u != 2 {
		t.Errorf("%d unreadable, %d UTF-16; want 3, 2", n, u)
	}
}

// writes records each Write: how many system calls the stream would have
// taken, and what each held.
type writes struct{ calls []string }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

// What the Reporter says while a Batch runs is written at once when it
// returns, in order; a batch inside another waits for the outer one; past
// 32 KiB it is written early; outside a batch each line is written as it
// is said.
func TestBatchWritesAtOnce(t *testing.T) {
	var w writes
	r := New(&w, false, false)
	r.Warn("before")
	r.Batch(func() {
		for i := range 3 {
			r.Line(reader.Issue{File: fmt.Sprintf("%d.jsonl", i), Line: 1, Kind: reader.Malformed, Size: 1})
		}
		r.Batch(func() { r.Warn("inner") })
		if len(w.calls) != 1 {
			t.Errorf("written during the batch: %q", w.calls)
		}
		r.Warn("last")
	})
	r.Warn("after")
	if len(w.calls) != 3 {
		t.Fatalf("%d writes, want 3 (one line, the batch, one line): %q", len(w.calls), w.calls)
	}
	batch := w.calls[1]
	if strings.Count(batch, "\n") != 5 || !strings.Contains(batch, "0.jsonl") || strings.Index(batch, "inner") > strings.Index(batch, "last") {
		t.Errorf("the batch, in the order said:\n%s", batch)
	}

	w.calls = nil
	r.Batch(func() {
		for range 2000 {
			r.Warn("%s", strings.Repeat("x", 100))
		}
	})
	if n := len(w.calls); n < 2 || n > 10 {
		t.Errorf("2,000 lines of 100 bytes in %d writes, want a few of 32 KiB", n)
	}
	if got := strings.Count(strings.Join(w.calls, ""), "\n"); got != 2000 {
		t.Errorf("%d lines written, want 2000", got)
	}
	var nilReporter *Reporter
	ran := false
	nilReporter.Batch(func() { ran = true })
	if !ran {
		t.Error("a nil Reporter's Batch did not run its function")
	}
}

// A file a command may not read is named with what to look at; any other
// error is said as it is.
func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "/p/s.jsonl", Err: fs.ErrPermission}, "/p/s.jsonl: permission denied: not readable by this user (ls -l shows its owner and mode)"},
		{fmt.Errorf("session x: %w", &fs.PathError{Op: "open", Path: "/p/s.jsonl", Err: syscall.EACCES}), "/p/s.jsonl: permission denied: not readable by this user (ls -l shows its owner and mode)"},
		{&fs.PathError{Op: "open", Path: "/p/s.jsonl", Err: fs.ErrNotExist}, "open /p/s.jsonl: file does not exist"},
		{errors.New("budget"), "budget"},
	} {
		if got := ErrorText(tc.err); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.err, got, tc.want)
		}
	}
}
