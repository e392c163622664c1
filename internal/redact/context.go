package redact

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// What an assignment's key says its value is.
const (
	kindNone = iota
	kindPassword
	kindToken
	kindAuthorization
)

// keyKind tells from the name of a key (DB_PASSWORD, dbPassword,
// "client_secret", x-api-key, AccountKey) what its value is.
func keyKind(key []byte) int {
	if len(key) < 3 {
		return kindNone
	}
	switch key[len(key)-1] | 0x20 { // the last letters of every word below
	case 'd', 'e', 't', 's', 'n', 'l', 'h', 'y', 'g':
	default:
		return kindNone
	}
	switch {
	case foldEqual(key, "sig") || foldEqual(key, "auth") || foldEqual(key, "private_key_id") || foldEqual(key, "privatekeyid"):
		return kindToken
	case foldSuffix(key, "authorization"):
		return kindAuthorization
	}
	for _, s := range passwordWords {
		if foldSuffix(key, s.word) && wordStart(key, len(key)-len(s.word), s.alone) {
			return kindPassword
		}
	}
	for _, s := range tokenWords {
		if foldSuffix(key, s) && wordStart(key, len(key)-len(s), true) {
			return kindToken
		}
	}
	// <qualifier>[_-.]key: api_key, AccountKey, SECRET_KEY, x-api-key.
	if foldSuffix(key, "key") && wordStart(key, len(key)-3, false) {
		rest := key[:len(key)-3]
		for len(rest) > 0 && (rest[len(rest)-1] == '_' || rest[len(rest)-1] == '-' || rest[len(rest)-1] == '.') {
			rest = rest[:len(rest)-1]
		}
		for _, q := range keyQualifiers {
			if foldSuffix(rest, q) && wordStart(rest, len(rest)-len(q), true) {
				return kindToken
			}
		}
	}
	return kindNone
}

