package cmd

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/buildinfo"
	"github.com/cctx-dev/cctx/internal/flagval"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/render/export"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// ExportOptions are the flags of cctx export.
type ExportOptions struct {
	F       *Factory
	Session string

	Format   string // html or md; "" from the -o extension, else html
	Output   string // -o FILE; "" or "-": stdout
	Leaf     string
	leafSet  bool
	Agents   bool
	NoRedact bool
	NoThink  bool
}

// NewCmdExport builds `cctx export`. runF replaces the run function in tests.
func NewCmdExport(f *Factory, runF func(*ExportOptions) error) *cobra.Command {
	o := &ExportOptions{F: f}
	c := &cobra.Command{
		Use:   "export <session>",
		Short: "A session as one HTML page or Markdown file to share, redacted",
		Long: `Write the conversation a session ends on (as cctx show shows it) as a file
to share: a self-contained HTML page, or GitHub-flavoured Markdown to paste
into a pull request or an issue.

The page has its style inline, runs no script and loads nothing: a
Content-Security-Policy forbids any request, images are embedded from the
transcript's own data. It reads offline in any browser, in light or dark,
and prints. Replies are rendered Markdown (raw HTML shown as text, links
only to http(s) and mailto, with rel=noopener noreferrer); tool calls fold
with their results, thinking folds, prompts are listed at the top.

Secrets are redacted by default, as show --redact does it: keys, tokens,
Authorization headers, *_KEY/*_TOKEN/*_SECRET values, emails, user names (in
homes and shell prompts) and your home (as ~), in every field written.
stderr says how many were replaced (docs/redaction.md). --no-redact: none.

The format is --format, else the extension of -o (.html, .htm, .md,
.markdown), else html. Without -o (or with -o -) the file goes to stdout
(a page to a pipe, not a terminal).
Tool results, inputs and texts over 100 KB and images over 1.5 MB are cut
with a note.`,
		Example: `  cctx export latest -o session.html
  cctx export b3ed -o session.md --agents
  cctx export b3ed --format md | pbcopy
  cctx export b3ed --leaf 9c1e -o other-branch.html`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			o.leafSet = c.Flags().Changed("leaf")
			if runF != nil {
				return runF(o)
			}
			return exportRun(o)
		},
	}
	fl := c.Flags()
	fl.Var(flagval.OneOf(&o.Format, "html, md"), "format", "output `FORMAT`: html or md (also markdown); default: from the -o extension, else html")
	fl.VarP(flagval.New(&o.Output, flagval.File), "output", "o", "write to `FILE` instead of stdout")
	fl.StringVar(&o.Leaf, "leaf", "", "export the branch ending at `UUID` (or a unique prefix) instead of the active one")
	fl.BoolVar(&o.Agents, "agents", false, "include subagent conversations, folded under their call")
	fl.BoolVar(&o.NoRedact, "no-redact", false, "keep secrets and the home path as they are")
	fl.BoolVar(&o.NoThink, "no-thinking", false, "leave the model's thinking out (it is folded in, by default)")
	return c
}

// format is the chosen format: --format, else the output's extension,
// else html.
func (o *ExportOptions) format() (export.Format, error) {
	switch strings.ToLower(o.Format) {
	case "html", "htm":
		return export.HTML, nil
	case "md", "markdown":
		return export.Markdown, nil
	case "":
	default:
		return "", usageErrorf("--format must be html or md, not %q", o.Format)
	}
	if o.Output == "" || o.Output == "-" {
		return export.HTML, nil
	}
	switch ext := strings.ToLower(filepath.Ext(o.Output)); ext {
	case ".html", ".htm":
		return export.HTML, nil
	case ".md", ".markdown":
		return export.Markdown, nil
	default:
		return "", usageErrorf("-o %s: cannot tell the format from %q: name the file .html or .md, or give --format html|md", o.Output, ext)
	}
}

