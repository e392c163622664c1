package render

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// A terminal table wider than the terminal cuts its shrinkable columns,
// then leaves out its optional ones, and fits in the terminal's width
// less one column; a pipe gets every column, whole.
func TestTableFitsTheTerminal(t *testing.T) {
	type want struct {
		lines   []string // without the note
		dropped []string
	}
	rows := [][]string{
		{"/home/someone/src/a-rather-long-project", "main", "1", "22", "333", "first title of the list"},
		{"/tmp/x", "feature/a-long-branch-name", "4", "55", "666", "second"},
	}
	build := func(o Options) *Table {
		tb := NewTable(o, "PROJECT", "BRANCH", "A>", "B>", "C>", "TITLE")
		for _, r := range rows {
			tb.Row(append([]string(nil), r...)...)
		}
		tb.Shrink(5, 8, false)
		tb.Shrink(0, 10, true)
		tb.Shrink(1, 8, false)
		tb.Optional(3, 1)
		return tb
	}
	for _, tc := range []struct {
		name string
		o    Options
		want want
	}{
		{"wide enough: nothing changes", Options{TTY: true, Width: 120}, want{lines: []string{
			"PROJECT                                  BRANCH                      A  B   C    TITLE",
			"/home/someone/src/a-rather-long-project  main                        1  22  333  first title of the list",
			"/tmp/x                                   feature/a-long-branch-name  4  55  666  second",
		}}},
		// 104 columns in 69: the title to its 8 (15 less), the project
		// the other 20 (to 19, its end kept); the branch stays whole.
		{"the title gives way first, the project next (its end kept)", Options{TTY: true, Width: 70}, want{lines: []string{
			"PROJECT              BRANCH                      A  B   C    TITLE",
			"…ather-long-project  main                        1  22  333  first t…",
			"/tmp/x               feature/a-long-branch-name  4  55  666  second",
		}}},
		// In 39: title 8, project 10, branch 8 is still 3 over; B (4
		// with its spaces) is left out, and the one column it freed goes
		// back to the branch, the last cut.
		{"then columns are left out, and what they free is given back", Options{TTY: true, Width: 40}, want{lines: []string{
			"PROJECT     BRANCH     A  C    TITLE",
			"…g-project  main       1  333  first t…",
			"/tmp/x      feature/…  4  666  second",
		}, dropped: []string{"B"}}},
		{"no width known: nothing cut", Options{TTY: true}, want{lines: []string{
			"PROJECT                                  BRANCH                      A  B   C    TITLE",
			"/home/someone/src/a-rather-long-project  main                        1  22  333  first title of the list",
			"/tmp/x                                   feature/a-long-branch-name  4  55  666  second",
		}}},
		{"a pipe gets every column whole", Options{Width: 20}, want{lines: []string{
			"/home/someone/src/a-rather-long-project\tmain\t1\t22\t333\tfirst title of the list",
			"/tmp/x\tfeature/a-long-branch-name\t4\t55\t666\tsecond",
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := build(tc.o)
			var b bytes.Buffer
			if err := tb.Render(&b); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if len(tc.want.dropped) > 0 {
				note := got[len(got)-1]
				got = got[:len(got)-1]
				if !strings.Contains(note, strings.Join(tc.want.dropped, ", ")+" left out") {
					t.Errorf("note %q does not name %v", note, tc.want.dropped)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want.lines, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want.lines, "\n"))
			}
			if strings.Join(tb.Dropped, ",") != strings.Join(tc.want.dropped, ",") {
				t.Errorf("Dropped %v, want %v", tb.Dropped, tc.want.dropped)
			}
			if tc.o.TTY && tc.o.Width > 0 {
				for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
					if Width(l) > tc.o.Width-1 {
						t.Errorf("%d columns wide at a width of %d: %q", Width(l), tc.o.Width, l)
					}
				}
			}
		})
	}
}

