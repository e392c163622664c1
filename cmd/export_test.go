package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/render/export"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// The crafted sessions of the export package.
const (
	exportDemo    = "../internal/render/export/testdata/projects"
	exportHostile = "../internal/render/export/testdata/hostile"
)

func TestExportFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    ExportOptions
		format  export.Format
		wantErr string
	}{
		{args: []string{"3f2a"}, want: ExportOptions{Session: "3f2a"}, format: export.HTML},
		{args: []string{"3f2a", "-o", "a.html"}, want: ExportOptions{Session: "3f2a", Output: "a.html"}, format: export.HTML},
		{args: []string{"3f2a", "-o", "a.HTM"}, want: ExportOptions{Session: "3f2a", Output: "a.HTM"}, format: export.HTML},
		{args: []string{"3f2a", "-o", "notes/a.md"}, want: ExportOptions{Session: "3f2a", Output: "notes/a.md"}, format: export.Markdown},
		{args: []string{"3f2a", "--output", "a.markdown"}, want: ExportOptions{Session: "3f2a", Output: "a.markdown"}, format: export.Markdown},
		{args: []string{"3f2a", "--format", "md"}, want: ExportOptions{Session: "3f2a", Format: "md"}, format: export.Markdown},
		{args: []string{"3f2a", "--format", "markdown", "-o", "-"}, want: ExportOptions{Session: "3f2a", Format: "markdown", Output: "-"}, format: export.Markdown},
		{args: []string{"3f2a", "--format", "html", "-o", "a.txt"}, want: ExportOptions{Session: "3f2a", Format: "html", Output: "a.txt"}, format: export.HTML},
		{args: []string{"3f2a", "--agents", "--no-redact", "--leaf", "9c1e"}, want: ExportOptions{Session: "3f2a", Agents: true, NoRedact: true, Leaf: "9c1e", leafSet: true}, format: export.HTML},
		{args: []string{"3f2a", "--format", "pdf"}, wantErr: `--format must be html or md, not "pdf"`},
		{args: []string{"3f2a", "-o", "a.txt"}, wantErr: `-o a.txt: cannot tell the format from ".txt"`},
		{args: []string{"3f2a", "-o", "noext"}, wantErr: `cannot tell the format from ""`},
		{args: []string{"3f2a", "--leaf="}, wantErr: "--leaf needs a uuid"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			io, _, _, _ := TestIO()
			f := &Factory{IO: io}
			var got *ExportOptions
			var format export.Format
			var verr error
			c := NewCmdExport(f, func(o *ExportOptions) error {
				got = o
				format, verr = o.validate()
				return nil
			})
			c.SetArgs(tc.args)
			c.SetOut(&bytes.Buffer{})
			c.SetErr(&bytes.Buffer{})
			if err := c.Execute(); err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != "" {
				var ue *UsageError
				if verr == nil || !strings.Contains(verr.Error(), tc.wantErr) || !asUsage(verr, &ue) {
					t.Fatalf("error %v, want a usage error with %q", verr, tc.wantErr)
				}
				return
			}
			if verr != nil {
				t.Fatal(verr)
			}
			got.F = nil
			if *got != tc.want || format != tc.format {
				t.Errorf("got %+v (%s), want %+v (%s)", *got, format, tc.want, tc.format)
			}
		})
	}
}

func asUsage(err error, ue **UsageError) bool {
	u, ok := err.(*UsageError)
	*ue = u
	return ok
}

func TestExportOutputs(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		file   string // the file written, "" for stdout
		prefix string
	}{
		{"html file", []string{"-o", filepath.Join(dir, "s.html")}, "s.html", "<!DOCTYPE html>"},
		{"md file", []string{"-o", filepath.Join(dir, "s.md")}, "s.md", "# The weather CLI crashes"},
		{"stdout html", nil, "", "<!DOCTYPE html>"},
		{"stdout md", []string{"--format", "md"}, "", "# The weather CLI crashes"},
		{"dash", []string{"-o", "-", "--format", "md"}, "", "# "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, false, nil, append([]string{"export", "--dir", exportDemo, "7d3c"}, tc.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			out := r.out
			if tc.file != "" {
				if r.out != "" {
					t.Errorf("stdout not empty with -o")
				}
				b, err := os.ReadFile(filepath.Join(dir, tc.file))
				if err != nil {
					t.Fatal(err)
				}
				out = string(b)
				if !strings.Contains(r.errOut, "cctx: wrote "+filepath.Join(dir, tc.file)) {
					t.Errorf("stderr does not say where the file went: %q", r.errOut)
				}
			}
			if !strings.HasPrefix(out, tc.prefix) {
				t.Errorf("output starts %.60q, want %q", out, tc.prefix)
			}
			if !strings.Contains(r.errOut, "redacted 0 secret(s), 0 email address(es) and 8 user name(s); the home path is written ~ (--no-redact keeps them)\n") {
				t.Errorf("stderr does not say what was redacted: %q", r.errOut)
			}
		})
	}
	// No temporary file is left beside the output.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d files in the output dir, want 2", len(ents))
	}
}

func TestExportErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "s.html")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"7d3c", "--format", "pdf"}, 2, `--format must be html or md, not "pdf"`},
		{[]string{"7d3c", "-o", "s.txt"}, 2, "name the file .html or .md, or give --format html|md"},
		{[]string{"7d3c", "--json"}, 2, "--json does not apply"},
		{[]string{"nosuchsession"}, 2, "no such session"},
		{[]string{"7d3c", "--leaf", "zzzz"}, 2, "--leaf zzzz: no entry"},
		{[]string{"7d3c", "-o", missing}, 1, "-o " + missing + ": no directory " + filepath.Dir(missing) + " to write it in"},
		{[]string{}, 2, "needs <session>"},
		{[]string{"7d3c", "-o", filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(missing)))), "--format", "md"}, 1, "is a directory: name the file to write"},
		// Without --format, a directory is said to be one, not to lack an extension.
		{[]string{"7d3c", "-o", filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(missing))))}, 1, "is a directory: name the file to write"},
	} {
		r := run(t, false, nil, append([]string{"export", "--dir", exportDemo}, tc.args...)...)
		if r.code != tc.code || !strings.Contains(r.errOut, tc.msg) || r.out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %.40q; want exit %d with %q", tc.args, r.code, r.errOut, r.out, tc.code, tc.msg)
		}
	}
	if _, err := os.Stat(filepath.Dir(missing)); err == nil {
		t.Errorf("the missing dir was created")
	}
}

// TestExportToATerminal: a page is not printed on a terminal (29 KB of
// markup to scroll through); Markdown is, and a page goes to a pipe or -o.
func TestExportToATerminal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		tty  bool
		code int
	}{
		{[]string{"7d3c"}, true, 2},
		{[]string{"7d3c", "-o", "-"}, true, 2},
		{[]string{"7d3c", "--format", "md"}, true, 0},
		{[]string{"7d3c"}, false, 0},
		{[]string{"7d3c", "-o", filepath.Join(t.TempDir(), "s.html")}, true, 0},
	} {
		r := run(t, tc.tty, nil, append([]string{"export", "--dir", exportDemo}, tc.args...)...)
		if r.code != tc.code || tc.code == 2 && (r.out != "" || !strings.Contains(r.errOut, "give -o FILE.html, pipe it, or --format md")) {
			t.Errorf("%v (terminal %v): exit %d, stderr %q, stdout %.40q; want exit %d", tc.args, tc.tty, r.code, r.errOut, r.out, tc.code)
		}
	}
}

