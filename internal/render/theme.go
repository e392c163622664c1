package render

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/fatih/color"
)

// Theme colours text when colour is on and returns it unchanged otherwise.
//
// Its colour sequences carry a mark, a random number chosen per theme, as
// their first parameter ("\x1b[<mark>;31m"): the Guard that prints them
// knows the mark, lets those sequences through without it, and escapes
// every other one. A sequence in a transcript cannot carry the mark, so
// no text read from a file can colour cctx's output, even in a field a
// view forgot to escape.
type Theme struct {
	on   bool
	mark string // "" when colour is off

	header, dim, bold, red, yellow, green, cyan, magenta paint
}

// paint is one colour: the sequences that start and end it.
type paint struct{ open, close string }

// NewTheme returns a theme; colour is used only when on is true. The
// colours never consult fatih/color's global switch.
func NewTheme(on bool) Theme {
	t := Theme{on: on}
	if on {
		var b [8]byte
		rand.Read(b[:])
		t.mark = strconv.FormatUint(1e9+binary.LittleEndian.Uint64(b[:])%9e9, 10)
	}
	mk := func(a ...color.Attribute) paint {
		if !on {
			return paint{}
		}
		c := color.New(a...)
		c.EnableColor()
		open, close, _ := strings.Cut(c.Sprint("\x00"), "\x00")
		mark := "\x1b[" + t.mark + ";"
		return paint{strings.Replace(open, "\x1b[", mark, 1), strings.Replace(close, "\x1b[", mark, 1)}
	}
	t.header, t.dim, t.bold = mk(color.Bold), mk(color.Faint), mk(color.Bold)
	t.red, t.yellow, t.green = mk(color.FgRed), mk(color.FgYellow), mk(color.FgGreen)
	t.cyan, t.magenta = mk(color.FgCyan), mk(color.FgMagenta)
	return t
}

// On reports whether colour is used.
func (t Theme) On() bool { return t.on }

// tableResets marks the SGR resets tablewriter writes after a cell that
// holds colour (its own, unmarked "\x1b[0m", which the Guard would
// escape into visible text) as the theme's own. Only a reset where
// tablewriter puts one is marked: after the cell's padding, in a cell
// whose last escape is one of the theme's sequences. A raw reset anywhere
// else (text a view forgot to escape) is left for the Guard to show as an
// escape.
func (t Theme) tableResets(b []byte) []byte {
	if !t.on {
		return b
	}
	raw, own, open := []byte("\x1b[0m"), []byte(t.reset()), []byte("\x1b["+t.mark+";")
	var out []byte
	for {
		i := bytes.Index(b, raw)
		if i < 0 {
			return append(out, b...)
		}
		j := i
		for j > 0 && b[j-1] == ' ' {
			j--
		}
		// Ours when the last escape before it on its line is one of the
		// theme's: a cell coloured at its end, or in its middle (ls's
		// "archived " before a plain title).
		k := bytes.LastIndexByte(b[:j], 0x1b)
		ours := k >= 0 && bytes.HasPrefix(b[k:], open) && !bytes.ContainsRune(b[k:j], '\n')
		out = append(out, b[:i]...)
		if ours {
			out = append(out, own...)
		} else {
			out = append(out, raw...)
		}
		b = b[i+len(raw):]
	}
}

// reset is the theme's own SGR reset ("" when colour is off).
func (t Theme) reset() string {
	if !t.on {
		return ""
	}
	return "\x1b[" + t.mark + ";0m"
}

func (p paint) wrap(s string) string {
	if p.open == "" || s == "" {
		return s
	}
	return p.open + s + p.close
}

func (t Theme) Header(s string) string  { return t.header.wrap(s) }
func (t Theme) Dim(s string) string     { return t.dim.wrap(s) }
func (t Theme) Bold(s string) string    { return t.bold.wrap(s) }
func (t Theme) Red(s string) string     { return t.red.wrap(s) }
func (t Theme) Yellow(s string) string  { return t.yellow.wrap(s) }
func (t Theme) Green(s string) string   { return t.green.wrap(s) }
func (t Theme) Cyan(s string) string    { return t.cyan.wrap(s) }
func (t Theme) Magenta(s string) string { return t.magenta.wrap(s) }