// foldSuffix is strings.HasSuffix on ASCII, ignoring case (s is lower
// case).
func foldSuffix(b []byte, s string) bool {
	if len(b) < len(s) {
		return false
	}
	b = b[len(b)-len(s):]
	for i := 0; i < len(s); i++ {
		c := b[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func foldEqual(b []byte, s string) bool { return len(b) == len(s) && foldSuffix(b, s) }

var passwordWords = []struct {
	word  string
	alone bool // the whole key may be the word
}{
	{"password", true}, {"passwd", true}, {"passphrase", true}, {"pwd", true},
	{"secret", true}, {"pass", false},
}

var tokenWords = []string{"token", "credentials", "credential", "_auth", "-auth", ".auth", "apikey"}

var keyQualifiers = []string{
	"api", "access", "secret", "private", "auth", "account", "sharedaccess", "signing",
	"encryption", "master", "client", "app", "service", "subscription", "license", "webhook",
	"deploy", "consumer", "session",
}

// wordStart reports whether key[i:] starts a word of the key: at its
// start (if alone), after _ - or ., or at a capital after a small letter
// or digit (dbPassword).
func wordStart(key []byte, i int, alone bool) bool {
	switch {
	case i == 0:
		return alone
	case key[i-1] == '_' || key[i-1] == '-' || key[i-1] == '.':
		return true
	}
	return isUpper(key[i]) && (isLower(key[i-1]) || isDigit(key[i-1]))
}

// scanAssignments finds values assigned to keys that name secrets:
// "password": "…", password: …, PASSWORD=…, ?password=…, --password=…,
// "Authorization": "Bearer …", AccountKey=… in JSON, YAML, env files,
// URLs, headers and code.
func scanAssignments(b []byte, sp []span) []span {
	for _, sep := range []byte{':', '='} {
		for i := 0; ; {
			j := bytes.IndexByte(b[i:], sep)
			if j < 0 {
				break
			}
			sp = assignmentAt(b, i+j, sp)
			i += j + 1
		}
	}
	return sp
}

func assignmentAt(b []byte, p int, sp []span) []span {
	n := len(b)
	sep := 1
	at := func(i int) byte {
		if i < 0 || i >= n {
			return 0
		}
		return b[i]
	}
	if b[p] == ':' {
		switch {
		case at(p+1) == ':' || at(p-1) == ':':
			return sp // C++'s ::, an IPv6 address
		case at(p+1) == '/' && at(p+2) == '/':
			return sp // a URL (scanURLs)
		case at(p+1) == '=':
			sep = 2 // Go's :=
		}
	} else {
		switch {
		case at(p+1) == '=' || strings.IndexByte("!<>=:", at(p-1)) >= 0:
			return sp // a comparison, or := (read at its colon)
		case at(p+1) == '>':
			sep = 2 // =>
		}
	}
	// The key, back from the separator: spaces, a closing quote, a name.
	k := p
	for k > 0 && p-k < 3 && (b[k-1] == ' ' || b[k-1] == '\t') {
		k--
	}
	bareKey := false // "key": at the JSON level of the line itself
	switch {
	case at(k-1) == '"':
		// "key", \"key\" (JSON in a JSON string), \\\"key\\\" (one level
		// deeper): the quote and the backslashes that escape it.
		k--
		r := 0
		for k > 0 && b[k-1] == '\\' {
			k--
			r++
		}
		bareKey = r == 0
	case at(k-1) == '\'':
		k--
	}
	if k == 0 {
		return sp
	}
	switch b[k-1] | 0x20 { // the last letters of the keys keyKind knows, and digits (Telegram)
	case 'd', 'e', 't', 's', 'n', 'l', 'h', 'y', 'g', 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39:
	default:
		return sp
	}
	ke := k
	for k > 0 && ke-k <= 64 && class[b[k-1]]&cKey != 0 {
		k--
	}
	if ke-k > 64 || k == ke || k >= 2 && b[k-1] == '/' && b[k-2] == '/' {
		return sp // not a name; or the user of a URL (scanURLs)
	}
	k = boundary(b, k) // "\nPASSWORD=…": the n is the escape's
	if k >= ke {
		return sp
	}
	key := b[k:ke]
	v := p + sep
	for v < n && (b[v] == ' ' || b[v] == '\t') {
		v++
	}
	if isTelegramBotID(key) && sep == 1 && v == p+1 && b[p] == ':' {
		if m := span0(b[v:], wordDash); m == 35 {
			return append(sp, span{v, v + m, Mask})
		}
		return sp
	}
	kind := keyKind(key)
	if kind == kindNone {
		return sp
	}
	vs, ve, quoted := value(b, v)
	if vs < 0 {
		return sp
	}
	if kind == kindAuthorization {
		// The scheme stays: Bearer [REDACTED].
		t := vs
		for t < n && (isUpper(b[t]) || isLower(b[t]) || b[t] == '-') {
			t++
		}
		if t > vs && t < n && b[t] == ' ' && (!quoted || t < ve) {
			for t < n && b[t] == ' ' {
				t++
			}
			vs = t
		}
		end := vs + span0(b[vs:], authChars)
		if quoted {
			end = min(end, ve)
		}
		if end-vs >= 8 {
			return append(sp, span{vs, end, Mask})
		}
		return sp
	}
	val := b[vs:ve]
	if !secretValue(val, key, kind, quoted) {
		return sp
	}
	if !quoted {
		if ve < n && (b[ve] == '(' || b[ve] == '[') {
			return sp // a call: password=getpass()
		}
		if allLetters(val) && ve+1 < n && b[ve] == ' ' && (isLower(b[ve+1]) || isUpper(b[ve+1])) {
			return sp // prose: "1Password: failed to fill", "x.pass: ASCII text"
		}
		if bareKey && isNumber(val) {
			// A number in JSON: the mask stays JSON as a string.
			return append(sp, span{vs, ve, `"` + Mask + `"`})
		}
	}
	return append(sp, span{vs, ve, Mask})
}

var authChars = charset("._~+/=-", "a-z", "A-Z", "0-9")

func isTelegramBotID(key []byte) bool {
	if len(key) < 8 || len(key) > 10 {
		return false
	}
	for _, c := range key {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// value finds the value that starts at b[v]: inside its quotes ("…", an
// escaped \"…\" of JSON in a JSON string, '…'), or unquoted up to a
// space, a quote, a backslash or punctuation. vs is -1 when there is none.
func value(b []byte, v int) (vs, ve int, quoted bool) {
	n := len(b)
	if v >= n {
		return -1, 0, false
	}
	// A quote escaped m times (0: "…", 1: \"…\" in a JSON string, 3: one
	// level deeper) ends at the next quote escaped as many times: one
	// after r backslashes with r mod (2m+2) = m (more are the escapes of
	// backslashes and quotes of the levels inside).
	m := 0
	for v+m < n && b[v+m] == '\\' {
		m++
	}
	switch c := b[v]; {
	case v+m < n && b[v+m] == '"' && m%2 == 1 || c == '"':
		start := v + m + 1
		for i := start; i < n; i++ {
			if b[i] != '"' {
				continue
			}
			r := 0
			for i-r-1 >= start && b[i-r-1] == '\\' {
				r++
			}
			if r%(2*m+2) == m {
				return start, i - m, true
			}
		}
	case c == '\'':
		for i := v + 1; i < n; i++ {
			switch b[i] {
			case c:
				return v + 1, i, true
			case '\\', '\n':
				return -1, 0, false
			}
		}
	default:
		i := v
		for i < n && !unquotedStop[b[i]] {
			i++
		}
		if i > v {
			return v, i, false
		}
	}
	return -1, 0, false
}

var unquotedStop = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n\"'`\\,;&(){}[]<>|") {
		t[c] = true
	}
	return t
}()

// secretValue reports whether val, assigned to key, is a secret to mask:
// not a placeholder, a type, a reference to a variable or code.
func secretValue(val, key []byte, kind int, quoted bool) bool {
	if len(val) == 0 || !quoted && len(val) < 2 {
		return false
	}
	switch val[0] {
	case '$', '%', '<', '{', '[', '*', '/', '~':
		return false // ${VAR}, %(x)s, <your-password>, {{…}}, ****, a path
	}
	if bytes.HasPrefix(val, []byte("./")) || bytes.HasPrefix(val, []byte("../")) {
		return false
	}
	switch lower(val) {
	case "null", "none", "nil", "true", "false", "undefined", "string", "str", "number", "int",
		"integer", "bool", "boolean", "any", "object", "optional", "required", "redacted", "hidden",
		"masked", "empty", "secret", "password", "token", "string?", "str?":
		return false
	}
	if !quoted && (bytes.EqualFold(val, key) || isIdentChain(val)) {
		return false // password=password, config.password, process.env.X
	}
	if bytes.Count(val, val[:1]) == len(val) {
		return false // ..., ****, xxxxxxxx
	}
	if kind == kindToken {
		if len(val) < 8 {
			return false
		}
		letters := true // a word, not a key: access_token: "undefined_value"
		for _, c := range val {
			if !(isUpper(c) || isLower(c) || c == '_' || c == '.' || c == '-') {
				letters = false
				break
			}
		}
		if letters {
			return false
		}
	}
	return true
}

// isIdentChain reports names joined by dots: a.b, process.env.X.
func isIdentChain(v []byte) bool {
	if bytes.IndexByte(v, '.') < 0 {
		return false
	}
	for _, part := range bytes.Split(v, []byte(".")) {
		if len(part) == 0 || isDigit(part[0]) {
			return false
		}
		for _, c := range part {
			if !isWord(c) && c != '$' {
				return false
			}
		}
	}
	return true
}

func isNumber(v []byte) bool {
	if len(v) == 0 {
		return false
	}
	for _, c := range v {
		if !isDigit(c) && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			return false
		}
	}
	return isDigit(v[0]) || v[0] == '-'
}

// scanURLs finds passwords in URLs: scheme://user:password@host. The
// scheme, the user and the host stay readable.
func scanURLs(b []byte, sp []span) []span {
	indexAll(b, []byte("://"), func(i int) {
		s := i
		for s > 0 && (isAlnum(b[s-1]) || b[s-1] == '+' || b[s-1] == '.' || b[s-1] == '-') {
			s--
		}
		if i-s < 2 || isDigit(b[s]) {
			return
		}
		// The authority: up to the path, query or fragment.
		a, at := i+3, -1
		for a < len(b) && !authorityEnd[b[a]] {
			if b[a] == '@' {
				at = a // the last one: an unescaped @ in the password
			}
			a++
		}
		if at < 0 || at+1 >= len(b) || !(isAlnum(b[at+1]) || b[at+1] == '[') {
			return
		}
		colon := bytes.IndexByte(b[i+3:at], ':')
		if colon < 0 || i+3+colon+1 >= at {
			return // a user without a password
		}
		sp = append(sp, span{i + 3 + colon + 1, at, Mask})
	})
	return sp
}

var authorityEnd = func() (t [256]bool) {
	for _, c := range []byte("/?# \t\r\n\"'`\\<>") {
		t[c] = true
	}
	return t
}()

// scanEmails finds email addresses: user@example.com becomes [EMAIL].
// Not: the user of an URL (git@github.com: a login, not a mailbox),
// noreply addresses, package@1.2.3, icon@2x.png.
func scanEmails(b []byte, sp []span) []span {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '@')
		if j < 0 {
			return sp
		}
		at := i + j
		i = at + 1
		s := at
		for s > 0 && at-s < 64 && emailLocal[b[s-1]] && !afterSGR(b, s) { // a colour's "m" is no part of it
			s--
		}
		s = boundary(b, s)
		// A letter past ASCII before s (josé@, müller@, 山田@, jos\u00e9@,
		// chloé.dupont@): a prompt's name is taken whole or not at all;
		// an address's local part whole.
		wide := s > 0 && nameRuneBefore(b, s) > 0
		for s < at && b[s] == '.' {
			s++
		}
		if wide {
			if ps, e := widePrompt(b, s, at); ps >= 0 {
				sp = append(sp, span{ps, e, UserMask + "@" + hostMask})
				i = e
				continue
			}
			// An address's local part with them (müller@, josé@) is
			// masked whole: "mü[EMAIL]" said whose it was.
			s = wideLocalStart(b, s, at)
		}
		if s >= at || s > 0 && emailLocal[b[s-1]] && !afterEscape(b, s) && !afterSGR(b, s) {
			continue
		}
		if s > 0 && b[s-1] == ':' && inURLAuthority(b, s-1) {
			continue // scheme://user:password@host: the password (scanURLs)
		}
		local := b[s:at]
		if !localLetters(b, s, at) {
			continue // +@pytest.fixture, 使用@pytest.fixture (\u4f7f\u7528@ too)
		}
		if string(local) == "git" || bytes.HasPrefix(local, []byte("noreply")) || bytes.HasPrefix(local, []byte("no-reply")) {
			continue
		}
		e := domainEnd(b, at)
		domain := b[at+1 : e]
		dot := bytes.LastIndexByte(domain, '.')
		if dot < 0 && !wide && shellPrompt(b, s, at, e) {
			sp = append(sp, span{s, e, UserMask + "@" + hostMask})
			i = e
			continue
		}
		if dot <= 0 || bytes.Contains(domain, []byte("..")) {
			continue
		}
		tld := domain[dot+1:]
		if len(tld) < 2 || len(tld) > 24 || !allLetters(tld) || fileExtensions[lower(tld)] {
			continue
		}
		if first := domain[:bytes.IndexByte(domain, '.')]; len(first) >= 2 && first[len(first)-1] == 'x' && allDigits(first[:len(first)-1]) {
			continue // icon@2x.png
		}
		sp = append(sp, span{s, e, EmailMask})
		i = e
	}
}

