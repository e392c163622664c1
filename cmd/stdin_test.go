package cmd

import (
	"os"
	"path/filepath"
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
