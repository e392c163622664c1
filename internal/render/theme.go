package render

import "github.com/fatih/color"

// Theme colours text when colour is on and returns it unchanged otherwise.
type Theme struct {
	on                                                   bool
	header, dim, bold, red, yellow, green, cyan, magenta *color.Color
}

// NewTheme returns a theme; colour is used only when on is true. The
// colours never consult fatih/color's global switch.
func NewTheme(on bool) Theme {
	mk := func(a ...color.Attribute) *color.Color {
		c := color.New(a...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return Theme{
		on:      on,
		header:  mk(color.Bold),
		dim:     mk(color.Faint),
		bold:    mk(color.Bold),
		red:     mk(color.FgRed),
		yellow:  mk(color.FgYellow),
		green:   mk(color.FgGreen),
		cyan:    mk(color.FgCyan),
		magenta: mk(color.FgMagenta),
	}
}

// On reports whether colour is used.
func (t Theme) On() bool { return t.on }

func paint(c *color.Color, s string) string {
	if c == nil || s == "" {
		return s
	}
	return c.Sprint(s)
}

func (t Theme) Header(s string) string  { return paint(t.header, s) }
func (t Theme) Dim(s string) string     { return paint(t.dim, s) }
func (t Theme) Bold(s string) string    { return paint(t.bold, s) }
func (t Theme) Red(s string) string     { return paint(t.red, s) }
func (t Theme) Yellow(s string) string  { return paint(t.yellow, s) }
func (t Theme) Green(s string) string   { return paint(t.green, s) }
func (t Theme) Cyan(s string) string    { return paint(t.cyan, s) }
func (t Theme) Magenta(s string) string { return paint(t.magenta, s) }
