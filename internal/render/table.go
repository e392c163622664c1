package render

import (
	"bytes"
	"fmt"
	"io"
	"slices"
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

	// How a terminal table wider than the terminal gives way (fit).
	shrinks  []shrink
	optional []int
	styles   map[int]func(row int, cell string) string
	// Dropped are the headers of the optional columns a terminal's table
	// left out, once rendered.
	Dropped []string
}

// shrink is a column a terminal table cuts, down to min columns, when it
// is too wide: from the left (a path keeps its telling end) or the right.
type shrink struct {
	col, min int
	left     bool
	distinct bool // never so narrow that two of its rows' cells read the same
	late     bool // once the optional columns are left out (ShrinkLast)
}

// Shrink lets column col be cut, down to min columns, in a table wider
// than the terminal (Options.Width); from the left when left. Columns are
// cut in the order Shrink names them, before any is left out (Optional),
// and given back what leaving columns out freed in the reverse order: a
// column named twice is cut in two stages (ls: the project to 32 columns
// before the title gives way, and further after).
func (t *Table) Shrink(col, min int, left bool) {
	t.shrinks = append(t.shrinks, shrink{col: col, min: min, left: left})
}

// ShrinkLast is Shrink once every optional column is left out: a terminal
// narrower still (40 columns) cuts the title below what it keeps while
// there is anything else to leave out.
func (t *Table) ShrinkLast(col, min int, left bool) {
	t.shrinks = append(t.shrinks, shrink{col: col, min: min, left: left, late: true})
}

// ShrinkDistinct is Shrink of a column that tells its rows apart (the
// key of a --by table): it is cut no narrower than keeps them apart.
func (t *Table) ShrinkDistinct(col, min int, left bool) {
	t.shrinks = append(t.shrinks, shrink{col: col, min: min, left: left, distinct: true})
}

// Optional names the columns a terminal table still wider than the
// terminal, once cut (Shrink), leaves out, in this order, until it fits:
// numbers that a wider window or --json shows. A pipe gets every column.
func (t *Table) Optional(cols ...int) { t.optional = append(t.optional, cols...) }

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

// hasTabOrNewline is strings.ContainsAny(c, "\t\n") for a short cell, a
// byte loop: ContainsAny looked for each rune of its set in turn, a quarter
// of writing the rows of 5,000 sessions.
func hasTabOrNewline(c string) bool {
	for i := 0; i < len(c); i++ {
		if c[i] == '\t' || c[i] == '\n' {
			return true
		}
	}
	return false
}

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
				if hasTabOrNewline(c) {
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
	for _, rows := range [][][]string{t.rows, t.footers} {
		for _, r := range rows {
			for i, c := range r {
				r[i] = textPresented(c)
			}
		}
	}
	t.fit()
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
	out := trimLineEnds(t.opts.Theme.tableResets(buf.Bytes()), t.opts.Theme.reset())
	if len(t.footers) > 0 {
		out = ruleToRows(out)
	}
	if len(t.Dropped) > 0 {
		// What a narrow terminal's table leaves out, said under it,
		// wrapped to the terminal.
		note := fmt.Sprintf("(%s left out at %d columns)", strings.Join(t.Dropped, ", "), t.opts.Width)
		for _, l := range wrapWords(note, t.opts.Width-1) {
			out = fmt.Appendln(out, t.opts.Theme.Dim(l))
		}
	}
	_, err := w.Write(out)
	return err
}

// ruleToRows cuts the rule above a footer, which tablewriter draws over
// the padding after the last column too, to the width of the widest row:
// a table that fits the terminal has a rule that fits too.
func ruleToRows(b []byte) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	widest, rule := 0, -1
	for i, l := range lines {
		text := strings.TrimSuffix(stripSGR(string(l)), "\n")
		if text != "" && strings.Trim(text, "─") == "" {
			rule = i
			continue
		}
		widest = max(widest, Width(text))
	}
	if rule < 0 || Width(strings.TrimSuffix(string(lines[rule]), "\n")) <= widest {
		return b
	}
	lines[rule] = []byte(strings.Repeat("─", widest) + "\n")
	return bytes.Join(lines, nil)
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

