package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// planted are secrets of every kind the redactor knows, each with the part
// that must not survive.
var planted = []struct{ text, secret string }{
	{"sk-ant-api03-Q7fVx2LmN9pR4tZ8wK1yB6cD3hJ5gE0aS-_u9", "Q7fVx2LmN9pR4tZ8wK1yB6cD3hJ5gE0aS"},
	{"ghp_Q7fVx2LmN9pR4tZ8wK1yB6cD3hJ5gE0aS9u", "Q7fVx2LmN9pR4tZ8wK1yB6cD3hJ5gE0aS9u"},
	{"AKIAQ7FVX2LMN9PR4TZ8", "Q7FVX2LMN9PR4TZ8"},
	{"xoxb-7245190385-Q7fVx2LmN9pR4tZ8", "7245190385-Q7fVx2LmN9pR4tZ8"},
	{"https://hooks.slack.com/services/T0Q7FVX2L/B0MN9PR4T/Z8wK1yB6cD3hJ5gE0aS9u", "T0Q7FVX2L/B0MN9PR4T/Z8wK1yB6cD3hJ5gE0aS9u"},
	{"sk_live_51Q7fVx2LmN9pR4tZ8wK1y", "51Q7fVx2LmN9pR4tZ8wK1y"},
	{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJRN2ZWeDJMbU45In0.Q7fVx2LmN9pR4tZ8wK1yB6cD3hJ5gE0aS9u", "eyJzdWIiOiJRN2ZWeDJMbU45In0"},
	{"Authorization: Bearer Q7fVx2LmN9pR4tZ8wK1y", "Q7fVx2LmN9pR4tZ8wK1y"},
	{"Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cYq7Vx", "Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cYq7Vx"},
	{"DB_PASSWORD=Hunt3r-Q7fV", "Hunt3r-Q7fV"},
	{"password: Hunt3r-Q7fV", "Hunt3r-Q7fV"},
	{`"password": "Hunt3r-Q7fV"`, "Hunt3r-Q7fV"},
	{`{"password":"Hunt3r-Q7fV"}`, "Hunt3r-Q7fV"},
	{"client_secret=Q7fVx2LmN9pR", "Q7fVx2LmN9pR"},
	{"postgres://admin:Hunt3r-Q7fV@db.internal:5432/x", "Hunt3r-Q7fV"},
	{"mongodb+srv://u:Hunt3r-Q7fV@c0.example.net", "Hunt3r-Q7fV"},
	{"q7fv.hunter@example.org", "q7fv.hunter"},
	{"/Users/q7fvhunter/src", "q7fvhunter"},
	{"/home/q7fvhunter", "q7fvhunter"},
	{`C:\Users\q7fvhunter\x`, "q7fvhunter"},
	{"-Users-q7fvhunter-src", "q7fvhunter"},
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEq7fvHunterQ7fVx2Lm\n-----END RSA PRIVATE KEY-----", "MIIEq7fvHunterQ7fVx2Lm"},
	// A prompt's name past ASCII: its first letters must go with the rest.
	{"Jörgq7fv@devbox:~/src$ make", "Jörg"},
	{"┌──(山田q7fv㉿box)-[~]", "山田"},
}

// FuzzRedact: a secret of each kind, planted in any text (between spaces),
// never survives redaction, in the text or in a JSON line holding it (as
// Claude Code writes one, as JSON inside a JSON string, and with every
// other letter escaped); a JSON line stays valid JSON.
func FuzzRedact(f *testing.F) {
	for i := range planted {
		f.Add("before ", " after", uint8(i))
	}
	f.Add("password: \"", `\"`, uint8(0))
	f.Add("\\", "\\u00", uint8(9))
	f.Add("\"key\":", "é\n\t", uint8(14))
	f.Add("┌──(\x1b[31mkali㉿", "㉿box\x1b[0m)-[~]\n└─$", uint8(17))
	f.Add("\x1b[44m bob@devbox \x1b[34;42m\ue0b0\x1b[30m", "\ue0b0 a@box\ue0b4\x1b[0m", uint8(16))
	f.Add("müller@host:~$ jos\\u00e9@box ~ %\u0301", "(élise㉿box) 山田@h ~ %", uint8(22))
	r := New("/home/me")
	f.Fuzz(func(t *testing.T, before, after string, which uint8) {
		p := planted[int(which)%len(planted)]
		text := before + " " + p.text + " " + after
		// The fuzzer may write the secret itself around the planted one.
		already := strings.Count(before+" "+after, p.secret)
		if got := r.String(text); strings.Count(got, p.secret) > already {
			t.Fatalf("%q survives in text:\n%q\n→ %q", p.secret, text, got)
		}
		for _, content := range []string{quote(text), quote(`{"k":` + quote(text) + `}`), `"` + escapeEvery(text, 2) + `"`} {
			line := `{"type":"user","message":{"role":"user","content":` + content + `}}`
			got := r.Bytes([]byte(line))
			if !json.Valid(got) {
				t.Fatalf("not JSON after redaction:\n%s\n→ %s", line, got)
			}
			var v struct{ Message struct{ Content string } }
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatal(err)
			}
			if strings.Count(v.Message.Content, p.secret) > already {
				t.Fatalf("%q survives in JSON:\n%s\n→ %s", p.secret, line, got)
			}
		}
	})
}

func quote(s string) string { return jsonString(s) }
