package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactText(t *testing.T) {
	r := New("/home/alice")
	cases := []struct{ in, want string }{
		{"key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_x end", "key sk-ant-api03-[REDACTED] end"},
		{"openai sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234", "openai sk-proj-[REDACTED]"},
		{"gh ghp_0123456789abcdefghijABCDEFGHIJ012345", "gh ghp_[REDACTED]"},
		{"aws AKIAIOSFODNN7EXAMPLE ok", "aws AKIA[REDACTED] ok"},
		{"slack xoxb-1234567890-abcdefghij", "slack xoxb-[REDACTED]"},
		{"Authorization: Bearer abc.DEF-123_456789", "Authorization: Bearer [REDACTED]"},
		{`-H "authorization: token ghx1234567890"`, `-H "authorization: token [REDACTED]"`},
		{"export ANTHROPIC_API_KEY=abcd1234efgh5678", "export ANTHROPIC_API_KEY=[REDACTED]"},
		{"DB_PASSWORD: 'hunter2hunter2'", "DB_PASSWORD: '[REDACTED]'"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U x", "jwt [REDACTED] x"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nafter", "[REDACTED]\nafter"},
		{"random Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cY token", "random [REDACTED] token"},
		{"/home/alice/src and /home/alicex/src", "~/src and /home/alicex/src"},
		{"dir -home-alice-src-app", "dir ~-src-app"},
		// Not secrets: ids, hashes, uuids, paths, words.
		{"msg_01XyZaBcDeFgHiJkLmNoPqRsTuVw toolu_01AbCdEfGhIjKlMnOpQrStUvWx", "msg_01XyZaBcDeFgHiJkLmNoPqRsTuVw toolu_01AbCdEfGhIjKlMnOpQrStUvWx"},
		{"commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"},
		{"uuid 8463c716-a2ea-4c14-9efa-87158ebd9f20", "uuid 8463c716-a2ea-4c14-9efa-87158ebd9f20"},
		{"internal/render/show/terminal_test_helpers", "internal/render/show/terminal_test_helpers"},
		{"max_tokens=4096 and a task-sk-list", "max_tokens=4096 and a task-sk-list"},
	}
	for _, c := range cases {
		if got := r.String(c.in); got != c.want {
			t.Errorf("%q\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestRedactKeepsJSONValid: masks inside JSON lines, next to escapes, keep
// the line valid JSON and the escapes intact.
func TestRedactKeepsJSONValid(t *testing.T) {
	r := New(`C:\Users\bob`)
	lines := []string{
		`{"t":"a\nghp_0123456789abcdefghijABCDEFGHIJ012345\tb"}`,
		`{"t":"x\nXk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cYq"}`,
		`{"t":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"}`,
		`{"t":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAxyz\n"}`,
		`{"t":"curl -H \"Authorization: Bearer abcDEF123456789\" x"}`,
		`{"cwd":"C:\\Users\\bob\\src"}`,
	}
	for _, l := range lines {
		got := r.Bytes([]byte(l))
		if !json.Valid(got) {
			t.Errorf("%s\n-> %s is not JSON", l, got)
		}
		if string(got) == l {
			t.Errorf("%s: nothing masked", l)
		}
		var v map[string]string
		json.Unmarshal(got, &v)
		for _, s := range v {
			if strings.Contains(s, "0123456789abcdefghij") || strings.Contains(s, "MIIEow") || strings.Contains(s, "abcDEF") || strings.Contains(s, "bob") {
				t.Errorf("%s: secret left: %q", l, s)
			}
		}
	}
}

func TestRedactLeavesBase64DataAlone(t *testing.T) {
	data := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk", 40)
	if got := New("").String(data); got != data {
		t.Error("long base64 data (an image) must not be masked")
	}
}
