package cmd

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// parse runs the command line through the root command with cmd in place
// of the real command of that name: flags are parsed and validated, and
// cmd's runF sees the options, nothing runs.
func parse(t *testing.T, cmd func(f *Factory) *cobra.Command, args ...string) (*Factory, error) {
	t.Helper()
	io, _, _, _ := TestIO()
	f := &Factory{IO: io, Env: session.Env{Getenv: func(string) string { return "" }},
		Now: func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }}
	root := NewRootCmd(f)
	c := cmd(f)
	for _, old := range root.Commands() {
		if old.Name() == c.Name() {
			root.RemoveCommand(old)
		}
	}
	root.AddCommand(c)
	root.SetArgs(args)
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	return f, root.Execute()
}

// usage reports whether err is a usage error (exit 2) that says want.
func usage(err error, want string) bool {
	var u *UsageError
	return err != nil && (errors.As(err, &u) || isCobraUsage(err)) && strings.Contains(err.Error(), want)
}

func TestLsFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    LsOptions
		wantErr string
	}{
		{args: []string{"ls"}, want: LsOptions{Limit: 50}},
		{args: []string{"ls", "-l", "--project", "~/src/app", "--since", "7d", "--until", "today", "--limit", "5", "--empty"},
			want: LsOptions{Long: true, Project: "~/src/app", Since: "7d", Until: "today", Limit: 5, Empty: true}},
		{args: []string{"ls", "-a"}, want: LsOptions{Limit: 0, All: true}},
		{args: []string{"ls", "-a", "--limit", "3"}, want: LsOptions{Limit: 3, All: true}},
		{args: []string{"ls", "src/app"}, wantErr: "use --project src/app"},
		{args: []string{"ls", "--limit", "-1"}, wantErr: "--limit must be 0 or more"},
		{args: []string{"ls", "--limit", "x"}, wantErr: "not a number"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *LsOptions
			_, err := parse(t, func(f *Factory) *cobra.Command {
				return NewCmdLs(f, func(o *LsOptions) error { got = o; return nil })
			}, tc.args...)
			if tc.wantErr != "" {
				if !usage(err, tc.wantErr) || got != nil {
					t.Fatalf("error %v (ran: %v), want a usage error saying %q", err, got != nil, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.F = nil
			if *got != tc.want {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestShowFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		check   func(o *ShowOptions) bool
		wantErr string
	}{
		{args: []string{"show", "3f2a", "--tail", "3", "--thinking", "--full", "--agents", "--all", "--no-pager", "--redact"},
			check: func(o *ShowOptions) bool {
				return o.Session == "3f2a" && o.Tail == 3 && o.Thinking && o.Full && o.Agents && o.All && o.NoPager && o.F.Globals.Redact
			}},
		{args: []string{"show", "latest", "--grep", "migration"},
			check: func(o *ShowOptions) bool {
				return o.grep != nil && o.grep.MatchString("MIGRATION") // smart case: all lower case is case-insensitive
			}},
		{args: []string{"show", "latest", "--grep", "Migration"},
			check: func(o *ShowOptions) bool { return o.grep != nil && !o.grep.MatchString("migration") }},
		{args: []string{"show", "x", "--leaf", "9c1e", "--since-compact", "--raw"},
			check: func(o *ShowOptions) bool { return o.Leaf == "9c1e" && o.SinceCompact && o.Raw }},
		{args: []string{"show", "x", "-f"}, check: func(o *ShowOptions) bool { return o.Follow }},
		{args: []string{"show"}, wantErr: "needs <session>"},
		{args: []string{"show", "a", "b"}, wantErr: "takes <session> only"},
		{args: []string{"show", "x", "--final", "--json"}, wantErr: "--final prints text only"},
		{args: []string{"show", "x", "--json", "--raw"}, wantErr: "choose one"},
		{args: []string{"show", "x", "--json", "-f"}, wantErr: "--follow cannot print one JSON document"},
		{args: []string{"show", "-", "-f"}, wantErr: "standard input cannot grow"},
		{args: []string{"show", "x", "--final", "--tail", "2"}, wantErr: "--final prints the last reply only"},
		{args: []string{"show", "x", "--tail", "-1"}, wantErr: "--tail must be 0 or more"},
		{args: []string{"show", "x", "--leaf", ""}, wantErr: "--leaf needs a uuid"},
		{args: []string{"show", "x", "--grep", "a("}, wantErr: "--grep `a(`: missing closing )"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *ShowOptions
			_, err := parse(t, func(f *Factory) *cobra.Command {
				return NewCmdShow(f, func(o *ShowOptions) error { got = o; return nil })
			}, tc.args...)
			if tc.wantErr != "" {
				if !usage(err, tc.wantErr) || got != nil {
					t.Fatalf("error %v (ran: %v), want a usage error saying %q", err, got != nil, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(got) {
				t.Errorf("options %+v", *got)
			}
		})
	}
}

func TestTreeFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    TreeOptions
		wantErr string
	}{
		{args: []string{"tree", "b3ed"}, want: TreeOptions{Session: "b3ed", Agents: true}},
		{args: []string{"tree", "b3ed", "--full", "--agents=false"}, want: TreeOptions{Session: "b3ed", Full: true}},
		{args: []string{"tree"}, wantErr: "needs <session>"},
		{args: []string{"tree", "x", "--agents=maybe"}, wantErr: "true or false"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *TreeOptions
			_, err := parse(t, func(f *Factory) *cobra.Command {
				return NewCmdTree(f, func(o *TreeOptions) error { got = o; return nil })
			}, tc.args...)
			if tc.wantErr != "" {
				if !usage(err, tc.wantErr) || got != nil {
					t.Fatalf("error %v (ran: %v), want a usage error saying %q", err, got != nil, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.F = nil
			if *got != tc.want {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestTokensFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		check   func(o *TokensOptions) bool
		wantErr string
	}{
		{args: []string{"tokens"}, check: func(o *TokensOptions) bool {
			return len(o.Sessions) == 0 && !o.plan.Budget.Set() && o.plan.Prices != nil
		}},
		{args: []string{"tokens", "a1b2", "c3d4", "--by", "model"},
			check: func(o *TokensOptions) bool { return len(o.Sessions) == 2 && o.plan.By == tokens.ByModel }},
		{args: []string{"tokens", "--max-tokens", "400k", "--max-output-tokens", "1.5M", "--max-context", "150k", "--max-api-calls", "90", "--max-cost", "$5", "--budget-total"},
			check: func(o *TokensOptions) bool {
				b := o.plan.Budget
				return b.Tokens == 400000 && b.Output == 1500000 && b.Context == 150000 && b.APICalls == 90 && b.CostUSD == 5 && o.Query.BudgetTotal
			}},
		{args: []string{"tokens", "--since", "2026-11-01", "--until", "2026-11-02"},
			check: func(o *TokensOptions) bool {
				return o.plan.Window.Since.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) && o.plan.Window.Until.After(time.Date(2026, 11, 2, 23, 59, 0, 0, time.UTC))
			}},
		{args: []string{"tokens", "--by", "fortnight"}, wantErr: `--by "fortnight": choose one of`},
		{args: []string{"tokens", "--max-tokens", "lots"}, wantErr: "--max-tokens"},
		{args: []string{"tokens", "--max-cost", "-1"}, wantErr: "--max-cost"},
		{args: []string{"tokens", "--since", "someday"}, wantErr: "--since: cannot read"},
		{args: []string{"tokens", "--since", "2026-11-02", "--until", "2026-11-01"}, wantErr: "is before --since"},
		{args: []string{"tokens", "--pricing", "/nonexistent/prices.json"}, wantErr: "--pricing"},
		{args: []string{"tokens", "-", "-"}, wantErr: "only one argument can read standard input"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *TokensOptions
			_, err := parse(t, func(f *Factory) *cobra.Command {
				return NewCmdTokens(f, func(o *TokensOptions) error { got = o; return nil })
			}, tc.args...)
			if tc.wantErr != "" {
				if !usage(err, tc.wantErr) || got != nil {
					t.Fatalf("error %v (ran: %v), want a usage error saying %q", err, got != nil, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(got) {
				t.Errorf("options %+v", *got)
			}
		})
	}
}

func TestAgentsFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    AgentsOptions
		wantErr string
	}{
		{args: []string{"agents", "ef95"}, want: AgentsOptions{Session: "ef95"}},
		{args: []string{"agents", "ef95", "--pricing", "p.json"}, want: AgentsOptions{Session: "ef95", Pricing: "p.json"}},
		{args: []string{"agents"}, wantErr: "needs <session>"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *AgentsOptions
			_, err := parse(t, func(f *Factory) *cobra.Command {
				return NewCmdAgents(f, func(o *AgentsOptions) error { got = o; return nil })
			}, tc.args...)
			if tc.wantErr != "" {
				if !usage(err, tc.wantErr) || got != nil {
					t.Fatalf("error %v (ran: %v), want a usage error saying %q", err, got != nil, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.F = nil
			if *got != tc.want {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
		})
	}
}

// The global flags are read by every command.
func TestGlobalFlags(t *testing.T) {
	f, err := parse(t, func(f *Factory) *cobra.Command {
		return NewCmdTree(f, func(*TreeOptions) error { return nil })
	}, "tree", "x", "--dir", "/a", "--dir", "/b", "--json", "--strict", "-v", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	g := f.Globals
	if strings.Join(g.Dirs, ",") != "/a,/b" || !g.JSON || !g.Strict || !g.Verbose || g.Color != "never" {
		t.Errorf("globals %+v", g)
	}
	if _, err := parse(t, func(f *Factory) *cobra.Command {
		return NewCmdTree(f, func(*TreeOptions) error { return nil })
	}, "tree", "x", "--color", "sometimes"); !usage(err, "--color must be auto, always or never") {
		t.Errorf("--color sometimes: %v", err)
	}
}

// Usage errors are one line on stderr, exit 2: cobra's suggestions and
// help topics included.
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tok"}, `cctx: error: unknown command "tok" for "cctx" (did you mean tokens?)` + "\n"},
		{[]string{"nosuch"}, `cctx: error: unknown command "nosuch" for "cctx"` + "\n"},
		{[]string{"help", "tok"}, `cctx: error: no help topic "tok" (did you mean tokens?)` + "\n"},
		{[]string{"help", "nonexist"}, `cctx: error: no help topic "nonexist": the commands are in 'cctx --help'` + "\n"},
		{[]string{"archive", "extra"}, `cctx: error: cctx archive takes no arguments, got "extra" (see 'cctx archive --help')` + "\n"},
		{[]string{"tree", "ef95", "--agents", "false"}, `cctx: error: cctx tree: "false" is an argument, not the value of --agents: a boolean flag takes its value after =, as --agents=false (see 'cctx tree --help')` + "\n"},
		{[]string{"tree", "--agents", "FALSE"}, `cctx: error: cctx tree: "FALSE" is an argument, not the value of --agents: a boolean flag takes its value after =, as --agents=false (see 'cctx tree --help')` + "\n"},
		{[]string{"tree", "ef95", "--agents", "0"}, `cctx: error: cctx tree takes <session> only, got "ef95 0"; a boolean flag takes its value after =: --agents=0 (see 'cctx tree --help')` + "\n"},
		{[]string{"ls", "-l", "false"}, `cctx: error: cctx ls: "false" is an argument, not the value of --long: a boolean flag takes its value after =, as --long=false (see 'cctx ls --help')` + "\n"},
		{[]string{"archive", "--status", "true"}, `cctx: error: cctx archive: "true" is an argument, not the value of --status: a boolean flag takes its value after =, as --status=true (see 'cctx archive --help')` + "\n"},
		{[]string{"show", "ef95", "extra", "--thinking"}, `cctx: error: cctx show takes <session> only, got "ef95 extra" (see 'cctx show --help')` + "\n"},
		{[]string{"resume", "abcd", "--print", "--json"}, "cctx: error: resume runs claude or, with --print, prints its command line: --json does not apply\n"},
		{[]string{"resume", "abcd", "--print", "--redact"}, "cctx: error: resume --print prints a command to run: --redact does not apply (the directory masked, the command could not run)\n"},
		{[]string{"completion", "tcsh"}, `cctx: error: no completion script for the shell "tcsh": give bash, zsh, fish or powershell` + "\n"},
	} {
		r := run(t, false, nil, tc.args...)
		if r.code != 2 || r.errOut != tc.want || r.out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, r.code, r.out, r.errOut, tc.want)
		}
	}
	if r := run(t, false, nil, "help", "tree"); r.code != 0 || !strings.Contains(r.out, "Usage:") {
		t.Errorf("help tree: exit %d, %q", r.code, r.out)
	}
}

// An empty --since, --until or --tz, wherever the flag exists, is a usage
// error that says what the flag accepts: "" is what a flag not given
// holds, so it was taken for no filter (ls --since "" listed every
// session) or the local zone. So is a word after a bare --watch that is
// neither seconds nor a session (it was "no such session"), and a
// negative number there (pflag's "unknown shorthand flag").
func TestEmptyOrMisplacedFlagValues(t *testing.T) {
	const dateForms = "empty: give a date (2026-01-31, 2026-01-31T15:04:05Z, today, yesterday) or an age (30m, 12h, 7d, 2w)"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"ls", "--since", ""}, `invalid argument "" for "--since" flag: ` + dateForms + ` (see 'cctx ls --help')`},
		{[]string{"ls", "--until="}, `invalid argument "" for "--until" flag: ` + dateForms},
		{[]string{"ls", "--since", " "}, `invalid argument " " for "--since" flag: empty`},
		{[]string{"grep", "--since", "", "foo"}, `invalid argument "" for "--since" flag: ` + dateForms + ` (see 'cctx grep --help')`},
		{[]string{"grep", "foo", "--until", ""}, `invalid argument "" for "--until" flag: empty`},
		{[]string{"tokens", "--since="}, `invalid argument "" for "--since" flag: ` + dateForms + ` (see 'cctx tokens --help')`},
		{[]string{"tokens", "--until", ""}, `invalid argument "" for "--until" flag: empty`},
		{[]string{"tokens", "--tz", ""}, `invalid argument "" for "--tz" flag: empty: give an IANA name such as Europe/Paris or America/New_York, UTC, or local (see 'cctx tokens --help')`},
		{[]string{"tokens", "--tz=", "--by", "day"}, `invalid argument "" for "--tz" flag: empty`},
		{[]string{"tokens", "--watch="}, `invalid argument "" for "--watch" flag: empty: write --watch=N for a redraw every N seconds, or --watch alone for every 5`},
		{[]string{"tokens", "--watch", "abc"}, `--watch "abc": neither seconds between redraws nor a session (a prefix has 4 characters at least; a session goes before --watch or after --watch=N): write the interval as --watch=N (N seconds, 1 or more)`},
		{[]string{"tokens", "--watch", "5s"}, `--watch "5s": not a number of seconds: write the interval as --watch=5`},
		{[]string{"tokens", "--watch", "-1"}, `--watch "-1": the seconds between redraws are 1 or more: write the interval as --watch=N (N seconds, 1 or more) (see 'cctx tokens --help')`},
		// Every flag of a path, a file, a choice or a budget: "" is not
		// "not given" (`--max-cost "$LIMIT"` with LIMIT unset checked none).
		{[]string{"ls", "--project", ""}, `invalid argument "" for "--project" flag: empty: give a folder (a session's cwd, or a folder above it) (see 'cctx ls --help')`},
		{[]string{"grep", "x", "--project="}, `invalid argument "" for "--project" flag: empty: give a folder`},
		{[]string{"tokens", "--project", " "}, `invalid argument " " for "--project" flag: empty: give a folder`},
		{[]string{"tokens", "--by", ""}, `invalid argument "" for "--by" flag: empty: give one of response, session, agent, model,`},
		{[]string{"tokens", "--format="}, `invalid argument "" for "--format" flag: empty: give one of table, json, markdown, ndjson (see 'cctx tokens --help')`},
		{[]string{"tokens", "--pricing", ""}, `invalid argument "" for "--pricing" flag: empty: give a file (see 'cctx tokens --help')`},
		{[]string{"agents", "--pricing=", "b3edadab"}, `invalid argument "" for "--pricing" flag: empty: give a file (see 'cctx agents --help')`},
		{[]string{"tokens", "--max-cost", ""}, `invalid argument "" for "--max-cost" flag: empty: give an amount in USD (5, 5.50) (see 'cctx tokens --help')`},
		{[]string{"tokens", "--max-tokens="}, `invalid argument "" for "--max-tokens" flag: empty: give a number (400000, 400k, 1.5M)`},
		{[]string{"tokens", "--max-output-tokens", ""}, `invalid argument "" for "--max-output-tokens" flag: empty: give a number`},
		{[]string{"tokens", "--max-context", ""}, `invalid argument "" for "--max-context" flag: empty: give a number`},
		{[]string{"tokens", "--max-api-calls", ""}, `invalid argument "" for "--max-api-calls" flag: empty: give a number`},
		{[]string{"ls", "--color", ""}, `invalid argument "" for "--color" flag: empty: give one of auto, always, never (see 'cctx ls --help')`},
		{[]string{"export", "b3edadab", "-o", ""}, `invalid argument "" for "-o, --output" flag: empty: give a file (see 'cctx export --help')`},
		{[]string{"export", "b3edadab", "--format="}, `invalid argument "" for "--format" flag: empty: give one of html, md`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := run(t, false, nil, append(tc.args, "--dir", samples)...)
			if r.code != ExitUsage || r.out != "" || r.errOut != "cctx: error: "+tc.want+"\n" && !strings.Contains(r.errOut, tc.want) ||
				strings.Count(r.errOut, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.out, r.errOut, tc.want)
			}
		})
	}
	// A session after a bare --watch is still watched, and help writes the
	// interval after an equals sign.
	for _, args := range [][]string{{"tokens", "--watch", "b3edadab"}, {"tokens", "--watch", "latest"}} {
		var got *TokensOptions
		if _, err := parseArgs(t, func(f *Factory) *cobra.Command {
			return NewCmdTokens(f, func(o *TokensOptions) error { got = o; return nil })
		}, args...); err != nil || got == nil || len(got.Sessions) != 1 || got.Sessions[0] != args[2] || got.plan.Interval != 5*time.Second {
			t.Errorf("%v: %v, %+v", args, err, got)
		}
	}
	if r := run(t, false, nil, "tokens", "--help"); !strings.Contains(r.out, "--watch[=5] ") || !strings.Contains(strings.Join(strings.Fields(r.out), " "), "given as --watch=N") {
		t.Errorf("tokens --help does not show --watch[=5] and --watch=N:\n%s", r.out)
	}
}

// The candidates of an ambiguous prefix are aligned: id, last activity
// (a fixed width), then the project, whatever its length; the most
// recently active first.
func TestCandidatesAlign(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lines := candidates([]*session.Session{
		{ID: "abcde000-0000-4000-8000-000000000001", ProjectDir: "/p/-home-me-a-long-project-name", ModTime: at},
		{ID: "abcde000-0000-4000-8000-000000000002", ProjectDir: "/p/-x", ModTime: at.Add(time.Hour)},
		{ID: "abcde000-0000-4000-8000-000000000003", ProjectDir: "/p/-y"},
	})
	if len(lines) != 3 {
		t.Fatalf("%q", lines)
	}
	for _, cell := range [][3]string{{"2026-01-02", "2026-01-02", ""}, {"-x", "-home", "-y"}} {
		a, b := strings.Index(lines[0], cell[0]), strings.Index(lines[1], cell[1])
		c := a
		if cell[2] != "" {
			c = strings.Index(lines[2], cell[2])
		}
		if a < 0 || a != b || a != c {
			t.Errorf("%q starts at columns %d, %d, %d:\n%s", cell[0], a, b, c, strings.Join(lines, "\n"))
		}
	}
}

// ls --long --strict checks every line, those of the files it hides as
// without conversation too (a file of garbage is one): warned, exit 1;
// without --strict they stay hidden and unread.
func TestLsLongStrictChecksHiddenFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl"), []byte("garbage\n"), 0o644)
	r := run(t, false, nil, "ls", "--long", "--strict", "--dir", filepath.Dir(dir))
	if r.code != 1 || !strings.Contains(r.errOut, "0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl:1: skipped malformed line") {
		t.Errorf("--strict: exit %d, stderr %q", r.code, r.errOut)
	}
	r = run(t, false, nil, "ls", "--long", "--dir", filepath.Dir(dir))
	if r.code != 0 || strings.Contains(r.errOut, "malformed") {
		t.Errorf("without --strict: exit %d, stderr %q", r.code, r.errOut)
	}
}

// A main file none of whose lines is a transcript entry fails show, tree
// and agents (an empty view would pass for an empty session), unless its
// subagents have entries: then they are shown, and the main file is a
// warning.
func TestNotATranscriptWithSubagents(t *testing.T) {
	const id = "ef958aa1-0e93-49f0-bb71-150f63befcd1"
	dir := filepath.Join(t.TempDir(), "p")
	sub := filepath.Join(dir, id, "subagents")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte("x\ny\n"), 0o644)
	for _, args := range [][]string{{"agents", id}, {"tree", id}, {"show", "--agents", id}} {
		r := run(t, false, nil, append(args, "--dir", filepath.Dir(dir))...)
		if r.code != 1 || !strings.Contains(r.errOut, "cctx: error: "+filepath.Join(dir, id+".jsonl")+": none of its 2 line(s) is a Claude Code transcript entry") {
			t.Errorf("%v without subagents: exit %d, stderr %q", args, r.code, r.errOut)
		}
	}
	agent, err := os.ReadFile(filepath.Join(samples, "-experiments-worktrees", id, "subagents", "agent-a4ca7529859c158c2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sub, "agent-a4ca7529859c158c2.jsonl"), agent, 0o644)
	for _, args := range [][]string{{"agents", id}, {"tree", id}, {"show", "--agents", id}} {
		r := run(t, false, nil, append(args, "--dir", filepath.Dir(dir))...)
		want := "a4ca7529859c158c2"
		if args[0] == "show" {
			want = "1 subagent · 737.8k tokens" // unlinked: counted, not drawn under a call
		}
		if r.code != 0 || !strings.Contains(r.out, want) {
			t.Errorf("%v with a subagent: exit %d, stdout %.200q, stderr %q", args, r.code, r.out, r.errOut)
		}
		if args[0] != "agents" && !strings.Contains(r.errOut, "warning: "+filepath.Join(dir, id+".jsonl")+": none of its 2 line(s)") {
			t.Errorf("%v with a subagent: the main file not warned about: %q", args, r.errOut)
		}
	}
}

// Help fits 80 columns: flag descriptions are wrapped, and the examples
// and command lists are written to fit.
func TestHelpFitsEightyColumns(t *testing.T) {
	for _, c := range []string{"", "ls", "show", "tree", "tokens", "agents", "grep", "export", "resume", "archive", "completion", "help",
		"completion bash", "completion zsh", "completion fish", "completion powershell"} {
		r := run(t, false, nil, strings.Fields(c+" --help")...)
		if r.code != 0 {
			t.Fatalf("%s --help: exit %d", c, r.code)
		}
		for _, l := range strings.Split(r.out, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("cctx %s --help: a line of %d columns: %q", c, n, l)
			}
		}
	}
}
