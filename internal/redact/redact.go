// Package redact masks secrets and the user's home path in transcript text
// (`cctx show --redact`): API keys and tokens recognised by their known
// prefixes, long random-looking tokens, Authorization header values, env
// assignments of *_KEY/*_TOKEN/*_SECRET/*PASSWORD variables, private key
// blocks, and the home directory.
//
// It works on raw JSONL lines as well as on plain text, and keeps a JSON
// line valid JSON: every mask is plain ASCII without quotes or
// backslashes, and no match may start inside a JSON escape (\n, \t, \u…),
// so "\nghp_…" loses the token, never the escape.
package redact

import (
	"bytes"
	"math"
	"regexp"
	"strings"
)

// Mask replaces a secret. Known prefixes are kept before it ("ghp_" +
// Mask) so a reader still sees what kind of secret was there.
const Mask = "[REDACTED]"

// HomeMask replaces the home directory.
const HomeMask = "~"

// Redactor masks secrets. The zero value masks secrets but not a home
// path.
type Redactor struct {
	home    []string // forms of the home directory to replace, longest first
	homeKey string   // the home directory as a project key (-home-user)
}

// New returns a Redactor that also replaces home (the user's home
// directory; "" or "/" replaces nothing).
func New(home string) *Redactor {
	r := &Redactor{}
	home = strings.TrimRight(home, `/\`)
	if len(home) > 1 {
		r.home = append(r.home, home)
		if strings.Contains(home, `\`) {
			// As it appears inside JSON strings.
			r.home = append(r.home, strings.ReplaceAll(home, `\`, `\\`))
		}
		var k strings.Builder
		for _, c := range home {
			if c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				k.WriteRune(c)
			} else {
				k.WriteByte('-')
			}
		}
		r.homeKey = k.String()
	}
	return r
}

// A rule finds secrets; keep is how many bytes of a match stay (a label
// such as "Authorization: Bearer " or a known prefix).
type rule struct {
	re   *regexp.Regexp
	keep func(m []byte, groups []int) int
}

func keepGroup(n int) func([]byte, []int) int {
	return func(_ []byte, g []int) int {
		if g[2*n] < 0 {
			return 0
		}
		return g[2*n+1] - g[0]
	}
}

var rules = []rule{
	// Private key blocks, written with real or JSON-escaped newlines.
	{re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)},
	{re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?:[A-Za-z0-9+/=\r\n]|\\[nr])*`)},
	// Authorization headers: keep the header name and scheme.
	{re: regexp.MustCompile(`(?i)((?:proxy-)?authorization(?:\\?["'])?\s*[:=]\s*(?:\\?["'])?\s*(?:bearer|basic|token|bot|digest)?\s*)[A-Za-z0-9._~+/=-]{8,}`), keep: keepGroup(1)},
	// Known token formats, by prefix.
	{re: regexp.MustCompile(`\b(sk-ant-(?:api|admin|oat)\d{2}-)[A-Za-z0-9_-]{20,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(sk-ant-)[A-Za-z0-9_-]{20,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(sk-(?:proj-|svcacct-|admin-)?)[A-Za-z0-9_-]{20,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(gh[pousr]_)[A-Za-z0-9]{30,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(github_pat_)[A-Za-z0-9_]{22,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(glpat-)[A-Za-z0-9_-]{20,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(xox[abposr]-)[A-Za-z0-9-]{10,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(AIza)[0-9A-Za-z_-]{35}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(npm_)[A-Za-z0-9]{36}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(hf_)[A-Za-z0-9]{30,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b([rs]k_(?:live|test)_)[A-Za-z0-9]{16,}`), keep: keepGroup(1)},
	{re: regexp.MustCompile(`\b(SG\.)[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`), keep: keepGroup(1)},
	// JSON Web Tokens.
	{re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	// NAME_KEY=value, NAME_TOKEN: value, … (environment and config files).
	{re: regexp.MustCompile(`\b([A-Z][A-Z0-9_]*(?:API_?KEY|ACCESS_?KEY|SECRET(?:_?KEY)?|TOKEN|PASSWORD|PASSWD|CREDENTIALS?)\s*[=:]\s*(?:\\?["'])?)[A-Za-z0-9._~+/=@%:-]{8,}`), keep: keepGroup(1)},
}

