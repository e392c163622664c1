package cmd

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/resume"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// completions runs `cctx __complete args…` (what the shell scripts run) and
// returns the candidates (value, description) and the directive line.
func completions(t *testing.T, args ...string) ([][2]string, string, result) {
	t.Helper()
	r := run(t, false, nil, append([]string{"__complete"}, args...)...)
	if r.code != 0 {
		t.Fatalf("__complete %q: exit %d\n%s", args, r.code, r.errOut)
	}
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	var out [][2]string
	for _, l := range lines[:len(lines)-1] {
		v, d, _ := strings.Cut(l, "\t")
		out = append(out, [2]string{v, d})
	}
	for _, l := range strings.Split(r.errOut, "\n") {
		if l != "" && !strings.HasPrefix(l, "Completion ended with directive:") {
			t.Errorf("__complete %q said on stderr: %q", args, l)
		}
	}
	return out, lines[len(lines)-1], r
}

func values(cs [][2]string) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c[0])
	}
	return out
}

// lsIDs are the session ids ls lists, newest activity first.
func lsIDs(t *testing.T, dir string) []string {
	t.Helper()
	r := run(t, false, nil, "ls", "--all", "--json", "--dir", dir)
	var doc struct {
		Sessions []struct {
			ID string `json:"session_id"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range doc.Sessions {
		ids = append(ids, s.ID)
	}
	return ids
}

func TestCompleteSessions(t *testing.T) {
	ids := lsIDs(t, samples)
	// KeepOrder (32) | NoFileComp (4): the shell keeps cctx's order.
	const keep = ":36"
	t.Run("every session, newest first, latest first", func(t *testing.T) {
		cs, dir, _ := completions(t, "show", "--dir", samples, "")
		if dir != keep {
			t.Errorf("directive %s, want %s", dir, keep)
		}
		got := values(cs)
		if strings.Join(got, " ") != "latest "+strings.Join(ids, " ") {
			t.Errorf("candidates\n got %q\nwant latest then %q", got, ids)
		}
		// Title and project describe each id.
		for _, c := range cs {
			if c[0] == "b3edadab-bca0-4054-9b41-f7ffa6941260" &&
				(!strings.Contains(c[1], "Test file creation") || !strings.Contains(c[1], "/Users/user/project")) {
				t.Errorf("description %q: want the title and the project", c[1])
			}
		}
	})
	t.Run("a prefix", func(t *testing.T) {
		cs, _, _ := completions(t, "tree", "--dir", samples, "B3")
		if got := values(cs); len(got) != 1 || got[0] != "b3edadab-bca0-4054-9b41-f7ffa6941260" {
			t.Errorf("candidates %q", got)
		}
		if cs, _, _ := completions(t, "agents", "--dir", samples, "la"); len(cs) != 1 || cs[0][0] != "latest" {
			t.Errorf("la: %q", cs)
		}
	})
	t.Run("export's session, and grep's after its pattern", func(t *testing.T) {
		if cs, _, _ := completions(t, "export", "--dir", samples, "B3"); len(cs) != 1 || cs[0][0] != "b3edadab-bca0-4054-9b41-f7ffa6941260" {
			t.Errorf("export: %q", cs)
		}
		if cs, dir, _ := completions(t, "grep", "--dir", samples, ""); len(cs) != 0 || dir != ":4" {
			t.Errorf("grep's pattern: %q %s; want nothing to complete", cs, dir)
		}
		if cs, _, _ := completions(t, "grep", "--dir", samples, "needle", "b3", ""); len(values(cs)) != len(ids)+1 {
			t.Errorf("grep's sessions after the pattern and one: %q", cs)
		}
	})
	t.Run("one session argument only", func(t *testing.T) {
		if cs, dir, _ := completions(t, "show", "--dir", samples, "b3edadab", ""); len(cs) != 0 || dir != ":4" {
			t.Errorf("second argument of show: %q %s", cs, dir)
		}
	})
	t.Run("tokens takes several, each once", func(t *testing.T) {
		cs, _, _ := completions(t, "tokens", "--dir", samples, "b3edadab-bca0-4054-9b41-f7ffa6941260", "")
		for _, v := range values(cs) {
			if v == "b3edadab-bca0-4054-9b41-f7ffa6941260" {
				t.Error("an id already given is offered again")
			}
		}
		if len(cs) != len(ids) { // latest, and every other id
			t.Errorf("%d candidates, want %d", len(cs), len(ids))
		}
	})
	t.Run("a path is the shell's", func(t *testing.T) {
		if cs, dir, _ := completions(t, "show", "--dir", samples, "./"); len(cs) != 0 || dir != ":0" {
			t.Errorf("./: %q %s", cs, dir)
		}
	})
	t.Run("nothing said on stderr", func(t *testing.T) {
		// The orphan tree warns in ls (a session without main transcript).
		orphan := filepath.Join("..", "testdata", "crafted", "orphan")
		if r := run(t, false, nil, "ls", "--dir", orphan); !strings.Contains(r.errOut, "warning") {
			t.Fatalf("the orphan tree no longer warns in ls: %q", r.errOut)
		}
		cs, _, _ := completions(t, "show", "--dir", orphan, "")
		if len(cs) < 2 {
			t.Errorf("candidates %q", cs)
		}
	})
}

func TestCompleteLeaves(t *testing.T) {
	cs, dir, _ := completions(t, "show", "--dir", samples, "b3edadab", "--leaf", "")
	want := []string{"38842167-8451-487e-9a65-4f6623b4ca8b", "39a76b25-bba8-42b8-a143-40f73d97598a", "51be2f36-8201-4dfc-a399-b59165dc8643"}
	if strings.Join(values(cs), " ") != strings.Join(want, " ") || dir != ":36" {
		t.Errorf("leaves %q %s, want the active one then the others, newest first: %q", values(cs), dir, want)
	}
	if len(cs) == 3 && (!strings.HasPrefix(cs[0][1], "active") || !strings.HasPrefix(cs[1][1], "abandoned") || !strings.Contains(cs[0][1], "ultrathink")) {
		t.Errorf("descriptions %q", cs)
	}
	if cs, _, _ := completions(t, "show", "--dir", samples, "b3edadab", "--leaf", "39"); len(cs) != 1 {
		t.Errorf("prefix 39: %q", cs)
	}
	if cs, _, _ := completions(t, "show", "--dir", samples, "nope", "--leaf", ""); len(cs) != 0 {
		t.Errorf("unknown session: %q", cs)
	}
}

func TestCompleteFlagValues(t *testing.T) {
	var by []string
	for _, g := range append(tokens.Groupings, tokens.ByTool) {
		by = append(by, string(g))
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"tokens", "--by", ""}, by},
		{[]string{"tokens", "--by", "b"}, []string{"block"}},
		{[]string{"tokens", "--format", ""}, []string{"table", "json", "markdown", "ndjson"}},
		{[]string{"export", "--format", ""}, []string{"html", "md"}},
		{[]string{"grep", "--role", ""}, []string{"user", "assistant", "tool", "thinking"}},
		{[]string{"ls", "--color", ""}, []string{"auto", "always", "never"}},
		{[]string{"tokens", "--tz", "lo"}, []string{"local"}}, // the zones: internal/complete
		{[]string{"ls", "--dir", samples, "--project", "/Users"}, []string{"/Users/User/repo/codemie-ai/codemie-code", "/Users/user/project"}},
		{[]string{"tokens", "--dir", samples, "--project", "/home/m"}, []string{"/home/marco/projects/spotter"}},
	} {
		cs, _, _ := completions(t, append(tc.args, "")[:len(tc.args)]...)
		got := values(cs)
		if strings.HasPrefix(tc.args[len(tc.args)-1], "/") {
			// Projects come newest first: compare as sets.
			got = sorted(got)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
		for _, c := range cs {
			if tc.args[len(tc.args)-2] == "--by" && c[1] == "" {
				t.Errorf("--by %s has no description", c[0])
			}
		}
	}
}

// Flags that name a directory complete directories only: --dir, and
// archive's --to.
func TestCompleteDirFlags(t *testing.T) {
	for _, args := range [][]string{{"ls", "--dir", ""}, {"archive", "--to", ""}} {
		_, directive, _ := completions(t, args...)
		if directive != ":16" { // cobra.ShellCompDirectiveFilterDirs
			t.Errorf("%q: directive %q, want :16 (directories)", args, directive)
		}
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestCompletionCommand(t *testing.T) {
	if r := run(t, false, nil, "--help"); !strings.Contains(r.out, "completion") {
		t.Errorf("completion is not in --help:\n%s", r.out)
	}
	// Without a shell: a usage error, and nothing for `source <(…)` to run.
	if r := run(t, false, nil, "completion"); r.code != 2 || r.out != "" || !strings.Contains(r.errOut, "cctx completion needs SHELL: bash, zsh, fish or powershell") {
		t.Errorf("completion without a shell: exit %d, stdout %q, stderr %q; want 2, nothing, and the shells cctx has", r.code, r.out, r.errOut)
	}
	if r := run(t, false, nil, "completion", "tcsh"); r.code != 2 || !strings.Contains(r.errOut, `shell "tcsh": give bash, zsh, fish or powershell`) {
		t.Errorf("completion tcsh: exit %d, stderr %q; want 2 and the shells cctx has", r.code, r.errOut)
	}
	// cobra's bash script, with the escaping a first TAB needs added at
	// both of its places (render.PatchBashCompletion): when cobra's script
	// changes, this says so.
	for _, args := range [][]string{{"completion", "bash"}, {"completion", "bash", "--no-descriptions"}} {
		if r := run(t, false, nil, args...); strings.Count(r.out, "cctx: a TAB that inserts") != 2 {
			t.Errorf("%v: the escaping of a first TAB is not in both places (%d)", args, strings.Count(r.out, "cctx: a TAB that inserts"))
		}
	}
	for shell, want := range map[string]string{"bash": "__start_cctx", "zsh": "#compdef cctx", "fish": "complete -c cctx", "powershell": "Register-ArgumentCompleter"} {
		r := run(t, false, nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.out, want) {
			t.Errorf("completion %s: exit %d, no %q", shell, r.code, want)
		}
	}
}

// resumeSession writes a session that ran in cwd under a config dir
// (<home>/.claude) and returns the home and the session id.
func resumeSession(t *testing.T, cwd string) (string, string) {
	t.Helper()
	home := t.TempDir()
	const id = "5e5e5e5e-0000-4000-8000-000000000001"
	cwdJSON, _ := json.Marshal(cwd)
	line := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + id + `","timestamp":"2026-11-22T10:00:00Z","cwd":` + string(cwdJSON) + `,"message":{"role":"user","content":"hello"}}` + "\n"
	p := filepath.Join(home, ".claude", "projects", "-w-app", id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, id
}

// runHome is run with the given home (where ~/.claude is).
func runHome(t *testing.T, home string, env map[string]string, args ...string) result {
	t.Helper()
	io, _, out, errOut := TestIO()
	e := session.Env{Getenv: func(k string) string { return env[k] }, Home: home}
	code := Run(args, io, e, func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) })
	return result{code, out.String(), errOut.String()}
}

// resume --print quotes the directory for a POSIX shell: whatever it
// holds, the shell reads back the very path.
func TestResumePrintQuotes(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to read the command back") // Windows
	}
	for _, cwd := range []string{
		"/home/me/src/app",
		"/home/me/my project",
		"/home/me/it's here",
		`/home/me/$HOME and $(rm -rf x) and ${x}`,
		"/home/me/`date`",
		"/home/me/two\nlines",
		`/home/me/back\slash and "double" and 'single'`,
		"/home/me/tab\there; echo pwned &",
		"/home/me/esc\x1b]0;title\x07",
	} {
		t.Run(cwd, func(t *testing.T) {
			home, id := resumeSession(t, cwd)
			r := runHome(t, home, nil, "resume", "--print", id)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			cmd := strings.TrimSuffix(r.out, "\n")
			prefix, rest, ok := strings.Cut(cmd, "cd ")
			quoted, tail, ok2 := strings.Cut(rest, " && ")
			if !ok || !ok2 || prefix != "" || tail != "claude --resume "+id {
				t.Fatalf("command %q, want cd <dir> && claude --resume %s", cmd, id)
			}
			if strings.ContainsRune(cmd, 0x1b) {
				t.Errorf("the command holds a raw escape: %q", cmd)
			}
			// The shell gives the directory back, byte for byte.
			shell := sh
			if strings.HasPrefix(quoted, "$'") {
				if shell, err = exec.LookPath("bash"); err != nil {
					t.Skip("no bash for $'…'")
				}
			}
			out, err := exec.Command(shell, "-c", "printf %s "+quoted).Output()
			if err != nil || string(out) != cwd {
				t.Errorf("%s reads %q back as %q (%v)", shell, quoted, out, err)
			}
		})
	}
}