var emailLocal = charset("._%+-", "a-z", "A-Z", "0-9")

// localLetters reports whether b[s:at] holds an ASCII letter or digit
// of its own, not one of a JSON escape's (\u7528), or a letter of a
// script that mixes with ASCII in a name (дмитрий@, as itself or
// escaped): an address's local part, where one of other letters only
// (使用@pytest.fixture, a decorator in Chinese prose) is taken for none.
func localLetters(b []byte, s, at int) bool {
	for k := s; k < at; {
		if r, n := wideRuneAt(b, k); n > 0 {
			if unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) {
				return true
			}
			k += n
			continue
		}
		if isAlnum(b[k]) {
			return true
		}
		k++
	}
	return false
}

// wideLocalStart is where the local part of an address ends its walk
// back when a letter, digit or mark past ASCII (as itself or as a JSON
// escape) comes before s, the start of its ASCII part: over such
// characters and the ASCII ones an address's local part holds, 64 bytes
// at most, not into a colour; its leading dots and marks left out.
func wideLocalStart(b []byte, s, at int) int {
	// 64 characters: an address's local part is 64 bytes at most; past
	// them it is masked from there (what is left is no address's).
	s, _ = nameWalk(b, s, at, 64-(at-s), false, func(b []byte, i int) bool { return emailLocal[b[i-1]] && !afterSGR(b, i) })
	return nameFrom(b, s, at)
}