// Redaction is on by default: none of the secrets nor the home path is in
// the bytes of either format, in any field (title, project, prompt, tool
// input and result, thinking, agent description, file path).
func TestExportRedactsByDefault(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home", "alice")
	secrets := map[string]string{
		"anthropic":   "sk-ant-api03-Zq8vN2xL5mP9rT4wK7yB1cF6hJ3dS0gA-eU_iO",
		"aws":         "AKIAIOSFODNN7EXAMPLE",
		"github":      "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
		"jwt":         "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
		"private key": "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\\nQyNTUxOQAAACDhVfO4lKnW8Ypq3kD0sYz\\n-----END OPENSSH PRIVATE KEY-----",
	}
	all := strings.Join([]string{secrets["anthropic"], secrets["aws"], secrets["github"], secrets["jwt"], secrets["private key"]}, " ")
	dir := filepath.Join(t.TempDir(), "projects", "-proj")
	os.MkdirAll(dir, 0o755)
	sid := "22222222-3333-4444-5555-666666666666"
	lines := []string{
		`{"type":"custom-title","customTitle":"deploy with ` + secrets["github"] + ` in ` + home + `","sessionId":"` + sid + `"}`,
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"` + sid + `","cwd":"` + home + `/src/app","gitBranch":"main","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":"use ` + all + ` from ` + home + `/.env"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:05Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"thinking","thinking":"the key is ` + secrets["anthropic"] + `","signature":"x"}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"a1","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:06Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"AWS_ACCESS_KEY_ID=` + secrets["aws"] + ` aws s3 ls > ` + home + `/out.txt","description":"list with ` + secrets["jwt"] + `"}}]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a2","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:09Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"` + all + `"}]}}`,
		`{"type":"assistant","uuid":"a3","parentUuid":"u2","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:12Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t2","name":"Task","input":{"description":"check ` + secrets["github"] + `","prompt":"read ` + home + `/src/app/` + secrets["aws"] + `.txt","subagent_type":"general-purpose"}},{"type":"tool_use","id":"t3","name":"Edit","input":{"file_path":"` + home + `/src/app/.env","old_string":"KEY=old","new_string":"KEY=` + secrets["anthropic"] + `"}}]}}`,
		`{"type":"user","uuid":"u3","parentUuid":"a3","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:20Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"found ` + secrets["jwt"] + `"}]},"toolUseResult":{"agentId":"` + secrets["github"] + `","status":"completed"}}`,
		`{"type":"user","uuid":"u4","parentUuid":"u3","sessionId":"` + sid + `","cwd":"` + home + `/src/app","timestamp":"2026-01-02T10:00:21Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"ok"}]}}`,
	}
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(name, out string, want bool) {
		t.Helper()
		for what, s := range secrets {
			s = strings.ReplaceAll(s, `\n`, "\n")
			// A secret in the bytes, or a long piece of it.
			for _, piece := range []string{s, s[len(s)/2:], s[:len(s)/2]} {
				if len(piece) < 12 {
					continue
				}
				if got := strings.Contains(out, piece); got != want {
					t.Errorf("%s: %s %q in the export: %v", name, what, piece, got)
				}
			}
		}
		if got := strings.Contains(out, home); got != want {
			t.Errorf("%s: the home path in the export: %v", name, got)
		}
	}
	for _, format := range []string{"html", "md"} {
		r := showRunIO(t, false, "", map[string]string{"HOME": home}, "export", "--dir", filepath.Dir(dir), "2222", "--agents", "--format", format)
		if r.code != 0 {
			t.Fatalf("%s: exit %d %s", format, r.code, r.errOut)
		}
		check(format, r.out, false)
		// stderr too: the warning of the agent whose id is a token.
		if !strings.Contains(r.errOut, "ghp_[REDACTED]") {
			t.Errorf("%s: the missing agent's warning: %q", format, r.errOut)
		}
		check(format+" stderr", r.errOut, false)
		if !strings.Contains(r.out, "sk-ant-api03-[REDACTED]") || !strings.Contains(r.out, "~/src/app") {
			t.Errorf("%s: the masks are not in the export", format)
		}
		if !strings.Contains(r.errOut, "cctx: redacted 18 secret(s), 0 email address(es) and 0 user name(s); the home path is written ~") {
			t.Errorf("%s: stderr %q", format, r.errOut)
		}
		r = showRunIO(t, false, "", map[string]string{"HOME": home}, "export", "--dir", filepath.Dir(dir), "2222", "--agents", "--format", format, "--no-redact")
		if r.code != 0 {
			t.Fatalf("%s --no-redact: exit %d %s", format, r.code, r.errOut)
		}
		if format == "html" {
			check("--no-redact", r.out, true)
		}
		if !strings.Contains(r.errOut, "not redacted (--no-redact)") {
			t.Errorf("%s --no-redact: stderr %q", format, r.errOut)
		}
	}
}

