package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite golden files")

const samples = "../testdata/projects"

// realCorpus is the copy of real sessions in testdata/corpus, which golden
// tests read (a path relative to cmd/: goldens name it $CORPUS).
func realCorpus(t *testing.T) string {
	t.Helper()
	return "../testdata/corpus"
}

// withCorpus is dirs followed by each projects folder of the real corpus
// (testcorpus.Folders: the whole shared corpus when it is beside the
// repository, else the copies in testdata/corpus).
func withCorpus(dirs ...string) []string {
	return append(dirs, testcorpus.Folders()...)
}

type result struct {
	code        int
	out, errOut string
}

// run runs cctx in-process with a fixed clock and an empty environment
// (plus env), stdout a pipe unless tty.
func run(t *testing.T, tty bool, env map[string]string, args ...string) result {
	t.Helper()
	io, _, out, errOut := TestIO()
	io.SetStdoutTTY(tty)
	io.SetWidth(120)
	e := session.Env{Getenv: func(k string) string { return env[k] }, Home: t.TempDir()}
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	code := Run(args, io, e, now)
	return result{code, out.String(), errOut.String()}
}

// golden compares got with cmd/testdata/<name>; go test ./cmd -update
// rewrites it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd -update to create it)", err)
	}
	if string(want) != got {
		// Cut: a show golden runs to hundreds of kilobytes.
		t.Errorf("%s differs from the golden file (go test ./cmd -update rewrites it)\n--- got\n%.3000s\n--- want\n%.3000s", name, got, want)
	}
}

func TestMain(m *testing.M) {
	time.Local = time.UTC // relative dates and --by day are stable in goldens
	// In-process runs overlap (parallel tests, concurrent runs), and the
	// collector's pace is the process's: GOGC set, ls leaves it alone
	// (boundMemory), rather than one run restoring it under another.
	os.Setenv("GOGC", "100")
	os.Exit(m.Run())
}

func TestLsOnTheRealCorpus(t *testing.T) {
	base := realCorpus(t)
	for _, folder := range []string{"claude-code-log", "spotter", "kfischer-claude-history", "claude-code-viewer", "codemie", "claude-reliability"} {
		t.Run(folder, func(t *testing.T) {
			r := run(t, false, nil, "ls", "--all", "--dir", filepath.Join(base, folder))
			if r.code != 0 || r.errOut != "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.errOut)
			}
			golden(t, "ls/"+folder+".tsv", strings.ReplaceAll(r.out, base, "$CORPUS"))
		})
	}
}

func TestLsListsEveryMainSessionAndNoAgentFile(t *testing.T) {
	base := realCorpus(t)
	for _, folder := range []string{"claude-code-log", "spotter", "kfischer-claude-history", "claude-code-viewer", "codemie", "claude-reliability"} {
		r := run(t, false, nil, "ls", "--all", "--empty", "--json", "--dir", filepath.Join(base, folder))
		var doc struct {
			Sessions []struct {
				SessionID string `json:"session_id"`
			} `json:"sessions"`
		}
		if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
			t.Fatalf("%s: %v", folder, err)
		}
		want, _ := filepath.Glob(filepath.Join(base, folder, "*", "*-*-*-*-*.jsonl"))
		if len(doc.Sessions) != len(want) {
			t.Errorf("%s: %d sessions listed, %d session files", folder, len(doc.Sessions), len(want))
		}
		for _, s := range doc.Sessions {
			if strings.HasPrefix(s.SessionID, "agent-") {
				t.Errorf("%s: agent file listed as a session: %s", folder, s.SessionID)
			}
		}
	}
}

func TestLsJSONSchema(t *testing.T) {
	r := run(t, false, nil, "ls", "--dir", samples, "--long", "--json", "--limit", "2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["schema_version"] != 1.0 {
		t.Errorf("schema_version %v", doc["schema_version"])
	}
	sessions := doc["sessions"].([]any)
	if len(sessions) != 2 {
		t.Fatalf("limit 2 gave %d", len(sessions))
	}
	first := sessions[0].(map[string]any)
	for _, k := range []string{"session_id", "project", "project_key", "path", "title", "title_source", "first_prompt",
		"started_at", "updated_at", "git_branch", "version", "subagents", "size_bytes", "live", "prompts", "api_calls", "total_tokens"} {
		if _, ok := first[k]; !ok {
			t.Errorf("field %q missing", k)
		}
	}
	if first["session_id"] != "ef958aa1-0e93-49f0-bb71-150f63befcd1" || first["subagents"] != 6.0 || first["api_calls"] != 83.0 {
		t.Errorf("first session %v", first)
	}
}

