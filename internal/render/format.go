package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/termsafe"
)

// Count formats a count for people: 987, 12.3k, 4.56M, 1.2B.
func Count(n int64) string {
	f := float64(n)
	switch {
	case n < 0:
		return "-" + Count(-n)
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 1e6:
		return trimZero(fmt.Sprintf("%.1f", f/1e3)) + "k"
	case n < 1e9:
		return trimZero(fmt.Sprintf("%.2f", f/1e6)) + "M"
	}
	return trimZero(fmt.Sprintf("%.2f", f/1e9)) + "B"
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Thousands formats n with thousands separators: 1,234,567.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Bytes formats a size: 512 B, 12.3 KB, 4.5 MB (powers of 1024).
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp]) // binary units, named as such
}

// Ago formats how long before now t was: "just now", "5m ago", "3h ago",
// "2d ago", then the date.
func Ago(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < -session.ClockSlack:
		// A clock that ran ahead (or a file from a machine set wrong):
		// said, not shown as if it were recent.
		return t.Local().Format("2006-01-02 15:04") + " (future)"
	case d < 0:
		return t.Local().Format("2006-01-02 15:04")
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Local().Format("2006-01-02")
}

// agoWidth is the width of AgoCell: "2006-01-02".
const agoWidth = 10

// AgoCell is Ago for a column of fixed width (agoWidth), where rows are
// written before the widest is known: a time in the future is "future",
// its date left to the commands that show one session.
func AgoCell(t, now time.Time) string {
	switch d := now.Sub(t); {
	case t.IsZero():
		return "-"
	case d < -session.ClockSlack:
		return "future"
	case d < 0:
		return "just now" // within the clock's slack
	}
	if a := Ago(t, now); Width(a) <= agoWidth {
		return a
	}
	return t.Local().Format("2006-01-02")
}

// Timestamp formats a time of tab-separated output as JSON does
// (JSONTimeLayout), or "" for the zero time: a script that reads both gets
// the same text for the same time.
func Timestamp(t time.Time) string { return JSONTime(t) }

// JSONTimeLayout is the one layout of every time in --json output: UTC with
// exactly three fractional digits. A fixed width lets the times of different
// commands be compared, sorted and joined as text; time.RFC3339Nano drops
// trailing zeros (".8Z" where another command writes ".800Z"). Claude Code
// records milliseconds, so nothing it wrote is lost; a finer time is cut,
// never rounded (rounding could move it to the next second, minute or day).
const JSONTimeLayout = "2006-01-02T15:04:05.000Z"

// JSONTime formats t for JSON (JSONTimeLayout), or "" for the zero time.
func JSONTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	var b [len(JSONTimeLayout)]byte
	return string(appendJSONTime(b[:0], t))
}

// appendJSONTime appends t in JSONTimeLayout, digit by digit: time's
// layout interpreter was a fifth of writing the rows of 5,000 sessions.
func appendJSONTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		return t.AppendFormat(b, JSONTimeLayout)
	}
	hour, minute, sec := t.Clock()
	var s [len(JSONTimeLayout)]byte
	copy(s[:], JSONTimeLayout) // its separators; the digits are put over the rest
	put := func(at, v, n int) {
		for i := at + n - 1; i >= at; i-- {
			s[i] = byte('0' + v%10)
			v /= 10
		}
	}
	put(0, year, 4)
	put(5, int(month), 2)
	put(8, day, 2)
	put(11, hour, 2)
	put(14, minute, 2)
	put(17, sec, 2)
	put(20, t.Nanosecond()/1e6, 3)
	return append(b, s[:]...)
}

// JSONTimeOrNull is JSONTime for fields that are null when there is no time.
func JSONTimeOrNull(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := JSONTime(t)
	return &s
}

// Duration formats a span compactly: 45s, 12m, 3h05m, 2d4h.
func Duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%dh", int(d.Hours()/24), int(d.Hours())%24)
}

// Cut shortens s to at most n terminal columns, ending in "…" when cut. A
// wide character (CJK, most emoji) takes two columns, as the table writer
// counts them: by runes, a Japanese title overflowed its column.
func Cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if Width(s) <= n {
		return s
	}
	w, room, end := 0, n-RuneWidth('…'), 0 // two columns where East Asian widths apply
	for end < len(s) {
		r, size := utf8.DecodeRuneInString(s[end:]) // a byte that is not UTF-8: size 1
		if w += RuneWidth(r); w > room {
			if r == emojiSelector && end > 0 { // nor the emoji's base, shown narrow without it
				_, size := utf8.DecodeLastRuneInString(s[:end])
				end -= size
			}
			break
		}
		end += size
	}
	return strings.ToValidUTF8(wholeEscapes(s[:end], s), "\uFFFD") + "…"
}

