package reader

import (
	"strings"

	"github.com/tidwall/gjson"
)

// This file holds the content accessors `cctx show` needs to render a
// conversation: tool inputs, tool-result images, system and attachment
// lines. They parse only what they are asked for and never fail: a field of
// the wrong type reads as empty.

// ToolInput is a tool call's input, read once: the fields of the tools
// Claude Code has (Bash, Read, Write, Edit, MultiEdit, Grep, Glob, Task,
// TodoWrite, …) by their meaning, and every top-level field in order for
// the tools cctx does not know (MCP tools, newer built-ins). A field of the
// wrong type reads as empty.
type ToolInput struct {
	Command      string // Bash, Skill, SlashCommand
	Description  string // Bash, Task/Agent
	FilePath     string // Read, Write, Edit, MultiEdit
	NotebookPath string
	Content      string // Write
	Pattern      string // Grep, Glob
	Path         string // Grep, Glob, LS
	Glob         string // Grep
	FileType     string // Grep "type"
	URL          string // WebFetch
	Query        string // WebSearch
	Prompt       string // Task/Agent, WebFetch
	SubagentType string // Task/Agent
	Skill, Args  string // Skill
	BashID       string // BashOutput, KillBash
	ShellID      string // KillShell
	Plan         string // ExitPlanMode

	Offset, Limit       int64 // Read
	HasOffset, HasLimit bool
	ReplaceAll          bool   // Edit
	Edits               []Edit // Edit (one), MultiEdit (each object of edits[])
	EditCount           int    // MultiEdit: the length of edits[]
	Todos               []Todo // TodoWrite: each object of todos[]
	TodoCount           int    // TodoWrite: the length of todos[]
	Fields              []Field
}

// ParseToolInput reads a tool call's raw input object.
func ParseToolInput(obj string) ToolInput {
	var in ToolInput
	r := gjson.Parse(obj)
	if !r.IsObject() {
		return in
	}
	s := func(v gjson.Result) string {
		if v.Type != gjson.String {
			return ""
		}
		return v.Str
	}
	r.ForEach(func(k, v gjson.Result) bool {
		f := Field{Key: k.Str, Value: v.Raw}
		if v.Type == gjson.String {
			f.Value, f.String = v.Str, true
		}
		in.Fields = append(in.Fields, f)
		switch k.Str {
		case "command":
			in.Command = s(v)
		case "description":
			in.Description = s(v)
		case "file_path":
			in.FilePath = s(v)
		case "notebook_path":
			in.NotebookPath = s(v)
		case "content":
			in.Content = s(v)
		case "pattern":
			in.Pattern = s(v)
		case "path":
			in.Path = s(v)
		case "glob":
			in.Glob = s(v)
		case "type":
			in.FileType = s(v)
		case "url":
			in.URL = s(v)
		case "query":
			in.Query = s(v)
		case "prompt":
			in.Prompt = s(v)
		case "subagent_type":
			in.SubagentType = s(v)
		case "skill":
			in.Skill = s(v)
		case "args":
			in.Args = s(v)
		case "bash_id":
			in.BashID = s(v)
		case "shell_id":
			in.ShellID = s(v)
		case "plan":
			in.Plan = s(v)
		case "offset":
			in.Offset, in.HasOffset = v.Int(), v.Type == gjson.Number
		case "limit":
			in.Limit, in.HasLimit = v.Int(), v.Type == gjson.Number
		case "replace_all":
			in.ReplaceAll = v.Type == gjson.True
		case "edits":
			if v.IsArray() {
				in.Edits = []Edit{}
				v.ForEach(func(_, e gjson.Result) bool {
					in.EditCount++
					if e.IsObject() {
						in.Edits = append(in.Edits, Edit{Old: e.Get("old_string").Str, New: e.Get("new_string").Str, ReplaceAll: e.Get("replace_all").Type == gjson.True})
					}
					return true
				})
			}
		case "todos":
			if v.IsArray() {
				v.ForEach(func(_, t gjson.Result) bool {
					in.TodoCount++
					if t.IsObject() {
						in.Todos = append(in.Todos, Todo{Content: t.Get("content").Str, Status: t.Get("status").Str})
					}
					return true
				})
			}
		}
		return true
	})
	if in.Edits == nil {
		old, nw := r.Get("old_string"), r.Get("new_string")
		if old.Type == gjson.String || nw.Type == gjson.String {
			in.Edits = []Edit{{Old: old.Str, New: nw.Str, ReplaceAll: in.ReplaceAll}}
		}
	}
	return in
}

// Field is one top-level field of a JSON object: its key and, for strings,
// the string; for other values, the raw JSON.
type Field struct {
	Key    string
	Value  string
	String bool
}

// Edit is one replacement of an Edit or MultiEdit call.
type Edit struct {
	Old, New   string
	ReplaceAll bool
}

// Todo is one item of a TodoWrite call.
type Todo struct {
	Content, Status string
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

// StringContent reports whether message.content of a raw line (a queued
// input's attachment.prompt) is a plain string (rather than an array of
// blocks).
func StringContent(raw []byte) bool {
	return contentOf(raw).Type == gjson.String
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
