package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// cctx grep on the sample sessions, as a user runs it: in a pipe, one
// tab-separated line per hit and exit 0; nothing and exit 1 when nothing
// matches; exit 2 for a pattern that does not compile.
func TestGrepInAPipe(t *testing.T) {
	r := cctx(t, "grep", "--dir", samples, "checkpoint")
	expect(t, r, 0, "grep checkpoint")
	rows := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(rows) < 3 {
		t.Fatalf("want several hits\n%s", r)
	}
	for _, row := range rows {
		cols := strings.Split(row, "\t")
		if len(cols) != 7 || len(cols[0]) != 36 || !strings.Contains(strings.ToLower(cols[5]), "checkpoint") {
			t.Errorf("not session_id, uuid, timestamp, role, project, snippet, agent_id: %q", row)
		}
	}
	if hasSGR(r.stdout) || r.stderr != "" {
		t.Errorf("colour or stderr in a pipe\n%s", r)
	}

	r = cctx(t, "grep", "--dir", samples, "-l", "checkpoint")
	expect(t, r, 0, "grep -l")
	if !strings.Contains(r.stdout, "b3edadab-bca0-4054-9b41-f7ffa6941260\tTest file creation and agent thread handling\n") {
		t.Errorf("-l: %q", r.stdout)
	}

	r = cctx(t, "grep", "--dir", samples, "zebra-quagga")
	expect(t, r, 1, "no match")
	if r.stdout != "" || r.stderr != "" {
		t.Errorf("no match prints nothing\n%s", r)
	}
	r = cctx(t, "grep", "--dir", samples, "a(b")
	expect(t, r, 2, "a bad pattern")
	if !strings.Contains(r.stderr, "missing closing ) at column 2") {
		t.Errorf("the error says where\n%s", r)
	}
	r = cctx(t, "search", "--dir", samples, "--json", "-c", "checkpoint")
	expect(t, r, 0, "search --json -c")
	var doc struct {
		Sessions []struct {
			HitCount int `json:"hit_count"`
		} `json:"sessions"`
	}
	sum := 0
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Sessions {
		sum += s.HitCount
	}
	if sum != len(rows) {
		t.Errorf("json -c counts %d hits, the pipe %d rows", sum, len(rows))
	}
}

// On a terminal: grouped under the session, the match highlighted, a hit
// on an abandoned branch said, and the commands that open it.
func TestGrepOnATerminal(t *testing.T) {
	scriptPath(t)
	r := onTTY(t, nil, "grep", "--dir", samples, "revert later", "-C", "1")
	expect(t, r, 0, "grep on a terminal")
	plain := sgr.ReplaceAllString(r.stdout, "")
	for _, want := range []string{
		"b3edadab  Test file creation and agent thread handling  /Users/user/project",
		"user       (abandoned branch) Ok make another addition which I will revert later via the checkpoint feature",
		"assistant  Done, Okarin!",
		"--leaf 84944fbf --grep 'revert later'",
		"→ cctx --dir " + samples + " resume b3edadab",
	} {
		if !strings.Contains(plain, want) {
			t.Errorf("lacks %q\n%s", want, r)
		}
	}
	// The only hit is on an abandoned branch: the active branch's show
	// --grep would find nothing, and is not offered.
	if strings.Contains(plain, "show b3edadab --grep") {
		t.Errorf("offers show --grep on the active branch, where nothing matches\n%s", r)
	}
	if !strings.Contains(r.stdout, "\x1b[1m\x1b[31mrevert later\x1b[0m") {
		t.Errorf("the match is not highlighted\n%q", r.stdout)
	}
	for _, line := range strings.Split(plain, "\n") {
		if w := len([]rune(line)); w > 120 && !strings.HasPrefix(line, "  →") {
			t.Errorf("a line of %d columns on a 120-column terminal: %q", w, line)
		}
	}
	r = onTTY(t, nil, "grep", "--dir", samples, "zebra-quagga")
	expect(t, r, 1, "no match on a terminal")
}

// A match inside an escape sequence, or an escape sequence inside a match,
// never reaches the terminal as one: only cctx's own colours do.
func TestGrepCannotDriveTheTerminal(t *testing.T) {
	scriptPath(t)
	root, _ := hostileSession(t)
	for _, pattern := range []string{"31mRED", "2J done", "\x1b", "hello", "]0;", "overwrite"} {
		for _, args := range [][]string{{"grep", "--dir", root, pattern}, {"grep", "--dir", root, "-F", pattern, "-C", "2"}} {
			r := onTTY(t, nil, args...)
			if r.code != 0 {
				t.Errorf("%q: exit %d\n%s", pattern, r.code, r)
				continue
			}
			if bad := controlChars(r.stdout, true); len(bad) > 0 {
				t.Errorf("%q: control characters reach the terminal: %v", pattern, bad)
			}
			p := cctx(t, args...)
			if bad := controlChars(p.stdout, false); len(bad) > 0 {
				t.Errorf("%q in a pipe: control characters: %v", pattern, bad)
			}
		}
	}
}