// Style colours the cells of column col on a terminal once the table is
// fitted (Shrink): a cell is cut as text, then styled by style (its row's
// index, its text).
func (t *Table) Style(col int, style func(row int, cell string) string) {
	if t.styles == nil {
		t.styles = map[int]func(int, string) string{}
	}
	t.styles[col] = style
}

// fit cuts the shrinkable columns, then leaves out the optional ones, of
// a terminal table wider than the terminal, until it fits (or nothing
// more can give), and gives what leaving a column out freed back to the
// cut ones: at 80 columns the tokens tables were 119 wide, each row
// wrapped onto two lines.
func (t *Table) fit() {
	defer t.style()
	if t.opts.Width <= 0 {
		return
	}
	all := append(t.rows[:len(t.rows):len(t.rows)], t.footers...)
	widths := make([]int, len(t.header))
	for c := range widths {
		widths[c] = colWidth(t.header, all, c)
	}
	full := slices.Clone(widths)
	// One column to spare: a line as wide as the terminal is wrapped on
	// some (Windows' console), which leaves an empty line after it.
	over := t.width(widths) - (t.opts.Width - 1)
	type stage struct{ col, from int } // a cut made, and the width it cut from
	var stages []stage
	left := map[int]bool{}
	drop := map[int]bool{}
	// An optional column empty in every row goes first, before any text
	// is cut, and unsaid: it shows nothing (agents' PARENT of a session
	// without nested agents took the room of the descriptions).
	for _, c := range t.optional {
		if over > 0 && c < len(widths) && !drop[c] && emptyColumn(all, c) {
			drop[c] = true
			over -= widths[c] + 2
		}
	}
	cut := func(late bool) {
		for _, sh := range t.shrinks {
			if over <= 0 || sh.late != late || drop[sh.col] {
				continue
			}
			floor := max(sh.min, Width(t.header[sh.col]), styledWidth(all, sh.col))
			if sh.distinct {
				floor = distinctWidth(t.rows, sh.col, sh.left, floor, widths[sh.col])
			}
			if to := max(floor, widths[sh.col]-over); to < widths[sh.col] {
				stages = append(stages, stage{sh.col, widths[sh.col]})
				left[sh.col] = sh.left
				over -= widths[sh.col] - to
				widths[sh.col] = to
			}
		}
	}
	cut(false)
	for _, c := range t.optional {
		if over <= 0 {
			break
		}
		if drop[c] || c >= len(widths) {
			continue
		}
		drop[c] = true
		over -= widths[c] + 2
		name := t.header[c]
		if name == "" {
			name = "the context bar" // tokens' per-response bar
		}
		t.Dropped = append(t.Dropped, name)
	}
	cut(true) // on a terminal narrower still
	for i := len(stages) - 1; i >= 0 && over < 0; i-- {
		st := stages[i]
		if drop[st.col] {
			continue // left out: what it freed goes to the others
		}
		give := min(-over, st.from-widths[st.col])
		widths[st.col] += give
		over += give
	}
	for c, l := range left {
		if widths[c] < full[c] {
			cutColumn(all, c, widths[c], l)
		}
	}
	if len(drop) == 0 {
		return
	}
	t.style()
	t.styles = nil
	keep := func(r []string) []string {
		out := r[:0:0]
		for c, cell := range r {
			if !drop[c] {
				out = append(out, cell)
			}
		}
		return out
	}
	right := map[int]bool{}
	for c, n := 0, 0; c < len(t.header); c++ {
		if !drop[c] {
			right[n] = t.right[c]
			n++
		}
	}
	t.header, t.right = keep(t.header), right
	for i := range t.rows {
		t.rows[i] = keep(t.rows[i])
	}
	for i := range t.footers {
		t.footers[i] = keep(t.footers[i])
	}
}

