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
	if o.TTY {
		// The title takes what the other columns leave: they give way to
		// it (project, then branch) only to leave it lsMinTitle columns,
		// and a terminal narrower still leaves columns out.
		title := len(cols) - 1
		t.Shrink(2, 32, true) // the project's telling end kept
		t.Shrink(3, 20, false)
		minTitle := lsMinTitle
		if long {
			minTitle -= 4 // its counts take the room
		}
		t.Shrink(title, minTitle, false)
		t.Shrink(2, 12, true)
		t.Shrink(3, 8, false)
		if long {
			t.Optional(8) // SIZE: the counts are what --long asked for
		}
		t.Optional(4, 3) // AGENTS, BRANCH
		if long {
			// The counts --long asked for before the title (the id,
			// activity and project tell a row apart), then those too.
			t.Optional(title, 5, 7, 6) // TITLE, PROMPTS, TOKENS, CALLS
		} else {
			// 40 columns: the project, then the title below lsMinTitle.
			t.Optional(2)
			t.ShrinkLast(title, 12, false)
		}
		t.Style(title, func(i int, cell string) string { return lsTitleStyle(list[i], cell, th) })
	}
	for i, in := range list {
		title := Safe(o.Redacted(in.Title))
		switch {
		case !o.TTY:
		case in.Orphan:
			title = "(main transcript " + in.MainState() + ")"
			if in.Archived {
				title += " archived"
			}
		case in.Archived:
			title = "archived " + title
		case title == "":
			when := in.StartedAt
			if when.IsZero() {
				when = in.UpdatedAt // no timestamp in the file: its last write
			}
			title = "(untitled session of " + when.Local().Format("2006-01-02 15:04") + ")"
		}
		t.Row(append(rows[i], title)...)
	}
	return t.Render(w)
}

// lsTitleStyle colours a terminal's title cell of in, cut to fit: what
// cctx wrote about the session, not its title, is set apart.
func lsTitleStyle(in *session.Info, cell string, th Theme) string {
	switch {
	case in.Orphan:
		if rest, ok := strings.CutSuffix(cell, " archived"); ok && in.Archived {
			return th.Yellow(rest) + th.Dim(" archived")
		}
		return th.Yellow(cell)
	case in.Archived:
		if rest, ok := strings.CutPrefix(cell, "archived "); ok {
			return th.Dim("archived ") + rest
		}
		return th.Dim(cell)
	case in.Title == "":
		return th.Dim(cell)
	}
	return cell
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
		Safe(o.Redacted(TildePath(project, o.Home))), Safe(o.Redacted(in.GitBranch)), agents)
}

// lsMinTitle is the narrowest title a terminal's listing gives; the
// project and branch give way to it first.
const lsMinTitle = 20
