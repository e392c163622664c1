package reader

import (
	"bytes"

	"github.com/tidwall/gjson"
)

// QueuedKind is what an attachment line of type queued_command delivered
// (Entry.Queued). When the user types while the model works, Claude Code
// 2.1.2xx queues the prompt and, once it reaches the model in the middle
// of a turn, writes it as an attachment line on the parentUuid chain
//
//	{"type":"attachment","attachment":{"type":"queued_command","prompt":"…","commandMode":"prompt",…},…}
//
// instead of a user line; a background task's <task-notification> comes
// the same way (commandMode "task-notification"). The TS SDK turns such
// an attachment into a user message (getSessionMessages), and so does
// cctx: its attachment.prompt is the message's content, its role is
// user, and one of kind QueuedPrompt is a typed prompt for every rule
// (IsTypedPrompt). Only a delivered input is written so: a prompt the user
// queued and took back, or that was never delivered, is a queue-operation
// line only, and no message.
type QueuedKind uint8

const (
	// NotQueued: any other line.
	NotQueued QueuedKind = iota
	// QueuedPrompt: commandMode "prompt", or none (null, or no key): text
	// the user typed.
	QueuedPrompt
	// QueuedNotification: commandMode "task-notification": a background
	// task's (a shell command's or an agent's) <task-notification>.
	QueuedNotification
	// QueuedOther: another commandMode (one cctx does not know, or not a
	// string): a user message, never a typed prompt.
	QueuedOther
)

// queuedCommand is the attachment.type of a delivered queued input.
const queuedCommand = "queued_command"

// attachmentKey is how an attachment line names its payload; the scanner
// compares keys as written, so a line without these bytes has none.
var attachmentKey = []byte(`"attachment"`)

// queuedAttachment reads the attachment object v of a line whose type is
// attachment: what it delivered, and the raw value of its prompt (a string
// or an array of content blocks; nil for any other value). Of duplicate
// keys the first counts. Any attachment but a queued_command is NotQueued.
func queuedAttachment(v []byte) (QueuedKind, []byte) {
	if len(v) == 0 || v[0] != '{' {
		return NotQueued, nil
	}
	// The type first, where Claude Code writes it: the walk of another
	// attachment (a hook's output) stops there.
	if t := firstMember(v, "type"); len(t) == 0 || t[0] != '"' || strView(t) != queuedCommand {
		return NotQueued, nil
	}
	var mode, prompt []byte
	var seen uint8
	eachMember(v, func(k, m []byte) bool {
		switch string(k) {
		case "commandMode":
			if seen&1 == 0 {
				mode, seen = m, seen|1
			}
		case "prompt":
			if seen&2 == 0 {
				prompt, seen = m, seen|2
			}
		}
		return true
	})
	kind := QueuedOther
	switch {
	case len(mode) == 0 || string(mode) == "null":
		kind = QueuedPrompt
	case mode[0] == '"':
		switch strView(mode) {
		case "prompt", "":
			kind = QueuedPrompt
		case "task-notification":
			kind = QueuedNotification
		}
	}
	if len(prompt) == 0 || prompt[0] != '"' && prompt[0] != '[' {
		prompt = nil
	}
	return kind, prompt
}

// queuedLine is queuedAttachment of a raw line: NotQueued unless the line's
// type is attachment (the last type key, as the envelope reads it) and its
// (first) attachment is a queued_command.
func queuedLine(raw []byte) (QueuedKind, []byte) {
	if !bytes.Contains(raw, attachmentKey) {
		return NotQueued, nil
	}
	var typ, att []byte
	b := trimSpace(raw)
	if len(b) == 0 || b[0] != '{' {
		return NotQueued, nil
	}
	members(b, 0, func(k []byte, vs int) int {
		switch string(k) {
		case "type", "attachment":
		default:
			return -1
		}
		ve := skipValue(b, vs)
		if ve < 0 {
			return ve
		}
		switch {
		case string(k) == "type":
			typ = b[vs:ve]
		case att == nil:
			att = b[vs:ve]
		}
		return ve
	})
	if strView(typ) != "attachment" {
		return NotQueued, nil
	}
	return queuedAttachment(att)
}

// Queued is queuedLine's kind of a raw line: what an attachment line of a
// queued input delivered (NotQueued for any other line).
func Queued(raw []byte) QueuedKind {
	k, _ := queuedLine(raw)
	return k
}

// MayBeQueued reports whether a raw line may be a queued input's
// attachment (Entry.Queued), without parsing it: a filter for
// Options.Want, which gives false for none that is.
func MayBeQueued(line []byte) bool {
	return bytes.Contains(line, attachmentKey) && bytes.Contains(line, []byte(queuedCommand))
}

// setQueued makes a queued input's attachment line a user message: its
// role is user, and its content flags and (with text, for a prompt) its
// TextHead are those of attachment.prompt.
func (e *Entry) setQueued(kind QueuedKind, prompt []byte, text bool) {
	e.Queued, e.Role = kind, "user"
	e.Content, e.TextHead = 0, ""
	if !text || prompt == nil {
		return
	}
	f, head, end := contentFlags(prompt, 0, kind == QueuedPrompt, nil, nil)
	if end < 0 {
		return
	}
	e.Content, e.TextHead = f, head
}

// promptTexts are the texts of a queued input's prompt value: the string,
// or the text of each text block of an array.
func promptTexts(prompt []byte) []string {
	switch {
	case len(prompt) == 0:
		return nil
	case prompt[0] == '"':
		return []string{jsonString(prompt)}
	case prompt[0] != '[':
		return nil
	}
	var out []string
	eachElement(prompt, func(b []byte) {
		if len(b) == 0 || b[0] != '{' || strView(firstMember(b, "type")) != "text" {
			return
		}
		if t := firstMember(b, "text"); len(t) > 0 && t[0] == '"' {
			out = append(out, jsonString(t))
		}
	})
	return out
}

// contentOf is message.content of a raw line, or for a queued input's
// attachment line its attachment.prompt: what the content accessors read
// as the message's content.
func contentOf(raw []byte) gjson.Result {
	if k, prompt := queuedLine(raw); k != NotQueued {
		if prompt == nil {
			return gjson.Result{}
		}
		return gjson.ParseBytes(prompt)
	}
	return gjson.GetBytes(raw, "message.content")
}
