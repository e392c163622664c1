package show

import (
	"fmt"
	"io"

	"github.com/cctx-dev/cctx/internal/follow"
	"github.com/cctx-dev/cctx/internal/render"
)

// FollowPrinter prints what a followed session appends (show --follow):
// each entry as the terminal view prints it, a subagent's under a line
// naming it, or the raw lines with raw.
type FollowPrinter struct {
	w       io.Writer
	raw     bool
	term    *Terminal
	th      render.Theme
	lastTag string
}

// NewFollowPrinter prints to w.
func NewFollowPrinter(w io.Writer, raw bool, o TermOptions) *FollowPrinter {
	p := &FollowPrinter{w: w, raw: raw, th: o.Theme}
	if !raw {
		p.term = NewTerminal(w, nil, o)
	}
	return p
}

// Print prints one appended entry.
func (p *FollowPrinter) Print(ev follow.Event) error {
	if p.raw {
		_, err := p.w.Write(append(ev.Line, '\n'))
		return err
	}
	depth := 0
	if ev.Agent != "" {
		depth = 1
		if ev.Agent != p.lastTag {
			fmt.Fprintf(p.w, "%s\n", p.th.Cyan("↳ agent "+render.Safe(ev.Agent)))
		}
	}
	p.lastTag = ev.Agent
	p.term.Item(ev.Entry, nil, ev.Line, depth, ev.For)
	return p.term.Flush()
}
