package cmd

import (
	"bytes"
	"io"
	"os"
	"strconv"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"
)

// IOStreams bundles the standard streams with what is known about them.
// Commands never touch os.Stdout; tests use TestIO.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdoutTTY bool
	width     int
}

// SystemIO is the process's streams.
func SystemIO() *IOStreams {
	fd := os.Stdout.Fd()
	tty := isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
	width := 0
	if tty {
		if w, _, err := term.GetSize(int(fd)); err == nil {
			width = w
		}
	}
	if width <= 0 {
		width, _ = strconv.Atoi(os.Getenv("COLUMNS"))
	}
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, stdoutTTY: tty, width: width}
}

// TestIO returns streams over buffers: stdin, stdout, stderr.
func TestIO() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// SetStdoutTTY overrides terminal detection (tests, forced modes).
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// Width is the terminal width, 80 when unknown.
func (s *IOStreams) Width() int {
	if s.width <= 0 {
		return 80
	}
	return s.width
}

// SetWidth overrides the terminal width.
func (s *IOStreams) SetWidth(w int) { s.width = w }
