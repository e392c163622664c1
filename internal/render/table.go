package render

import (
	"bytes"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Table collects rows and prints them as aligned columns on a terminal or
// as tab-separated values (no header, nothing cut) for a pipe.
type Table struct {
	opts    Options
	header  []string
	right   map[int]bool // right-aligned (numeric) columns
	rows    [][]string
	footers [][]string
}

// NewTable starts a table with the given column names. A name ending in
// ">" is right-aligned (the marker is not printed).
func NewTable(o Options, columns ...string) *Table {
	t := &Table{opts: o, right: map[int]bool{}}
	for i, c := range columns {
		if strings.HasSuffix(c, ">") {
			t.right[i] = true
			c = strings.TrimSuffix(c, ">")
		}
		t.header = append(t.header, c)
	}
	return t
}

// Row adds a row.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Footer adds a totals row, set apart from the others on a terminal.
func (t *Table) Footer(cells ...string) { t.footers = append(t.footers, cells) }

// Len is the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// cellSpaces makes a tab or newline in a cell of a tab-separated row a
// space.
var cellSpaces = strings.NewReplacer("\t", " ", "\n", " ")

// Render writes the table.
func (t *Table) Render(w io.Writer) error {
	if !t.opts.TTY {
		// One write for the table: a write a row was one system call a
		// row (5,000 for ls --all over 5,000 sessions).
		// Sized once, and a cell without a tab or newline copied as it is
		// (the replacer allocates a buffer a call: 30,000 of them for ls
		// --all over 5,000 sessions).
		rows := append(t.rows, t.footers...)
		n := 0
		for _, r := range rows {
			for _, c := range r {
				n += len(c) + 1
			}
		}
		var buf bytes.Buffer
		buf.Grow(n)
		for _, r := range rows {
			for i, c := range r {
				if i > 0 {
					buf.WriteByte('\t')
				}
				if strings.ContainsAny(c, "\t\n") {
					cellSpaces.WriteString(&buf, c)
				} else {
					buf.WriteString(c)
				}
			}
			buf.WriteByte('\n')
		}
		_, err := w.Write(buf.Bytes())
		return err
	}
	align := make([]tw.Align, len(t.header))
	for i := range align {
		align[i] = tw.AlignLeft
		if t.right[i] {
			align[i] = tw.AlignRight
		}
	}
	lines := tw.LinesNone
	if len(t.footers) > 0 {
		lines = tw.Lines{ShowFooterLine: tw.On, ShowHeaderLine: tw.Off, ShowTop: tw.Off, ShowBottom: tw.Off}
	}
	var buf bytes.Buffer
	tbl := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders:  tw.BorderNone,
			Symbols:  tw.NewSymbols(tw.StyleLight),
			Settings: tw.Settings{Separators: tw.SeparatorsNone, Lines: lines},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithPadding(tw.Padding{Left: "", Right: "  ", Overwrite: true}),
	)
	hdr := make([]any, len(t.header))
	for i, h := range t.header {
		hdr[i] = t.opts.Theme.Header(h)
	}
	tbl.Header(hdr...)
	for _, r := range t.rows {
		if err := tbl.Append(r); err != nil {
			return err
		}
	}
	for _, f := range t.footers {
		tbl.Footer(f)
	}
	if err := tbl.Render(); err != nil {
		return err
	}
	_, err := w.Write(trimLineEnds(t.opts.Theme.tableResets(buf.Bytes()), t.opts.Theme.reset()))
	return err
}

// trimLineEnds drops the padding tablewriter leaves after the last column
// of each line (kept before a closing reset, if the line has one).
func trimLineEnds(b []byte, reset string) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	out := b[:0:0]
	for _, l := range lines {
		body, nl := bytes.CutSuffix(l, []byte("\n"))
		body = bytes.TrimSuffix(body, []byte("\r"))
		tail := ""
		if reset != "" {
			if trimmed, ok := bytes.CutSuffix(body, []byte(reset)); ok {
				body, tail = trimmed, reset
			}
		}
		out = append(out, bytes.TrimRight(body, " ")...)
		out = append(out, tail...)
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}
