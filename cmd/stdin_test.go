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
	// The hint is for -l and -c: hits print their own "→ cctx … resume".
	if r := run(t, true, nil, "grep", "-l", "-F", "test file", "--dir", samples, "b3edadab"); r.code != 0 || !strings.Contains(r.errOut, "cctx: hint: cctx resume <id>") {
		t.Errorf("a named session, -l: exit %d, stderr %q", r.code, r.errOut)
	}
	if r := run(t, true, nil, "grep", "-F", "test file", "--dir", samples, "b3edadab"); r.code != 0 || strings.Contains(r.errOut, "hint") || !strings.Contains(r.out, "resume b3edadab") {
		t.Errorf("a named session's hits: exit %d, stderr %q, stdout %q", r.code, r.errOut, r.out)
	}
}

// grep of a transcript on standard input names its session and project
// as the same grep of the session by id does (the first sessionId and cwd
// of its lines, as tokens - names them): in every output but the path.
func TestGrepStdinNamesItsSession(t *testing.T) {
	const id = "0d3b22c1-ba90-4fd3-b8d2-056ffc626725" // no subagents: stdin holds all it has
	transcript, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"grep", "-F", "clear"}, {"grep", "-F", "clear", "-l"}, {"grep", "-F", "clear", "-c"}} {
		byID := run(t, false, nil, append(args, "--dir", samples, id)...)
		stdin := runStdin(t, string(transcript), false, append(args, "-")...)
		if byID.code != 0 || stdin.code != 0 || byID.out == "" {
			t.Fatalf("%v: exit %d and %d: %s %s", args, byID.code, stdin.code, byID.errOut, stdin.errOut)
		}
		// -l's second column is the title, which stdin cannot read ahead.
		want := byID.out
		if args[len(args)-1] == "-l" {
			want = id + "\t\n"
		}
		if stdin.out != want {
			t.Errorf("%v: stdin\n%.400s\nby id\n%.400s", args, stdin.out, want)
		}
	}
	r := runStdin(t, string(transcript), false, "grep", "-F", "clear", "--json", "-")
	if !strings.Contains(r.out, `"session_id":"`+id+`","title":"","project":"/Users/user/project","path":"-"`) {
		t.Errorf("--json: %.300s", r.out)
	}
	// The hit before the first sessionId and cwd: -l and -m stop searching
	// there, and read on for the name only.
	hitFirst := `{"type":"user","uuid":"u1","message":{"role":"user","content":"needle"}}` + "\n" +
		`{"type":"user","uuid":"u2","sessionId":"` + id + `","cwd":"/w/p","message":{"role":"user","content":"more"}}` + "\n"
	for _, args := range [][]string{{"-l"}, {"-m", "1"}, {"-c"}} {
		r := runStdin(t, hitFirst, false, append([]string{"grep", "needle", "-"}, args...)...)
		if !strings.HasPrefix(r.out, id+"\t") || args[0] == "-m" && !strings.Contains(r.out, "\t/w/p\t") {
			t.Errorf("%v: %q", args, r.out)
		}
	}
}

// A transcript on standard input brings no subagent transcript: tokens -
// says each agent its results name is not counted (--strict fails), as
// agents - says it; the session named by id counts them.
func TestTokensStdinSaysTheAgentsItCannotCount(t *testing.T) {
	transcript, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const said = "<stdin>:24: the Agent/Task result names agent a434715, whose transcript is not read from standard input: its tokens are not counted"
	if r := runStdin(t, string(transcript), false, "tokens", "-"); r.code != 0 || !strings.Contains(r.errOut, said) {
		t.Errorf("tokens -: exit %d, stderr %q", r.code, r.errOut)
	}
	if r := runStdin(t, string(transcript), false, "tokens", "--strict", "-"); r.code != 1 {
		t.Errorf("tokens --strict -: exit %d, stderr %q", r.code, r.errOut)
	}
	if r := run(t, false, nil, "tokens", "--dir", samples, "b3edadab"); r.code != 0 || strings.Contains(r.errOut, "a434715") {
		t.Errorf("tokens b3edadab: exit %d, stderr %q", r.code, r.errOut)
	}
}

// On a terminal, tokens points at agents for a session whose totals lack
// agents (their transcript missing); a pipe gets the warnings only.
func TestTokensHintsAtAgentsForMissingTranscripts(t *testing.T) {
	const hint = "cctx: hint: cctx agents c7d3d95c lists each Agent/Task call of a session with the transcript it left, or why there is none"
	if r := run(t, true, nil, "tokens", "--dir", samples, "c7d3d95c"); !strings.Contains(r.errOut, hint) || !strings.Contains(r.errOut, "names agent ab81802") {
		t.Errorf("terminal: stderr %q", r.errOut)
	}
	if r := run(t, false, nil, "tokens", "--dir", samples, "c7d3d95c"); strings.Contains(r.errOut, "hint") || !strings.Contains(r.errOut, "names agent ab81802") {
		t.Errorf("pipe: stderr %q", r.errOut)
	}
	if r := run(t, true, nil, "tokens", "--dir", samples, "b3edadab"); strings.Contains(r.errOut, "hint") {
		t.Errorf("a session with every agent: stderr %q", r.errOut)
	}
}

// show and export --agents of a transcript on standard input say which
// agents they cannot show (their transcripts are files stdin does not
// bring), as tokens - says it; without --agents nothing is missing.
func TestStdinAgentsAreSaidMissing(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "<stdin>:24: --agents: agent a434715 is not shown: its transcript is not read from standard input"
	for _, args := range [][]string{{"show", "--agents", "-"}, {"export", "--agents", "--format", "md", "-"}} {
		if r := runStdin(t, string(b), false, args...); r.code != 0 || !strings.Contains(r.errOut, want) {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
	if r := runStdin(t, string(b), false, "show", "-"); strings.Contains(r.errOut, "--agents") {
		t.Errorf("show - without --agents: %q", r.errOut)
	}
}