func TestResumeTargets(t *testing.T) {
	dir := t.TempDir()
	home, id := resumeSession(t, dir)
	t.Run("claude's own config: no CLAUDE_CONFIG_DIR", func(t *testing.T) {
		r := runHome(t, home, nil, "resume", "-p", id[:8])
		if want := "cd '" + dir + "' && claude --resume " + id + "\n"; r.out != want || r.code != 0 {
			t.Errorf("got %q (exit %d), want %q", r.out, r.code, want)
		}
	})
	t.Run("another config dir", func(t *testing.T) {
		cfg := filepath.Join(home, ".claude")
		r := runHome(t, t.TempDir(), nil, "resume", "-p", "--dir", cfg, id)
		if want := "cd '" + dir + "' && CLAUDE_CONFIG_DIR='" + cfg + "' claude --resume " + id + "\n"; r.out != want {
			t.Errorf("got %q, want %q", r.out, want)
		}
		// CLAUDE_CONFIG_DIR naming it already is enough.
		r = runHome(t, t.TempDir(), map[string]string{"CLAUDE_CONFIG_DIR": cfg}, "resume", "-p", id)
		if strings.Contains(r.out, "CLAUDE_CONFIG_DIR") {
			t.Errorf("got %q", r.out)
		}
	})
	// claude runs in the session's directory: a config dir named
	// relatively (--dir), or found from a project folder or a path, is
	// passed on absolute.
	t.Run("a config dir found from a relative --dir, a project folder or a path", func(t *testing.T) {
		cfg := filepath.Join(home, ".claude")
		t.Chdir(home)
		project := filepath.Join(".claude", "projects", filepath.Base(filepath.Dir(findTranscript(t, cfg, id))))
		for _, args := range [][]string{{"--dir", ".claude", id}, {"--dir", project, id}, {filepath.Join(project, id+".jsonl")}} {
			r := runHome(t, t.TempDir(), nil, append([]string{"resume", "-p"}, args...)...)
			if want := "cd '" + dir + "' && CLAUDE_CONFIG_DIR='" + cfg + "' claude --resume " + id + "\n"; r.out != want {
				t.Errorf("%v: got %q (%s), want %q", args, r.out, r.errOut, want)
			}
		}
	})
	t.Run("a projects dir outside any config dir", func(t *testing.T) {
		mine := filepath.Join(t.TempDir(), "mine")
		if err := os.Rename(filepath.Join(home, ".claude", "projects"), mine); err != nil {
			t.Fatal(err)
		}
		defer os.Rename(mine, filepath.Join(home, ".claude", "projects"))
		r := run(t, false, nil, "resume", "--dir", mine, id)
		if r.code != 1 || !strings.Contains(r.errOut, "not in a Claude Code config directory") {
			t.Errorf("exit %d: %s", r.code, r.errOut)
		}
	})
	// A session only the archive holds: the error says where to put it
	// back, decompressed.
	t.Run("archived", func(t *testing.T) {
		arch := t.TempDir()
		if r := runHome(t, home, nil, "archive", "--to", arch); r.code != 0 {
			t.Fatalf("archive: exit %d: %s", r.code, r.errOut)
		}
		r := runHome(t, home, nil, "resume", "-p", "--dir", arch, id)
		want := "put the transcript back first, decompressed (zstd -d) to " + filepath.Join(home, ".claude", "projects", "-w-app", id+".jsonl")
		if r.code != 1 || !strings.Contains(r.errOut, want) {
			t.Errorf("exit %d: %s\nwant %q", r.code, r.errOut, want)
		}
	})
	t.Run("standard input", func(t *testing.T) {
		if r := run(t, false, nil, "resume", "-"); r.code != 1 || !strings.Contains(r.errOut, "standard input cannot be resumed") {
			t.Errorf("exit %d: %s", r.code, r.errOut)
		}
	})
	t.Run("main transcript deleted", func(t *testing.T) {
		r := run(t, false, nil, "resume", "--dir", filepath.Join("..", "testdata", "crafted", "orphan"), "7d1c0a52")
		if r.code != 1 || !strings.Contains(r.errOut, "main transcript was deleted") {
			t.Errorf("exit %d: %s", r.code, r.errOut)
		}
	})
	t.Run("usage errors", func(t *testing.T) {
		if r := runHome(t, home, nil, "resume"); r.code != 2 {
			t.Errorf("no argument: exit %d", r.code)
		}
		if r := runHome(t, home, nil, "resume", "ffff0000"); r.code != 2 {
			t.Errorf("unknown session: exit %d", r.code)
		}
	})
}

