package show

import (
	"regexp"
	"strings"

	"github.com/cctx-dev/cctx/internal/render"
)

var (
	headingRe = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	listRe    = regexp.MustCompile(`^(\s*)([-*+]|\d{1,3}[.)])\s+`)
	ruleRe    = regexp.MustCompile(`^\s*([-*_])(\s*([-*_])){2,}\s*$`)
	fenceRe   = regexp.MustCompile("^\\s*(```|~~~)")
)

// markdown renders assistant text with light Markdown: headings in bold,
// list items with a hanging indent, code blocks set apart behind a gutter
// and never wrapped, `inline code` and **bold** styled, everything else
// wrapped to w cells. Without colour the Markdown markers stay as written,
// so plain output loses nothing. Every line is made safe (clean) before it
// is styled.
func markdown(text string, w int, th render.Theme) []string {
	color := th.On()
	var out []string
	inFence := false
	for _, raw := range strings.Split(text, "\n") {
		line := clean(raw)
		if fenceRe.MatchString(line) {
			inFence = !inFence
			out = append(out, th.Dim(line))
			continue
		}
		if inFence {
			out = append(out, th.Dim("│ ")+line)
			continue
		}
		switch {
		case strings.TrimSpace(line) == "":
			out = append(out, "")
		case headingRe.MatchString(line):
			m := headingRe.FindStringSubmatch(line)
			text := line
			if color {
				text = m[2]
			}
			for _, l := range wrapSpans(inline(text, !color), w) {
				out = append(out, th.Bold(plainSpans(l)))
			}
		case ruleRe.MatchString(line):
			n := w
			if n <= 0 || n > 40 {
				n = 40
			}
			out = append(out, th.Dim(strings.Repeat("─", n)))
		case strings.HasPrefix(strings.TrimSpace(line), "|"):
			// Tables keep their layout: wrapping would break the columns.
			out = append(out, line)
		case strings.HasPrefix(line, ">"):
			for _, l := range wrapSpans(inline(strings.TrimSpace(strings.TrimPrefix(line, ">")), !color), w-2) {
				out = append(out, th.Dim("▌ ")+styleSpans(l, th))
			}
		case listRe.MatchString(line):
			m := listRe.FindString(line)
			hang := strings.Repeat(" ", width(m))
			body := line[len(m):]
			for i, l := range wrapSpans(inline(body, !color), w-width(m)) {
				prefix := hang
				if i == 0 {
					prefix = m
					if color {
						prefix = th.Dim(m)
					}
				}
				out = append(out, prefix+styleSpans(l, th))
			}
		default:
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			for _, l := range wrapSpans(inline(line[len(indent):], !color), w-len(indent)) {
				out = append(out, indent+styleSpans(l, th))
			}
		}
	}
	// Trailing blank lines add nothing.
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func styleSpans(l []span, th render.Theme) string {
	var b strings.Builder
	for _, sp := range l {
		switch sp.style {
		case 'b':
			b.WriteString(th.Bold(sp.text))
		case 'c':
			b.WriteString(th.Cyan(sp.text))
		default:
			b.WriteString(sp.text)
		}
	}
	return b.String()
}

func plainSpans(l []span) string {
	var b strings.Builder
	for _, sp := range l {
		b.WriteString(sp.text)
	}
	return b.String()
}
