package session

import (
	"bytes"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
)

// tailRow is what a row takes from the lines of a file's tail: its last
// activity (the latest time of any line), the latest branch and version
// recorded, whether a line is a conversation's, and the latest title of
// each kind; and for parseHead, whether any line is a title line of each
// kind its head may hold. Its lines are added from the last one back
// (add), so that the first value found is the latest.
type tailRow struct {
	lastTime                                time.Time
	lastText                                string // lastTime as timeText ("" for a year past 9999)
	branch, version                         string
	conversation                            bool
	custom, ai, lastPrompt, summary         string
	customAt, aiAt, lastPromptAt, summaryAt lineRef
}

// add takes a line of the tail, the lines after it added already.
func (t *tailRow) add(pl *parsedLine) {
	e := &pl.e
	if !e.Timestamp.IsZero() && e.Timestamp.After(t.lastTime) {
		t.lastTime, t.lastText = e.Timestamp, ""
		// In the form it is written in, cut to milliseconds (so that it
		// is no later than the time): a time written no later is none.
		if y := e.Timestamp.UTC().Year(); y >= 1 && y <= 9999 {
			t.lastText = e.Timestamp.UTC().Format(timeText)
		}
	}
	if t.branch == "" {
		t.branch = e.GitBranch
	}
	if t.version == "" {
		t.version = e.Version
	}
	t.conversation = t.conversation || e.IsConversation()
	title := func(have *string, at *lineRef, field string) {
		if *have == "" {
			if s := reader.StringField(pl.raw, field); s != "" {
				*have, *at = s, pl.at
			}
		}
	}
	switch e.Type {
	case "custom-title":
		title(&t.custom, &t.customAt, "customTitle")
	case "ai-title":
		title(&t.ai, &t.aiAt, "aiTitle")
	case "last-prompt":
		title(&t.lastPrompt, &t.lastPromptAt, "lastPrompt")
	case "summary":
		title(&t.summary, &t.summaryAt, "summary")
	}
}

// noSkim makes addLines and parseHead read every line they would skip
// from what its end says (readLineEnd): what tests compare them with.
var noSkim = false

// skimLine is the size from which a line of the tail is first read from
// its end (readLineEnd) before it is parsed: a shorter one is parsed
// outright.
const skimLine = 512

// addLines adds the lines of a tail (cut from buf, read at offset at),
// from the last one back. A line is parsed unless what its end says
// (readLineEnd) shows that it changes nothing the lines after it gave:
// no title line, no conversation line before one was found, a time no
// later than the latest, no branch or version before one was found. A
// line that is not well-formed changes nothing either, so a line left
// unparsed is one whose parse could not have changed the row.
func (t *tailRow) addLines(lines [][]byte, buf []byte, at int64, scratch *[]byte) {
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if len(l) >= skimLine && !noSkim && t.unchangedBy(l, scratch) {
			continue
		}
		if e, ok := reader.ParseEnvelopeOnly(l); ok {
			t.add(&parsedLine{e: e, raw: l, at: lineRef{at + int64(cap(buf)-cap(l)), int64(len(l))}})
		}
	}
}

// unchangedBy reports whether a line, parsed and added, would leave the
// row as it is, from what its end says.
func (t *tailRow) unchangedBy(l []byte, scratch *[]byte) bool {
	want := endType | endTime
	if t.branch == "" {
		want |= endBranch
	}
	if t.version == "" {
		want |= endVersion
	}
	f, ok := readLineEnd(l, want)
	if !ok || !f.known(want) {
		return false
	}
	// The values as they are written, when they say enough: a type
	// without an escape is what it reads, a time in the one form Claude
	// Code writes compares as its text, and an empty string is one.
	typ, plain := plainString(f.typ)
	same := plain && (t.branch != "" || emptyString(f.branch)) && (t.version != "" || emptyString(f.version))
	if same {
		switch {
		case f.ts == nil || string(f.ts) == "null":
		case t.lastText != "" && canonicalTime(f.ts):
			same = string(f.ts[1:len(f.ts)-1]) <= t.lastText
		default:
			same = false
		}
	}
	if !same {
		e, ok := f.entry(scratch)
		if !ok || e.Timestamp.After(t.lastTime) || t.branch == "" && e.GitBranch != "" || t.version == "" && e.Version != "" {
			return false
		}
		typ = []byte(e.Type)
	}
	switch string(typ) {
	case "custom-title", "ai-title", "last-prompt", "summary":
		return false
	case "user", "assistant":
		return t.conversation
	case "attachment": // a queued input's is a user message (reader.Entry.Queued)
		return t.conversation || !reader.MayBeQueued(l)
	}
	return true
}

// plainString is the text of a raw string value without an escape (ok
// false: another value, or an escape), or of none (nil).
func plainString(v []byte) ([]byte, bool) {
	if v == nil {
		return nil, true
	}
	if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return nil, false
	}
	return v[1 : len(v)-1], true
}

// emptyString reports whether a raw value read for a string is none or "".
func emptyString(v []byte) bool { return v == nil || string(v) == `""` }

// timeText is the form of time Claude Code writes (UTC, milliseconds).
const timeText = "2006-01-02T15:04:05.000Z"

// canonicalTime reports whether a raw value is a string in that form:
// such strings compare as the times they are (when they are times).
func canonicalTime(v []byte) bool {
	if len(v) != len(timeText)+2 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	for i, c := range []byte(timeText) {
		d := v[i+1]
		if c >= '0' && c <= '9' {
			if d < '0' || d > '9' {
				return false
			}
		} else if d != c {
			return false
		}
	}
	return true
}
