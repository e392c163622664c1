package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/render"
)

// Colour follows the README: --color wins, then CLICOLOR_FORCE, then
// NO_COLOR, then whether stdout is a terminal (and TERM is not dumb).
// `tree` colours its lines; JSON never holds colour.
func TestColourInAPipe(t *testing.T) {
	tests := []struct {
		name   string
		env    []string
		args   []string
		colour bool
	}{
		{"pipe: none", nil, nil, false},
		{"--color always", nil, []string{"--color", "always"}, true},
		{"--color=always beats NO_COLOR", []string{"NO_COLOR=1"}, []string{"--color=always"}, true},
		{"CLICOLOR_FORCE", []string{"CLICOLOR_FORCE=1"}, nil, true},
		{"CLICOLOR_FORCE=0 does not force", []string{"CLICOLOR_FORCE=0"}, nil, false},
		{"CLICOLOR_FORCE beats NO_COLOR", []string{"CLICOLOR_FORCE=1", "NO_COLOR=1"}, nil, true},
		{"--color never beats CLICOLOR_FORCE", []string{"CLICOLOR_FORCE=1"}, []string{"--color", "never"}, false},
		{"NO_COLOR", []string{"NO_COLOR=1"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cctxWith(t, opts{env: tt.env}, append([]string{"tree", "--dir", samples, "b3edadab"}, tt.args...)...)
			expect(t, r, 0, "tree")
			if hasSGR(r.stdout) != tt.colour {
				t.Errorf("colour %v, want %v\n%s", hasSGR(r.stdout), tt.colour, r)
			}
			if bad := controlChars(r.stdout, true); len(bad) > 0 {
				t.Errorf("control characters besides colour: %v", bad)
			}
			// JSON and tab-separated data are for tools: never coloured.
			for _, args := range [][]string{
				{"tree", "--json", "b3edadab"}, {"ls", "--json"}, {"tokens", "--json", "b3edadab"}, {"agents", "--json", "ef958aa1"},
				{"ls"}, {"tokens", "b3edadab"}, {"agents", "ef958aa1"},
			} {
				r := cctxWith(t, opts{env: tt.env}, append(append(args, "--dir", samples), tt.args...)...)
				expect(t, r, 0, strings.Join(args, " "))
				if hasSGR(r.stdout) {
					t.Errorf("%s: colour in data for tools\n%s", strings.Join(args, " "), r)
				}
			}
		})
	}
}

// script(1) runs cctx on a real pseudo-terminal, as a user sees it.
func scriptPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) not found: no pseudo-terminal test")
	}
	// util-linux script: -q quiet, -e child's exit code, -c command.
	if out, err := exec.Command(p, "-qec", "true", "/dev/null").CombinedOutput(); err != nil {
		t.Skipf("script(1) cannot run here: %v %s", err, out)
	}
	return p
}