func TestExportMarkdownGolden(t *testing.T) {
	for _, tc := range []struct {
		golden, dir, session string
		args                 []string
	}{
		{"demo.md", exportDemo, "7d3c", []string{"--agents"}},
		{"demo-noagents.md", exportDemo, "7d3c", nil},
		{"hostile.md", exportHostile, "0bad", []string{"--agents"}},
		// Rewinds: three branches, the active one and one by --leaf.
		{"rewind.md", samples, "b3edadab", nil},
		{"rewind-leaf.md", samples, "b3edadab", []string{"--leaf", "51be2f36"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			r := run(t, false, nil, append([]string{"export", "--dir", tc.dir, tc.session, "--format", "md"}, tc.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			golden(t, "export/"+tc.golden, r.out)
		})
	}
}

// A page is titled as ls titles its session, whatever the title's source:
// the title a person found the session by.
func TestExportTitledAsLs(t *testing.T) {
	for _, tc := range []struct{ session, source, title string }{
		{"b3edadab", "summary", "Test file creation and agent thread handling"},
		{"ef958aa1", "last-prompt", "Well, the subagents seem to be either stuck or done... can you check?"},
		{"55604662", "first-prompt", "mix phx.server doesnt seem to start"},
	} {
		ls := run(t, false, nil, "ls", "--dir", samples, "--all", "--json")
		if !strings.Contains(ls.out, `"title":"`+tc.title+`","title_source":"`+tc.source+`"`) {
			t.Fatalf("%s: ls --json has no %s title %q", tc.session, tc.source, tc.title)
		}
		md := run(t, false, nil, "export", "--dir", samples, tc.session, "--format", "md")
		if first, _, _ := strings.Cut(md.out, "\n"); first != "# "+tc.title {
			t.Errorf("%s: markdown starts %q, want the ls title %q", tc.session, first, tc.title)
		}
		html := run(t, false, nil, "export", "--dir", samples, tc.session)
		if !strings.Contains(html.out, "<title>"+tc.title+" ") && !strings.Contains(html.out, "<title>"+tc.title+"<") {
			t.Errorf("%s: the page's <title> is not %q", tc.session, tc.title)
		}
	}
}

func TestExportStdin(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(exportDemo, "-home-alice-src-weather", "7d3c2a10-5b1e-4c2f-9a8e-0123456789ab.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r := showRunIO(t, false, string(b), nil, "export", "-", "--format", "md")
	if r.code != 0 || !strings.HasPrefix(r.out, "# The weather CLI crashes") || !strings.Contains(r.out, "Committed as `3f9c2e1`") {
		t.Fatalf("exit %d, stderr %q, stdout %.200q", r.code, r.errOut, r.out)
	}
}

// Every session of the real corpus exports in both formats, with and
// without --agents, exit 0, and warns exactly what show warns. Redaction,
// which warns nothing, is left out: it takes most of the time (minutes
// under -race); the unit tests and TestExportRedactsByDefault check it.
func TestExportOnTheRealCorpus(t *testing.T) {
	for _, folder := range testcorpus.Folders() {
		t.Run(filepath.Base(folder), func(t *testing.T) {
			t.Parallel()
			ls := run(t, false, nil, "ls", "--dir", folder, "--all", "--empty", "--json")
			var doc struct {
				Sessions []struct {
					ID string `json:"session_id"`
				} `json:"sessions"`
			}
			decode(t, ls, &doc)
			if len(doc.Sessions) == 0 {
				t.Fatal("no session")
			}
			for _, s := range doc.Sessions {
				for _, tc := range []struct{ export, show []string }{
					{[]string{"--format", "html", "--no-redact"}, nil},
					{[]string{"--format", "md", "--agents", "--no-redact"}, []string{"--agents"}},
				} {
					args := tc.export
					r := run(t, false, nil, append([]string{"export", "--dir", folder, s.ID}, args...)...)
					sh := run(t, false, nil, append([]string{"show", "--dir", folder, s.ID, "--no-pager"}, tc.show...)...)
					// The export's own last line (what it wrote, what it
					// redacted) aside, it warns what show warns.
					warns := strings.TrimSuffix(r.errOut, "cctx: not redacted (--no-redact)\n")
					if r.code != 0 || warns != sh.errOut || r.out == "" {
						t.Errorf("%s %v: exit %d, stderr %q (show's %q), %d bytes", s.ID, args, r.code, r.errOut, sh.errOut, len(r.out))
					}
				}
			}
		})
	}
}

// The page is valid enough for a browser's parser when one is at hand is
// checked in ../e2e (export_browser_test.go); here only that the export
// needs no network: its policy forbids any source.
func TestExportPagePolicy(t *testing.T) {
	r := run(t, false, nil, "export", "--dir", exportDemo, "7d3c")
	if r.code != 0 {
		t.Fatal(r.errOut)
	}
	for _, want := range []string{`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'sha256-`, `<meta name="referrer" content="no-referrer">`} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(r.out, "<script") || strings.Contains(r.out, "http-equiv=\"refresh\"") {
		t.Errorf("the page has a script or a refresh")
	}
}

// --no-thinking leaves the model's thinking out of either format; by
// default it is in (folded in a page).
func TestExportNoThinking(t *testing.T) {
	for _, format := range []string{"md", "html"} {
		with := run(t, false, nil, "export", "--dir", samples, "b3edadab", "--format", format)
		without := run(t, false, nil, "export", "--dir", samples, "b3edadab", "--format", format, "--no-thinking")
		if with.code != 0 || without.code != 0 || !strings.Contains(strings.ToLower(with.out), "thinking") {
			t.Fatalf("%s: exit %d/%d, thinking in the default: %v", format, with.code, without.code, strings.Contains(strings.ToLower(with.out), "thinking"))
		}
		if strings.Contains(without.out, "∴") || strings.Contains(strings.ToLower(without.out), "class=\"thinking") {
			t.Errorf("%s --no-thinking: thinking left in", format)
		}
	}
}

// export --agents of a session whose main transcript was deleted writes
// each agent's conversation in its own block, as under a call.
func TestExportAgentsOfAnOrphanSession(t *testing.T) {
	dir := filepath.Join("..", "testdata", "crafted", "orphan")
	r := run(t, false, nil, "export", "--dir", dir, "7d1c0a52", "--agents", "--format", "md", "-o", "-")
	if r.code != 0 || !strings.Contains(r.out, "<details><summary>↳ agent a9e8d7c6b5a4f3e20") || !strings.Contains(r.out, "Run the test suite and report failures") {
		t.Errorf("exit %d\n%s", r.code, r.out)
	}
}