// resume runs claude --resume in the session's directory; when that is
// gone or claude is not on PATH it fails with exit 1 and says the command.
func TestResumeRuns(t *testing.T) {
	dir := t.TempDir()
	home, id := resumeSession(t, dir)
	resumeWith := func(lookPath func(string) (string, error), exec func(string, resume.Target, resume.Stdio) error) result {
		io, _, out, errOut := TestIO()
		f := &Factory{IO: io, Env: session.Env{Getenv: func(string) string { return "" }, Home: home}, Now: time.Now}
		err := resumeRun(&ResumeOptions{F: f, Session: id, LookPath: lookPath, Exec: exec})
		code := 0
		if err != nil {
			code = 1
			var s *silentError
			if errors.As(err, &s) {
				code = s.code
			}
			errOut.WriteString(err.Error())
		}
		return result{code, out.String(), errOut.String()}
	}
	found := func(string) (string, error) { return "/opt/bin/claude", nil }
	var ran resume.Target
	var prog string
	r := resumeWith(found, func(claude string, t resume.Target, _ resume.Stdio) error { prog, ran = claude, t; return nil })
	if r.code != 0 || prog != "/opt/bin/claude" || ran.Dir != dir || strings.Join(ran.Args(), " ") != "claude --resume "+id || ran.ConfigDir != "" {
		t.Errorf("exit %d, ran %s %+v", r.code, prog, ran)
	}
	// claude's exit code is cctx's (Windows, where claude is a child).
	if r := resumeWith(found, func(string, resume.Target, resume.Stdio) error { return &resume.ExitError{Code: 7} }); r.code != 7 {
		t.Errorf("claude exited 7, cctx %d", r.code)
	}
	want := "cd '" + dir + "' && claude --resume " + id
	missing := func(string) (string, error) { return "", exec.ErrNotFound }
	if r := resumeWith(missing, nil); r.code != 1 || !strings.Contains(r.errOut, "not on PATH") || !strings.Contains(r.errOut, want) {
		t.Errorf("no claude: exit %d: %s", r.code, r.errOut)
	}
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if r := resumeWith(found, nil); r.code != 1 || !strings.Contains(r.errOut, "no longer exists") || !strings.Contains(r.errOut, want) {
		t.Errorf("no directory: exit %d: %s", r.code, r.errOut)
	}
	// Through Run, with an empty PATH: the same error, exit 1.
	t.Setenv("PATH", t.TempDir())
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runHome(t, home, nil, "resume", id); r.code != 1 || !strings.Contains(r.errOut, "claude (Claude Code's command) is not on PATH") {
		t.Errorf("exit %d: %s", r.code, r.errOut)
	}
}