func TestLsTerminalView(t *testing.T) {
	r := run(t, true, nil, "ls", "--dir", samples, "--color", "never")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.errOut)
	}
	golden(t, "ls/samples-terminal.txt", r.out)
	if !strings.HasPrefix(r.errOut, "cctx: ") || !strings.Contains(r.errOut, "file(s) without conversation hidden") {
		t.Errorf("hidden files not mentioned, in cctx's format: %q", r.errOut)
	}
}

// What a listing or a count left out is said on stderr, in cctx's format,
// naming the filters when they are why nothing is left.
func TestNothingLeftSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ls", "--limit", "1"}, "cctx: 1 of "},
		{[]string{"ls", "--project", "/nowhere"}, "cctx: no session found in "},
		{[]string{"tokens", "--project", "/nowhere"}, "cctx: no sessions to count in " + samples + " that match --project /nowhere\n"},
		{[]string{"tokens", "latest", "--since", "2100-01-01"}, "cctx: no API call of the session(s) named falls within --since 2100-01-01 00:00 (in the future)\n"},
	} {
		r := run(t, false, nil, append(tc.args, "--dir", samples)...)
		if r.code != 0 || !strings.HasPrefix(r.errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to start %q", tc.args, r.code, r.errOut, tc.want)
		}
	}
}

func TestColour(t *testing.T) {
	tests := []struct {
		name  string
		tty   bool
		env   map[string]string
		color string
		want  bool
	}{
		{"terminal", true, nil, "auto", true},
		{"pipe", false, nil, "auto", false},
		{"NO_COLOR on a terminal", true, map[string]string{"NO_COLOR": "1"}, "auto", false},
		{"TERM=dumb", true, map[string]string{"TERM": "dumb"}, "auto", false},
		{"--color always on a pipe", false, nil, "always", true},
		{"--color always beats NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, "always", true},
		{"--color never on a terminal", true, nil, "never", false},
		{"CLICOLOR_FORCE on a pipe", false, map[string]string{"CLICOLOR_FORCE": "1"}, "auto", true},
		{"CLICOLOR_FORCE=0 does not force", false, map[string]string{"CLICOLOR_FORCE": "0"}, "auto", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			io, _, _, _ := TestIO()
			io.SetStdoutTTY(tt.tty)
			f := &Factory{IO: io, Env: session.Env{Getenv: func(k string) string { return tt.env[k] }}}
			f.Globals.Color = tt.color
			if err := f.resolveColor(); err != nil {
				t.Fatal(err)
			}
			if f.color != tt.want {
				t.Errorf("colour %v, want %v", f.color, tt.want)
			}
		})
	}
	// End to end: escapes reach a terminal, never a pipe or NO_COLOR.
	if r := run(t, true, nil, "ls", "--dir", samples, "--limit", "1"); !strings.Contains(r.out, "\x1b[") {
		t.Errorf("no colour on a terminal: %q", r.out)
	}
	for _, env := range []map[string]string{nil, {"NO_COLOR": "1"}} {
		if r := run(t, env != nil, env, "ls", "--dir", samples, "--limit", "1"); strings.Contains(r.out, "\x1b[") {
			t.Errorf("colour with env %v: %q", env, r.out)
		}
	}
}

