package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// Ls prints a listing of sessions. On a terminal: short id, last activity
// (relative), project, branch, subagents, (the --long counts,) and the
// title cut to what the terminal leaves. In a pipe: tab-separated values,
// full ids and RFC 3339 times. stats are the --long counts, nil without.
// An empty listing writes nothing, on a terminal too (no header over no
// row): the command says on stderr why it is empty.
func Ls(w io.Writer, list []*session.Info, stats []tokens.SessionStats, o Options) error {
	if len(list) == 0 {
		return nil
	}
	th := o.Theme
	long := stats != nil
	cols := []string{"ID", "ACTIVE", "PROJECT", "BRANCH", "AGENTS>"}
	if long {
		cols = append(cols, "PROMPTS>", "CALLS>", "TOKENS>", "SIZE>")
	}
	cols = append(cols, "TITLE")
	t := NewTable(o, cols...)
	t.rows = make([][]string, 0, len(list))
	rows := make([][]string, len(list))
	for i, in := range list {
		// Room for every column: the title is appended without a copy.
		row := lsCells(make([]string, 0, len(cols)), in, o)
		if long {
			st := stats[i]
			if o.TTY {
				row = append(row, fmt.Sprint(st.Prompts), fmt.Sprint(st.APICalls), Count(st.Tokens), Bytes(st.Size))
			} else {
				row = append(row, fmt.Sprint(st.Prompts), fmt.Sprint(st.APICalls), fmt.Sprint(st.Tokens), fmt.Sprint(st.Size))
			}
		}
		rows[i] = row
	}
	tw := 0 // a pipe gets whole titles
	if o.TTY {
		giveWayToTitle(o.Width, cols, rows)
		tw = titleWidth(o.Width, cols, rows)
	}
	for i, in := range list {
		title := Safe(o.Redacted(in.Title))
		switch {
		case !o.TTY:
		case in.Orphan:
			title = th.Yellow("(main transcript deleted)")
			if in.Archived {
				title += th.Dim(" archived")
			}
		case in.Archived:
			title = th.Dim("archived ") + Cut(title, max(1, tw-len("archived ")))
		case title == "":
			when := in.StartedAt
			if when.IsZero() {
				when = in.UpdatedAt // no timestamp in the file: its last write
			}
			title = th.Dim("(untitled session of " + when.Local().Format("2006-01-02 15:04") + ")")
		default:
			title = Cut(title, tw)
		}
		t.Row(append(rows[i], title)...)
	}
	return t.Render(w)
}

// lsCells appends to row the columns before the --long counts: id,
// activity, project, branch, subagents. A terminal gets short ids and relative times, a pipe
// full ids and RFC 3339.
func lsCells(row []string, in *session.Info, o Options) []string {
	th := o.Theme
	if !o.TTY {
		// The data, as in JSON: no project when no line records a cwd.
		// Safe here too: a pipe often ends on a terminal (| less, | cat).
		return append(row, in.ID, Timestamp(in.UpdatedAt), Safe(in.Project), Safe(in.GitBranch), strconv.Itoa(in.Subagents))
	}
	project := in.Project
	if project == "" {
		project = in.ProjectKey() // a hint for people: the folder's name
	}
	active := Ago(in.UpdatedAt, o.Now)
	if in.Live != nil {
		switch in.Live.Status {
		case "working":
			active = th.Green("● working")
		default:
			active = th.Yellow("● " + Safe(in.Live.Status))
		}
	}
	agents := ""
	if in.Subagents > 0 {
		agents = strconv.Itoa(in.Subagents)
	}
	return append(row, th.Cyan(Short(in.ID)), active,
		CutLeft(Safe(o.Redacted(TildePath(project, o.Home))), 32), Cut(Safe(o.Redacted(in.GitBranch)), 20), agents)
}

// lsMinTitle is the narrowest title a terminal's listing gives; the
// project and branch give way to it first (giveWayToTitle).
const lsMinTitle = 20

// giveWayToTitle cuts the project and branch columns of rows (down to 12
// and 8 columns, the project's start and the branch's end first) until
// the title gets lsMinTitle columns of a terminal width wide: at 80
// columns a listing's rows were 106 wide, each wrapped.
func giveWayToTitle(width int, header []string, rows [][]string) {
	over := lsMinTitle + 1 - (width - usedWidth(header, rows))
	for _, c := range []struct{ col, min int }{{2, 12}, {3, 8}} {
		if over <= 0 {
			return
		}
		w := colWidth(header, rows, c.col)
		to := max(c.min, w-over)
		if to >= w {
			continue
		}
		for _, r := range rows {
			if c.col == 2 {
				r[c.col] = CutLeft(r[c.col], to)
			} else {
				r[c.col] = Cut(r[c.col], to)
			}
		}
		over -= w - colWidth(header, rows, c.col)
	}
}

// usedWidth is the width of every column but the last (the title), at
// its widest cell or header, with two spaces each.
func usedWidth(header []string, rows [][]string) int {
	used := 0
	for c := range len(header) - 1 {
		used += colWidth(header, rows, c) + 2
	}
	return used
}

// colWidth is the width of column c: its header's or its widest cell's.
func colWidth(header []string, rows [][]string, c int) int {
	w := Width(strings.TrimSuffix(header[c], ">"))
	for _, r := range rows {
		w = max(w, Width(stripSGR(r[c])))
	}
	return w
}

// titleWidth is what is left of the terminal for the last (title) column
// once the other columns have their widest cell and two spaces each.
func titleWidth(width int, header []string, rows [][]string) int {
	return max(lsMinTitle, width-usedWidth(header, rows)-1)
}

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