// onTTY runs cctx under script(1). Output comes back with the terminal's
// \r\n line ends, turned back into \n.
func onTTY(t *testing.T, env []string, args ...string) result {
	t.Helper()
	sp := scriptPath(t)
	quoted := []string{shellQuote(bin)}
	for _, a := range args {
		quoted = append(quoted, shellQuote(a))
	}
	// script gives the terminal no size; COLUMNS sets the width cctx uses.
	// A pager would write its own terminal setup: cat keeps the output
	// what cctx wrote.
	r := runCmd(t, exec.Command(sp, "-qec", strings.Join(quoted, " ")+" 2>/dev/null", "/dev/null"), append([]string{"COLUMNS=120", "CCTX_PAGER=cat"}, env...))
	r.stdout = strings.ReplaceAll(r.stdout, "\r\n", "\n")
	return r
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func TestPseudoTerminal(t *testing.T) {
	scriptPath(t)
	t.Run("colour and a table with a header", func(t *testing.T) {
		r := onTTY(t, nil, "ls", "--dir", samples)
		expect(t, r, 0, "ls on a terminal")
		if !hasSGR(r.stdout) {
			t.Errorf("no colour on a terminal\n%s", r)
		}
		if !strings.Contains(sgr.ReplaceAllString(r.stdout, ""), "ID") || strings.Contains(r.stdout, "\t") {
			t.Errorf("want an aligned table with a header, no tabs\n%s", r)
		}
	})
	// Every table is coloured as colour: nothing of its colour shows as
	// escaped text (the samples' titles and ids hold no escapes).
	t.Run("coloured tables show no escapes", func(t *testing.T) {
		for _, args := range [][]string{{"ls"}, {"ls", "-l"}, {"tokens"}, {"tokens", "--by", "day"}, {"agents", "ef958aa1"}} {
			r := onTTY(t, nil, append(args, "--dir", samples)...)
			expect(t, r, 0, strings.Join(args, " "))
			if !hasSGR(r.stdout) || strings.Contains(r.stdout, `\x1b`) {
				t.Errorf("%v: colour missing or shown as text\n%s", args, r)
			}
		}
	})
	for _, tt := range []struct {
		name string
		env  []string
		args []string
	}{
		{"NO_COLOR", []string{"NO_COLOR=1"}, nil},
		{"TERM=dumb", []string{"TERM=dumb"}, nil},
		{"--color never", nil, []string{"--color", "never"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, verb := range [][]string{{"ls"}, {"tree", "b3edadab"}, {"tokens", "b3edadab"}, {"agents", "ef958aa1"}} {
				r := onTTY(t, tt.env, append(append(verb, "--dir", samples), tt.args...)...)
				expect(t, r, 0, verb[0])
				if hasSGR(r.stdout) {
					t.Errorf("%s: colour despite %s\n%s", verb[0], tt.name, r)
				}
			}
		})
	}
	t.Run("JSON is indented on a terminal", func(t *testing.T) {
		r := onTTY(t, nil, "tokens", "--json", "--dir", samples, "b3edadab")
		expect(t, r, 0, "tokens --json")
		if !strings.HasPrefix(r.stdout, "{\n  \"schema_version\": 1,") {
			t.Errorf("not indented:\n%s", cut(r.stdout, 300))
		}
		var v any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Errorf("not JSON: %v", err)
		}
	})
	// An empty result prints no table on a terminal: no header over no
	// row, no total of 0 (stderr, which onTTY drops, says why).
	t.Run("an empty result prints no table", func(t *testing.T) {
		for _, tc := range []struct {
			args []string
			code int
		}{
			{[]string{"ls", "--since", "2099-01-01"}, 0},
			{[]string{"tokens", "--since", "2099-01-01"}, 0},
			{[]string{"tokens", "--since", "2099-01-01", "--by", "day"}, 0},
			{[]string{"tokens", "b3edadab", "--since", "2099-01-01"}, 0},
			{[]string{"grep", "zzqqxxnomatch"}, 1},
		} {
			r := onTTY(t, nil, append(tc.args, "--dir", samples)...)
			expect(t, r, tc.code, strings.Join(tc.args, " "))
			if r.stdout != "" {
				t.Errorf("%v: stdout on a terminal %q, want none", tc.args, r.stdout)
			}
		}
	})
	// Every table fits the terminal: at 80 columns the tokens and agents
	// tables were up to 140 wide, each row wrapped onto two lines. What a
	// table leaves out it says under itself; a wide terminal leaves
	// nothing out.
	t.Run("tables fit the terminal", func(t *testing.T) {
		views := [][]string{{"ls"}, {"ls", "-l"}, {"tokens"}, {"tokens", "--by", "agent"}, {"tokens", "--by", "project"},
			{"tokens", "--by", "response"}, {"tokens", "--by", "tool"}, {"tokens", "--by", "agent-type"}, {"tokens", "b3edadab"},
			{"agents", "ef958aa1"}, {"agents", "-v", "ef958aa1"}, {"agents", "c7d3d95c"}, {"agents", "-v", "5c0375b4"},
			{"tokens", "--by", "day"}, {"tokens", "--by", "hour"},
			// Reading views: prose wraps, headers wrap between their parts,
			// lines of tool output are cut (a code block is not).
			{"tree", "ef958aa1"}, {"tree", "--agents", "ef958aa1"}, {"tree", "c7d3d95c"}, {"tree", "5c0375b4"},
			{"show", "ef958aa1"}, {"show", "c7d3d95c"}, {"show", "5c0375b4"}}
		for _, cols := range []int{80, 60} {
			for _, args := range views {
				r := onTTY(t, []string{fmt.Sprintf("COLUMNS=%d", cols)}, append(args, "--dir", samples)...)
				expect(t, r, 0, strings.Join(args, " "))
				for _, l := range strings.Split(strings.TrimSuffix(sgr.ReplaceAllString(r.stdout, ""), "\n"), "\n") {
					if w := render.Width(l); w >= cols {
						t.Errorf("%v at %d columns: a line %d wide:\n%s", args, cols, w, r.stdout)
						break
					}
				}
			}
		}
		// 40 columns (a split pane): ls keeps id, activity and title;
		// tokens the key, total and cost (a response its time, context
		// and cost; a tool its calls and tokens); agents the id, tokens
		// and cost.
		for _, args := range [][]string{{"ls"}, {"ls", "-l"}, {"tokens"}, {"tokens", "--by", "agent"}, {"tokens", "--by", "project"},
			{"tokens", "--by", "day"}, {"tokens", "--by", "hour"}, {"tokens", "--by", "agent-type"},
			{"tokens", "b3edadab"}, {"tokens", "--by", "response"}, {"tokens", "--by", "tool"}, {"tokens", "--by", "model"},
			{"agents", "ef958aa1"}, {"agents", "-v", "ef958aa1"}, {"agents", "c7d3d95c"},
			{"tree", "ef958aa1"}, {"tree", "--agents", "ef958aa1"}, {"tree", "b3edadab"}, {"tree", "c7d3d95c"}, {"tree", "5c0375b4"},
			{"tree", "--full", "b3edadab"}, {"tree", "--full", "--agents", "ef958aa1"},
			{"show", "ef958aa1"}, {"show", "c7d3d95c"}, {"show", "5c0375b4"}} {
			r := onTTY(t, []string{"COLUMNS=40"}, append(args, "--dir", samples)...)
			expect(t, r, 0, strings.Join(args, " "))
			for _, l := range strings.Split(strings.TrimSuffix(sgr.ReplaceAllString(r.stdout, ""), "\n"), "\n") {
				if w := render.Width(l); w >= 40 {
					t.Errorf("%v at 40 columns: a line %d wide:\n%s", args, w, r.stdout)
					break
				}
			}
		}
		// A compaction's divider stays one line: the time, then the
		// tokens, left out as the terminal narrows.
		spotter, _ := filepath.Abs("../testdata/corpus/spotter")
		for _, cols := range []int{40, 60, 80, 100} {
			r := onTTY(t, []string{fmt.Sprintf("COLUMNS=%d", cols)}, "show", "8463c716", "--dir", spotter)
			expect(t, r, 0, "show 8463c716")
			for _, l := range strings.Split(sgr.ReplaceAllString(r.stdout, ""), "\n") {
				if strings.Contains(l, "context compacted") && render.Width(l) >= cols {
					t.Errorf("at %d columns: the divider is %d wide: %q", cols, render.Width(l), l)
				}
			}
		}
		// grep: headers, hits and -l/-c rows fit; the commands it suggests
		// ("→ cctx … show …") are whole, to be copied.
		for _, cols := range []int{40, 45, 50, 60, 80, 120} {
			for _, args := range [][]string{{"grep", "worktree"}, {"grep", "-C", "1", "subagent"}, {"grep", "-C", "1", "the"}, {"grep", "-l", "worktree"}, {"grep", "-c", "worktree"}} {
				r := onTTY(t, []string{fmt.Sprintf("COLUMNS=%d", cols)}, append(args, "--dir", samples)...)
				expect(t, r, 0, strings.Join(args, " "))
				for _, l := range strings.Split(strings.TrimSuffix(sgr.ReplaceAllString(r.stdout, ""), "\n"), "\n") {
					if w := render.Width(l); w >= cols && !strings.HasPrefix(strings.TrimSpace(l), "→ cctx") {
						t.Errorf("%v at %d columns: a line %d wide: %q", args, cols, w, l)
						break
					}
				}
			}
		}
		for _, args := range [][]string{{"ls"}, {"tokens"}, {"tokens", "--by", "agent"}} {
			r := onTTY(t, []string{"COLUMNS=200"}, append(args, "--dir", samples)...)
			if strings.Contains(r.stdout, "left out") {
				t.Errorf("%v at 200 columns left columns out:\n%s", args, r.stdout)
			}
		}
		r := onTTY(t, []string{"COLUMNS=80"}, "tokens", "--dir", samples)
		if !strings.Contains(r.stdout, "(INPUT, CACHE W left out at 80 columns)") {
			t.Errorf("tokens at 80 columns does not say what it left out:\n%s", r.stdout)
		}
	})
	t.Run("exit code through the terminal", func(t *testing.T) {
		r := onTTY(t, nil, "tree", "--dir", samples, "abc")
		expect(t, r, 2, "a 3-character prefix")
	})
}

