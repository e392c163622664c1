// Package diag writes cctx's diagnostics to stderr in one format:
//
//	cctx: warning: FILE:LINE: message
//	cctx: note: FILE: message        (only with -v)
//
// It counts warnings so that --strict can turn them into a failing exit code.
package diag

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/termsafe"
)

// perFileLimit is how many line warnings one file prints before the rest are
// summarised; -v prints them all.
const perFileLimit = 5

// Reporter prints warnings and notes. It is safe for concurrent use.
type Reporter struct {
	mu        sync.Mutex
	w         *batchWriter
	verbose   bool
	strict    bool           // --strict: every warning fails the run, so none is a quiet note
	following bool           // show --follow: an incomplete last line is read once it ends
	pending   []reader.Issue // the incomplete last lines seen while following
	warnings  int
	files     int // files that could not be read
	utf16     int // of them, files saved as UTF-16
	perFile   map[string]int
	capped    []string // files whose line warnings passed perFileLimit, in order
	// The same for agents whose tokens are not counted (UnlinkedAgent,
	// UnreadAgent): five a file, then how many more.
	agentsPerFile map[string]int
	agentsCapped  []string
	redact        func(string) string
}

// Redact makes every line the Reporter prints pass fn first (--redact:
// warnings name files under the home and quote what lines hold).
func (r *Reporter) Redact(fn func(string) string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.redact = fn
}

// text is s as printed: redacted with --redact, then escaped.
func (r *Reporter) text(s string) string {
	if r.redact != nil {
		s = r.redact(s)
	}
	return termsafe.String(s)
}

// New returns a Reporter writing to w (normally stderr). verbose prints
// notes and every line warning; strict (--strict, where any warning fails
// the run) prints as a warning what would otherwise be a note, so that a
// failing run always says why.
func New(w io.Writer, verbose, strict bool) *Reporter {
	return &Reporter{w: &batchWriter{w: w}, verbose: verbose, strict: strict, perFile: map[string]int{}, agentsPerFile: map[string]int{}}
}

// Batch runs fn, and writes what the Reporter says meanwhile at once when
// fn returns (or every 32 KiB), not a write a line: the 1,264 warnings of
// a report over the real-shaped tree were 6 % of its run, each write to a
// pipe or terminal waking its reader. For a step that prints nothing to
// stdout meanwhile (a report counted before it is printed), so that the
// order of the two streams is kept. What a batch holds is lost if the
// process dies in it (a panic of another goroutine, a signal): for a step
// whose lines come at its end, in its own goroutine.
func (r *Reporter) Batch(fn func()) {
	if r == nil {
		fn()
		return
	}
	r.mu.Lock()
	r.w.depth++
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.w.depth--; r.w.depth == 0 {
			r.w.flush()
		}
	}()
	fn()
}

// batchWriter is the Reporter's stream: written through, or kept while
// a Batch runs (written with the Reporter's mutex held).
type batchWriter struct {
	w     io.Writer
	depth int
	buf   []byte
}

func (b *batchWriter) Write(p []byte) (int, error) {
	if b.depth == 0 {
		return b.w.Write(p)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= 32<<10 {
		b.flush()
	}
	return len(p), nil
}

func (b *batchWriter) flush() {
	if len(b.buf) > 0 {
		b.w.Write(b.buf) // as a line written through: an error writing to stderr has nowhere to go
		b.buf = b.buf[:0]
	}
}

// Discard is a Reporter that prints nothing, for tests and library callers.
func Discard() *Reporter { return New(io.Discard, false, false) }

// Following tells the Reporter that the command follows its files as they
// grow (show --follow): an incomplete last line is then the line being
// written, read once it ends. It is held back until FollowEnded, and
// reported then only if it never ended.
func (r *Reporter) Following() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.following = true
}

// FollowEnded ends following. When the files were followed, tails are
// their last lines still not whole when it stopped (the lines held back
// at the start either ended and were read, or are among them); when show
// ended before following, the lines held back are reported instead.
func (r *Reporter) FollowEnded(followed bool, tails []reader.Issue) {
	r.mu.Lock()
	if !r.following {
		r.mu.Unlock()
		return // ended already
	}
	pending := r.pending
	r.pending, r.following = nil, false
	r.mu.Unlock()
	if followed {
		pending = tails
	}
	for _, is := range pending {
		r.Line(is)
	}
}

// Verbose reports whether notes are printed.
func (r *Reporter) Verbose() bool { return r.verbose }

// Warnings is the number of warnings reported so far.
func (r *Reporter) Warnings() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.warnings
}

// Warn reports a problem that cctx worked around.
func (r *Reporter) Warn(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings++
	fmt.Fprintf(r.w, "cctx: warning: %s\n", r.text(fmt.Sprintf(format, args...)))
}

// FileError reports a file that could not be read (the rest is read on).
// The error's own copy of the path is left out: "X: permission denied",
// not "X: open X: permission denied".
func (r *Reporter) FileError(path string, err error) {
	r.Warn("%s: %s", path, FileErrorText(path, err))
	r.mu.Lock()
	r.files++
	if errors.Is(err, reader.ErrUTF16) {
		r.utf16++
	}
	r.mu.Unlock()
}