// tokenRe finds candidates for the entropy rule: long runs of the
// characters random tokens are made of.
var tokenRe = regexp.MustCompile(`[A-Za-z0-9+/_=-]{32,}`)

// Entropy rule limits. Hex (git hashes, sha256) has at most 4 bits per
// character and uuids carry dashes; random base64/base62 tokens of this
// length sit around 4.5–5.5 bits.
const (
	minEntropy  = 4.2
	maxTokenLen = 512 // longer runs are data (base64 images, signatures), not keys
)

// notSecrets are prefixes of long ids that look random but are not
// secrets: API message, tool call and request ids.
var notSecrets = []string{"msg_", "toolu_", "srvtoolu_", "req_", "file_", "chatcmpl-", "call_", "resp_"}

// Bytes masks secrets in b and returns the result (b itself when nothing
// matched).
func (r *Redactor) Bytes(b []byte) []byte {
	for _, ru := range rules {
		b = r.apply(b, ru)
	}
	b = maskEntropy(b)
	for _, h := range r.home {
		b = replaceHome(b, []byte(h), []byte(HomeMask))
	}
	if r.homeKey != "" {
		b = replaceHome(b, []byte(r.homeKey), []byte(HomeMask))
	}
	return b
}

// String masks secrets in s.
func (r *Redactor) String(s string) string { return string(r.Bytes([]byte(s))) }

func (r *Redactor) apply(b []byte, ru rule) []byte {
	locs := ru.re.FindAllSubmatchIndex(b, -1)
	if len(locs) == 0 {
		return b
	}
	var out []byte
	last := 0
	for _, g := range locs {
		start, end := g[0], g[1]
		keep := 0
		if ru.keep != nil {
			keep = ru.keep(b[start:end], g)
		}
		if start+keep >= end {
			continue
		}
		if escaped(b, start) && keep == 0 {
			// The match starts at the letter of a JSON escape: leave it.
			continue
		}
		out = append(out, b[last:start+keep]...)
		out = append(out, Mask...)
		last = end
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// escaped reports whether b[i] follows an odd number of backslashes: it is
// the second character of an escape sequence.
func escaped(b []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func maskEntropy(b []byte) []byte {
	locs := tokenRe.FindAllIndex(b, -1)
	if len(locs) == 0 {
		return b
	}
	var out []byte
	last := 0
	for _, l := range locs {
		start, end := l[0], l[1]
		if escaped(b, start) {
			start++ // "\nABC…": the n belongs to the escape
		}
		if end-start < 32 || end-start > maxTokenLen {
			continue
		}
		tok := b[start:end]
		if !looksSecret(tok) {
			continue
		}
		out = append(out, b[last:start]...)
		out = append(out, Mask...)
		last = end
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// looksSecret: mixed case and digits, high entropy, not a known id and not
// a path.
func looksSecret(tok []byte) bool {
	for _, p := range notSecrets {
		if bytes.HasPrefix(tok, []byte(p)) {
			return false
		}
	}
	if bytes.Count(tok, []byte("/")) > 2 || bytes.Contains(tok, []byte("[REDACTED")) {
		return false // a path, or already masked
	}
	var upper, lower, digit bool
	for _, c := range tok {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return upper && lower && digit && entropy(tok) >= minEntropy
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

// replaceHome replaces home where it is a whole path prefix: followed by
// a separator, a quote or the end, not by more name characters
// (/home/al must not turn /home/alice into ~ice).
func replaceHome(b, home, mask []byte) []byte {
	if len(home) == 0 || !bytes.Contains(b, home) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; ; {
		j := bytes.Index(b[i:], home)
		if j < 0 {
			break
		}
		j += i
		end := j + len(home)
		if end < len(b) && isNameByte(b[end]) {
			i = end
			continue
		}
		out = append(out, b[last:j]...)
		out = append(out, mask...)
		last = end
		i = end
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c >= 0x80
}
