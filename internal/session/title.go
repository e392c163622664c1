package session

import (
	"github.com/cctx-dev/cctx/internal/reader"
)

// firstPrompt finds the first prompt a person typed among the lines of a
// session's head (reader.Entry.IsTypedPrompt, the rule every command uses),
// shown as reader.PromptOf shows it: context blocks such as an IDE
// selection skipped, a slash command as "/name args". A local command or
// bash input is the fallback when no line qualifies; an image or document
// prompt is named as such.
func firstPrompt(lines []parsedLine) string {
	label, _ := firstPromptTyped(lines)
	return label
}

// firstPromptTyped is firstPrompt, and whether it is a prompt a person
// typed (not a local command, bash input or media fallback).
func firstPromptTyped(lines []parsedLine) (string, bool) {
	label, typed, _ := firstPromptAt(lines)
	return label, typed
}

// firstPromptAt is firstPromptTyped that also says which line the label
// is read from (-1: none, or a media label).
func firstPromptAt(lines []parsedLine) (string, bool, int) {
	fallback, media, from := "", "", -1
	for i, pl := range lines {
		e := &pl.e
		if !promptLine(e) {
			continue
		}
		if media == "" {
			if e.Content&reader.HasImage != 0 {
				media = "[Image]"
			} else if e.Content&reader.HasDocument != 0 {
				media = "[Document]"
			}
		}
		// A line's label is read (from its text, the costly part) only
		// when it is taken: a typed prompt's, or the fallback's.
		typed := e.IsTypedPrompt()
		if !typed && fallback != "" {
			continue
		}
		label, _ := reader.PromptOf(reader.Texts(pl.raw))
		switch {
		case typed:
			return label, true, i
		case fallback == "":
			fallback, from = label, i // a local command or bash input, or ""
		}
	}
	if fallback != "" {
		return fallback, false, from
	}
	return media, false, -1
}

// promptLine reports whether a line may give a session's first prompt:
// one that may title a session (reader.MayTitle) and is no meta line,
// compaction summary, sidechain line or tool result.
func promptLine(e *reader.Entry) bool {
	return reader.MayTitle(e.Type, e.Queued) && !e.Meta && !e.CompactSummary && !e.Sidechain && e.Content&reader.HasToolResult == 0
}