// The rule above a footer spans every column and the two spaces after the
// last: it fits too. A cell cctx coloured is not cut through its escapes,
// and a column's style is applied to the cut text, after columns before
// it were left out.
func TestTableFitFooterAndStyles(t *testing.T) {
	th := NewTheme(true)
	o := Options{TTY: true, Width: 43, Theme: th}
	tb := NewTable(o, "NAME", "N>", "M>", "NOTE")
	tb.Row(th.Cyan("coloured-name-that-is-long"), "1", "2", "a note that is long enough to cut")
	tb.Footer("total", "1", "2", "")
	tb.Shrink(0, 6, false)
	tb.Shrink(3, 10, false)
	tb.Optional(2)
	tb.Style(3, func(i int, cell string) string { return th.Dim(cell) })
	var b bytes.Buffer
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	out := stripSGR(b.String())
	// 67 columns in 42: NOTE to its 10 (the name is not cut), M left out,
	// the column it freed back to NOTE.
	if !strings.Contains(out, "coloured-name-that-is-long  1  a note tha…\n") {
		t.Errorf("the coloured cell was cut:\n%s", out)
	}
	if i := strings.Index(b.String(), "a note"); i < 0 || !strings.HasSuffix(b.String()[:i], "2m") {
		t.Errorf("the NOTE column is not styled (dim):\n%q", b.String())
	}
	if strings.Contains(b.String(), "a note that is long enough to cut") {
		t.Errorf("the NOTE column was not cut:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if Width(l) > 42 {
			t.Errorf("%d wide at 43 columns: %q", Width(l), l)
		}
	}
	if len(tb.Dropped) != 1 || tb.Dropped[0] != "M" {
		t.Errorf("Dropped %v, want [M]", tb.Dropped)
	}
}

// A column both cut and left out (agents' TYPE) gives what it freed to
// the others: at 40 columns the description gets 19, not the 12 it was
// cut to (found by review; it kept 12 and a row 32 wide).
func TestTableFitGivesWhatALeftOutColumnFreedToTheOthers(t *testing.T) {
	tb := NewTable(Options{TTY: true, Width: 40}, "ID", "TYPE", "DESCRIPTION", "NUMBERS>")
	tb.Row("a1", "general-purpose-agent", "a description that is long enough to be cut somewhat", "12345678901234")
	tb.Shrink(2, 12, false)
	tb.Shrink(1, 8, false)
	tb.Optional(1)
	var b bytes.Buffer
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if want := "a1  a description that…  12345678901234"; lines[1] != want {
		t.Errorf("row %q, want %q (39 columns)", lines[1], want)
	}
	if lines[2] != "(TYPE left out at 40 columns)" {
		t.Errorf("note %q", lines[2])
	}
}