// nameFrom is where a name walked back to s (before end) starts: past
// the JSON escape's letter boundary leaves ("\njosé@": the n is the
// escape's), and the leading dots and combining marks, which are no
// name's.
func nameFrom(b []byte, s, end int) int {
	s = boundary(b, s)
	for s < end {
		if b[s] == '.' {
			s++
		} else if r, n := wideRuneAt(b, s); n > 0 && unicode.IsMark(r) {
			s += n
		} else {
			break
		}
	}
	return s
}

// domainEnd is where the domain (or host) after the '@' at b[at] ends:
// ASCII letters, digits, '-' and '.', less the trailing dots and dashes
// of a sentence.
func domainEnd(b []byte, at int) int {
	e := at + 1
	for e < len(b) && e-at < 254 && (isAlnum(b[e]) || b[e] == '-' || b[e] == '.') {
		e++
	}
	for e > at+1 && (b[e-1] == '.' || b[e-1] == '-') {
		e--
	}
	return e
}

// wideNameMax is how far back from its '@' a prompt's name with
// characters past ASCII is looked for, in characters (an escape, \u00e9,
// is one): a name of more is no prompt's (a user's name is 32 at most).
const wideNameMax = 64

// widePrompt: name@host, its '@' at b[at], where a letter, digit or mark
// past ASCII (as itself or as a JSON escape) ends at s, the start of the
// name's ASCII part (b[s:at], maybe empty). The name is walked back over
// such characters and ASCII letters, digits, '_', '-' and '.', to a
// colour, a space or other punctuation; its leading dots and combining
// marks are left out. ps is the name's start and e the host's end when
// name@host is a prompt (shellPrompt, with the gates scanEmails puts an
// ASCII name through); ps is -1 when it is not one: then no part of the
// name is a prompt's.
func widePrompt(b []byte, s, at int) (ps, e int) {
	ps, full := nameWalk(b, s, at, wideNameMax-(at-s), false, func(b []byte, i int) bool {
		return isHostByte(b[i-1]) && !afterSGR(b, i) // a colour's "m" is no part of it
	})
	if !full {
		return -1, 0
	}
	ps = nameFrom(b, ps, at)
	switch {
	case ps >= at,
		ps > 0 && emailLocal[b[ps-1]] && !afterEscape(b, ps) && !afterSGR(b, ps), // glued to a word: a+josé@
		ps > 0 && b[ps-1] == ':' && inURLAuthority(b, ps-1):
		return -1, 0
	}
	e = domainEnd(b, at)
	if bytes.IndexByte(b[at+1:e], '.') >= 0 || !shellPrompt(b, ps, at, e) {
		return -1, 0
	}
	return ps, e
}

// nameRuneBefore is the length in b of the character past ASCII that
// b[:i] ends with when it is a letter, a digit or a mark (a name's, as
// josé's é or 山田's 田), written as itself (UTF-8) or as a JSON escape
// (\u00e9, a surrogate pair \ud840\udc0b); 0 when it ends with none.
func nameRuneBefore(b []byte, i int) int {
	_, n := nameRuneBeforeR(b, i)
	return n
}

// nameRuneBeforeR is nameRuneBefore with the character.
func nameRuneBeforeR(b []byte, i int) (rune, int) {
	if i == 0 {
		return 0, 0
	}
	r, n := utf8.RuneError, 0
	switch {
	case b[i-1] >= 0x80:
		r, n = utf8.DecodeLastRune(b[:i])
	case isHex(b[i-1]):
		r, n = escapedRuneBefore(b, i)
	}
	if n > 0 && wideNameRune(r) {
		return r, n
	}
	return 0, 0
}

// nameWalk walks a name back from s, the start of its ASCII part b[s:at]
// (maybe empty), over the characters past ASCII a name holds (as
// themselves or as JSON escapes) and the ASCII bytes ascii takes, limit
// characters at most (escapes count one each). Letters of the scripts
// that mix with ASCII in a name (Latin, Greek, Cyrillic, and marks:
// josé, Łukasz, Дмитрий) join its ASCII part; the others (山田, ユーザー)
// make a name on their own only: a word of them glued before ASCII
// letters is prose ("メールアドレスtaro@…"), not the name's, and stops the
// walk; with anyScript (a Kali prompt's frame, ┌──(…㉿, says where the
// name starts) every letter is the name's. full is false when the limit
// stopped it inside a name.
func nameWalk(b []byte, s, at, limit int, anyScript bool, ascii func(b []byte, i int) bool) (start int, full bool) {
	sawASCII, sawMix, sawOther := s < at, false, false
	for chars := 0; ; chars++ {
		r, n := nameRuneBeforeR(b, s)
		take := false
		switch {
		case n > 0 && (anyScript || unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) || unicode.IsMark(r)):
			take, sawMix = !sawOther, sawMix || !sawOther
		case n > 0:
			take = !sawASCII && !sawMix
			sawOther = sawOther || take
		case s > 0 && ascii(b, s):
			n, take = 1, !sawOther
			sawASCII = sawASCII || take
		}
		if !take {
			return s, true
		}
		if chars >= limit {
			return s, false
		}
		s -= n
	}
}