// FileWarn reports a file that could not be read in a warning of the
// caller's words (what was read instead), counted as FileError counts
// one, for the exit code of a command that named it.
func (r *Reporter) FileWarn(format string, args ...any) {
	r.Warn(format, args...)
	r.mu.Lock()
	r.files++
	r.mu.Unlock()
}

// ErrorText is how a command's error is said: a file it may not read
// is named with what to look at, not as Go's bare "open …: permission
// denied".
func ErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrPermission) {
		return fmt.Sprintf("%s: %s: not readable by this user (ls -l shows its owner and mode)", pe.Path, FileErrorText(pe.Path, pe))
	}
	return err.Error()
}

// FileErrorText is err without its own copy of path.
func FileErrorText(path string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = pe.Err
	}
	return err.Error()
}

// UnreadableFiles is the number of files reported by FileError.
func (r *Reporter) UnreadableFiles() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.files
}

// UnreadableUTF16 is how many of the files reported by FileError were
// saved as UTF-16.
func (r *Reporter) UnreadableUTF16() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.utf16
}

// Unreadable is the error of a command whose output leaves out files it
// could not read (reported as they were met by FileError): the output
// stands for what was read, and the exit code says it is not all. It is
// nil when every file was read.
func (r *Reporter) Unreadable() error {
	if n := r.UnreadableFiles(); n > 0 {
		return fmt.Errorf("%d file(s) could not be read: the output above leaves them out", n)
	}
	return nil
}

// Info says something about the output that is not a problem (what a
// listing left out, why it is empty): "cctx: 50 of 212 sessions shown".
// It is always printed, and no warning.
func (r *Reporter) Info(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "cctx: %s\n", r.text(fmt.Sprintf(format, args...)))
}

// Error reports why the command failed: "cctx: error: …".
func (r *Reporter) Error(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "cctx: error: %s\n", r.text(fmt.Sprintf(format, args...)))
}

// Budget reports a budget that was exceeded: "cctx: budget exceeded: …".
func (r *Reporter) Budget(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "cctx: budget exceeded: %s\n", r.text(fmt.Sprintf(format, args...)))
}

// Hint offers a way out after an error, with the items it lists indented
// under it (at most 20, then how many more).
func (r *Reporter) Hint(head string, items []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "cctx: hint: %s\n", r.text(head))
	for i, it := range items {
		if i == 20 {
			fmt.Fprintf(r.w, "  … and %d more\n", len(items)-i)
			break
		}
		fmt.Fprintf(r.w, "  %s\n", r.text(it))
	}
}

// Note reports something worth knowing under -v only.
func (r *Reporter) Note(format string, args ...any) {
	if !r.verbose {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "cctx: note: %s\n", r.text(fmt.Sprintf(format, args...)))
}

// Caveat says what a reader of the numbers must know about them: under -v
// only when the output says it already (a terminal's table, the JSON's
// fields), else always (a pipe's rows, a markdown summary, which have no
// room for it).
func (r *Reporter) Caveat(inOutput bool, format string, args ...any) {
	if inOutput {
		r.Note(format, args...)
		return
	}
	r.Info(format, args...)
}

// Line reports a skipped transcript line. Every skipped line counts as a
// warning (for --strict); a file prints only its first few unless -v, and
// a truncated last line (a live session) is a note unless --strict. An
// agent whose tokens are not counted is said apart from the lines, its
// first few a file too, and how many more at the end (Flush): a report
// over a history of hundreds of such agents buried its budget lines.
func (r *Reporter) Line(is reader.Issue) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.following && is.Kind == reader.TruncatedTail {
		r.pending = append(r.pending, is)
		return
	}
	r.warnings++
	if is.Kind == reader.TruncatedTail && !r.strict {
		if r.verbose {
			fmt.Fprintf(r.w, "cctx: note: %s\n", r.text(is.Error()))
		}
		return
	}
	counts, capped := r.perFile, &r.capped
	if is.Kind == reader.UnlinkedAgent || is.Kind == reader.UnreadAgent {
		// Not a line skipped but an agent's tokens left out of the
		// totals: said however many lines of the file were bad, and not
		// one of the file's few (a hint may point at it).
		counts, capped = r.agentsPerFile, &r.agentsCapped
	}
	n := counts[is.File] + 1
	counts[is.File] = n
	switch {
	case r.verbose || n <= perFileLimit:
		fmt.Fprintf(r.w, "cctx: warning: %s\n", r.text(is.Error()))
	case n == perFileLimit+1:
		*capped = append(*capped, is.File) // counted in Flush
	}
}

// Flush says, for each file whose line warnings were cut short, how many
// more there were. Commands call it once, at the end.
func (r *Reporter) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, file := range r.capped {
		n := r.perFile[file] - perFileLimit
		fmt.Fprintf(r.w, "cctx: warning: %s: %d more line warning(s) (-v shows each)\n", r.text(file), n)
	}
	for _, file := range r.agentsCapped {
		n := r.agentsPerFile[file] - perFileLimit
		fmt.Fprintf(r.w, "cctx: warning: %s: %d more agent(s) whose tokens are not counted (-v names each)\n", r.text(file), n)
	}
	r.capped, r.agentsCapped = nil, nil
}