// ls on a terminal says how to resume under -v only (under every listing
// it was noise); a pipe never.
func TestLsHintsAtResume(t *testing.T) {
	if r := run(t, true, nil, "ls", "-v", "--dir", samples); !strings.Contains(r.errOut, "cctx: note: cctx resume <id>") {
		t.Errorf("terminal, -v: %q", r.errOut)
	}
	if r := run(t, true, nil, "ls", "--dir", samples); strings.Contains(r.errOut, "resume") {
		t.Errorf("terminal: %q", r.errOut)
	}
	if r := run(t, false, nil, "ls", "-v", "--dir", samples); strings.Contains(r.errOut, "resume") {
		t.Errorf("pipe: %q", r.errOut)
	}
}

// The version's rules are tested in internal/buildinfo.
func TestVersion(t *testing.T) {
	if r := run(t, false, nil, "--version"); r.code != 0 || !strings.HasPrefix(r.out, "cctx ") {
		t.Errorf("--version: %q", r.out)
	}
}

// findTranscript is the path of session id's transcript under config.
func findTranscript(t *testing.T, config, id string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(config, "projects", "*", id+".jsonl"))
	if len(m) != 1 {
		t.Fatalf("%s in %s: %v", id, config, m)
	}
	return m[0]
}

// A flag's description in a completion is its usage without the
// backquotes that name its value in the help ("time ZONE of hours", not
// "time `ZONE` of hours"): zsh and fish show the descriptions as they are.
func TestFlagCompletionsDescribeWithoutBackquotes(t *testing.T) {
	for _, args := range [][]string{{"tokens", "--"}, {"ls", "--"}, {"show", "x", "--"}, {"grep", "p", "--"}, {"archive", "--"}, {"export", "x", "--"}, {"--"}} {
		cs, _, _ := completions(t, args...)
		if len(cs) < 3 {
			t.Errorf("%q: %d flags completed", args, len(cs))
		}
		for _, c := range cs {
			if strings.Contains(c[1], "`") {
				t.Errorf("%q: %s described %q", args, c[0], c[1])
			}
		}
	}
	cs, _, _ := completions(t, "tokens", "--t")
	if len(cs) != 1 || !strings.HasPrefix(cs[0][1], "time ZONE of hours") {
		t.Errorf("--tz: %q", cs)
	}
}
