package reader

import (
	"io"

	"github.com/tidwall/gjson"
)

// HoldsConversation reports whether the transcript r gives holds a
// conversation: a user or assistant line (Entry.IsConversation), read as
// every command reads lines (a crash's NUL run split off, broken lines
// skipped). It stops at the first one. What holds none: nothing, blank
// lines, NUL bytes, metadata lines only (a file-history-snapshot, a
// summary). err is the read's (UTF-16, a read error): talks is then true,
// for a caller that must not take an unread file for an empty one.
func HoldsConversation(r io.Reader) (talks bool, err error) {
	rd := New(r, Options{})
	for {
		e, ok := rd.Next()
		if !ok {
			break
		}
		if e.IsConversation() {
			return true, nil
		}
	}
	if err := rd.Err(); err != nil {
		return true, err
	}
	return false, nil
}

// TalksAt reports whether line is a whole user or assistant line (as Peek
// tells its type or its message's role, and valid JSON): a quick yes for
// a listing looking for a conversation in a file's first bytes. false
// says nothing (a queued input's attachment, a line cut, damage): a
// caller that must know reads the file (HoldsConversation).
func TalksAt(line []byte) bool {
	switch typ, role, _ := Peek(line); {
	case typ == "user" || typ == "assistant":
		return gjson.ValidBytes(line)
	case typ == "" && (role == "user" || role == "assistant"): // its type after its message, or none
		e, ok := ParseLine(line)
		return ok && e.IsConversation()
	}
	return false
}
