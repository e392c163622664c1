package e2e

import (
	"fmt"
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

// --redact covers every command and every format: what people paste
// (passwords in URLs and assignments, keys, emails, other users' homes)
// and the user's own home path never reach stdout or stderr, wherever
// the field is printed (titles, prompts, descriptions, errors, paths,
// snippets, JSON fields).
func TestRedactCoversEveryCommand(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	const id = "5ec0e7ed-0000-4000-8000-000000000002"
	cwd := home + "/app"
	secrets := []string{"Hunter2pg", "Tr0ub4dor", "alice.smith", "bobuser", "Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cY", "AbCdEfGhIjKlMnOpQrStUvWxYz012345678", "dave.jones", home}
	paste := `connect postgres://admin:Hunter2pg@db:5432/x as alice.smith@example.com in /Users/bobuser/src with key Xk9mQ2vR7tL4pW8zN3bF6hJ1sD5gA0cY`
	key := `ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345678`
	pass := `{\"password\": \"Tr0ub4dor\"}`
	base := `"sessionId":"` + id + `","cwd":"` + cwd + `","gitBranch":"feature/dave.jones@example.com","version":"2.1.0"`
	writeFile(t, root, filepath.Join(strings.ReplaceAll(cwd, "/", "-"), id+".jsonl"), lines(
		`{"type":"custom-title","customTitle":"connect `+key+`","sessionId":"`+id+`"}`,
		`{"type":"user","uuid":"u1","parentUuid":null,`+base+`,"timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"`+paste+`"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1",`+base+`,"timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"connect `+key+`"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"connect psql postgres://admin:Hunter2pg@db/x","description":"connect as alice.smith@example.com"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"user","uuid":"r1","parentUuid":"a1",`+base+`,"timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"connect `+pass+` /Users/bobuser/.env"}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"r1",`+base+`,"timestamp":"2026-01-01T10:00:03Z","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t2","name":"Task","input":{"description":"connect alice.smith@example.com","prompt":"`+paste+`","subagent_type":"general-purpose"}}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
		`{"type":"user","uuid":"r2","parentUuid":"a2",`+base+`,"timestamp":"2026-01-01T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":"connect failed: `+key+`"}]}}`,
		`{"type":"assistant","uuid":"a3","parentUuid":"r2",`+base+`,"timestamp":"2026-01-01T10:00:10Z","requestId":"r3","message":{"id":"m3","role":"assistant","model":"claude-opus-4-6-alice.smith@example.com","content":[{"type":"text","text":"connect `+paste+`"}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
	))
	// A subagent whose sidecar's type and description, which no line
	// holds, are shown under its call.
	agentDir := filepath.Join(strings.ReplaceAll(cwd, "/", "-"), id, "subagents")
	writeFile(t, root, filepath.Join(agentDir, "agent-a5ec0e7ed.meta.json"), `{"agentType":"general-purpose dave.jones@example.com","description":"connect alice.smith@example.com","toolUseId":"t2"}`)
	writeFile(t, root, filepath.Join(agentDir, "agent-a5ec0e7ed.jsonl"), lines(
		`{"type":"assistant","uuid":"s1","parentUuid":null,"isSidechain":true,"agentId":"a5ec0e7ed",`+base+`,"timestamp":"2026-01-01T10:00:04Z","requestId":"r4","message":{"id":"m4","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":1,"output_tokens":1}}}`,
	))
	runs := [][]string{
		{"ls"}, {"ls", "-l"}, {"ls", "--json"}, {"show", id}, {"show", "--full", id}, {"show", "--json", id}, {"show", "--agents", id}, {"show", "--agents", "--json", id}, {"show", "--raw", id}, {"show", "--final", id},
		{"tree", id}, {"tree", "--full", id}, {"tree", "--json", id}, {"tokens"}, {"tokens", "--by", "project"}, {"tokens", "--json", id},
		{"agents", id}, {"agents", "-v", id}, {"agents", "--json", id}, {"grep", "connect"}, {"grep", "--json", "connect"}, {"grep", "-C", "1", "connect", id},
		{"export", id}, {"export", "--format", "html", id},
	}
	env := []string{"HOME=" + home}
	for _, tty := range []bool{false, true} {
		for _, run := range runs {
			args := append(append([]string(nil), run...), "--redact", "-v")
			if tty && run[0] == "export" { // a page is refused on a terminal: its Markdown
				args = append(args, "--format", "md")
			}
			what := strings.Join(run, " ")
			var r result
			if tty {
				what += " (terminal)"
				r = onTTY(t, env, args...)
			} else {
				r = cctxWith(t, opts{env: env}, args...)
			}
			if r.code != 0 {
				t.Errorf("%s: exit %d\n%s", what, r.code, r)
				continue
			}
			for _, s := range secrets {
				if strings.Contains(r.stdout, s) {
					i := strings.Index(r.stdout, s)
					t.Errorf("%s: %q leaks on stdout: %q", what, s, r.stdout[max(0, i-60):min(len(r.stdout), i+60)])
				}
				if strings.Contains(r.stderr, s) {
					t.Errorf("%s: %q leaks on stderr:\n%s", what, s, r.stderr)
				}
			}
		}
	}
}

// A title or first prompt is cut to 200 characters before it is printed:
// a secret the cut would split is left out whole, not shown in part where
// --redact no longer knows it (ls, grep -l and their JSON). The cut part
// of a key, an email and a token, each from the 191st character: the cut
// at the 200th splits each.
func TestRedactSecretsAtTheTitlesCut(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".claude", "projects")
	fill := strings.Repeat("p", 185) + " key "
	for i, secret := range []string{"ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ0123", "AKIAIOSFODNN7EXAMPLE", "bob.jones.the.third@example.com"} {
		id := fmt.Sprintf("5ec0e7ed-0000-4000-8000-00000000001%d", i)
		text := fill + secret + " and more words after it, well past the cut"
		writeFile(t, root, filepath.Join("-w", id+".jsonl"), lines(
			`{"type":"custom-title","customTitle":"`+text+`","sessionId":"`+id+`"}`,
			`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","cwd":"/w","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"`+text+`"}}`,
		))
		for _, run := range [][]string{{"ls"}, {"ls", "--json"}, {"grep", "-l", "key"}, {"grep", "--json", "-l", "key"}} {
			r := cctxWith(t, opts{env: []string{"HOME=" + home}}, append(run, "--redact", "--no-cache")...)
			if r.code != 0 {
				t.Fatalf("%v: %s", run, r)
			}
			if part := secret[:6]; strings.Contains(r.stdout, part) {
				i := strings.Index(r.stdout, part)
				t.Errorf("%v: part of %q shows: %q", run, secret, r.stdout[max(0, i-20):min(len(r.stdout), i+40)])
			}
		}
	}
}