// An optional column empty in every row is left out before any text is
// cut, and not named under the table (it showed nothing); one that fits,
// or holds anything, stays.
func TestTableFitLeavesOutAnEmptyColumnFirst(t *testing.T) {
	render := func(width int, parent string) []string {
		tb := NewTable(Options{TTY: true, Width: width}, "ID", "DESCRIPTION", "TOOLS>", "PARENT")
		tb.Row("a1", "a description that is long enough to be cut", "15", parent)
		tb.Row("b2", "short", "7", "")
		tb.Shrink(1, 12, false)
		tb.Optional(3, 2)
		var b bytes.Buffer
		if err := tb.Render(&b); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	if got, want := render(60, ""), []string{
		"ID  DESCRIPTION                                  TOOLS",
		"a1  a description that is long enough to be cut     15",
		"b2  short                                            7",
	}; !slices.Equal(got, want) {
		t.Errorf("an empty PARENT in 60 columns:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := render(80, ""); !strings.HasSuffix(got[0], "PARENT") {
		t.Errorf("an empty PARENT that fits is left out: %q", got[0])
	}
	if got := render(50, "p9"); !strings.HasSuffix(got[0], "PARENT") || !strings.Contains(got[1], "…") {
		t.Errorf("a PARENT with a value went before the description was cut:\n%s", strings.Join(got, "\n"))
	}
	// Content in the footer only (a total) is content.
	tb := NewTable(Options{TTY: true, Width: 60}, "ID", "DESCRIPTION", "N>")
	tb.Row("a1", "a description that is long enough to be cut, and more", "")
	tb.Footer("total", "", "42")
	tb.Shrink(1, 12, false)
	tb.Optional(2)
	var b bytes.Buffer
	tb.Render(&b)
	if !strings.Contains(b.String(), "42") && !strings.Contains(b.String(), "N left out") {
		t.Errorf("a column with a total left out unsaid:\n%s", b.String())
	}
}

// ShrinkLast cuts a column only once every optional column is left out:
// at a width that leaving columns out fits, the title keeps its first
// minimum; narrower, it is cut below it, and nothing else is.
func TestTableFitShrinksLastAfterLeavingOut(t *testing.T) {
	title := "a title of thirty characters!!"
	render := func(width int) []string {
		tb := NewTable(Options{TTY: true, Width: width}, "ID", "PROJECT", "TITLE")
		tb.Row("a1", "/home/me/project", title)
		tb.Shrink(2, 20, false)
		tb.Optional(1)
		tb.ShrinkLast(2, 8, false)
		var b bytes.Buffer
		if err := tb.Render(&b); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	for _, tc := range []struct {
		width int
		row   string
	}{
		{60, "a1  /home/me/project  " + title},
		{41, "a1  " + title},                  // PROJECT left out: the title whole
		{30, "a1  a title of thirty charac…"}, // then cut below 20
		{12, "a1  a title…"},                  // down to 8
	} {
		if got := render(tc.width); got[1] != tc.row {
			t.Errorf("%d columns: %q, want %q", tc.width, got[1], tc.row)
		}
	}
}

// A column named twice is cut in two stages, and given back in the
// reverse order: ls's project is cut, down to 32, before the title gives
// way (down to 20), and below 32 only after: each as little as it must.
func TestTableFitCutsInStages(t *testing.T) {
	project := "/home/someone/work/clients/a-long-client-name/the-project"
	title := strings.Repeat("t", 60)
	for _, tc := range []struct {
		width             int
		project, titleLen int
	}{
		{200, len(project), 60}, // room for everything
		{100, 37, 60},           // the project gives way, the title whole
		{60, 32, 25},            // the project at 32, the title gives way
		{45, 22, 20},            // the title at 20, the project again
	} {
		tb := NewTable(Options{TTY: true, Width: tc.width}, "PROJECT", "TITLE")
		tb.Row(project, title)
		tb.Shrink(0, 32, true)
		tb.Shrink(1, 20, false)
		tb.Shrink(0, 12, true)
		var b bytes.Buffer
		if err := tb.Render(&b); err != nil {
			t.Fatal(err)
		}
		row := strings.Split(b.String(), "\n")[1]
		p, ti, _ := strings.Cut(row, "  ")
		ti = strings.TrimLeft(ti, " ")
		if Width(p) != tc.project || Width(ti) != tc.titleLen {
			t.Errorf("at %d columns: project %d wide, title %d, want %d and %d:\n%s", tc.width, Width(p), Width(ti), tc.project, tc.titleLen, row)
		}
	}
}

// A key column (--by) is cut no narrower than tells its rows apart: the
// numbers are left out first.
func TestTableFitKeepsKeysApart(t *testing.T) {
	tb := NewTable(Options{TTY: true, Width: 35}, "AGENT", "CALLS>", "TOTAL>")
	for _, k := range []string{"fe5e1c67/sidechain-f4ab2bf6", "fe5e1c67/sidechain-f4546a51", "fe5e1c67/sidechain-60dade70"} {
		tb.Row(k, "53", "1450000")
	}
	tb.ShrinkDistinct(0, 12, false)
	tb.Optional(2)
	var b bytes.Buffer
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")[1:4] {
		key, _, _ := strings.Cut(l, " ")
		if seen[key] {
			t.Errorf("two rows read %q:\n%s", key, b.String())
		}
		seen[key] = true
	}
	if !strings.Contains(b.String(), "fe5e1c67/sidechain-f4ab2bf6") || !strings.Contains(b.String(), "(TOTAL left out at 35 columns)") {
		t.Errorf("TOTAL not left out for the keys:\n%s", b.String())
	}
}

// The note under a table wraps at the terminal's width, naming every
// column it left out.
func TestTableFitNoteWraps(t *testing.T) {
	tb := NewTable(Options{TTY: true, Width: 30}, "A", "BBBBBBBB", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE")
	tb.Row("a", "b", "c", "d", "e")
	tb.Row(strings.Repeat("a", 25), "b", "c", "d", "e")
	tb.Optional(1, 2, 3, 4)
	var b bytes.Buffer
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	out := strings.TrimSuffix(b.String(), "\n")
	for _, l := range strings.Split(out, "\n") {
		if Width(l) > 29 {
			t.Errorf("a line %d wide at 30 columns: %q", Width(l), l)
		}
	}
	if !strings.Contains(strings.ReplaceAll(out, "\n", " "), "(BBBBBBBB, CCCCCCCC, DDDDDDDD, EEEEEEEE left out at 30 columns)") {
		t.Errorf("the note does not name every column:\n%s", out)
	}
}

// A table without a footer keeps a row of ─ as it is: only the rule above
// a footer is cut to the rows (found by review).
func TestTableFitRuleOnlyAboveAFooter(t *testing.T) {
	tb := NewTable(Options{TTY: true, Width: 80}, "TITLE")
	cell := strings.Repeat("─", 30)
	tb.Row(cell)
	tb.Row("ab")
	var b bytes.Buffer
	if err := tb.Render(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), cell) {
		t.Errorf("the row %q came out as %q", cell, b.String())
	}
}

// FitParts wraps between parts, never inside one; a continuation is
// indented; colour sequences take no room; a plain part wider than a
// line is cut; a pipe (width 0) gets one line.
func TestFitParts(t *testing.T) {
	th := NewTheme(true)
	for _, tc := range []struct {
		parts       []string
		width, cont int
		want        []string
	}{
		{[]string{"aaa", "bbb", "ccc"}, 0, 2, []string{"aaa · bbb · ccc"}},
		{[]string{"aaa", "bbb", "ccc"}, 15, 2, []string{"aaa · bbb · ccc"}},
		{[]string{"aaa", "bbb", "ccc"}, 14, 2, []string{"aaa · bbb", "  ccc"}},
		{[]string{"aaa", "bbb", "ccc"}, 5, 0, []string{"aaa", "bbb", "ccc"}},
		{[]string{th.Dim("aaa"), th.Dim("bbb")}, 9, 0, []string{th.Dim("aaa") + " · " + th.Dim("bbb")}},
		{[]string{"a-very-long-part", "b"}, 10, 2, []string{"a-very-…", "  b"}},
	} {
		if got := FitParts(tc.parts, " · ", tc.width, tc.cont); !slices.Equal(got, tc.want) {
			t.Errorf("%q in %d: %q, want %q", tc.parts, tc.width, got, tc.want)
		}
	}
}

// tablewriter ends a cell that holds colour with a raw reset, which the
// Guard would print as visible "\x1b[0m": the table takes it for the
// theme's own when the cell's last escape is one of the theme's, whether
// the colour ends the cell or stops in its middle (ls's dim "archived "
// before a plain title). A raw reset after text a view forgot to escape
// is not taken.
func TestTableResetsAfterColouredCells(t *testing.T) {
	th := NewTheme(true)
	for _, tc := range []struct {
		cell string
		ours bool
	}{
		{th.Dim("a whole dim title"), true},
		{th.Dim("archived ") + "a plain title after it", true},
		{th.Dim("archived ") + "a title cut to fit the width of the terminal, and more", true},
		{"text with a raw \x1b[1mescape", false},
	} {
		tb := NewTable(Options{TTY: true, Width: 60, Theme: th}, "ID", "TITLE")
		tb.Row("a1", tc.cell)
		tb.Shrink(1, 20, false)
		var b bytes.Buffer
		if err := tb.Render(&b); err != nil {
			t.Fatal(err)
		}
		row := strings.Split(b.String(), "\n")[1]
		if raw := strings.Contains(row, "\x1b[0m"); raw == tc.ours {
			t.Errorf("%q: row %q, a raw reset left: %v", tc.cell, row, raw)
		}
	}
}

// A narrow character presented as an emoji (⚠️: U+26A0 U+FE0F) is two
// columns on a terminal and one to the table writer: a terminal table
// shows it as text, one column, so the columns after it line up.
func TestTableLinesUpAfterAnEmojiPresentedCharacter(t *testing.T) {
	tbl := NewTable(Options{TTY: true, Width: 120}, "DESCRIPTION", "TOOLS>", "NOTE")
	tbl.Row("⚠️ check the build", "12", "a")
	tbl.Row("plain words here", "3", "b")
	tbl.Row("recycle ♻️ then ⚠️", "7", "c")
	var buf bytes.Buffer
	if err := tbl.Render(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	at := -1
	for _, l := range lines {
		i := strings.LastIndexByte(l, ' ') + 1 // NOTE's start
		if got := Width(l[:i]); at < 0 {
			at = got
		} else if got != at {
			t.Errorf("NOTE starts at column %d, not %d, in %q", got, at, lines)
		}
	}
	if strings.Contains(buf.String(), "\uFE0F") {
		t.Errorf("emoji selector still in the table: %q", buf.String())
	}
	// A pipe gets the text as it is.
	buf.Reset()
	pipe := NewTable(Options{}, "DESCRIPTION", "NOTE")
	pipe.Row("⚠️ check", "a")
	if err := pipe.Render(&buf); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "⚠️ check\ta\n" {
		t.Errorf("pipe: %q", got)
	}
}
