// Package sigpipe turns the SIGPIPE of a write to a closed pipe (stdout's
// reader went away: cctx tokens | head) into an error of that write, for
// as long as a command has work to finish after its output: the cache a
// report writes while it prints.
package sigpipe

import (
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Catcher holds SIGPIPE from Catch to Stop.
type Catcher struct{ came chan os.Signal }

// CatchFor is Catch when w is a pipe or a socket, the only writers whose
// reader can go away; nil (nothing caught) for a file or a terminal:
// holding SIGPIPE starts a thread of its own, half a millisecond.
func CatchFor(w io.Writer) *Catcher {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return nil
	}
	return Catch()
}

// Catch makes a write to a closed pipe fail (EPIPE) instead of ending the
// process, until Stop.
func Catch() *Catcher {
	c := &Catcher{came: make(chan os.Signal, 1)}
	signal.Notify(c.came, syscall.SIGPIPE)
	return c
}

// Stop gives SIGPIPE back its default (the end of the process) and says
// whether one came meanwhile. A nil Catcher caught nothing.
func (c *Catcher) Stop() (came bool) {
	if c == nil {
		return false
	}
	signal.Stop(c.came)
	select {
	case <-c.came:
		return true
	default:
		return false
	}
}