func TestExitCodes(t *testing.T) {
	corrupt := t.TempDir()
	os.MkdirAll(filepath.Join(corrupt, "-p"), 0o755)
	os.WriteFile(filepath.Join(corrupt, "-p", "11111111-1111-4111-8111-111111111111.jsonl"),
		[]byte(`{"type":"user","message":{"content":"hi"}}`+"\nnot json\n"+
			`{"type":"assistant","message":{"id":"m","model":"claude-opus-4-5","usage":{"input_tokens":1,"output_tokens":2}}}`+"\n"), 0o644)
	empty := t.TempDir()
	os.MkdirAll(filepath.Join(empty, "projects"), 0o755)
	tests := []struct {
		name     string
		args     []string
		code     int
		stderr   string
		stdoutOK bool
	}{
		{"ok", []string{"ls", "--dir", samples}, 0, "", true},
		{"unknown flag", []string{"ls", "--nope"}, 2, "unknown flag: --nope", false},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command", false},
		{"extra argument hints at --project", []string{"ls", "x"}, 2, `takes no argument, got "x": to list the sessions run in a folder, use --project x`, false},
		{"a --project path split by the shell", []string{"ls", "--project", "/Users/me/Mobile", "Documents/x"}, 2, `a --project path with spaces needs quotes (--project '/Users/me/Mobile Documents/x')`, false},
		{"bad --color", []string{"ls", "--color", "sometimes"}, 2, "--color must be auto, always or never", false},
		{"bad --since", []string{"ls", "--dir", samples, "--since", "last tuesday"}, 2, "cannot read \"last tuesday\" as a date", false},
		{"missing --dir", []string{"ls", "--dir", "/no/such/dir"}, 2, "--dir /no/such/dir", false},
		{"unknown session", []string{"tokens", "--dir", samples, "ffffffff"}, 2, "no such session", false},
		{"short prefix", []string{"tokens", "--dir", samples, "ef9"}, 2, "at least 4 characters", false},
		{"ambiguous prefix lists candidates", []string{"tokens", "--dir", samples, "0"}, 2, "at least 4", false},
		{"two stdin arguments", []string{"tokens", "-", "-"}, 2, "only one argument can read standard input", false},
		{"warnings are fine without --strict", []string{"tokens", "--dir", corrupt}, 0, "cctx: warning: ", true},
		{"--strict turns warnings into exit 1", []string{"tokens", "--dir", corrupt, "--strict"}, 1, "warning(s) with --strict", true},
		{"budget exceeded", []string{"tokens", "--dir", samples, "b3edadab", "--max-tokens", "300k", "--max-api-calls", "100"}, 3,
			"cctx: budget exceeded: session b3edadab-bca0-4054-9b41-f7ffa6941260: tokens 363124 > 300000 (--max-tokens)\n", true},
		{"budget kept (the caveat of its numbers said, in a pipe)", []string{"tokens", "--dir", samples, "b3edadab", "--max-tokens", "400k"}, 0, "their output tokens are understated", true},
		{"a budget over no session at all is not kept", []string{"tokens", "--dir", empty, "--max-cost", "5", "--budget-total"}, 1,
			"nothing to check: no session to count in " + filepath.Join(empty, "projects") + ", so the budget was not checked", false},
		{"a budget over a window without sessions is", []string{"tokens", "--dir", samples, "--max-cost", "5", "--since", "2099-01-01"}, 0, "no sessions to count", false},
		{"a budget over no session at all is not kept, with a window too", []string{"tokens", "--dir", empty, "--max-cost", "5", "--since", "1d"}, 1, "nothing to check: no session to count in " + filepath.Join(empty, "projects"), false},
		{"a cost that cannot be checked is an error, not an excess", []string{"tokens", "--dir", samples, "b3edadab", "--pricing", "testdata/prices-opus-only.json", "--max-cost", "100"}, 1,
			"cctx: error: session b3edadab-bca0-4054-9b41-f7ffa6941260: cost unknown ($0.384592 priced, 3 call(s) of unpriced models; see --pricing): --max-cost $100 cannot be checked\n", true},
		{"an excess is still exit 3 beside a cost not checked", []string{"tokens", "--dir", samples, "b3edadab", "--pricing", "testdata/prices-opus-only.json", "--max-cost", "100", "--max-tokens", "300k"}, 3,
			"cctx: budget exceeded: session b3edadab-bca0-4054-9b41-f7ffa6941260: tokens 363124 > 300000 (--max-tokens)\ncctx: error: session b3edadab", true},
		{"bad budget", []string{"tokens", "--dir", samples, "--max-tokens", "lots"}, 2, `"lots" is not a count`, false},
		{"bad number, said plainly", []string{"ls", "--limit", "abc"}, 2, `invalid argument "abc" for "--limit" flag: not a number (see 'cctx ls --help')`, false},
		{"bad regular expression, quoted as given", []string{"show", "--dir", samples, "b3edadab", "--grep", `\p{Foo}`}, 2, "--grep `\\p{Foo}`: invalid character class range", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, false, nil, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", r.code, tt.code, r.errOut)
			}
			if tt.stderr == "" && r.errOut != "" || !strings.Contains(r.errOut, tt.stderr) {
				t.Errorf("stderr %q, want it to contain %q", r.errOut, tt.stderr)
			}
			if tt.stdoutOK != (r.out != "") {
				t.Errorf("stdout %q", r.out)
			}
		})
	}
}

// The candidates of an ambiguous prefix, the most recently active first,
// as ls lists them, each with its title.
func TestAmbiguousPrefixListsCandidates(t *testing.T) {
	dir := t.TempDir()
	for i, id := range []string{"abcd1111-1111-4111-8111-111111111111", "abcd2222-2222-4222-8222-222222222222", "abcd3333-3333-4333-8333-333333333333"} {
		os.MkdirAll(filepath.Join(dir, "-p"), 0o755)
		ts := fmt.Sprintf("2026-01-0%dT00:00:00Z", []int{2, 3, 1}[i])
		os.WriteFile(filepath.Join(dir, "-p", id+".jsonl"), []byte(`{"type":"user","cwd":"/w","timestamp":"`+ts+`","message":{"content":"x"}}`+"\n"), 0o644)
	}
	r := run(t, false, nil, "tokens", "--dir", dir, "abcd")
	i1, i2, i3 := strings.Index(r.errOut, "abcd1111"), strings.Index(r.errOut, "abcd2222"), strings.Index(r.errOut, "abcd3333")
	// Each with its title last: two of one project and minute differ there.
	if r.code != 2 || !strings.Contains(r.errOut, "abcd1111-1111-4111-8111-111111111111  2026-01-02T00:00:00.000Z  /w  x\n") || !(i2 < i1 && i1 < i3) {
		t.Errorf("exit %d stderr %q; want 2222, 1111, 3333 (newest first)", r.code, r.errOut)
	}
}