// cutColumn cuts the cells of column c of rows to w columns, from the
// left when left; a cell cctx coloured is not cut through its escapes.
func cutColumn(rows [][]string, c, w int, left bool) {
	for _, r := range rows {
		switch {
		case c >= len(r) || strings.ContainsRune(r[c], 0x1b):
		case left:
			r[c] = CutLeft(r[c], w)
		default:
			r[c] = Cut(r[c], w)
		}
	}
}

// distinctWidth is the narrowest width from floor to full at which the
// cells of column c of rows, cut, are as many different texts as whole:
// `tokens --by agent` at 72 columns showed six rows as `fe5e1c67/side…`.
// Wider never joins two texts, so it is looked for by halves.
func distinctWidth(rows [][]string, c int, left bool, floor, full int) int {
	kinds := func(w int) int {
		seen := map[string]bool{}
		for _, r := range rows {
			if c < len(r) {
				switch {
				case w == 0:
					seen[r[c]] = true
				case left:
					seen[CutLeft(r[c], w)] = true
				default:
					seen[Cut(r[c], w)] = true
				}
			}
		}
		return len(seen)
	}
	want := kinds(0)
	for floor < full {
		mid := (floor + full) / 2
		if kinds(mid) == want {
			full = mid
		} else {
			floor = mid + 1
		}
	}
	return floor
}

// styledWidth is the width of the widest cell of column col that cctx
// coloured: fit does not cut those.
func styledWidth(rows [][]string, col int) int {
	w := 0
	for _, r := range rows {
		if col < len(r) && strings.ContainsRune(r[col], 0x1b) {
			w = max(w, Width(stripSGR(r[col])))
		}
	}
	return w
}

// style applies the styles of Style to the rows' cells, once.
// emptyColumn reports whether column c is empty in every row (footers
// included: a total is content).
func emptyColumn(rows [][]string, c int) bool {
	for _, r := range rows {
		if c < len(r) && r[c] != "" {
			return false
		}
	}
	return true
}

func (t *Table) style() {
	for col, style := range t.styles {
		for i, r := range t.rows {
			if col < len(r) {
				r[col] = style(i, r[col])
			}
		}
	}
	t.styles = nil
}

// width is how wide the table is on a terminal with columns of these
// widths: two spaces after each but the last (the rule above a footer
// too: ruleToRows).
func (t *Table) width(widths []int) int {
	n := 0
	for _, w := range widths {
		n += w + 2
	}
	return max(0, n-2)
}

// colWidth is the width of column c: its header's or its widest cell's.
func colWidth(header []string, rows [][]string, c int) int {
	w := Width(strings.TrimSuffix(header[c], ">"))
	for _, r := range rows {
		if c < len(r) {
			w = max(w, Width(stripSGR(r[c])))
		}
	}
	return w
}

// FitParts joins parts with sep into lines of at most width cells, a new
// line (indented by cont spaces) where the next part would pass it: on a
// narrow terminal a header wraps between its parts, not inside one, and
// nothing of it is lost; a plain part wider than a whole line is cut.
// width 0 (a pipe): one line.
func FitParts(parts []string, sep string, width, cont int) []string {
	var out []string
	line, w := "", 0
	sepW := StyledWidth(sep)
	for _, p := range parts {
		if room := width - cont; width > 0 && !strings.Contains(p, "\x1b") && Width(p) > room {
			p = Cut(p, max(room, 1))
		}
		pw := StyledWidth(p)
		switch {
		case line == "":
			line, w = p, pw
		case width > 0 && w+sepW+pw > width:
			out = append(out, line)
			line, w = strings.Repeat(" ", cont)+p, cont+pw
		default:
			line, w = line+sep+p, w+sepW+pw
		}
	}
	return append(out, line)
}

// StyledWidth is the width of s without the colour sequences cctx wrote.
func StyledWidth(s string) int { return Width(stripSGR(s)) }

// stripSGR drops the colour sequences cctx itself wrote.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
