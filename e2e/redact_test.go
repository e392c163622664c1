package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// show --redact masks what people paste, in every output: the terminal
// view, --json (content and raw) and --raw.
func TestShowRedactsEveryOutput(t *testing.T) {
	root := t.TempDir()
	const id = "5ec0e7ed-0000-4000-8000-000000000001"
	secrets := []string{"Hunter2pg", "Tr0ub4dor", "alice.smith", "bobuser", "Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cY", "AbCdEfGhIjKlMnOpQrStUvWxYz012345678", "s3cr3tYaml"}
	prompt := `connect to postgres://admin:Hunter2pg@db.internal:5432/app as alice.smith@example.com, token Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cY`
	cmd := `psql \"postgresql://admin:Hunter2pg@db:5432/x\" && cat /Users/bobuser/.env`
	result := `{\"user\": \"admin\", \"password\": \"Tr0ub4dor\"}\ndb:\n  password: s3cr3tYaml\nANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345678`
	writeFile(t, root, filepath.Join("-Users-bobuser-app", id+".jsonl"), lines(
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","timestamp":"2026-01-01T10:00:00Z","cwd":"/Users/bobuser/app","message":{"role":"user","content":"`+prompt+`"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-x","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"`+cmd+`"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"`+result+`"}]}}`,
	))
	for _, args := range [][]string{{}, {"--full"}, {"--json"}, {"--raw"}} {
		r := cctx(t, append([]string{"show", id, "--redact", "--dir", root}, args...)...)
		what := "show --redact " + strings.Join(args, " ")
		expect(t, r, 0, what)
		for _, s := range secrets {
			if strings.Contains(r.stdout, s) {
				t.Errorf("%s: %q leaks:\n%s", what, s, r.stdout)
			}
		}
		for _, mask := range []string{"[REDACTED]", "[EMAIL]", "[USER]"} {
			if !strings.Contains(r.stdout, mask) {
				t.Errorf("%s: no %s in\n%s", what, mask, r.stdout)
			}
		}
	}
}