// escapedRuneBefore is the character of the JSON escape b[:i] ends with
// (\u00e9, or a surrogate pair's two escapes), and the escape's length;
// 0 when b[:i] ends with none.
func escapedRuneBefore(b []byte, i int) (rune, int) {
	if i < 6 || b[i-5] != 'u' || !allHex(b[i-4:i]) || !escapingAt(b, i-6) {
		return 0, 0
	}
	r := hexRune(b[i-4 : i])
	if utf16.IsSurrogate(r) && i >= 12 && b[i-11] == 'u' && allHex(b[i-10:i-6]) && escapingAt(b, i-12) {
		if p := utf16.DecodeRune(hexRune(b[i-10:i-6]), r); p != utf8.RuneError {
			return p, 12
		}
	}
	return r, 6
}

// wideRuneAt is the character past ASCII that starts at b[i], as itself
// or as a JSON escape, and its length in b; 0 when b[i] starts none
// (an ASCII character, a byte of no UTF-8 sequence).
func wideRuneAt(b []byte, i int) (rune, int) {
	if b[i] >= 0x80 {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError {
			return r, 0
		}
		return r, n
	}
	if b[i] != '\\' || i+6 > len(b) || b[i+1] != 'u' || !allHex(b[i+2:i+6]) || !escapingAt(b, i) {
		return 0, 0
	}
	r := hexRune(b[i+2 : i+6])
	if utf16.IsSurrogate(r) && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' && allHex(b[i+8:i+12]) {
		if p := utf16.DecodeRune(r, hexRune(b[i+8:i+12])); p != utf8.RuneError {
			return p, 12
		}
	}
	if r < 0x80 {
		return r, 0 // \u0022, \u001b: ASCII, no name's letter
	}
	return r, 6
}

func hexRune(h []byte) rune {
	var r rune
	for _, c := range h {
		r = r<<4 | rune(hexVal(c))
	}
	return r
}

// wideNameRune reports a character past ASCII that a user's name in a
// prompt may hold: a letter, a digit, or a mark (an accent written apart,
// as macOS's decomposed é; an Indic vowel sign), the mark not first.
func wideNameRune(r rune) bool {
	return r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// shellPrompt reports whether name@host, at b[s:e] with its '@' at at, is
// a shell prompt in a command's output, whoever's it is: zsh's
// "name@host dir %", bash's "name@host:~/dir$" (also "~ $", "~/src
// (main)$"), Fedora's "[name@host dir]$", fish's "name@host ~/src>", the
// host a machine's name (no dot: an email's domain has one); colours
// between its parts are passed over, and a prompt a title's cut ends
// ("name@host:~/sr…") is one too; so is a powerline prompt's segment,
// name@host before a separator glyph (" name@host <U+E0B0> ~/src",
// powerlineAfterHost). The user's own name is masked in any name@host
// (Redactor.prompt); another user's only in these shapes, which a word
// before "@" rarely has. The name (b[s:at]) is two characters or more,
// the first a letter or '_', the others letters, digits, '_', '-' or
// '.'; letters, digits and marks past ASCII count, as themselves or as
// JSON escapes (josé, Łukasz, 山田, jos\u00e9: widePrompt); the host is
// ASCII.
func shellPrompt(b []byte, s, at, e int) bool {
	host := b[at+1 : e]
	if !bytes.ContainsFunc(host, func(r rune) bool { return r < 0x80 && isLetter(byte(r)) }) {
		return false
	}
	chars := 0
	for k := s; k < at; chars++ {
		c := b[k]
		if c >= 0x80 || c == '\\' { // a character past ASCII, as itself or escaped (\u00e9)
			r, n := wideRuneAt(b, k)
			if n == 0 || !wideNameRune(r) || k == s && !unicode.IsLetter(r) {
				return false
			}
			k += n
			continue
		}
		if !isAlnum(c) && c != '_' && c != '-' && c != '.' || k == s && !isLetter(c) && c != '_' {
			return false
		}
		k++
	}
	if chars < 2 {
		return false
	}
	if machineName(host) {
		return true // the rest of the prompt may have been cut off (a title)
	}
	var buf [promptDirMax]byte
	rest := withoutSGR(buf[:0], b[e:min(len(b), e+2*promptDirMax)])
	return promptAfterHost(rest) || powerlineAfterHost(rest)
}

// powerlineAfterHost reports whether rest, what follows name@host
// (colours left out), starts, after any spaces, with a powerline
// separator: a glyph of Unicode's private use area from U+E0B0 to U+E0D4
// (U+E0B0–U+E0B3, the arrows of agnoster, oh-my-posh, powerlevel10k and
// powerline-go; the rounded, flame, pixel… ones after them), written as
// itself or as a JSON escape (\ue0b0, by a writer that escapes every
// non-ASCII character). A powerline prompt draws its segments between
// them: " name@host <U+E0B0> ~/src <U+E0B0>". Other glyphs of the area
// (icons, the branch's U+E0A0) end no segment.
func powerlineAfterHost(rest []byte) bool {
	i := 0
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	rest = rest[i:]
	r, _ := utf8.DecodeRune(rest)
	if len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' && allHex(rest[2:6]) {
		r = 0
		for _, c := range rest[2:6] {
			r = r<<4 | rune(hexVal(c))
		}
	}
	return r >= 0xE0B0 && r <= 0xE0D4
}