func TestTokensJSONMatchesTheReferenceTotals(t *testing.T) {
	base := realCorpus(t)
	want := map[string][5]int64{
		"claude-code-log":         {11552, 121830, 1312721, 21173937, 437},
		"spotter":                 {5234, 89854, 668278, 32819400, 379},
		"kfischer-claude-history": {153, 1740, 45563, 315668, 18},
		"claude-code-viewer":      {947, 55562, 185723, 3972113, 190},
		"codemie":                 {6412, 81071, 1903009, 4592497, 72},
		"claude-reliability":      {38, 563, 22988, 1114040, 39},
	}
	for folder, w := range want {
		t.Run(folder, func(t *testing.T) {
			r := run(t, false, nil, "tokens", "--json", "--dir", filepath.Join(base, folder))
			// The one agent transcript the corpus lacks (show and agents
			// say it too): its tokens are not in the reference either.
			wantErr := ""
			if folder == "claude-reliability" {
				wantErr = "c7d3d95c-57f0-4359-8f4b-926a9bef5a3f.jsonl:4: the Agent/Task result names agent ab81802, but no transcript agent-ab81802.jsonl was found: its tokens are not counted\n"
			}
			if r.code != 0 || !strings.HasSuffix(r.errOut, wantErr) || strings.Count(r.errOut, "\n") != strings.Count(wantErr, "\n") {
				t.Fatalf("exit %d stderr %q, want one line ending %q", r.code, r.errOut, wantErr)
			}
			var doc struct {
				Total struct {
					Input   int64 `json:"input_tokens"`
					Output  int64 `json:"output_tokens"`
					CW      int64 `json:"cache_creation_input_tokens"`
					CR      int64 `json:"cache_read_input_tokens"`
					Calls   int64 `json:"api_calls"`
					Tokens  int64 `json:"total_tokens"`
					CostUSD *float64
					RawCost json.RawMessage `json:"cost_usd"`
				} `json:"total"`
				Sessions []struct {
					Total struct {
						Calls int64 `json:"api_calls"`
					} `json:"total"`
				} `json:"sessions"`
			}
			if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
				t.Fatal(err)
			}
			tot := doc.Total
			if got := [5]int64{tot.Input, tot.Output, tot.CW, tot.CR, tot.Calls}; got != w {
				t.Errorf("totals %v, want %v", got, w)
			}
			if tot.Tokens != w[0]+w[1]+w[2]+w[3] || string(tot.RawCost) == "null" {
				t.Errorf("total_tokens %d cost %s", tot.Tokens, tot.RawCost)
			}
			var sum int64
			for _, s := range doc.Sessions {
				sum += s.Total.Calls
			}
			if sum != tot.Calls {
				t.Errorf("sessions add up to %d calls, total says %d", sum, tot.Calls)
			}
		})
	}
}

func TestTokensViews(t *testing.T) {
	for _, tc := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"one-session-terminal", true, []string{"b3edadab"}},
		{"one-session-pipe", false, []string{"b3edadab"}},
		{"all-sessions-terminal", true, nil},
		{"by-model-pipe", false, []string{"--by", "model"}},
		{"by-day-terminal", true, []string{"--by", "day"}},
		{"by-response-pipe", false, []string{"--by", "response"}}, // one table: the responses
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"tokens", "--dir", samples, "--color", "never"}, tc.args...)
			r := run(t, tc.tty, nil, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			golden(t, "tokens/"+tc.name+".txt", strings.ReplaceAll(r.out, samples, "$SAMPLES"))
		})
	}
}

func TestTokensFromStdin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	io, in, out, errOut := TestIO()
	in.Write(b)
	code := Run([]string{"tokens", "-", "--json"}, io, session.Env{Getenv: func(string) string { return "" }}, time.Now)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Total struct {
			APICalls int64 `json:"api_calls"`
		} `json:"total"`
		Sessions []struct {
			SessionID string `json:"session_id"`
			Project   string `json:"project"`
			StartedAt string `json:"started_at"`
		} `json:"sessions"`
	}
	json.Unmarshal(out.Bytes(), &doc)
	// The main file alone: 15 responses (its subagent is not on stdin).
	if doc.Total.APICalls != 15 || len(doc.Sessions) != 1 || doc.Sessions[0].SessionID != "b3edadab-bca0-4054-9b41-f7ffa6941260" {
		t.Errorf("stdin report %+v", doc)
	}
	// Start and project come from the stream itself, as show - reads
	// them: a stream has no head to read ahead, nor a folder.
	if s := doc.Sessions; len(s) == 1 && (s[0].Project != "/Users/user/project" || s[0].StartedAt != "2025-12-20T08:57:00.189Z") {
		t.Errorf("stdin session: project %q, started %q", s[0].Project, s[0].StartedAt)
	}
}

