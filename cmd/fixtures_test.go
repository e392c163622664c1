package cmd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// fixtures are crafted sessions, one per shape real transcripts have
// (testdata/fixtures, each folder named after the shape; see
// testdata/SOURCES.md).
const fixtures = "../testdata/fixtures"

// Each fixture's tree, conversation, listing and tokens are golden files,
// and its commands agree: show's header counts the prompts ls -l counts,
// every command names the session by its file, and tree draws the active
// run whole.
func TestFixtures(t *testing.T) {
	ids, _ := filepath.Glob(filepath.Join(fixtures, "*", "*.jsonl"))
	if len(ids) < 4 {
		t.Fatalf("only %d fixtures", len(ids))
	}
	for _, p := range ids {
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		name := strings.TrimPrefix(filepath.Base(filepath.Dir(p)), "-w-")
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			for _, args := range [][]string{{"tree"}, {"tree", "--full"}, {"show", "--no-pager"}, {"tokens"}, {"agents"}} {
				r := run(t, false, nil, append(args, "--dir", fixtures, id)...)
				if r.code != 0 {
					t.Errorf("%s: exit %d: %s", strings.Join(args, " "), r.code, r.errOut)
				}
				out.WriteString("$ cctx " + strings.Join(args, " ") + "\n" + r.out + strings.ReplaceAll(r.errOut, fixtures, "$FIXTURES") + "\n")
			}
			golden(t, "fixtures/"+name+".txt", out.String())

			var ls lsHeaderDoc
			decodeRun(t, &ls, "ls", "--dir", fixtures, "-l", "--all", "--json")
			var sh showHeaderDoc
			decodeRun(t, &sh, "show", "--dir", fixtures, id, "--json")
			var tr struct {
				SessionID string `json:"session_id"`
			}
			decodeRun(t, &tr, "tree", "--dir", fixtures, id, "--json")
			found := false
			for _, s := range ls.Sessions {
				if s.SessionID != id {
					continue
				}
				found = true
				if s.Prompts != sh.Session.Prompts {
					t.Errorf("ls -l counts %d prompts, show %d", s.Prompts, sh.Session.Prompts)
				}
			}
			if !found || sh.Session.SessionID != id || tr.SessionID != id {
				t.Errorf("session id: ls has it %v, show says %q, tree %q, the file %q", found, sh.Session.SessionID, tr.SessionID, id)
			}
			checkTreeDrawsActivePath(t, fixtures, id)
		})
	}
}

// checkTreeDrawsActivePath: the runs tree draws hold every entry of the
// active path (their counts add up to at least its length).
func checkTreeDrawsActivePath(t *testing.T, dir, id string) {
	t.Helper()
	var tr struct {
		Nodes []struct {
			Active bool `json:"active"`
		} `json:"nodes"`
	}
	decodeRun(t, &tr, "tree", "--dir", dir, id, "--json")
	active := 0
	for _, n := range tr.Nodes {
		if n.Active {
			active++
		}
	}
	drawn := 0
	r := run(t, false, nil, "tree", "--dir", dir, id)
	for _, l := range strings.Split(r.out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, "│├└─ "), "● ") {
			var n int
			if _, err := fmtSscan(strings.TrimLeft(l, "│├└─ ●"), &n); err == nil {
				drawn += n
			}
		}
	}
	if drawn < active {
		t.Errorf("%s: tree draws %d entries in its active runs, the active path has %d:\n%s", id, drawn, active, r.out)
	}
}

// decodeRun runs cctx and decodes its JSON output.
func decodeRun(t *testing.T, v any, args ...string) {
	t.Helper()
	r := run(t, false, nil, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d: %s", args, r.code, r.errOut)
	}
	if err := json.Unmarshal([]byte(r.out), v); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// fmtSscan reads the leading count of a run line ("12 entries · …").
func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(strings.TrimSpace(s), n) }