// promptAfterHost reports whether rest, what follows name@host (colours
// left out), is the rest of a prompt: a directory (one word: ~, /path, or
// a name; bash's after a colon, a path), an optional " (branch)" and "]",
// then %, $, # or > and a space, the line's end or a cut ("…", a title's).
// A word that is no directory (-D, --force, &&, 50) is no prompt:
// "yarn add react@next -D # dev" is a command.
func promptAfterHost(rest []byte) bool {
	promptEnd := func(k int) bool { // the %, $, # or > at k ends the prompt: a space, the line's or the string's end
		if k+1 == len(rest) || rest[k+1] == ' ' || rest[k+1] == '"' || rest[k+1] == '\n' || rest[k+1] == '\r' {
			return true
		}
		return rest[k+1] == '\\' && k+2 < len(rest) && bytes.IndexByte([]byte(`"tnr`), rest[k+2]) >= 0 // JSON: \" \t \n \r
	}
	cut := func(k int) bool { return bytes.HasPrefix(rest[k:], []byte("…")) }
	isEnd := func(c byte) bool { return c == '%' || c == '$' || c == '#' || c == '>' }
	if len(rest) < 2 || rest[0] != ':' && rest[0] != ' ' {
		return false // name@host is followed by a directory
	}
	bash := rest[0] == ':'
	i := 1
	if bash && rest[i] == ' ' {
		i++
	}
	start := i
	for i < len(rest) && rest[i] != ' ' && rest[i] != ']' && rest[i] != '\n' && rest[i] != '\\' && !cut(i) {
		i++
	}
	dir := rest[start:i]
	switch {
	case len(dir) == 0:
		return false
	case bash && dir[0] != '~' && dir[0] != '/':
		return false // nginx@sha256:0123abcd: no path
	case !bash && dir[0] != '~' && dir[0] != '/' && !isAlnum(dir[0]) && dir[0] != '_' && dir[0] != '.',
		!bash && bytes.Trim(dir, "0123456789") == nil:
		return false // -D, --force, &&, 50
	case i < len(rest) && cut(i):
		return true // a title cut after the directory
	case len(dir) > 1 && isEnd(dir[len(dir)-1]) && promptEnd(i-1):
		return true // ~/src$, /etc#, fish's ~/src>
	}
	if i+1 < len(rest) && rest[i] == ' ' && rest[i+1] == '(' { // a git branch
		j := bytes.IndexByte(rest[i:], ')')
		if j < 0 {
			return false
		}
		i += j + 1
	}
	if i < len(rest) && rest[i] == ']' { // Fedora's [name@host dir]$
		i++
	}
	if i < len(rest) && rest[i] == ' ' {
		i++
	}
	if i < len(rest) && cut(i) {
		return true
	}
	return i < len(rest) && isEnd(rest[i]) && promptEnd(i)
}

// kaliSep is ㉿ (U+327F), written by Kali Linux's zsh prompt in place of
// name@host's "@": ┌──(kali㉿kali)-[~/src]. Little else writes it.
var kaliSep = []byte("㉿")

// scanKaliPrompts finds Kali Linux's prompt, name㉿host, wherever it is
// (in its frame ┌──(name㉿host)-[dir] or not): the name becomes [USER],
// the host [HOST]; ㉿ and the colours before, between and after them stay.
// A host is ASCII letters, digits, '.', '-' and '_'; a name too, and
// letters, digits and marks past ASCII (élise, 山田; as themselves or as
// JSON escapes, \u00e9lise), taken whole; neither is empty (the name's
// leading dots and marks and the host's trailing dots and dashes, a
// sentence's, left out). Found by a search for ㉿'s UTF-8 bytes.
func scanKaliPrompts(b []byte, sp []span) []span {
	indexAll(b, kaliSep, func(i int) {
		ne := i // the name's end: before ㉿ and the colours before it
		for s := sgrBefore(b, ne); s >= 0; s = sgrBefore(b, ne) {
			ne = s
		}
		// The name (élise, 山田q7fv, \u00e9lise), wideNameMax characters
		// at most: what lies further is no name's.
		s, _ := nameWalk(b, ne, ne, wideNameMax, true, func(b []byte, i int) bool {
			return isHostByte(b[i-1]) && !afterSGR(b, i) // a colour's "m" is no part of it
		})
		s = nameFrom(b, s, ne)
		hs := i + len(kaliSep) // the host's start: after ㉿ and its colours
		for hs < len(b) {
			n := sgrAt(b, hs)
			if n == 0 {
				break
			}
			hs += n
		}
		e := hs
		for e < len(b) {
			if isHostByte(b[e]) {
				e++
			} else if r, n := wideRuneAt(b, e); n > 0 && wideNameRune(r) {
				e += n // a host's letter past ASCII (höst): the host whole
			} else {
				break
			}
		}
		for e > hs && (b[e-1] == '.' || b[e-1] == '-') {
			e--
		}
		if s < ne && hs < e {
			sp = append(sp, span{s, ne, UserMask}, span{hs, e, hostMask})
		}
	})
	return sp
}

