package session

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/reader"
)

// maxTitleRunes is where titles and prompts are cut, as in the SDKs.
const maxTitleRunes = 200

var (
	commandNameRe = regexp.MustCompile(`<command-name>\s*/?([^<]*?)\s*</command-name>`)
	bashInputRe   = regexp.MustCompile(`^<bash-input>([\s\S]*?)</bash-input>`)
	leadingTagRe  = regexp.MustCompile(`^<[A-Za-z][\w-]*[\s>/]`)
)

// firstPrompt finds the first prompt a person typed among the lines of a
// session's head. It skips tool results, meta and compact-summary entries,
// and text that Claude Code wrote itself (command output, hook and IDE
// context, interruptions). A slash command is the fallback when nothing else
// qualifies; an image or document prompt is named as such.
func firstPrompt(lines []parsedLine) string {
	command, media := "", ""
	for _, pl := range lines {
		e, line := &pl.e, pl.raw
		if e.Type != "user" || e.Meta || e.CompactSummary || e.Sidechain {
			continue
		}
		if e.Content&reader.HasToolResult != 0 {
			continue
		}
		if media == "" {
			if e.Content&reader.HasImage != 0 {
				media = "[Image]"
			} else if e.Content&reader.HasDocument != 0 {
				media = "[Document]"
			}
		}
		for _, text := range reader.Texts(line) {
			text = strings.TrimSpace(text)
			if m := commandNameRe.FindStringSubmatch(text); m != nil {
				if command == "" && m[1] != "" {
					command = "/" + m[1]
				}
				continue
			}
			if m := bashInputRe.FindStringSubmatch(text); m != nil {
				return cleanTitle("! " + m[1])
			}
			if text == "" || leadingTagRe.MatchString(text) || strings.HasPrefix(text, "[Request interrupted by user") {
				continue
			}
			return cleanTitle(text)
		}
	}
	if command != "" {
		return command
	}
	return media
}

// cleanTitle makes text fit one line of a listing: whitespace runs become
// one space, control characters are dropped, and it is cut to
// maxTitleRunes with an ellipsis.
func cleanTitle(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || r == utf8.RuneError:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if utf8.RuneCountInString(out) > maxTitleRunes {
		runes := []rune(out)
		out = strings.TrimRightFunc(string(runes[:maxTitleRunes]), unicode.IsSpace) + "…"
	}
	return out
}
