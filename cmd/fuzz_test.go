package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/termcheck"
)

// FuzzCommands runs the views over an arbitrary transcript (and an
// arbitrary subagent transcript beside it), as a user would: whatever the
// bytes, no command panics, nothing but text and cctx's own colours
// reaches stdout, and JSON output is JSON.
func FuzzCommands(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(samples, "*", "*.jsonl"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b, []byte(nil))
		}
	}
	for _, s := range craftedSession {
		f.Add([]byte(s+"\n"), []byte(`{"type":"user","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"a1","message":{"role":"user","content":"go \u001b]0;t\u0007"}}`+"\n"))
	}
	f.Add([]byte(strings.Join(craftedSession, "\n")+"\n"), []byte(nil))
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"u\x1b[2J\",\"parentUuid\":null,\"cwd\":\"/\u202e\",\"message\":{\"role\":\"user\",\"content\":\"\u009b31m\\u0000\"}}\n\x1b]0;raw\x07\n"), []byte("\xff\xfe"))
	runs := []struct {
		args []string
		json bool
	}{
		{[]string{"ls", "-l", "-a"}, false},
		{[]string{"show", "--all", "--thinking", "--full", "--agents", "--no-pager"}, false},
		{[]string{"show", "--json", "--all", "--agents"}, true},
		{[]string{"show", "--raw", "--all"}, false},
		{[]string{"tree", "--full", "--agents"}, false},
		{[]string{"tree", "--json", "--agents"}, true},
		{[]string{"tokens", "--by", "response"}, false},
		{[]string{"tokens", "--json"}, true},
		{[]string{"tokens", "--by", "block", "--json"}, true},
		{[]string{"tokens", "--by", "tool"}, false},
		{[]string{"tokens", "--by", "agent-type"}, false},
		{[]string{"tokens", "--format", "markdown", "--max-cost", "1"}, false},
		{[]string{"tokens", "--by", "response", "--format", "ndjson"}, false},
		{[]string{"agents", "-v"}, false},
		{[]string{"agents", "--json"}, true},
		{[]string{"grep", "e"}, false},
	}
	f.Fuzz(func(t *testing.T, main, agent []byte) {
		if len(main)+len(agent) > 64<<10 {
			return
		}
		root := t.TempDir()
		const id = "f0f0f0f0-0000-4000-8000-00000000000f"
		dir := filepath.Join(root, "-p")
		os.MkdirAll(filepath.Join(dir, id, "subagents"), 0o755)
		os.WriteFile(filepath.Join(dir, id+".jsonl"), main, 0o644)
		if agent != nil {
			os.WriteFile(filepath.Join(dir, id, "subagents", "agent-a1.jsonl"), agent, 0o644)
		}
		for _, rn := range runs {
			args := append(append([]string(nil), rn.args...), "--dir", root, "--color", "always")
			if rn.args[0] != "ls" && rn.args[0] != "grep" {
				args = append(args, id)
			}
			r := run(t, true, nil, args...)
			what := strings.Join(rn.args, " ")
			if r.code == ExitUsage && !strings.Contains(r.errOut, "no session") {
				t.Fatalf("%s: usage error on a transcript: %s", what, r.errOut)
			}
			for name, out := range map[string]string{"stdout": r.out, "stderr": r.errOut} {
				if bad := termcheck.Foreign(out, true); len(bad) > 0 {
					t.Fatalf("%s: %s lets the transcript drive the terminal: %v", what, name, bad[:min(3, len(bad))])
				}
			}
			if rn.json && r.code == 0 && !json.Valid([]byte(r.out)) {
				t.Fatalf("%s: not JSON: %q", what, r.out)
			}
			if rn.args[1] == "--raw" {
				for _, l := range strings.Split(strings.TrimSuffix(r.out, "\n"), "\n") {
					if l != "" && !json.Valid([]byte(l)) {
						t.Fatalf("--raw: a line is not JSON: %q", l)
					}
				}
			}
		}
	})
}