// isHostByte reports a byte of a user or a host name in a prompt:
// [A-Za-z0-9._-].
func isHostByte(c byte) bool { return class[c]&cKey != 0 }

// withoutSGR appends b to dst without its colour sequences (ESC [ … m,
// raw or written \u001b as JSON has it), up to dst's capacity.
func withoutSGR(dst, b []byte) []byte {
	for i := 0; i < len(b) && len(dst) < cap(dst); i++ {
		if n := sgrAt(b, i); n > 0 {
			i += n - 1
			continue
		}
		dst = append(dst, b[i])
	}
	return dst
}

// sgrAt is the length of the colour sequence starting at b[i] (0: none).
func sgrAt(b []byte, i int) int {
	j := i
	switch {
	case b[i] == 0x1b:
		j++
	case bytes.HasPrefix(b[i:], []byte(`\u001b`)) || bytes.HasPrefix(b[i:], []byte(`\u001B`)):
		j += 6
	default:
		return 0
	}
	if j >= len(b) || b[j] != '[' {
		return 0
	}
	for j++; j < len(b) && (isDigit(b[j]) || b[j] == ';'); j++ {
	}
	if j >= len(b) || b[j] != 'm' {
		return 0
	}
	return j + 1 - i
}

// machineName reports whether a host is named as a computer's default
// name is (Alices-MacBook-Pro, Alices-MacBook-Pro-2, DESKTOP-4F2K9Q1):
// name@host is a prompt then, whatever follows.
func machineName(host []byte) bool {
	h := bytes.TrimRight(host, "0123456789")
	h = bytes.TrimSuffix(h, []byte("-"))
	for _, m := range []string{"-MacBook-Pro", "-MacBook-Air", "-MacBook", "-iMac", "-Mac-mini", "-Mac-Studio", "-Mac-Pro"} {
		if bytes.HasSuffix(h, []byte(m)) {
			return true
		}
	}
	return bytes.HasPrefix(host, []byte("DESKTOP-")) || bytes.HasPrefix(host, []byte("LAPTOP-"))
}

// promptDirMax is how far after name@host a prompt's end (%, $, # or >)
// is looked for: the directory it shows, its git branch.
const promptDirMax = 160

// inURLAuthority reports whether the ':' at colon follows the user of a
// URL ("scheme://user:"), not a label ("Email:").
func inURLAuthority(b []byte, colon int) bool {
	// Back over the user (and any ':' or '=' of a password) to the scheme's
	// "://", within the word.
	for k := colon; k >= 3 && colon-k < 256; k-- {
		if string(b[k-3:k]) == "://" {
			return true
		}
		if c := b[k-1]; c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '/' || c == '@' || c == '\\' {
			return false
		}
	}
	return false
}

func allLetters(s []byte) bool {
	for _, c := range s {
		if !isUpper(c) && !isLower(c) {
			return false
		}
	}
	return true
}

func allDigits(s []byte) bool {
	for _, c := range s {
		if !isDigit(c) {
			return false
		}
	}
	return len(s) > 0
}

// fileExtensions are top-level domains that are far more often the end of
// a file name: pkg@1.0/index.js is not an address.
var fileExtensions = map[string]bool{
	"png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true, "ico": true,
	"js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true, "json": true,
	"css": true, "scss": true, "html": true, "md": true, "py": true, "go": true, "rs": true,
	"rb": true, "java": true, "kt": true, "txt": true, "yml": true, "yaml": true, "toml": true,
	"lock": true, "map": true, "wasm": true, "vue": true, "svelte": true, "sh": true,
}

// scanPrivateKeys finds private key blocks, with real or JSON-escaped
// newlines: BEGIN to END when both are in the same string, else the BEGIN
// line and the base64 lines after it.
func scanPrivateKeys(b []byte, sp []span) []span {
	begin := []byte("-----BEGIN")
	indexAll(b, begin, func(i int) {
		h := i + len(begin)
		he := bytes.Index(b[h:min(len(b), h+80)], []byte("-----"))
		if he < 0 || !bytes.Contains(b[h:h+he], []byte("PRIVATE KEY")) {
			return
		}
		he += h + 5
		if end := bytes.Index(b[he:min(len(b), he+64<<10)], []byte("-----END")); end >= 0 {
			end += he
			if ee := bytes.Index(b[end+8:min(len(b), end+88)], []byte("-----")); ee >= 0 {
				ee += end + 8 + 5
				if bytes.Contains(b[end:ee], []byte("PRIVATE KEY")) && !bareQuote(b, i, ee) {
					sp = append(sp, span{i, ee, Mask})
					return
				}
			}
		}
		e := he
		for e < len(b) {
			switch c := b[e]; {
			case class[c]&cB64 != 0 && c != '_' && c != '-', c == '\r', c == '\n':
				e++
			case c == '\\' && e+1 < len(b) && (b[e+1] == 'n' || b[e+1] == 'r'):
				e += 2
			default:
				sp = append(sp, span{i, e, Mask})
				return
			}
		}
		sp = append(sp, span{i, e, Mask})
	})
	return sp
}

// bareQuote reports whether b[i:j] holds a quote that is not escaped: the
// end of a JSON string, which a mask must not take away.
func bareQuote(b []byte, i, j int) bool {
	for k := i; k < j; k++ {
		if b[k] == '"' && (k == 0 || b[k-1] != '\\' || !escapingAt(b, k-1)) {
			return true
		}
	}
	return false
}

