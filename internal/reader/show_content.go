package reader

import (
	"strings"

	"github.com/tidwall/gjson"
)

// This file holds the content accessors `cctx show` needs to render a
// conversation: tool inputs, tool-result images, system and attachment
// lines. They parse only what they are asked for and never fail: a field of
// the wrong type reads as empty.

// InputString returns the string field key of a raw JSON object (a tool
// call's input), or "" when it is absent or not a string.
func InputString(obj, key string) string {
	v := gjson.Get(obj, gjson.Escape(key))
	if v.Type != gjson.String {
		return ""
	}
	return v.Str
}

// InputInt returns the integer field key of a raw JSON object, and whether
// it is a number.
func InputInt(obj, key string) (int64, bool) {
	v := gjson.Get(obj, gjson.Escape(key))
	if v.Type != gjson.Number {
		return 0, false
	}
	return v.Int(), true
}

// InputBool returns the boolean field key of a raw JSON object.
func InputBool(obj, key string) bool {
	return gjson.Get(obj, gjson.Escape(key)).Type == gjson.True
}

// InputArrayLen returns the length of the array field key, or 0.
func InputArrayLen(obj, key string) int {
	v := gjson.Get(obj, gjson.Escape(key))
	if !v.IsArray() {
		return 0
	}
	n := 0
	v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	return n
}

// Field is one top-level field of a JSON object: its key and, for strings,
// the string; for other values, the raw JSON.
type Field struct {
	Key    string
	Value  string
	String bool
}

// InputFields lists the top-level fields of a raw JSON object in order,
// for summaries of tools cctx does not know.
func InputFields(obj string) []Field {
	var out []Field
	r := gjson.Parse(obj)
	if !r.IsObject() {
		return nil
	}
	r.ForEach(func(k, v gjson.Result) bool {
		f := Field{Key: k.Str, Value: v.Raw}
		if v.Type == gjson.String {
			f.Value, f.String = v.Str, true
		}
		out = append(out, f)
		return true
	})
	return out
}

// Edit is one replacement of an Edit or MultiEdit call.
type Edit struct {
	Old, New   string
	ReplaceAll bool
}

// InputEdits reads the replacements of an Edit (old_string/new_string) or
// MultiEdit (edits[]) input.
func InputEdits(obj string) []Edit {
	r := gjson.Parse(obj)
	if es := r.Get("edits"); es.IsArray() {
		var out []Edit
		es.ForEach(func(_, e gjson.Result) bool {
			if e.IsObject() {
				out = append(out, Edit{Old: e.Get("old_string").Str, New: e.Get("new_string").Str, ReplaceAll: e.Get("replace_all").Type == gjson.True})
			}
			return true
		})
		return out
	}
	old, nw := r.Get("old_string"), r.Get("new_string")
	if old.Type != gjson.String && nw.Type != gjson.String {
		return nil
	}
	return []Edit{{Old: old.Str, New: nw.Str, ReplaceAll: r.Get("replace_all").Type == gjson.True}}
}

// Todo is one item of a TodoWrite call.
type Todo struct {
	Content, Status string
}

// InputTodos reads the todos[] of a TodoWrite input.
func InputTodos(obj string) []Todo {
	var out []Todo
	gjson.Get(obj, "todos").ForEach(func(_, t gjson.Result) bool {
		if t.IsObject() {
			out = append(out, Todo{Content: t.Get("content").Str, Status: t.Get("status").Str})
		}
		return true
	})
	return out
}

// ResultImages lists the image and document blocks inside a tool_result's
// content (raw JSON: a string or an array of blocks); only MediaType and
// DataBytes are set.
func ResultImages(content string) []Block {
	c := gjson.Parse(content)
	if !c.IsArray() {
		return nil
	}
	var out []Block
	c.ForEach(func(_, b gjson.Result) bool {
		switch t := b.Get("type").Str; t {
		case "image", "document":
			out = append(out, Block{Type: t, MediaType: b.Get("source.media_type").Str, DataBytes: len(b.Get("source.data").Str)})
		}
		return true
	})
	return out
}

// LineInfo is what a transcript line that is not a message says, for a one-line
// rendering: system lines (content, level), attachments and progress lines.
type LineInfo struct {
	Content string // system: content; attachment: attachment.content (if a string) or its hook output
	Level   string // system: level
	Kind    string // attachment.type or data.type (progress)
	Name    string // hookName / hookEvent / command / agentId: a short label
}

// ReadLineInfo reads LineInfo from a raw line.
func ReadLineInfo(raw []byte) LineInfo {
	res := gjson.GetManyBytes(raw, "content", "level", "attachment", "data")
	var li LineInfo
	if res[0].Type == gjson.String {
		li.Content = res[0].Str
	}
	li.Level = res[1].Str
	if a := res[2]; a.IsObject() {
		li.Kind = a.Get("type").Str
		li.Name = firstString(a, "hookName", "hookEvent", "filename", "commandMode", "toolUseID")
		for _, k := range []string{"content", "stdout", "text", "prompt"} {
			if v := a.Get(k); v.Type == gjson.String && v.Str != "" {
				li.Content = v.Str
				break
			}
		}
	}
	if d := res[3]; d.IsObject() {
		li.Kind = d.Get("type").Str
		li.Name = firstString(d, "hookName", "command", "agentId", "taskDescription")
	}
	return li
}

func firstString(v gjson.Result, keys ...string) string {
	for _, k := range keys {
		if s := v.Get(k); s.Type == gjson.String && s.Str != "" {
			return s.Str
		}
	}
	return ""
}

// StringContent reports whether message.content of a raw line is a plain
// string (rather than an array of blocks).
func StringContent(raw []byte) bool {
	return gjson.GetBytes(raw, "message.content").Type == gjson.String
}

// SearchText is every text of a raw line a person could search for: text
// and thinking blocks, tool inputs, tool result texts and a system line's
// content, joined by newlines.
func SearchText(raw []byte) string {
	var b strings.Builder
	for _, bl := range Blocks(raw) {
		switch bl.Type {
		case "tool_use", "server_tool_use":
			b.WriteString(bl.Name)
			b.WriteByte('\n')
			b.WriteString(bl.Input)
		default:
			b.WriteString(bl.Text)
		}
		b.WriteByte('\n')
	}
	if v := gjson.GetBytes(raw, "content"); v.Type == gjson.String {
		b.WriteString(v.Str)
	}
	return b.String()
}