func TestHelpTeaches(t *testing.T) {
	for _, c := range []string{"ls", "tokens"} {
		r := run(t, false, nil, c, "--help")
		if r.code != 0 || !strings.Contains(r.out, "Examples:") || !strings.Contains(r.out, "--json") {
			t.Errorf("%s --help: exit %d\n%s", c, r.code, r.out)
		}
	}
	r := run(t, false, nil, "--version")
	if r.code != 0 || !strings.HasPrefix(r.out, "cctx ") {
		t.Errorf("--version: %q", r.out)
	}
}

func TestTokensReportShapeFollowsTheArguments(t *testing.T) {
	// One session with --by in a pipe: only the groups, one table.
	r := run(t, false, nil, "tokens", "--dir", samples, "b3edadab", "--by", "agent")
	if r.code != 0 || r.out != "\t15\t138\t1443\t32421\t290391\t324393\t0.384592\na434715\t3\t15\t297\t13142\t25277\t38731\t0.061366\n" {
		t.Errorf("exit %d, pipe output %q", r.code, r.out)
	}
	// Several sessions of which one has responses: still a session table.
	r = run(t, false, nil, "tokens", "--dir", samples, "b3edadab", "0d3b22c1")
	if r.code != 0 || strings.Count(r.out, "\n") != 2 || !strings.HasPrefix(r.out, "b3edadab-bca0-4054-9b41-f7ffa6941260\t") {
		t.Errorf("exit %d, output %q", r.code, r.out)
	}
}

// A CI log must say why --strict failed: the incomplete last line of a
// session, a note under -v otherwise, is then a warning on every command.
func TestStrictSaysWhyItFails(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "-p"), 0o755)
	os.WriteFile(filepath.Join(dir, "-p", "11111111-1111-4111-8111-111111111111.jsonl"), []byte(
		`{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z","cwd":"/p","message":{"role":"user","content":"hi"}}`+"\n"+
			`{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"id":"m","role":"ass`), 0o644)
	for _, args := range [][]string{{"tokens"}, {"tokens", "1111"}, {"show", "1111"}, {"tree", "1111"}, {"agents", "1111"}, {"ls", "--long"}} {
		quiet := run(t, false, nil, append(args, "--dir", dir)...)
		strict := run(t, false, nil, append(args, "--dir", dir, "--strict")...)
		if quiet.code != 0 || strings.Contains(quiet.errOut, "incomplete") {
			t.Errorf("%v: without --strict exit %d, stderr %q", args, quiet.code, quiet.errOut)
		}
		if strict.code != 1 || !strings.Contains(strict.errOut, "cctx: warning: ") || !strings.Contains(strict.errOut, ":2: last line is incomplete") {
			t.Errorf("%v --strict: exit %d, stderr %q", args, strict.code, strict.errOut)
		}
	}
}

func TestTokensStrictValidatesEveryLine(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "-p"), 0o755)
	// The broken line is shaped like an object: the fast path would not
	// look inside it, --strict must.
	os.WriteFile(filepath.Join(dir, "-p", "11111111-1111-4111-8111-111111111111.jsonl"), []byte(
		`{"type":"user","message":{"role":"user","content":"hi"},"oops":}`+"\n"+
			`{"type":"assistant","message":{"id":"m","role":"assistant","model":"claude-opus-4-5","usage":{"input_tokens":1,"output_tokens":2}}}`+"\n"), 0o644)
	if r := run(t, false, nil, "tokens", "--dir", dir); r.code != 0 {
		t.Errorf("without --strict: exit %d %q", r.code, r.errOut)
	}
	if r := run(t, false, nil, "tokens", "--dir", dir, "--strict"); r.code != 1 || !strings.Contains(r.errOut, ":1: skipped malformed line") {
		t.Errorf("with --strict: exit %d %q", r.code, r.errOut)
	}
}

// ls --long parses only the lines it needs (tool results are skipped by
// their start); --strict parses every line. Both count the same prompts,
// calls and tokens on every sample and corpus folder.
func TestLsLongSkipsToolResultsWithoutLosingPrompts(t *testing.T) {
	for _, d := range withCorpus("../testdata/projects") {
		lean := run(t, false, nil, "ls", "--long", "--all", "--json", "--dir", d)
		strict := run(t, false, nil, "ls", "--long", "--all", "--json", "--strict", "--dir", d)
		if lean.code != 0 || lean.out != strict.out {
			t.Errorf("%s: ls --long (exit %d) and with --strict (exit %d) differ:\n%.400s\n%.400s", d, lean.code, strict.code, lean.out, strict.out)
		}
		if !strings.Contains(lean.out, `"sessions":[]`) && !strings.Contains(lean.out, `"prompts"`) {
			t.Errorf("%s: no prompt counts in %.200s", d, lean.out)
		}
	}
}