// scanHomes finds home directories: the user's own (r.home) becomes ~,
// another user's name becomes [USER] (/Users/[USER]/src,
// C:\Users\[USER], -Users-[USER]-src in a project key).
func (r *Redactor) scanHomes(b []byte, sp []span) []span {
	own := func(h []byte, j int) {
		end := j + len(h)
		if end < len(b) && isNameByte(b[end]) {
			return // /home/al must not turn /home/alice into ~ice
		}
		if h[0] == '-' && j > 0 && (isAlnum(b[j-1]) || b[j-1] == '-') {
			return // the key form starts a name
		}
		sp = append(sp, span{j, end, HomeMask})
	}
	for _, h := range r.home {
		indexAll(b, h, func(j int) { own(h, j) })
	}
	if r.prompt != nil {
		// name@host, as a shell prompt in a command's output shows the
		// user and the machine (an email's domain has a dot and a TLD:
		// scanEmails masks that one first).
		indexAll(b, r.prompt, func(j int) {
			if j > 0 && glued(b, j) { // after a line break or a colour, as a prompt is: not glued
				return
			}
			e := j + len(r.prompt)
			for e < len(b) && (isAlnum(b[e]) || b[e] == '-' || b[e] == '_' || b[e] == '.') {
				e++
			}
			if e > j+len(r.prompt) {
				sp = append(sp, span{j, e, UserMask + "@" + hostMask})
			}
		})
	}
	for _, dir := range [][]byte{[]byte("Users"), []byte("home")} {
		indexAll(b, dir, func(i int) {
			for _, f := range r.homeAt {
				if j := i - f.at; j >= 0 && bytes.HasPrefix(b[j:], f.form) {
					own(f.form, j)
				}
			}
			sp = otherHome(b, i, len(dir), dir[0] == 'U', sp)
		})
	}
	return sp
}

// otherHome masks the user name after "Users" or "home" at b[i:i+n] when
// they are a home directory: /Users/name, /home/name, C:\Users\name (also
// JSON-escaped), or -Users-name- in a project key.
func otherHome(b []byte, i, n int, windows bool, sp []span) []span {
	if i == 0 || i+n >= len(b) {
		return sp
	}
	before, after := b[i-1], b[i+n]
	if before != after {
		return sp
	}
	name := i + n + 1
	switch before {
	case '/':
		drive := windows && i >= 3 && (isUpper(b[i-2]) || isLower(b[i-2])) && b[i-3] == '/' // /c/Users, /mnt/c/Users
		if i >= 2 && !drive && glued(b, i-1) {
			return sp // a path inside another: example.com/home/x, src/home/
		}
	case '\\':
		if !windows {
			return sp
		}
		for name < len(b) && b[name] == '\\' {
			name++
		}
		if escapingAt(b, name-1) {
			// C:\Users\bob as text (in JSON it is C:\\Users\\bob): the
			// backslash goes with the name, never left to escape a mask.
			e := name
			for e < len(b) && (isAlnum(b[e]) || b[e] == '.' || b[e] == '_' || b[e] == '-') {
				e++
			}
			if e > name {
				sp = append(sp, span{name - 1, e, `\` + UserMask})
			}
			return sp
		}
	case '-':
		// A project key: "-Users-bob-src", "C--Users-bob".
		switch {
		case i < 2 || !isAlnum(b[i-2]) && b[i-2] != '-':
		case b[i-2] == '-' && i >= 3 && (isUpper(b[i-3]) || isLower(b[i-3])) && (i < 4 || !isAlnum(b[i-4])):
		default:
			return sp
		}
		e := name
		for e < len(b) && isAlnum(b[e]) {
			e++
		}
		if e > name {
			sp = append(sp, span{name, e, UserMask})
		}
		return sp
	default:
		return sp
	}
	e := name
	for e < len(b) && (isAlnum(b[e]) || b[e] == '.' || b[e] == '_' || b[e] == '-') {
		e++
	}
	if e == name || string(b[name:e]) == "Shared" {
		return sp
	}
	return append(sp, span{name, e, UserMask})
}

// glued reports whether the text before b[i] ends in a byte of a name
// (or a '-'): a JSON escape there is the character it stands for, so
// caf\u00e9/home/x is a path inside another as café/home/x is, and \n or
// \u0001 before it is a separator.
func glued(b []byte, i int) bool {
	c, esc := b[i-1], afterEscape(b, i)
	if u, ok := uEscapeBefore(b, i); ok {
		c, esc = u, false
	}
	return (isNameByte(c) || c == '-') && !esc && !afterSGR(b, i) && !sepBefore(b, i)
}

// afterSGR reports whether b[:i] ends with a colour sequence (ESC [ … m,
// its ESC raw or written \u001b as JSON has it): a terminal's output
// colours a path or a prompt, and the "m" is no part of what follows.
func afterSGR(b []byte, i int) bool { return sgrBefore(b, i) >= 0 }

// sgrBefore is where the colour sequence b[:i] ends with starts (-1: it
// ends with none).
func sgrBefore(b []byte, i int) int {
	if i < 3 || b[i-1] != 'm' {
		return -1
	}
	j := i - 2
	for j >= 0 && (isDigit(b[j]) || b[j] == ';') {
		j--
	}
	if j < 1 || b[j] != '[' {
		return -1
	}
	if b[j-1] == 0x1b {
		return j - 1
	}
	if j >= 6 && bytes.EqualFold(b[j-6:j], []byte(`\u001b`)) && escapingAt(b, j-6) {
		return j - 6
	}
	return -1
}

func isNameByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '.' || c >= 0x80
}
