package show

import "github.com/cctx-dev/cctx/internal/reader"

// Helpers of the terminal view that other views of the same model (cctx
// export) reuse, so that a tool call is summed up and diffed the same way
// everywhere.

// ToolSummary is the one-line summary of a tool call that show prints after
// the tool's name. It is raw transcript text: the caller escapes it.
func ToolSummary(name, input string) string {
	return toolSummary(name, input, reader.ParseToolInput(input))
}

// DiffLine is one line of a line diff: Op is ' ' (kept), '-' or '+'.
type DiffLine struct {
	Op   byte
	Text string
}

// LineDiff diffs two texts by lines, as show prints an Edit call.
func LineDiff(old, new string) []DiffLine {
	d := lineDiff(old, new)
	out := make([]DiffLine, len(d))
	for i, l := range d {
		out[i] = DiffLine{l.op, l.text}
	}
	return out
}