// failingReader gives its bytes, then a read error (a disk going away).
type failingReader struct{ data []byte }

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, errors.New("input/output error")
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// A transcript that cannot be read whole is an error for the session the
// user named, and never lets a budget pass; the part that was read is
// still reported. (Standard input stands for a file that fails: as root,
// permission bits cannot make one.)
func TestUnreadableInputIsAnError(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"tokens", "-"}, 1, "1 file(s) could not be read"},
		{[]string{"tokens", "-", "--max-tokens", "1G"}, 1, "1 file(s) could not be read"},
		{[]string{"tokens", "-", "--max-tokens", "1"}, 3, "budget exceeded"}, // exceeded on what was read: exceeded
		{[]string{"agents", "-"}, 1, "input/output error"},
		{[]string{"tree", "-"}, 1, "input/output error"},
		{[]string{"show", "-"}, 1, "input/output error"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			io, _, out, errOut := TestIO()
			io.In = &failingReader{data: bytes.Clone(b[:len(b)/2])}
			code := Run(tt.args, io, session.Env{Getenv: func(string) string { return "" }}, time.Now)
			if code != tt.code || !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tt.code, tt.stderr)
			}
			if tt.args[0] == "tokens" && out.Len() == 0 {
				t.Error("the part that was read is not reported")
			}
		})
	}
}

// What ls leaves out is said on stderr, in a pipe and in JSON as on a
// terminal; an empty result says whether filters emptied it.
func TestLsSaysWhatItLeftOut(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"ls", "--limit", "2"}, "2 of "},
		{[]string{"ls", "--limit", "2", "--json"}, "2 of "},
		{[]string{"ls", "--since", "2030-01-01"}, "no session found in "},
	} {
		r := run(t, false, nil, append(tc.args, "--dir", samples)...)
		if r.code != 0 || !strings.Contains(r.errOut, tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q, want it to contain %q", tc.args, r.code, r.errOut, tc.stderr)
		}
	}
	if r := run(t, false, nil, "ls", "--dir", samples); r.errOut != "" {
		t.Errorf("a full listing in a pipe says %q", r.errOut)
	}
}

// A CLAUDE_CONFIG_DIR that is not there fails what looks sessions up, not
// what reads a file it is given.
func TestMissingConfigDirFailsOnlyLookups(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/no/such/cctx-config"}
	file := filepath.Join(samples, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl")
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"tokens", file}, 0},
		{[]string{"tree", file}, 0},
		{[]string{"tokens", "b3edadab"}, 2},
		{[]string{"tokens", "--max-cost", "0"}, 2},
		{[]string{"ls"}, 2},
	} {
		r := run(t, false, env, tc.args...)
		if r.code != tc.code || tc.code == 2 && !strings.Contains(r.errOut, "CLAUDE_CONFIG_DIR /no/such/cctx-config: no such directory") {
			t.Errorf("%v: exit %d (want %d), stderr %q", tc.args, r.code, tc.code, r.errOut)
		}
	}
}