func (o *ExportOptions) validate() (export.Format, error) {
	switch {
	case o.F.Globals.JSON:
		return "", usageErrorf("export writes HTML or Markdown: --json does not apply (cctx show --json prints the conversation as JSON)")
	case o.leafSet && o.Leaf == "":
		return "", usageErrorf("--leaf needs a uuid or a prefix of one (cctx tree lists the leaves)")
	case o.NoRedact && o.F.Globals.Redact:
		return "", usageErrorf("--redact and --no-redact contradict each other (export redacts by default)")
	}
	if fi, err := os.Stat(o.Output); o.Output != "-" && err == nil && fi.IsDir() { // before its extension, and before reading
		return "", fmt.Errorf("-o %s is a directory: name the file to write", o.Output)
	}
	format, err := o.format()
	if err == nil && format == export.HTML && (o.Output == "" || o.Output == "-") && o.F.IO.IsStdoutTTY() {
		return "", usageErrorf("export writes an HTML page, not for a terminal: give -o FILE.html, pipe it, or --format md")
	}
	return format, err
}

func exportRun(o *ExportOptions) error {
	f := o.F
	f.redactsItsInput() // and counts what it replaced; --no-redact is no redaction at all
	format, err := o.validate()
	if err != nil {
		return err
	}
	if !o.NoRedact { // stderr's warnings too, as --redact redacts them, before any is said
		f.Report().Redact(f.redactor().String)
	}
	s, t, err := f.loadTree(o.Session, tree.Open)
	if err != nil {
		return err
	}
	defer t.Close()
	src := t.Source()
	defer src.Close()
	leaf, err := t.FindLeaf(o.Leaf)
	if err != nil {
		return &UsageError{Err: err}
	}
	// What show shows, with the usage counted as show counts it; the
	// export redacts what it writes itself (and counts it).
	doc, err := show.New(t, src, tokens.DefaultPrices(), show.Options{Leaf: leaf, Agents: o.Agents, Warn: f.Report().Warn}, nil, nil)
	if err != nil {
		return err
	}
	opts := o.renderOptions(s, format)
	stats, err := o.write(func(w io.Writer) (export.Stats, error) { return export.Render(w, doc, src, opts) })
	if err != nil {
		return err
	}
	o.tell(stats)
	return f.Report().Unreadable()
}

func (o *ExportOptions) renderOptions(s *session.Session, format export.Format) export.Options {
	opts := export.Options{Format: format, Location: time.Local, Generator: "cctx " + buildinfo.Version(Version), NoThinking: o.NoThink}
	if !o.NoRedact {
		opts.Redact = o.F.redactor().Bytes
	}
	opts.Title = s.Title() // as ls shows it, the page redacts it
	return opts
}

// write runs render into stdout, or into the -o file: a temporary file
// beside it, renamed over it once complete, so a failed export leaves no
// half-written file.
func (o *ExportOptions) write(render func(io.Writer) (export.Stats, error)) (export.Stats, error) {
	if o.Output == "" || o.Output == "-" {
		return render(o.F.Out())
	}
	dir := filepath.Dir(o.Output)
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) || err == nil && !fi.IsDir() {
		return export.Stats{}, fmt.Errorf("-o %s: no directory %s to write it in", o.Output, dir)
	}
	tmp, err := os.CreateTemp(dir, ".cctx-export-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the temporary file's name means nothing to the user
		}
		return export.Stats{}, fmt.Errorf("-o %s: cannot write in %s: %w", o.Output, dir, err)
	}
	stats, err := render(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_ = os.Chmod(tmp.Name(), 0o644) // a file meant to be shared
		err = os.Rename(tmp.Name(), o.Output)
	}
	if err != nil {
		os.Remove(tmp.Name())
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err // the temporary file's name means nothing to the user
		}
		return stats, fmt.Errorf("-o %s: %w", o.Output, err)
	}
	return stats, nil
}

// tell says where the file went and what redaction replaced.
func (o *ExportOptions) tell(st export.Stats) {
	var parts []string
	if o.Output != "" && o.Output != "-" {
		size := ""
		if fi, err := os.Stat(o.Output); err == nil {
			size = " (" + render.Bytes(fi.Size()) + ")"
		}
		parts = append(parts, fmt.Sprintf("wrote %s%s", o.Output, size))
	}
	if o.NoRedact {
		parts = append(parts, "not redacted (--no-redact)")
	} else {
		parts = append(parts, fmt.Sprintf("redacted %d secret(s), %d email address(es) and %d user name(s); the home path is written ~ (--no-redact keeps them)", st.Secrets, st.Emails, st.Users))
	}
	o.F.Report().Info("%s", strings.Join(parts, "; "))
}
