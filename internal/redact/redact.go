// Package redact masks secrets and personal data in transcript text
// (`cctx show --redact`): API keys and tokens recognised by their known
// prefixes (a rule set compared with gitleaks'), long random-looking
// tokens, passwords and keys in assignments (JSON, YAML, env, URL query,
// HTTP headers), credentials in URLs, private key blocks, email addresses,
// and home directories (the user's own becomes ~, another's /Users/[USER]).
// docs/redaction.md lists every class, with what is not redacted.
//
// It works on raw JSONL lines as well as on plain text, and keeps a JSON
// line valid JSON: a mask is plain ASCII without quotes or backslashes
// (or, in place of a number, a quoted one), and no mask starts or ends
// inside a JSON escape (\n, \", \u00e9), so "\nghp_…" loses the token,
// never the escape.
//
// It is fast enough to run over every line `show` prints: each class is
// found by a vectorised search for a byte or a short literal (':' and '='
// of assignments, "://", '@', "㉿", "-----BEGIN", "Users", "home"), and
// tokens by one pass that only looks at runs of 16 token characters or
// more.
package redact

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mask replaces a secret. Known prefixes are kept before it ("ghp_" +
// Mask) so a reader still sees what kind of secret was there.
const Mask = "[REDACTED]"

// HomeMask replaces the user's own home directory.
const HomeMask = "~"

// UserMask replaces the name of another user in a home directory path:
// /Users/[USER]/src.
const UserMask = "[USER]"

// hostMask replaces the machine's name in a shell prompt: [USER]@[HOST].
const hostMask = "[HOST]"

// EmailMask replaces an email address.
const EmailMask = "[EMAIL]"

// Redactor masks secrets. The zero value masks everything but the user's
// own home directory (another user's name is still masked).
type Redactor struct {
	home [][]byte // forms of the home directory that scanHomes looks for on their own
	// homeAt: forms that hold "home" or "Users" at at, found where
	// another user's home is looked for (no search of their own).
	homeAt []homeForm
	// prompt is "<name>@", the user's own name (the last part of a home
	// /Users/<name> or /home/<name>) as a shell prompt shows it:
	// name@host in the output of a command is the user's name and the
	// machine's (scanHomes).
	prompt []byte
}

type homeForm struct {
	form []byte
	at   int // where "home" or "Users" starts in form
}

// New returns a Redactor that also replaces home (the user's home
// directory; "" or "/" replaces nothing).
func New(home string) *Redactor {
	r := &Redactor{}
	home = strings.TrimRight(home, `/\`)
	if len(home) > 1 {
		r.home = append(r.home, []byte(home))
		if strings.Contains(home, `\`) {
			// As it appears inside JSON strings.
			r.home = append(r.home, []byte(strings.ReplaceAll(home, `\`, `\\`)))
		}
		// As a project key (-home-alice).
		k := []byte(home)
		for i, c := range k {
			if !isAlnum(c) {
				k[i] = '-'
			}
		}
		r.home = append(r.home, k)
	}
	// Most homes are /home/<name> or /Users/<name>: found with the other
	// users' ones.
	var own [][]byte
	for _, h := range r.home {
		at := bytes.Index(h, []byte("Users"))
		if i := bytes.Index(h, []byte("home")); at < 0 || i >= 0 && i < at {
			at = i
		}
		if at > 0 {
			r.homeAt = append(r.homeAt, homeForm{h, at})
		} else {
			own = append(own, h)
		}
	}
	r.home = own
	if name := ownName(home); len(name) >= 2 {
		r.prompt = []byte(name + "@")
	}
	return r
}

// ownName is the user's name in a home directory of the usual forms
// (/Users/<name>, /home/<name>, C:\Users\<name>), else "".
func ownName(home string) string {
	i := strings.LastIndexAny(home, `/\`)
	if i < 0 {
		return ""
	}
	parent := strings.TrimRight(home[:i], `/\`)
	if p := parent[strings.LastIndexAny(parent, `/\`)+1:]; p != "Users" && p != "home" {
		return ""
	}
	return home[i+1:]
}

// span is a part of the input to replace.
type span struct {
	start, end int
	with       string
}

// Bytes masks secrets in b and returns the result (b itself when nothing
// matched).
func (r *Redactor) Bytes(b []byte) []byte {
	if text, at := unescapeText(b); text != nil {
		// A secret with a letter written as an escape (sk-ant-\u0041…) is
		// found in the text the line stands for, and masked in the line.
		sp := r.scan(text)
		if len(sp) == 0 {
			return b
		}
		for i := range sp {
			sp[i].start, sp[i].end = at[sp[i].start], at[sp[i].end]
		}
		return apply(b, sp)
	}
	sp := r.scan(b)
	if len(sp) == 0 {
		return b
	}
	return apply(b, sp)
}

// scan finds what to mask in b.
func (r *Redactor) scan(b []byte) []span {
	var sp []span
	sp = scanTokens(b, sp)
	sp = scanAssignments(b, sp)
	sp = scanURLs(b, sp)
	sp = scanEmails(b, sp)
	sp = scanKaliPrompts(b, sp)
	sp = scanPrivateKeys(b, sp)
	return r.scanHomes(b, sp)
}

// unescapeText is b with the JSON escapes of printable ASCII characters
// (\u0041, \/) written as the characters, and where each of its bytes
// is in b (at[len(text)] is len(b)); nil when b has none. A quote and a
// backslash stay escaped, so a JSON line keeps its strings, and so do
// controls and characters past ASCII, which the scanners read escaped
// (uEscapeBefore). Claude Code never escapes a letter, but another
// writer of JSON may (Go's escapes <, > and &), and the secret must not
// get through.
func unescapeText(b []byte) (text []byte, at []int) {
	if !hasTextEscape(b) {
		return nil, nil
	}
	text = make([]byte, 0, len(b))
	at = make([]int, 0, len(b)+1)
	for i := 0; i < len(b); {
		if b[i] == '\\' {
			if c, n := textEscape(b[i:]); n > 0 {
				text, at = append(text, c), append(at, i)
				i += n
				continue
			}
			if i+1 < len(b) { // another escape (\n, \", \\): as it is
				text, at = append(text, b[i], b[i+1]), append(at, i, i+1)
				i += 2
				continue
			}
		}
		text, at = append(text, b[i]), append(at, i)
		i++
	}
	return text, append(at, len(b))
}

// hasTextEscape reports whether b holds an escape textEscape reads: a
// search for each form (vectorised), not a stop at every backslash of a
// line full of \n and \".
func hasTextEscape(b []byte) bool {
	for _, form := range [...]string{`\u00`, `\/`} {
		for off := 0; ; {
			i := bytes.Index(b[off:], []byte(form))
			if i < 0 {
				break
			}
			i += off
			if _, n := textEscape(b[i:]); n > 0 && escapingAt(b, i) {
				return true
			}
			off = i + 1
		}
	}
	return false
}

// textEscape is the printable ASCII character (not a quote or a
// backslash) that the escape at the start of b is written for, and its
// length; 0 when b does not start with one.
func textEscape(b []byte) (byte, int) {
	if len(b) >= 2 && b[1] == '/' {
		return '/', 2
	}
	if len(b) < 6 || b[1] != 'u' || b[2] != '0' || !isHex(b[3]) || !isHex(b[4]) || !isHex(b[5]) {
		return 0, 0
	}
	v := hexVal(b[3])<<8 | hexVal(b[4])<<4 | hexVal(b[5])
	if v < 0x21 || v > 0x7e || v == '"' || v == '\\' {
		return 0, 0
	}
	return byte(v), 6
}

func hexVal(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// String masks secrets in s.
func (r *Redactor) String(s string) string { return string(r.Bytes([]byte(s))) }

// apply replaces the spans: overlapping ones become one (the first one's
// mask), and none starts or ends inside a JSON escape.
func apply(b []byte, sp []span) []byte {
	for i := range sp {
		sp[i].start, sp[i].end = boundary(b, sp[i].start), boundary(b, sp[i].end)
	}
	slices.SortStableFunc(sp, func(x, y span) int { return x.start - y.start })
	out := make([]byte, 0, len(b))
	last := 0
	for i := 0; i < len(sp); {
		s := sp[i]
		for i++; i < len(sp) && sp[i].start < s.end; i++ {
			s.end = max(s.end, sp[i].end)
		}
		if s.start >= s.end || s.start < last {
			continue
		}
		out = append(out, b[last:s.start]...)
		out = append(out, s.with...)
		last = s.end
	}
	return append(out, b[last:]...)
}

// escapingAt reports whether the backslash at b[j] escapes the byte after
// it (it ends an odd run of backslashes).
func escapingAt(b []byte, j int) bool {
	n := 0
	for k := j; k >= 0 && b[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// afterEscape reports whether b[:i] ends with a whole JSON escape (\n,
// \t, \r, \b, \f, \", \/, \\, or \u and four hex digits, as a control
// character is written): in a JSON line the text before i then ends in a
// separator (a newline, a tab), not in the letter or digit the escape is
// written with.
func afterEscape(b []byte, i int) bool {
	if _, ok := uEscapeBefore(b, i); ok {
		return true
	}
	return i >= 2 && escapingAt(b, i-2) && bytes.IndexByte([]byte(`ntrbf"/\`), b[i-1]) >= 0
}

// uEscapeBefore returns, when b[:i] ends with a whole \u escape, the byte
// the text has before i: the character itself when it is ASCII, else 0x80
// (a byte of its UTF-8 form, a letter of a name as isNameByte has it).
func uEscapeBefore(b []byte, i int) (byte, bool) {
	if i < 6 || b[i-5] != 'u' || !escapingAt(b, i-6) || !allHex(b[i-4:i]) {
		return 0, false
	}
	v := 0
	for _, c := range b[i-4 : i] {
		v = v<<4 | hexVal(c)
	}
	if v >= 0x80 {
		if separator(rune(v)) {
			return ' ', true // U+2028 and the like end a word as a space does
		}
		return 0x80, true
	}
	return byte(v), true
}

// separator reports a character past ASCII that ends a word, as a space
// does: spaces, line and paragraph separators, controls, the BOM.
func separator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || r == 0x2028 || r == 0x2029 || r == 0xfeff
}

// sepBefore reports whether b[:i] ends with such a separator written as
// itself (UTF-8), not escaped.
func sepBefore(b []byte, i int) bool {
	if i == 0 || b[i-1] < 0x80 {
		return false
	}
	r, _ := utf8.DecodeLastRune(b[:i])
	return r != utf8.RuneError && separator(r)
}

// boundary moves i forward out of a JSON escape it is inside of (\n,
// \", \u00e9): a mask never splits one.
func boundary(b []byte, i int) int {
	if i <= 0 || i >= len(b) {
		return i
	}
	if b[i-1] == '\\' {
		if !escapingAt(b, i-1) {
			return i
		}
		if b[i] == 'u' {
			return min(i+5, len(b))
		}
		return i + 1
	}
	// Inside the four hex digits of a \u escape?
	for j := i - 2; j >= 0 && j >= i-5; j-- {
		if b[j] == '\\' {
			if b[j+1] == 'u' && escapingAt(b, j) && allHex(b[j+2:i]) {
				return min(j+6, len(b))
			}
			return i
		}
	}
	return i
}

func allHex(s []byte) bool {
	for _, c := range s {
		if !isHex(c) {
			return false
		}
	}
	return true
}

// Byte classes.
const (
	cAlnum = 1 << iota // [A-Za-z0-9]
	cWord              // [A-Za-z0-9_]
	cRun               // [A-Za-z0-9_+/=.~-]: what tokens are made of
	cB64               // [A-Za-z0-9_+/=-]: tokens for the entropy rule
	cKey               // [A-Za-z0-9_.-]: names in assignments
	cHex               // [0-9a-fA-F]
)

var class [256]uint8

func init() {
	for c := 0; c < 256; c++ {
		var k uint8
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if alnum {
			k |= cAlnum | cWord | cRun | cB64 | cKey
		}
		switch c {
		case '_':
			k |= cWord | cRun | cB64 | cKey
		case '-':
			k |= cRun | cB64 | cKey
		case '+', '/', '=':
			k |= cRun | cB64
		case '.':
			k |= cRun | cKey
		case '~':
			k |= cRun
		}
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' {
			k |= cHex
		}
		class[c] = k
	}
}

func isAlnum(c byte) bool  { return class[c]&cAlnum != 0 }
func isWord(c byte) bool   { return class[c]&cWord != 0 }
func isHex(c byte) bool    { return class[c]&cHex != 0 }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isUpper(c byte) bool  { return c >= 'A' && c <= 'Z' }
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }

func hasDigit(s []byte) bool {
	for _, c := range s {
		if isDigit(c) {
			return true
		}
	}
	return false
}

// lower is ASCII lower case, for short keys.
func lower(s []byte) string {
	b := make([]byte, len(s))
	for i, c := range s {
		if isUpper(c) {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return string(b)
}

// indexAll calls f with every index of sep in b.
func indexAll(b, sep []byte, f func(i int)) {
	for i := 0; ; {
		j := bytes.Index(b[i:], sep)
		if j < 0 {
			return
		}
		f(i + j)
		i += j + 1
	}
}
