package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A transcript read from standard input is copied to a temporary file
// while it is read; every command that reads it so removes the copy.
func TestStdinLeavesNoTemporaryFile(t *testing.T) {
	transcript, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "0d3b22c1-ba90-4fd3-b8d2-056ffc626725.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"tree", "-"}, {"tree", "-", "--json"}, {"show", "-"}, {"show", "-", "--final"},
		{"agents", "-"}, {"export", "-"}, {"tokens", "-"},
	} {
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		r := runStdin(t, string(transcript), false, args...)
		if r.code > 1 {
			t.Errorf("%v: exit %d: %s", args, r.code, r.errOut)
		}
		if left, _ := os.ReadDir(tmp); len(left) > 0 {
			t.Errorf("%v: left %d file(s) in the temporary folder, %s first", args, len(left), left[0].Name())
		}
	}
}

// grep of a transcript on standard input, on a terminal, does not hint at
// cctx resume: Claude Code cannot resume it (cctx resume - says so). A
// session named by id still gets the hint.
func TestGrepStdinHintsNoResume(t *testing.T) {
	transcript, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := runStdin(t, string(transcript), true, "grep", "-F", "test file", "-")
	if r.code != 0 || r.out == "" {
		t.Fatalf("exit %d, stdout %q: %s", r.code, r.out, r.errOut)
	}
	if strings.Contains(r.errOut, "resume") {
		t.Errorf("stdin: a hint at resume: %q", r.errOut)
	}
	if r := run(t, true, nil, "grep", "-F", "test file", "--dir", samples, "b3edadab"); r.code != 0 || !strings.Contains(r.errOut, "cctx: hint: cctx resume <id>") {
		t.Errorf("a named session: exit %d, stderr %q", r.code, r.errOut)
	}
}