func runCmd(t *testing.T, c *exec.Cmd, env []string) result {
	t.Helper()
	c.Env = append(baseEnv(t), env...)
	c.Dir = t.TempDir()
	var out, errOut strings.Builder
	c.Stdout, c.Stderr = &out, &errOut
	err := c.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errOut.String(), code}
}

// hostileSession writes a projects root whose names and content try to
// drive the terminal (CSI, OSC title and clipboard writes, C1 controls,
// carriage returns, backspaces) and to escape the session folder through
// agentIds. It returns the root and the session id.
func hostileSession(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	const id = "e5c0e5c0-0000-4000-8000-000000000001"
	project := "-w-\x1b]0;t\x07red" // a folder name that sets the window title
	esc := `\u001b`
	line := func(s string) string { return s }
	task := func(uuid, parent, tool, msg string) string {
		return `{"type":"assistant","uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"` + id + `","timestamp":"2026-01-01T10:00:02Z","requestId":"req_` + msg + `","message":{"id":"` + msg + `","role":"assistant","model":"claude-` + esc + `[5mblink","content":[{"type":"tool_use","id":"` + tool + `","name":"Task","input":{"description":"desc ` + esc + `]52;c;cHduZWQ=\u0007","subagent_type":"gen` + esc + `[1m","prompt":"do ` + esc + `[2J it"}}],"usage":{"input_tokens":10,"output_tokens":5}}}`
	}
	result := func(uuid, parent, tool, agentID string) string {
		return `{"type":"user","uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"` + id + `","timestamp":"2026-01-01T10:00:03Z","toolUseResult":{"status":"completed","agentId":"` + agentID + `","totalTokens":15,"content":[{"type":"text","text":"` + esc + `]0;pwned\u0007 done"}]},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + tool + `","content":"` + esc + `[2J done \r over"}]}}`
	}
	main := lines(
		line(`{"type":"custom-title","customTitle":"`+esc+`[41mTITLE\u009b2J","sessionId":"`+id+`"}`),
		line(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","timestamp":"2026-01-01T10:00:00Z","cwd":"/w/`+esc+`]0;title\u0007","gitBranch":"main`+esc+`[2J","version":"2.1.0`+esc+`[m","message":{"role":"user","content":"hello `+esc+`[31mRED`+esc+`[0m \u009b2J \r overwrite\b\b"}}`),
		task("a1", "u1", "t1", "m1"),
		result("r1", "a1", "t1", "../../../etc/passwd"),
		task("a2", "r1", "t2", "m2"),
		result("r2", "a2", "t2", "/etc/passwd"),
		task("a3", "r2", "t3", "m3"),
		result("r3", "a3", "t3", `a\\b`),
		task("a4", "r3", "t4", "m4"),
		result("r4", "a4", "t4", `a\u0000b`),
		task("a5", "r4", "t5", "m5"),
		result("r5", "a5", "t5", "ok1"),
		// Ids with escapes reach warnings: a duplicate uuid and an island.
		line(`{"type":"user","uuid":"`+esc+`[2Jdup","parentUuid":"r5","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:04Z","message":{"role":"user","content":"again"}}`),
		line(`{"type":"user","uuid":"`+esc+`[2Jdup","parentUuid":"r5","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:05Z","message":{"role":"user","content":"again"}}`),
		line(`{"type":"user","uuid":"isl","parentUuid":"`+esc+`]0;x\u0007","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:06Z","message":{"role":"user","content":"island"}}`),
		"\x1b[31mnot json at all\x1b[0m",
	)
	writeFile(t, root, filepath.Join(project, id+".jsonl"), main)
	// A second session, so that listings of several sessions are printed.
	second := strings.ReplaceAll(main, id, "e5c0e5c0-0000-4000-8000-000000000002")
	writeFile(t, root, filepath.Join(project, "e5c0e5c0-0000-4000-8000-000000000002.jsonl"), strings.ReplaceAll(second, `"id":"m`, `"id":"n`))
	agent := lines(
		`{"type":"user","uuid":"g1","parentUuid":null,"isSidechain":true,"agentId":"ok1","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"do `+esc+`[2J it"}}`,
		`{"type":"assistant","uuid":"g2","parentUuid":"g1","isSidechain":true,"agentId":"ok1","sessionId":"`+id+`","timestamp":"2026-01-01T10:00:02Z","requestId":"req_g","message":{"id":"mg","role":"assistant","model":"claude-`+esc+`[5mblink","content":[{"type":"text","text":"`+esc+`]0;agent\u0007"}],"usage":{"input_tokens":7,"output_tokens":8}}}`,
	)
	sub := filepath.Join(project, id, "subagents")
	writeFile(t, root, filepath.Join(sub, "agent-ok1.jsonl"), agent)
	writeFile(t, root, filepath.Join(sub, "agent-ok1.meta.json"), `{"agentType":"meta`+esc+`[7m","description":"meta `+esc+`]0;t\u0007"}`)
	// An agent whose file name itself holds an escape: an orphan.
	writeFile(t, root, filepath.Join(sub, "agent-\x1b[2Jx.jsonl"), agent)
	return root, id
}

// knownStderrLeak: diag.Reporter writes file names and ids from content
// without escaping them (see the issue 8 report). Set it to false once
// diag escapes what it prints; the stderr check then fails on any leak.
const knownStderrLeak = false

// Hostile content reaches the screen inert: whatever the transcript holds,
// the only escape sequences cctx writes are its own colours, and JSON stays
// JSON.
func TestHostileContentIsInert(t *testing.T) {
	root, id := hostileSession(t)
	runs := [][]string{
		{"ls"}, {"ls", "--long"}, {"tokens"}, {"tokens", id}, {"tokens", "--by", "agent"}, {"tokens", "--by", "model"},
		{"tokens", "--by", "project"}, {"tree", id}, {"tree", "--full", id}, {"agents", id}, {"agents", "-v", id},
	}
	if showReady(t) {
		runs = append(runs, []string{"show", id})
	}
	modes := []struct {
		name string
		args []string
		tty  bool
	}{
		{"pipe", nil, false},
		{"forced colour", []string{"--color", "always"}, false},
		{"verbose", []string{"-v"}, false},
		{"json", []string{"--json"}, false},
		{"terminal", nil, true},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			if m.tty {
				if _, err := exec.LookPath("script"); err != nil {
					t.Skip("script(1) not found")
				}
			}
			for _, run := range runs {
				args := append(append(append([]string(nil), run...), "--dir", root), m.args...)
				var r result
				if m.tty {
					r = onTTY(t, nil, args...)
				} else {
					r = cctx(t, args...)
				}
				what := strings.Join(run, " ")
				if r.code != 0 {
					t.Errorf("%s: exit %d\n%s", what, r.code, r)
					continue
				}
				if bad := controlChars(r.stdout, true); len(bad) > 0 {
					t.Errorf("%s: stdout lets content drive the terminal: %v", what, bad[:min(3, len(bad))])
				}
				if m.name == "json" {
					var v any
					if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
						t.Errorf("%s: not JSON: %v", what, err)
					}
				}
			}
		})
	}
	// Warnings name files and ids taken from content. stderr is a terminal
	// too: none of that may reach it raw.
	t.Run("stderr", func(t *testing.T) {
		var leaks []string
		for _, run := range runs {
			r := cctx(t, append(append(append([]string(nil), run...), "--dir", root), "-v")...)
			if bad := controlChars(r.stderr, false); len(bad) > 0 {
				leaks = append(leaks, strings.Join(run, " ")+": "+bad[0])
			}
		}
		switch {
		case knownStderrLeak && len(leaks) > 0:
			t.Skipf("KNOWN (issue 8 report): internal/diag prints file names and ids unescaped; %d runs leak, e.g. %v", len(leaks), leaks[:min(3, len(leaks))])
		case knownStderrLeak:
			t.Errorf("stderr no longer leaks: set knownStderrLeak to false so that this test guards it")
		default:
			for _, l := range leaks {
				t.Error(l)
			}
		}
	})
	// The agentIds that try to leave the session folder are refused and
	// never looked up; the real agent is linked.
	t.Run("agentIds", func(t *testing.T) {
		r := cctx(t, "agents", "--json", "--dir", root, id)
		expect(t, r, 0, "agents")
		var doc struct {
			Agents []struct {
				AgentID string `json:"agent_id"`
				Status  string `json:"status"`
				Path    string `json:"path"`
			} `json:"agents"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, a := range doc.Agents {
			got[a.AgentID] = a.Status + " " + a.Path
			if strings.Contains(a.Path, "etc/passwd") || a.Path != "" && !strings.HasPrefix(a.Path, root) {
				t.Errorf("agent %q points at %q", a.AgentID, a.Path)
			}
		}
		if s := got["ok1"]; !strings.HasPrefix(s, "completed ") {
			t.Errorf("the real agent is %q; all: %q", s, got)
		}
		if !strings.Contains(r.stderr, "etc/passwd") {
			t.Errorf("the unsafe agentIds are not reported:\n%s", r.stderr)
		}
	})
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
}