// A resumed session replays the Agent/Task results of the session it
// resumed, whose folder holds the agents' transcripts: not a missing
// transcript, so --strict passes, and -v says where it is.
func TestResumedSessionsAgentsAreNotMissing(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "-p")
	a, b := "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"
	lines := func(sid string) string {
		return `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"go"}}` + "\n" +
			`{"type":"assistant","uuid":"c1","parentUuid":"u1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"msg-1","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"description":"x","prompt":"p"}}],"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n" +
			`{"type":"user","uuid":"r1","parentUuid":"c1","sessionId":"` + sid + `","timestamp":"2026-01-01T10:01:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]},"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":15}}` + "\n"
	}
	os.MkdirAll(filepath.Join(proj, a, "subagents"), 0o755)
	os.WriteFile(filepath.Join(proj, a+".jsonl"), []byte(lines(a)), 0o644)
	os.WriteFile(filepath.Join(proj, a, "subagents", "agent-ag1.jsonl"), []byte(`{"type":"user","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"ag1","sessionId":"`+a+`","message":{"role":"user","content":"p"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(proj, b+".jsonl"), []byte(lines(b)), 0o644) // b resumed a: its lines replayed
	for _, cmd := range []string{"tree", "show", "agents"} {
		r := run(t, false, nil, cmd, "--dir", dir, "--strict", "-v", "bbbb")
		// At the result's line, which names the agent, in every command.
		if r.code != 0 || !strings.Contains(r.errOut, b+".jsonl:3: agent ag1 ran in the session this one resumed: its transcript is "+filepath.Join(proj, a, "subagents", "agent-ag1.jsonl")) {
			t.Errorf("%s: exit %d, stderr %q", cmd, r.code, r.errOut)
		}
	}
	// Resumed again in the resumed session (a result naming it a second
	// time): still the earlier session's agent, not a missing one.
	resume := `{"type":"assistant","uuid":"c2","parentUuid":"r1","sessionId":"` + b + `","timestamp":"2026-01-01T10:02:00Z","requestId":"r2","message":{"id":"msg-2","model":"claude-opus-4-7","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Task","input":{"description":"x","prompt":"more","resume":"ag1"}}],"usage":{"input_tokens":1,"output_tokens":1}}}` + "\n" +
		`{"type":"user","uuid":"r2","parentUuid":"c2","sessionId":"` + b + `","timestamp":"2026-01-01T10:03:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"done"}]},"toolUseResult":{"status":"completed","agentId":"ag1","totalTokens":15}}` + "\n"
	os.WriteFile(filepath.Join(proj, b+".jsonl"), []byte(lines(b)+resume), 0o644)
	if r := run(t, false, nil, "agents", "--dir", dir, "--strict", "bbbb"); r.code != 0 || !strings.Contains(r.out, "ag1\tt1\t\t0\t\tx\t\tcompleted\t") {
		t.Errorf("resumed twice: exit %d, stderr %q\n%s", r.code, r.errOut, r.out)
	}
	os.WriteFile(filepath.Join(proj, b+".jsonl"), []byte(lines(b)), 0o644)
	// The same with the flat layout of 2.0.x (agent-<id>.jsonl beside the
	// sessions, recording the session that ran it).
	os.Rename(filepath.Join(proj, a, "subagents", "agent-ag1.jsonl"), filepath.Join(proj, "agent-ag1.jsonl"))
	if r := run(t, false, nil, "agents", "--dir", dir, "--strict", "-v", "bbbb"); r.code != 0 || !strings.Contains(r.errOut, "its transcript is "+filepath.Join(proj, "agent-ag1.jsonl")) {
		t.Errorf("flat: exit %d, stderr %q", r.code, r.errOut)
	}
	// A flat file that records no session proves nothing: still missing.
	os.WriteFile(filepath.Join(proj, "agent-ag1.jsonl"), nil, 0o644)
	if r := run(t, false, nil, "tree", "--dir", dir, "--strict", "bbbb"); r.code != 1 || !strings.Contains(r.errOut, "no transcript agent-ag1.jsonl was found") {
		t.Errorf("empty flat file: exit %d, stderr %q", r.code, r.errOut)
	}
	// Where no session has it, it is missing.
	os.Remove(filepath.Join(proj, "agent-ag1.jsonl"))
	if r := run(t, false, nil, "tree", "--dir", dir, "--strict", "bbbb"); r.code != 1 || !strings.Contains(r.errOut, "no transcript agent-ag1.jsonl was found") {
		t.Errorf("missing everywhere: exit %d, stderr %q", r.code, r.errOut)
	}
}

// A transcript read from standard input has no folder beside it: its
// agents' transcripts are not looked for, nor reported missing.
func TestTreeFromStdinDoesNotLookForAgents(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "-experiments-worktrees", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"tree", "show"} {
		io, in, _, errOut := TestIO()
		in.Write(b)
		if code := Run([]string{cmd, "-", "--strict"}, io, session.Env{Getenv: func(string) string { return "" }}, time.Now); code != 0 {
			t.Errorf("%s -: exit %d, stderr %q", cmd, code, errOut)
		}
	}
}

// Sessions recorded on Windows are found by --project with a Windows path
// (either separator, any case) when cctx runs on Linux or macOS.
func TestProjectWithAWindowsPath(t *testing.T) {
	dir := filepath.Join(realCorpus(t), "entire-numwordify")
	for _, tc := range []struct {
		project string
		want    int
	}{
		{`C:\Users\empad`, 3},
		{`c:/users/empad/desktop/development`, 2},
		{`C:\Users\someone-else`, 0},
	} {
		for _, verb := range [][]string{{"ls", "--all"}, {"tokens"}} {
			r := run(t, false, nil, append(verb, "--dir", dir, "--project", tc.project)...)
			if got := strings.Count(r.out, "\n"); got != tc.want || r.code != 0 {
				t.Errorf("%s --project %s: %d rows (exit %d), want %d\n%s%s", verb[0], tc.project, got, r.code, tc.want, r.out, r.errOut)
			}
		}
	}
}

