package redact

import (
	"bytes"
	"math"
)

// minRun is the shortest run of token characters looked at: every token
// format below is longer. Runs are found by probing one byte in minRun,
// so text between tokens is mostly skipped, not read.
const minRun = 16

// maxRun: a longer run of token characters is data (base64 of an image,
// a signature, a minified bundle), not a key: it is left whole.
const maxRun = 4096

// A tokenRule is a token format known by its prefix: the prefix, then a
// body of chars of at least min (and, if max > 0, at most max) bytes.
type tokenRule struct {
	prefix string
	keep   bool // the prefix stays visible before the mask
	chars  *[256]bool
	min    int
	max    int
	// bound: the token must end where a word ends (the byte after it is
	// not [A-Za-z0-9_]); with max, a longer run is not this token.
	bound bool
	// check, when set, must accept the body.
	check func(body []byte) bool
	// match, when set, replaces the body rules: the token's length past
	// the prefix, 0 for none.
	match func(rest []byte) int
}

func charset(extra string, ranges ...string) *[256]bool {
	var t [256]bool
	for _, r := range ranges {
		for c := r[0]; c <= r[2]; c++ {
			t[c] = true
		}
	}
	for i := 0; i < len(extra); i++ {
		t[extra[i]] = true
	}
	return &t
}

var (
	alnum    = charset("", "a-z", "A-Z", "0-9")
	word     = charset("_", "a-z", "A-Z", "0-9")
	wordDash = charset("_-", "a-z", "A-Z", "0-9")
	b64      = charset("+/=", "a-z", "A-Z", "0-9")
	b64url   = charset("+/=_-", "a-z", "A-Z", "0-9")
	hexl     = charset("", "a-f", "0-9")
	hexAny   = charset("", "a-f", "A-F", "0-9")
	upAlnum  = charset("", "A-Z", "0-9")
	dotted   = charset("_.=-", "a-z", "A-Z", "0-9")
	alDash   = charset("-", "a-z", "A-Z", "0-9")
	path     = charset("_/-", "a-z", "A-Z", "0-9")
	slackWH  = charset("+/", "a-z", "A-Z", "0-9")
)

