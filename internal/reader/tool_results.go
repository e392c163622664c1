package reader

import "github.com/tidwall/gjson"

// ToolResultSize measures one tool_result block of a user line: the call
// it answers, whether it failed, and what it puts into the context.
type ToolResultSize struct {
	ToolUseID string
	IsError   bool
	// Bytes is the length of its text, JSON escapes decoded: a string
	// content, or the text blocks of an array content.
	Bytes int64
	// Images counts the image blocks of an array content (their size in
	// tokens depends on their pixels, which the transcript does not give).
	Images int
}

// ToolResultSizes measures the tool_result blocks of a raw line's
// message.content. Nothing of the content is kept: only its length.
func ToolResultSizes(raw []byte) []ToolResultSize {
	c := gjson.GetBytes(raw, "message.content")
	if !c.IsArray() {
		return nil
	}
	var out []ToolResultSize
	c.ForEach(func(_, v gjson.Result) bool {
		if !v.IsObject() || v.Get("type").Str != "tool_result" {
			return true
		}
		r := ToolResultSize{ToolUseID: v.Get("tool_use_id").Str, IsError: v.Get("is_error").Bool()}
		cv := v.Get("content")
		switch {
		case cv.Type == gjson.String:
			r.Bytes = int64(len(cv.Str))
		case cv.IsArray():
			cv.ForEach(func(_, p gjson.Result) bool {
				switch p.Get("type").Str {
				case "text":
					r.Bytes += int64(len(p.Get("text").Str))
				case "image":
					r.Images++
				}
				return true
			})
		}
		out = append(out, r)
		return true
	})
	return out
}