// wrapWords breaks s at its spaces into lines of at most w columns (a
// word wider than that is cut).
func wrapWords(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case Width(line)+1+Width(word) <= w:
			line += " " + word
		default:
			lines = append(lines, Cut(line, w))
			line = word
		}
	}
	return append(lines, Cut(line, w))
}

// wholeEscapes drops from kept, a prefix of s, the start of a visible
// escape that Safe wrote (\x1b, \u202e) and the cut split: "…\u2…" reads
// as text that was never there.
func wholeEscapes(kept, s string) string {
	i := strings.LastIndexByte(kept, '\\')
	if i < 0 || len(kept)-i > 10 {
		return kept
	}
	rest := s[i:]
	whole := 0
	switch {
	case len(rest) >= 4 && rest[1] == 'x' && isHex(rest[2:4]):
		whole = 4
	case len(rest) >= 6 && rest[1] == 'u' && isHex(rest[2:6]):
		whole = 6
	case len(rest) >= 10 && rest[1] == 'U' && isHex(rest[2:10]):
		whole = 10
	}
	if len(kept)-i < whole {
		return kept[:i]
	}
	return kept
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// CutLeft shortens s to at most n terminal columns by dropping its start:
// paths keep their most telling end ("…/src/app").
func CutLeft(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if Width(s) <= n {
		return s
	}
	r := []rune(s)
	w, i, room := 0, len(r), n-RuneWidth('…')
	for i > 0 && w+RuneWidth(r[i-1]) <= room {
		i--
		w += RuneWidth(r[i])
	}
	if i < len(r) && r[i] == emojiSelector {
		i++ // the selector of a base left out
	}
	return "…" + string(r[i:])
}

// Width is how many terminal columns s takes (s holds no escape sequence).
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return twwidth.WidthNoCache(s) + emojiPresented(s)
		}
	}
	return len(s) // ASCII, the common case, without a table lookup a rune
}

// emojiSelector (VS16) asks for the emoji presentation of the character
// before it: ⚠️ and ♻️ take 2 columns on a terminal, where the table
// counts their narrow base alone (1).
const emojiSelector = '\uFE0F'

// emojiPresented is the columns the table misses in s: one for each
// narrow character presented as an emoji.
func emojiPresented(s string) int {
	n, prev := 0, rune(0)
	for _, r := range s {
		if r == emojiSelector && prev != 0 && twwidth.WidthNoCache(string(prev)) == 1 {
			n++
		}
		prev = r
	}
	return n
}

// textPresented is s without the emoji selectors that make a narrow
// character (⚠, ♻) an emoji two columns wide. The table writer counts
// such a character one column: a row with one before the last column came
// out a column out of line. As text (one column) it lines up.
func textPresented(s string) string {
	if !strings.Contains(s, string(emojiSelector)) || emojiPresented(s) == 0 {
		return s
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if !(r == emojiSelector && prev != 0 && twwidth.WidthNoCache(string(prev)) == 1) {
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// RuneWidth is how many terminal columns r takes: 2 for East Asian wide
// characters and most emoji, 0 for combining marks, else 1 (as Width
// counts, and as the table writer does). The emoji selector counts 1:
// with the narrow character before it, an emoji's 2 (Width); after a wide
// one, a column too many, which only cuts a line shorter.
func RuneWidth(r rune) int {
	if r < utf8.RuneSelf {
		return 1
	}
	if r == emojiSelector {
		return 1
	}
	return twwidth.WidthNoCache(string(r))
}

// Safe makes text from a transcript harmless on a terminal (see
// termsafe.String): control characters, escape sequences and bidi
// controls are shown as visible escapes instead of being interpreted.
func Safe(s string) string { return termsafe.String(s) }

// Plural is n and the word for it: "1 entry", "3 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Short is the first 8 characters of an id (a session id, a uuid), the
// length people recognise one by. It is not made safe: see ShortSafe.
func Short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// ShortSafe is Short made safe to print: an id is file content and may
// hold escape sequences.
func ShortSafe(id string) string { return Safe(Short(id)) }

// ShortTail shortens a long id to its telling end: message ids share
// their start ("msg_01…"), so "…" and the last 8 characters.
func ShortTail(id string) string {
	if len(id) > 12 {
		return "…" + id[len(id)-8:]
	}
	return id
}
