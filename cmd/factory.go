package cmd

import (
	"io"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/sigpipe"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// GlobalOptions are the flags every command shares.
type GlobalOptions struct {
	Dirs    []string
	Color   string
	JSON    bool
	Redact  bool
	Strict  bool
	Verbose bool
	NoCache bool
}

// Factory gives commands their dependencies.
type Factory struct {
	IO      *IOStreams
	Now     func() time.Time
	Env     session.Env
	Globals GlobalOptions
	Args    []string // the command line, as Run got it

	color        bool
	theme        render.Theme // of color, made once: the guards know its mark
	report       *diag.Reporter
	finder       *session.Finder
	so           *render.Stdout
	red          *redact.Redactor
	redactsInput bool
	store        *cache.Store
	storeMade    bool
	pipe         *sigpipe.Catcher // SIGPIPE held while a report's cache is written behind it: | head costs the output, not the cache
}

// holdSigpipe holds SIGPIPE till Run has waited for the cache (f.pipe).
func (f *Factory) holdSigpipe() { f.pipe = sigpipe.CatchFor(f.IO.Out) }

// Out is stdout (render.Stdout): every byte through render's Guard, or
// with --json through its JSON mode; with --redact every line is redacted
// first. Commands write nowhere else.
func (f *Factory) Out() io.Writer {
	if f.Globals.JSON {
		return f.OutJSON()
	}
	return f.stdout().Text()
}

// OutJSON is stdout for JSON text (--json, JSONL, raw transcript lines).
func (f *Factory) OutJSON() io.Writer { return f.stdout().JSON() }

// Terminal is the process's own streams, for a program cctx hands them
// to (cctx resume runs claude with them on Windows, where there is no
// exec); what cctx prints itself goes through Out.
func (f *Factory) Terminal() (in io.Reader, out, errOut io.Writer) {
	return f.IO.In, f.IO.Out, f.IO.ErrOut
}

func (f *Factory) stdout() *render.Stdout {
	if f.so == nil {
		f.so = f.guarded(f.IO.Out)
	}
	return f.so
}

// guarded is w as stdout is guarded (and redacted, with --redact).
func (f *Factory) guarded(w io.Writer) *render.Stdout {
	var red func([]byte) []byte
	if f.Globals.Redact && !f.redactsInput {
		red = f.redactor().Bytes
	}
	return render.NewStdout(w, f.theme, red)
}

// flushOut writes what the stdout writers still hold.
func (f *Factory) flushOut() {
	if f.so != nil {
		f.so.Flush()
	}
}

// redactor is --redact's: one for the run.
func (f *Factory) redactor() *redact.Redactor {
	if f.red == nil {
		f.red = redact.New(f.Env.Home)
	}
	return f.red
}

// redactsItsInput says that the command redacts each transcript line as
// it reads it (show, export): its output is not redacted a second time.
func (f *Factory) redactsItsInput() { f.redactsInput = true }

// Report is where warnings and notes go (stderr).
func (f *Factory) Report() *diag.Reporter {
	if f.report == nil {
		f.report = diag.New(f.IO.ErrOut, f.Globals.Verbose, f.Globals.Strict)
		if f.Globals.Redact {
			f.report.Redact(f.redactor().String)
		}
	}
	return f.report
}

// Finder lists sessions under the roots chosen by --dir, CLAUDE_CONFIG_DIR
// or the defaults.
func (f *Factory) Finder() (*session.Finder, error) {
	if f.finder != nil {
		return f.finder, nil
	}
	finder, err := session.FinderFor(f.Globals.Dirs, f.Env, f.Report())
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	f.finder = finder
	f.finder.Cache = f.Cache().Sub("ls")
	return f.finder, nil
}

// Render is how output should look.
func (f *Factory) Render() render.Options {
	o := render.Options{TTY: f.IO.IsStdoutTTY(), Width: f.IO.Width(), Theme: f.theme, Home: f.Env.Home, Now: f.Now()}
	if f.Globals.Redact {
		o.Redact = f.redactor().String
	}
	return o
}

// resolveColor settles colour once (render.ColorOn) and makes the theme.
func (f *Factory) resolveColor() (err error) {
	if f.color, err = render.ColorOn(f.Globals.Color, f.Env.Getenv, f.IO.IsStdoutTTY()); err != nil {
		return &UsageError{Err: err}
	}
	f.theme = render.NewTheme(f.color)
	return nil
}

// listing is the Finder for a command that lists sessions: the roots must
// all be there.
func (f *Factory) listing() (*session.Finder, error) {
	finder, err := f.Finder()
	if err != nil {
		return nil, err
	}
	if finder.RootsErr != nil {
		return nil, &UsageError{Err: finder.RootsErr}
	}
	return finder, nil
}

// loadTree resolves a <session> argument and builds its tree with open
// (tree.Open, or tree.OpenQuiet): the main file with its subagent files,
// or one transcript on standard input. The caller closes the tree.
func (f *Factory) loadTree(arg string, open func(*session.Finder, *session.Session, io.Reader, *diag.Reporter) (*tree.Tree, error)) (*session.Session, *tree.Tree, error) {
	finder, err := f.Finder()
	if err != nil {
		return nil, nil, err
	}
	s, err := finder.Resolve(arg)
	if err != nil {
		return nil, nil, err
	}
	t, err := open(finder, s, f.IO.In, f.Report())
	return s, t, err
}

// readOptions are how a command that counts tokens reads files: warnings
// to stderr, every line validated with --strict.
func (f *Factory) readOptions() tokens.ReadOptions {
	return tokens.ReadOptions{OnIssue: f.Report().Line, OnError: f.Report().FileError, Strict: f.Globals.Strict, Stdin: f.IO.In,
		Cache: f.Cache()}
}

// Cache is the per-file summary cache (docs/cache.md); nil with
// --no-cache or CCTX_NO_CACHE=1, or when there is no directory for it.
func (f *Factory) Cache() *cache.Store {
	if !f.storeMade {
		f.storeMade = true
		f.store = cache.ForCommand(f.Globals.NoCache, f.Env.Getenv, f.Env.Home, func(s string, a ...any) { f.Report().Note(s, a...) }) // the reporter of now: --watch silences it (a frame's output)
	}
	return f.store
}

// warnPrices says which models of the output have no price and which
// were priced by an estimate (tokens.Prices.Warnings).
func (f *Factory) warnPrices(unpriced []string, prices *tokens.Prices) {
	for _, w := range prices.Warnings(unpriced) {
		f.Report().Warn("%s", w)
	}
}