// A table command whose result is empty prints no table on a terminal
// (headers over no row, a total of 0): stdout stays empty and stderr says
// why first, in one line, as each command says it. A pipe and --json keep their
// shape: no row, the JSON document with its empty lists.
func TestEmptyResultOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
		quiet  bool // in a pipe, nothing on stderr either
	}{
		{[]string{"ls", "--since", "2099-01-01"}, 0, "cctx: no session found in " + samples + " that matches --since 2099-01-01 00:00 (in the future)\n", false},
		{[]string{"ls", "-l", "--project", "/nowhere"}, 0, "cctx: no session found in " + samples + " that matches --project /nowhere\n", false},
		{[]string{"tokens", "--since", "2099-01-01"}, 0, "cctx: no sessions to count in " + samples + " that match --since 2099-01-01 00:00 (in the future)\n", false},
		{[]string{"tokens", "--since", "2099-01-01", "--by", "day"}, 0, "cctx: no sessions to count in " + samples + " that match --since 2099-01-01 00:00 (in the future)\n", false},
		{[]string{"tokens", "--since", "2099-01-01", "--by", "tool"}, 0, "cctx: no sessions to count in " + samples + " that match --since 2099-01-01 00:00 (in the future)\n", false},
		{[]string{"tokens", "--since", "2099-01-01", "--by", "response"}, 0, "cctx: no sessions to count in " + samples + " that match --since 2099-01-01 00:00 (in the future)\n", false},
		{[]string{"tokens", "b3edadab", "--since", "2099-01-01", "--until", "2099-02-01"}, 0, "cctx: no API call of the session(s) named falls within --since 2099-01-01 00:00 (in the future) and --until\n", false},
		{[]string{"tokens", "0d3b22c1"}, 0, "cctx: session 0d3b22c1-ba90-4fd3-b8d2-056ffc626725 has no API call\n", true},
		{[]string{"grep", "zzqqxxnomatch"}, 1, "cctx: no match for \"zzqqxxnomatch\" in 12 session file(s)\n", true},
		{[]string{"grep", "-c", "zzqqxxnomatch"}, 1, "cctx: no match for \"zzqqxxnomatch\" in 12 session file(s)\n", true},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := run(t, true, nil, append(tc.args, "--dir", samples, "--color", "never")...)
			if r.code != tc.code || r.out != "" || !strings.HasPrefix(r.errOut, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, no stdout, stderr starting %q", r.code, r.out, r.errOut, tc.code, tc.stderr)
			}
			// In a pipe: no row; grep stays as quiet as grep, and a session
			// named without calls as before (its rows say it).
			p := run(t, false, nil, append(tc.args, "--dir", samples)...)
			if p.code != tc.code || p.out != "" || tc.quiet && p.errOut != "" || !tc.quiet && !strings.HasPrefix(p.errOut, tc.stderr) {
				t.Errorf("pipe: exit %d, stdout %q, stderr %q", p.code, p.out, p.errOut)
			}
			// JSON stays a document.
			j := run(t, true, nil, append(tc.args, "--dir", samples, "--json")...)
			var doc map[string]any
			if err := json.Unmarshal([]byte(j.out), &doc); err != nil || doc["schema_version"] == nil {
				t.Errorf("--json on a terminal: %v\n%s", err, j.out)
			}
		})
	}
	// Rows of zeros are still rows: a session named among others keeps its
	// row, in a pipe and on a terminal.
	r := run(t, true, nil, "tokens", "--dir", samples, "--color", "never", "0d3b22c1", "b3edadab")
	if r.code != 0 || !strings.Contains(r.out, "0d3b22c1 ") || !strings.Contains(r.out, "SESSION") {
		t.Errorf("two sessions named, one without calls: exit %d\n%s", r.code, r.out)
	}
}

// On an 80-column terminal a listing's rows fit: the project and branch
// give way to the title (which keeps 20 columns), where they used to
// make every row of the real corpus about 106 columns wide, each wrapped.
func TestLsFitsAnEightyColumnTerminal(t *testing.T) {
	args := []string{"ls", "--all", "--color", "never"}
	for _, d := range withCorpus(samples) {
		args = append(args, "--dir", d)
	}
	io, _, out, errOut := TestIO()
	io.SetStdoutTTY(true)
	io.SetWidth(80)
	e := session.Env{Getenv: func(string) string { return "" }, Home: t.TempDir()}
	if code := Run(args, io, e, func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	for _, l := range rows {
		if render.Width(l) > 80 {
			t.Errorf("a row %d columns wide: %q", render.Width(l), l)
		}
	}
	// The samples' 8 sessions and the corpus's: 25 rows from the copies in
	// testdata/corpus (a clean clone), more with the shared corpus beside.
	if len(rows) < 25 {
		t.Errorf("%d rows: not the corpus", len(rows))
	}
}

// Without a home directory the default roots cannot be looked for: the
// warning says HOME is not set, not that ~/.claude was looked in.
func TestNoHomeIsSaid(t *testing.T) {
	r := runHome(t, "", nil, "ls")
	if r.code != 0 || !strings.Contains(r.errOut, "HOME is not set, so ~/.claude/projects could not be looked for") {
		t.Errorf("exit %d, stderr %q", r.code, r.errOut)
	}
}
