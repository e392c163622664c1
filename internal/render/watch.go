package render

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// Screen draws frames of a live view: on a terminal each frame replaces
// the one before (the cursor goes back to its first line and the screen
// is cleared below), in a pipe frames follow each other, a blank line
// apart.
type Screen struct {
	w      io.Writer
	tty    bool
	width  int
	lines  int // lines of the last frame
	frames int
}

// NewScreen starts a live view on w (stdout's Guard: the cursor movement,
// render's own sequence, goes past it through Guard.Own).
func NewScreen(w io.Writer, o Options) *Screen { return &Screen{w: w, tty: o.TTY, width: o.Width} }

// Frame draws one frame. On a terminal its lines are cut to the width,
// so that none wraps and the next frame starts where this one did.
func (s *Screen) Frame(draw func(w io.Writer) error) error {
	var buf bytes.Buffer
	if err := draw(&buf); err != nil {
		return err
	}
	text := buf.String()
	var out strings.Builder
	switch {
	case s.tty && s.lines > 0:
		if err := WriteOwn(s.w, fmt.Sprintf("\x1b[%dA\r\x1b[J", s.lines)); err != nil {
			return err
		}
	case !s.tty && s.frames > 0:
		out.WriteString("\n")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for _, l := range lines {
		// Colours take no column; a line too wide loses them when cut.
		if plain := sgr.ReplaceAllString(l, ""); s.tty && s.width > 0 && Width(plain) > s.width-1 {
			l = Cut(plain, s.width-1)
		}
		out.WriteString(l + "\n")
	}
	s.lines, s.frames = len(lines), s.frames+1
	_, err := io.WriteString(s.w, out.String())
	return err
}

// sgr matches the colour sequences the Theme writes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// WatchOptions describe a frame of tokens --watch.
type WatchOptions struct {
	By       tokens.Grouping // block or day
	Now      time.Time
	Interval time.Duration
	Budget   tokens.Budget
	Lines    []tokens.BudgetLine // the budgets checked on the current group
}

// Watch writes the status view of tokens --watch: the current block (or
// today) with its time left, usage, burn rate and projection, and the
// budgets against it.
func Watch(w io.Writer, rep *tokens.Report, wo WatchOptions, o Options) error {
	th := o.Theme
	zone := zoneOf(rep)
	now := wo.Now.In(zone)
	fmt.Fprintf(w, "%s  %s  %s\n\n", th.Bold("cctx tokens --watch"), now.Format("2006-01-02 15:04:05 MST"),
		th.Dim(fmt.Sprintf("every %s, Ctrl-C stops", Duration(wo.Interval))))
	st, ok := rep.Current(wo.By, wo.Now)
	if !ok {
		msg := "No active block: your next message to Claude starts one (5 hours from its hour)."
		if last, ok := rep.LastBlock(wo.Now); ok {
			msg = fmt.Sprintf("No active block: the last one (%s → %s) ended %s, with %s tokens, %s. Your next message starts a new one.",
				last.Start.In(zone).Format("15:04"), last.End.In(zone).Format("15:04"), Ago(last.End, wo.Now), Count(last.Total.Tokens), costText(last.Total))
		}
		_, err := fmt.Fprintln(w, msg)
		return err
	}
	if err := StatusLines(w, st, wo.By, zone, o); err != nil {
		return err
	}
	for _, l := range wo.Lines {
		mark := th.Green("✔")
		if !l.OK() {
			mark = th.Red("✘")
		}
		proj := ""
		if wo.By == tokens.ByBlock && st.Rate {
			if over, known := projectedOver(wo.Budget, l.Flag, st); known {
				pm := th.Green("✔")
				if over {
					pm = th.Red("✘")
				}
				proj = " · projected " + pm
			}
		}
		fmt.Fprintf(w, "  budget     %s %s %s (now %s)%s\n", mark, l.Flag, budgetValue(l, l.Limit), budgetMax(l), proj)
	}
	return nil
}

// projectedOver reports whether the block's projection passes a token or
// cost limit (false, false for the limits a projection says nothing of).
func projectedOver(b tokens.Budget, flag string, st tokens.Status) (over, known bool) {
	switch flag {
	case "--max-tokens":
		return st.ProjectedTokens > b.Tokens, true
	case "--max-cost":
		return st.ProjectedCost > b.CostUSD, st.Total.CostKnown()
	}
	return false, false
}