// tokenRules: the formats of gitleaks' rule set (config/gitleaks.toml)
// that have a prefix of their own, for the services whose keys end up in
// coding sessions, plus Anthropic's; longest prefix first where one starts
// another. The formats gitleaks finds by a keyword near an assignment
// (a Twilio auth token, a Cloudflare key) are the assignment rules.
var tokenRules = []tokenRule{
	// Anthropic, OpenAI and other "sk-" keys.
	{prefix: "sk-ant-api03-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-ant-admin01-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-ant-oat01-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-ant-ort01-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-ant-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-proj-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-svcacct-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-admin-", keep: true, chars: wordDash, min: 20},
	{prefix: "sk-or-v1-", keep: true, chars: hexAny, min: 32},
	{prefix: "sk-", keep: true, chars: wordDash, min: 20, check: hasDigit},
	// GitHub, GitLab.
	{prefix: "ghp_", keep: true, chars: alnum, min: 30},
	{prefix: "gho_", keep: true, chars: alnum, min: 30},
	{prefix: "ghu_", keep: true, chars: alnum, min: 30},
	{prefix: "ghs_", keep: true, chars: alnum, min: 30},
	{prefix: "ghr_", keep: true, chars: alnum, min: 30},
	{prefix: "github_pat_", keep: true, chars: word, min: 22},
	{prefix: "glpat-", keep: true, chars: wordDash, min: 20},
	{prefix: "gldt-", keep: true, chars: wordDash, min: 20},
	{prefix: "glrt-", keep: true, chars: wordDash, min: 20},
	{prefix: "glptt-", keep: true, chars: wordDash, min: 20},
	{prefix: "glsoat-", keep: true, chars: wordDash, min: 20},
	{prefix: "glcbt-", keep: true, chars: wordDash, min: 20},
	{prefix: "glft-", keep: true, chars: wordDash, min: 20},
	{prefix: "glimt-", keep: true, chars: wordDash, min: 20},
	{prefix: "gloas-", keep: true, chars: wordDash, min: 20},
	{prefix: "glagent-", keep: true, chars: wordDash, min: 20},
	{prefix: "GR1348941", keep: true, chars: wordDash, min: 20},
	// Slack tokens and webhooks.
	{prefix: "xoxb-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxp-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxa-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxo-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxs-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxr-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxe.xoxb-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxe.xoxp-", keep: true, chars: alDash, min: 10},
	{prefix: "xoxe-", keep: true, chars: alDash, min: 10},
	{prefix: "xapp-", keep: true, chars: alDash, min: 10},
	{prefix: "hooks.slack.com/services/", keep: true, chars: slackWH, min: 20},
	{prefix: "hooks.slack.com/workflows/", keep: true, chars: slackWH, min: 20},
	{prefix: "hooks.slack.com/triggers/", keep: true, chars: slackWH, min: 20},
	// Discord webhooks.
	{prefix: "discord.com/api/webhooks/", keep: true, chars: path, min: 20},
	{prefix: "discordapp.com/api/webhooks/", keep: true, chars: path, min: 20},
	// AWS, Google (API keys, OAuth client secrets, access tokens).
	{prefix: "AKIA", keep: true, chars: upAlnum, min: 16, max: 16, bound: true},
	{prefix: "ASIA", keep: true, chars: upAlnum, min: 16, max: 16, bound: true},
	{prefix: "ABIA", keep: true, chars: upAlnum, min: 16, max: 16, bound: true},
	{prefix: "ACCA", keep: true, chars: upAlnum, min: 16, max: 16, bound: true},
	{prefix: "AIza", keep: true, chars: wordDash, min: 35, max: 35, bound: true},
	{prefix: "GOCSPX-", keep: true, chars: wordDash, min: 20},
	{prefix: "ya29.", keep: true, chars: wordDash, min: 20},
	// Payments: Stripe, Square.
	{prefix: "sk_live_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "sk_test_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "sk_prod_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "rk_live_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "rk_test_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "rk_prod_", keep: true, chars: alnum, min: 10, check: hasDigit},
	{prefix: "whsec_", keep: true, chars: alnum, min: 24},
	{prefix: "sq0atp-", keep: true, chars: wordDash, min: 22},
	{prefix: "sq0csp-", keep: true, chars: wordDash, min: 22},
	// Twilio API key (SK and 32 hex digits).
	{prefix: "SK", keep: true, chars: hexAny, min: 32, max: 32, bound: true, check: func(b []byte) bool { return hasDigit(b) && bytes.ContainsFunc(b, func(r rune) bool { return r > '9' }) }},
	// Registries and developer platforms.
	{prefix: "npm_", keep: true, chars: alnum, min: 36},
	{prefix: "pypi-AgEIcHlwaS5vcmc", keep: true, chars: wordDash, min: 50},
	{prefix: "rubygems_", keep: true, chars: hexl, min: 48},
	{prefix: "hf_", keep: true, chars: alnum, min: 30},
	{prefix: "api_org_", keep: true, chars: alnum, min: 30},
	{prefix: "dop_v1_", keep: true, chars: hexl, min: 64},
	{prefix: "doo_v1_", keep: true, chars: hexl, min: 64},
	{prefix: "dor_v1_", keep: true, chars: hexl, min: 64},
	{prefix: "dapi", keep: true, chars: hexl, min: 32, max: 32},
	{prefix: "shpat_", keep: true, chars: hexAny, min: 32},
	{prefix: "shpca_", keep: true, chars: hexAny, min: 32},
	{prefix: "shppa_", keep: true, chars: hexAny, min: 32},
	{prefix: "shpss_", keep: true, chars: hexAny, min: 32},
	{prefix: "PMAK-", keep: true, chars: alDash, min: 40},
	{prefix: "lin_api_", keep: true, chars: alnum, min: 40},
	{prefix: "sntryu_", keep: true, chars: hexl, min: 64},
	{prefix: "sntrys_", keep: true, chars: b64url, min: 50},
	{prefix: "glc_", keep: true, chars: b64, min: 32},
	{prefix: "glsa_", keep: true, chars: word, min: 32},
	{prefix: "hvs.", keep: true, chars: wordDash, min: 90},
	{prefix: "hvb.", keep: true, chars: wordDash, min: 100},
	{prefix: "pul-", keep: true, chars: hexl, min: 40},
	{prefix: "HRKU-AA", keep: true, chars: wordDash, min: 58},
	{prefix: "ATATT3", keep: true, chars: b64url, min: 100},
	{prefix: "fo1_", keep: true, chars: wordDash, min: 43},
	{prefix: "fm2_", keep: true, chars: b64, min: 100},
	{prefix: "AGE-SECRET-KEY-1", keep: true, chars: upAlnum, min: 58},
	{prefix: "ops_eyJ", keep: true, chars: b64, min: 100},
	{prefix: "dp.pt.", keep: true, chars: alnum, min: 40},
	{prefix: "dp.st.", keep: true, chars: alnum, min: 40},
	{prefix: "dp.ct.", keep: true, chars: alnum, min: 40},
	{prefix: "dp.sa.", keep: true, chars: alnum, min: 40},
	{prefix: "pscale_tkn_", keep: true, chars: dotted, min: 32},
	{prefix: "pscale_pw_", keep: true, chars: dotted, min: 32},
	{prefix: "pscale_oauth_", keep: true, chars: dotted, min: 32},
	{prefix: "xkeysib-", keep: true, chars: wordDash, min: 64},
	{prefix: "tskey-", keep: true, chars: wordDash, min: 20},
	{prefix: "ntn_", keep: true, chars: alnum, min: 40},
	{prefix: "secret_", keep: true, chars: alnum, min: 40},
	{prefix: "figd_", keep: true, chars: wordDash, min: 30},
	{prefix: "sbp_", keep: true, chars: hexl, min: 40},
	{prefix: "sb_secret_", keep: true, chars: wordDash, min: 20},
	{prefix: "LTAI", keep: true, chars: alnum, min: 20, max: 30, bound: true},
	{prefix: "AKCp", keep: true, chars: alnum, min: 60},
	// AI APIs.
	{prefix: "pplx-", keep: true, chars: alnum, min: 40},
	{prefix: "gsk_", keep: true, chars: alnum, min: 40},
	{prefix: "xai-", keep: true, chars: alnum, min: 60},
	{prefix: "r8_", keep: true, chars: alnum, min: 30},
	{prefix: "nvapi-", keep: true, chars: wordDash, min: 40},
	// SendGrid: SG.<id>.<secret>.
	{prefix: "SG.", keep: true, match: func(rest []byte) int {
		a := span0(rest, wordDash)
		if a < 16 || a >= len(rest) || rest[a] != '.' {
			return 0
		}
		if c := span0(rest[a+1:], wordDash); c >= 16 {
			return a + 1 + c
		}
		return 0
	}},
	// JSON Web Tokens: header.payload.signature, all three masked.
	{prefix: "eyJ", match: func(rest []byte) int {
		a := span0(rest, wordDash)
		if a < 8 || a+1 >= len(rest) || rest[a] != '.' || !bytes.HasPrefix(rest[a+1:], []byte("eyJ")) {
			return 0
		}
		p := a + 1 + span0(rest[a+1:], wordDash)
		if p-(a+1) < 11 || p >= len(rest) || rest[p] != '.' {
			return 0
		}
		if s := span0(rest[p+1:], wordDash); s >= 8 {
			return p + 1 + s
		}
		return 0
	}},
}

// isUUID reports the run of a uuid (8-4-4-4-12 hex digits), the most
// common long run in a transcript: no token rule matches one.
func isUUID(r []byte) bool {
	return len(r) == 36 && r[8] == '-' && r[13] == '-' && r[18] == '-' && r[23] == '-'
}

// span0 is the length of the start of b made of chars.
func span0(b []byte, chars *[256]bool) int {
	n := 0
	for n < len(b) && chars[b[n]] {
		n++
	}
	return n
}

// rulesByByte indexes tokenRules by the first byte of their prefix.
var rulesByByte [256][]*tokenRule

func init() {
	for i := range tokenRules {
		r := &tokenRules[i]
		rulesByByte[r.prefix[0]] = append(rulesByByte[r.prefix[0]], r)
	}
}

// notSecrets are prefixes of long ids that look random but are not
// secrets: API message, tool call and request ids, and the hashes of
// package locks.
var notSecrets = [][]byte{
	[]byte("msg_"), []byte("toolu_"), []byte("srvtoolu_"), []byte("req_"), []byte("file_"),
	[]byte("chatcmpl-"), []byte("call_"), []byte("resp_"),
	[]byte("sha512-"), []byte("sha384-"), []byte("sha256-"), []byte("sha1-"),
}

// Entropy rule limits. Hex (git hashes, sha256) has at most 4 bits per
// character and uuids carry dashes; random base64/base62 tokens of this
// length sit around 4.5–5.5 bits.
const (
	minEntropyLen = 32
	maxEntropyLen = 512
	minEntropy    = 4.2
)

// scanTokens finds the tokens of tokenRules, Azure client secrets, bearer
// tokens and long random-looking tokens: all in runs of token characters
// at least minRun long.
func scanTokens(b []byte, sp []span) []span {
	n := len(b)
	for i := 0; i+minRun <= n; {
		j := i + minRun - 1
		if class[b[j]]&cRun == 0 {
			i = j + 1
			continue
		}
		// The run holding b[j]: every run of minRun bytes that starts in
		// [i, j] holds it (b[i-1], if any, is not a token byte).
		s := j
		for s > i && class[b[s-1]]&cRun != 0 {
			s--
		}
		e := j + 1
		for e+4 <= n && class[b[e]]&class[b[e+1]]&class[b[e+2]]&class[b[e+3]]&cRun != 0 {
			e += 4
		}
		for e < n && class[b[e]]&cRun != 0 {
			e++
		}
		if e-s >= minRun && e-s <= maxRun && !isUUID(b[s:e]) {
			sp = scanRun(b, s, e, sp)
		}
		i = e + 1
	}
	return sp
}

// scanRun looks for tokens in the run b[s:e].
func scanRun(b []byte, s, e int, sp []span) []span {
	s = boundary(b, s)  // "\nghp_…": the n belongs to the escape
	s = sgrEnd(b, s, e) // "\u001b[32mAKIA…": the 32m belongs to the colour
	if e-s < minRun {
		return sp
	}
	// "Bearer <token>" anywhere (a header written out, a curl command).
	if s >= 7 && bytes.EqualFold(b[s-7:s], []byte("bearer ")) && hasDigit(b[s:e]) {
		return append(sp, span{s, e, Mask})
	}
	found := len(sp)
	for p := s; p < e; p++ {
		if p > s {
			// To where the next word starts.
			for p < e && isWord(b[p-1]) {
				p++
			}
			if p >= e {
				break
			}
		}
		for _, r := range rulesByByte[b[p]] {
			if n := r.matchAt(b, p, e); n > 0 {
				start := p
				if r.keep {
					start += len(r.prefix)
				}
				sp = append(sp, span{start, p + n, Mask})
				p += n - 1
				break
			}
		}
	}
	if t := bytes.IndexByte(b[s:e], '~'); t >= 0 {
		sp = azureSecrets(b, s, e, s+t, sp)
	}
	if len(sp) > found {
		return sp // a known token: the rest of the run is not guessed at
	}
	// Long random-looking tokens, in the parts of the run a dot or a
	// tilde does not split.
	for a := s; a < e; {
		z := a
		for z < e && class[b[z]]&cB64 != 0 {
			if b[z] == '=' && z+1 < e && b[z+1] != '=' && class[b[z+1]]&cB64 != 0 {
				break // NAME=value: '=' is padding only at the end
			}
			z++
		}
		if z-a >= minEntropyLen && z-a <= maxEntropyLen && looksSecret(b, a, z) {
			sp = append(sp, span{a, z, Mask})
		}
		a = z + 1
	}
	return sp
}

// matchAt returns the length of the token of rule r at b[p:], within the
// run that ends at e; 0 when there is none.
func (r *tokenRule) matchAt(b []byte, p, e int) int {
	if p+len(r.prefix) > e || b[p+1] != r.prefix[1] || !bytes.HasPrefix(b[p:e], []byte(r.prefix)) {
		return 0
	}
	q := p + len(r.prefix)
	var n int
	if r.match != nil {
		if n = r.match(b[q:e]); n == 0 {
			return 0
		}
	} else {
		n = span0(b[q:e], r.chars)
		if n < r.min || r.max > 0 && n > r.max {
			return 0
		}
		if r.check != nil && !r.check(b[q:q+n]) {
			return 0
		}
	}
	if r.bound && q+n < len(b) && isWord(b[q+n]) {
		return 0
	}
	return len(r.prefix) + n
}

// azureSecrets finds Azure AD client secrets in the run b[s:e] (t is its
// first '~'): three characters, a digit, "Q~", then 31 to 34 more.
func azureSecrets(b []byte, s, e, t int, sp []span) []span {
	in := func(c byte) bool { return isWord(c) || c == '~' || c == '.' }
	for ; t >= 0 && t < e; t = nextByte(b, t+1, e, '~') {
		start := t - 5
		if start < s || b[t-1] != 'Q' || !isDigit(b[t-2]) || !in(b[start]) || !in(b[start+1]) || !in(b[start+2]) {
			continue
		}
		if start > s && in(b[start-1]) {
			continue
		}
		end := t + 1
		for end < e && (in(b[end]) || b[end] == '-') {
			end++
		}
		if n := end - t - 1; n >= 31 && n <= 34 {
			sp = append(sp, span{start, end, Mask})
		}
	}
	return sp
}

func nextByte(b []byte, from, to int, c byte) int {
	if from >= to {
		return -1
	}
	if k := bytes.IndexByte(b[from:to], c); k >= 0 {
		return from + k
	}
	return -1
}

// looksSecret: b[a:z] mixes upper case, lower case and digits with high
// entropy, and is not a known id, a path or a name made of words, base64
// data, or a thinking block's signature.
func looksSecret(b []byte, a, z int) bool {
	tok := b[a:z]
	for _, p := range notSecrets {
		if bytes.HasPrefix(tok, p) {
			return false
		}
	}
	if apiID(tok) {
		return false
	}
	if slash := bytes.Count(tok, []byte("/")); slash > 2 {
		return false // a path
	} else if slash > 0 {
		// A URL's or path's start (ai/code/session_01…): the last part
		// alone is the token, if any.
		if k := bytes.IndexByte(tok, '/'); k > 0 && allLower(tok[:k]) {
			k = bytes.LastIndexByte(tok, '/')
			return z-(a+k+1) >= minEntropyLen && looksSecret(b, a+k+1, z)
		}
	}
	for _, before := range []string{"base64,", `signature":"`, `signature\":\"`} {
		if a >= len(before) && string(b[a-len(before):a]) == before {
			return false // a data: URL, the signature of a thinking block
		}
	}
	var upper, lowerc, digit, wordy int
	run := 0 // small letters in a row: words, not noise
	for _, c := range tok {
		switch {
		case isUpper(c):
			upper++
		case isLower(c):
			lowerc++
		case isDigit(c):
			digit++
		}
		if isLower(c) {
			run++
			continue
		}
		if run >= 4 {
			wordy += run
		}
		run = 0
	}
	if run >= 4 {
		wordy += run
	}
	n := len(tok)
	// Random tokens are ~40 % capitals, and their small letters seldom
	// make runs of four: CamelCase names and dashed words are neither.
	return upper >= n/6 && lowerc >= n/6 && digit > 0 && wordy*10 < n*3 && entropy(tok) >= minEntropy
}

// apiID reports an API object id: lower-case words and "_01" then base62
// (msg_01…, toolu_01…, agent_msg_01…, session_01…, req_011C…).
func apiID(tok []byte) bool {
	i := bytes.Index(tok, []byte("_01"))
	return i > 0 && allLowerUnderscore(tok[:i])
}

func allLower(s []byte) bool {
	for _, c := range s {
		if !isLower(c) {
			return false
		}
	}
	return true
}

func allLowerUnderscore(s []byte) bool {
	for _, c := range s {
		if !isLower(c) && c != '_' {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s []byte) float64 {
	var counts [256]int
	for _, c := range s {
		counts[c]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// sgrEnd is, when the run b[s:e] starts inside a colour sequence (ESC [
// params m, the ESC raw or written \u001b), the index just past its "m";
// else s. A coloured line of a tool's output puts its key right after it.
func sgrEnd(b []byte, s, e int) int {
	q := s
	for q > 0 && (isDigit(b[q-1]) || b[q-1] == ';') {
		q--
	}
	if q == 0 || b[q-1] != '[' {
		return s
	}
	if !(q >= 2 && b[q-2] == 0x1b || q >= 7 && bytes.EqualFold(b[q-7:q-1], []byte(`\u001b`)) && escapingAt(b, q-7)) {
		return s
	}
	p := s
	for p < e && (isDigit(b[p]) || b[p] == ';') {
		p++
	}
	if p < e && b[p] == 'm' {
		return p + 1
	}
	return s
}
