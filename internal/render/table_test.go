package render

import (
	"bytes"
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
