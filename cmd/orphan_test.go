package cmd

import (
	"encoding/json"
	"strings"
	"testing"
)

// orphanDir holds a project folder with one session and one folder whose
// main transcript Claude Code deleted (issue 16 item 5).
const (
	orphanDir = "../testdata/crafted/orphan"
	orphanSID = "7d1c0a52-9a8e-4f6b-b1f4-2c3d4e5f6a7b"
)

// A session whose main transcript is gone is in every listing and total,
// marked, said on stderr, and every command reads it without failing.
func TestOrphanSessionInEveryCommand(t *testing.T) {
	tests := []struct {
		args   []string
		out    []string // substrings of stdout
		stderr string   // substring of stderr
	}{
		{[]string{"ls", "--all", "--json"}, []string{`"session_id":"` + orphanSID + `"`, `"main_transcript":false`, `"main_transcript":true`, `"subagents":2`},
			"1 session(s) have subagent transcripts but no main transcript"},
		{[]string{"ls", "--all"}, []string{orphanSID + "\t2026-03-03T10:00:10.000Z\t/home/me/app\tmain\t2\t"}, "no main transcript"},
		// The total counts the orphan's 3 responses beside the other
		// session's one.
		{[]string{"tokens", "--json"}, []string{`"total_tokens":10414`, `"api_calls":4`}, "no main transcript"},
		{[]string{"tokens", "7d1c"}, []string{"a1b2c3d4e5f6a7b80", "a9e8d7c6b5a4f3e20"}, "its main transcript was deleted"},
		{[]string{"tree", "7d1c"}, []string{"2 subagents", "Find parseConfig callers"}, "its main transcript was deleted"},
		{[]string{"tree", "7d1c", "--json"}, []string{`"session_id":"` + orphanSID + `"`}, "its main transcript was deleted"},
		{[]string{"agents", "7d1c", "--json"}, []string{`"agent_id":"a1b2c3d4e5f6a7b80"`, `"total_tokens":3407`}, "its main transcript was deleted"},
		{[]string{"show", "7d1c", "--no-pager"}, []string{"3 API calls · 2 subagents"}, "its main transcript was deleted"},
		{[]string{"show", "7d1c", "--json"}, []string{`"total_tokens":9872`}, "its main transcript was deleted"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := run(t, false, nil, append(tt.args, "--dir", orphanDir)...)
			if r.code != 0 {
				t.Fatalf("exit %d, stderr %s", r.code, r.errOut)
			}
			for _, s := range tt.out {
				if !strings.Contains(r.out, s) {
					t.Errorf("stdout lacks %q:\n%.2000s", s, r.out)
				}
			}
			if !strings.Contains(r.errOut, tt.stderr) {
				t.Errorf("stderr lacks %q: %s", tt.stderr, r.errOut)
			}
			if strings.Count(r.errOut, "no main transcript") > 1 {
				t.Errorf("said more than once: %s", r.errOut)
			}
			// What the deleted file held (the calls that spawned the
			// agents) is implied by that warning, not warned again.
			if n := strings.Count(r.errOut, "cctx: warning:"); n != 1 {
				t.Errorf("%d warnings, want the one: %s", n, r.errOut)
			}
			if strings.Contains(tt.args[len(tt.args)-1], "json") || tt.args[len(tt.args)-1] == "--json" {
				if !json.Valid([]byte(r.out)) {
					t.Errorf("not JSON: %.300s", r.out)
				}
			}
		})
	}
}
