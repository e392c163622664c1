package reader

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Block is one content block of a message, parsed on demand from a raw
// line (commands that show content keep lines with Options.KeepRaw).
type Block struct {
	Type string // text, thinking, redacted_thinking, tool_use, tool_result, image, document, ...

	Text string // text and thinking blocks; a string tool_result content

	// tool_use
	ID    string // the tool call's id
	Name  string // the tool's name (Bash, Read, Agent, Task, ...)
	Input string // the input object, raw JSON

	// tool_result
	ToolUseID string // the call it answers
	IsError   bool
	Content   string // the content, raw JSON (a string or an array of blocks)

	// image and document
	MediaType string
	DataBytes int // length of the base64 data

	Raw string // the whole block, raw JSON
}

// Blocks parses message.content of a raw line (of a queued input's
// attachment line, its attachment.prompt: QueuedKind). A string content
// is one text block.
func Blocks(raw []byte) []Block {
	c := contentOf(raw)
	if c.Type == gjson.String {
		return []Block{{Type: "text", Text: c.Str, Raw: c.Raw}}
	}
	var out []Block
	c.ForEach(func(_, v gjson.Result) bool {
		if !v.IsObject() {
			return true
		}
		b := Block{Type: v.Get("type").Str, Raw: v.Raw}
		switch b.Type {
		case "text":
			b.Text = v.Get("text").Str
		case "thinking":
			b.Text = v.Get("thinking").Str
		case "tool_use", "server_tool_use":
			b.ID, b.Name, b.Input = v.Get("id").Str, v.Get("name").Str, v.Get("input").Raw
		case "tool_result":
			b.ToolUseID, b.IsError = v.Get("tool_use_id").Str, v.Get("is_error").Bool()
			cv := v.Get("content")
			b.Content = cv.Raw
			if cv.Type == gjson.String {
				b.Text = cv.Str
			} else {
				var parts []string
				cv.ForEach(func(_, p gjson.Result) bool {
					if p.Get("type").Str == "text" {
						parts = append(parts, p.Get("text").Str)
					}
					return true
				})
				b.Text = strings.Join(parts, "\n")
			}
		case "image", "document":
			b.MediaType = v.Get("source.media_type").Str
			b.DataBytes = len(v.Get("source.data").Str)
		}
		out = append(out, b)
		return true
	})
	return out
}
