package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// commands are the verbs cctx has; show is added by showReady when it is
// implemented.
var commands = []string{"ls", "tree", "tokens", "agents"}

// showReady reports whether `cctx show` is implemented. While it is the
// hidden stub, its cases are skipped rather than failed.
func showReady(t *testing.T) bool {
	t.Helper()
	h := cctx(t, "show", "--help")
	if strings.Contains(h.stdout+h.stderr, "not implemented") {
		return false
	}
	r := cctx(t, "show", "--dir", samples, "b3edadab")
	return !strings.Contains(r.stderr, "not implemented")
}

func TestHelp(t *testing.T) {
	verbs := append([]string(nil), commands...)
	if showReady(t) {
		verbs = append(verbs, "show")
	}
	for _, verb := range verbs {
		t.Run(verb, func(t *testing.T) {
			for _, args := range [][]string{{verb, "--help"}, {verb, "-h"}, {"help", verb}} {
				r := cctx(t, args...)
				expect(t, r, 0, strings.Join(args, " "))
				if !strings.Contains(r.stdout, "Usage:\n  cctx "+verb) {
					t.Errorf("%s: no usage line\n%s", strings.Join(args, " "), r)
				}
				for _, flag := range []string{"--dir", "--json", "--color", "--strict", "--verbose"} {
					if !strings.Contains(r.stdout, flag) {
						t.Errorf("%s: global flag %s not listed", strings.Join(args, " "), flag)
					}
				}
				if !strings.Contains(r.stdout, "Examples:") {
					t.Errorf("%s: no examples", strings.Join(args, " "))
				}
				if r.stderr != "" {
					t.Errorf("%s: help wrote to stderr: %q", strings.Join(args, " "), r.stderr)
				}
			}
		})
	}
	t.Run("root", func(t *testing.T) {
		r := cctx(t, "--help")
		expect(t, r, 0, "--help")
		for _, want := range append([]string{"Exit codes", "CLAUDE_CONFIG_DIR"}, commands...) {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("cctx --help does not mention %q", want)
			}
		}
		v := cctx(t, "--version")
		expect(t, v, 0, "--version")
		if !strings.HasPrefix(v.stdout, "cctx ") {
			t.Errorf("--version: %q", v.stdout)
		}
	})
}

// Piped output is for tools: no colour, no escape sequence at all, exact
// values, one record per line, nothing on stderr for the clean samples.
func TestPipedOutput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		fields int    // tab-separated fields on every line (0: not a table)
		first  string // the first field of the first line starts with it
	}{
		{"ls", []string{"ls", "--all"}, 6, "ef958aa1-0e93-49f0-bb71-150f63befcd1"},
		{"ls long", []string{"ls", "--all", "--long"}, 0, "ef958aa1-0e93-49f0-bb71-150f63befcd1"},
		{"tokens one session", []string{"tokens", "b3edadab"}, 9, "2025-12-20T08:57:03.329Z"},
		{"tokens all", []string{"tokens"}, 0, ""},
		{"tokens by model", []string{"tokens", "--by", "model"}, 0, ""},
		{"agents", []string{"agents", "ef958aa1"}, 13, "a"},
		{"agents -v", []string{"agents", "-v", "ef958aa1"}, 15, "a"},
		{"tree", []string{"tree", "b3edadab"}, 0, "session b3edadab-bca0-4054-9b41-f7ffa6941260"},
		{"tree --full", []string{"tree", "--full", "b3edadab"}, 0, "session b3edadab"},
	}
	if showReady(t) {
		tests = append(tests, struct {
			name   string
			args   []string
			fields int
			first  string
		}{"show", []string{"show", "b3edadab"}, 0, ""})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cctx(t, append(tt.args, "--dir", samples)...)
			expect(t, r, 0, tt.name)
			if r.stdout == "" {
				t.Fatal("no output")
			}
			if bad := controlChars(r.stdout, false); len(bad) > 0 {
				t.Errorf("control characters in piped output: %v", bad[:min(3, len(bad))])
			}
			if w := unexpectedWarnings(r.stderr); w != "" {
				t.Errorf("warnings on the clean samples:\n%s", w)
			}
			ls := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if !strings.HasPrefix(ls[0], tt.first) {
				t.Errorf("first line %q, want it to start with %q", ls[0], tt.first)
			}
			if tt.fields == 0 {
				return
			}
			for i, l := range ls {
				if n := strings.Count(l, "\t") + 1; n != tt.fields {
					t.Errorf("line %d has %d fields, want %d: %q", i+1, n, tt.fields, cut(l, 200))
				}
			}
		})
	}
}

// Every exit code with its message on stderr, and nothing half-written on
// stdout for the errors.
func TestExitCodes(t *testing.T) {
	crafted := t.TempDir()
	// Two sessions that share a 5-character prefix, a file with a garbage
	// line, and a session in a second root.
	ok := lines(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S","timestamp":"2026-01-01T10:00:00Z","cwd":"/w","message":{"role":"user","content":"hello"}}`)
	writeFile(t, crafted, "-w/abcde111-0000-4000-8000-000000000001.jsonl", ok)
	writeFile(t, crafted, "-w/abcde222-0000-4000-8000-000000000002.jsonl", ok)
	bad := writeFile(t, crafted, "-w/bad00000-0000-4000-8000-000000000003.jsonl", ok+"this is not json\n")

	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stderr string // a substring of stderr ("" = stderr must be empty)
	}{
		{"success", []string{"ls", "--dir", samples}, "", 0, ""},
		{"success from stdin", []string{"tokens", "-"}, ok, 0, ""},
		{"warning without --strict", []string{"tree", "--dir", crafted, "bad0"}, "", 0, "cctx: warning: " + bad + ":2: skipped malformed line"},
		{"warning with --strict", []string{"tree", "--dir", crafted, "--strict", "bad0"}, "", 1, "cctx: error: 1 warning(s) with --strict"},
		{"strict on a clean file", []string{"tree", "--dir", crafted, "--strict", "abcde1"}, "", 0, ""},
		{"stdout is full", []string{"ls", "--dir", samples, ">/dev/full"}, "", 1, "cctx: error: write /dev/stdout: no space left on device"},
		{"unknown command", []string{"lss"}, "", 2, `cctx: error: unknown command "lss" for "cctx"`},
		{"unknown flag", []string{"ls", "--bogus"}, "", 2, "cctx: error: unknown flag: --bogus (see 'cctx ls --help')"},
		{"bad --color", []string{"ls", "--color", "sometimes"}, "", 2, `cctx: error: --color must be auto, always or never, not "sometimes"`},
		{"missing argument", []string{"tree"}, "", 2, "cctx: error: cctx tree needs <session> (see 'cctx tree --help')"},
		{"too many arguments", []string{"agents", "a", "b"}, "", 2, "cctx: error: cctx agents takes <session> only, got \"a b\""},
		{"stdin twice", []string{"tokens", "-", "-"}, "", 2, "cctx: error: only one argument can read standard input (-)"},
		{"missing --dir", []string{"ls", "--dir", "/nonexistent/cctx"}, "", 2, "cctx: error: --dir /nonexistent/cctx: no such directory"},
		{"bad --since", []string{"ls", "--dir", samples, "--since", "soon"}, "", 2, `cctx: error: --since: cannot read "soon" as a date`},
		{"bad --limit", []string{"ls", "--dir", samples, "--limit", "-1"}, "", 2, "cctx: error: --limit must be 0 or more"},
		{"prefix of 3", []string{"tree", "--dir", crafted, "abc"}, "", 2, `cctx: error: session "abc": a session prefix needs at least 4 characters`},
		{"unknown session", []string{"tokens", "--dir", crafted, "ffff"}, "", 2, `cctx: error: session "ffff": no such session in ` + crafted},
		{"ambiguous prefix", []string{"agents", "--dir", crafted, "abcde"}, "", 2, `cctx: error: session "abcde": ambiguous prefix: 2 sessions match
cctx: hint: candidates (id, last activity, project):
  abcde`},
		{"no such file", []string{"tree", "/nonexistent/x.jsonl"}, "", 2, `cctx: error: session "/nonexistent/x.jsonl": no such file`},
		{"a project folder as the file", []string{"tree", crafted + "/-w"}, "", 2, "a folder of sessions, not one: list them with cctx ls --dir"},
		{"budget exceeded", []string{"tokens", "--dir", samples, "b3edadab", "--max-tokens", "300k"}, "", 3,
			"cctx: budget exceeded: session b3edadab-bca0-4054-9b41-f7ffa6941260: tokens 363124 > 300000 (--max-tokens)"},
		{"budget kept (the caveat of its numbers said, in a pipe)", []string{"tokens", "--dir", samples, "b3edadab", "--max-tokens", "400k"}, "", 0, "their output tokens are understated"},
		{"bad budget", []string{"tokens", "--dir", samples, "b3edadab", "--max-tokens", "lots"}, "", 2, "--max-tokens"},
	}
	if _, err := os.Stat("/proc/self/mem"); err == nil {
		// A file that opens but cannot be read: a read error is exit 1.
		tests = append(tests, struct {
			name   string
			args   []string
			stdin  string
			code   int
			stderr string
		}{"unreadable input", []string{"tree", "/proc/self/mem"}, "", 1, "cctx: error: read /proc/self/mem: input/output error"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			var r result
			if n := len(args); n > 0 && args[n-1] == ">/dev/full" {
				if _, err := os.Stat("/dev/full"); err != nil {
					t.Skip("no /dev/full")
				}
				r = runToFile(t, "/dev/full", args[:n-1]...)
			} else {
				r = cctxWith(t, opts{stdin: tt.stdin}, args...)
			}
			expect(t, r, tt.code, tt.name)
			if tt.stderr == "" && r.stderr != "" {
				t.Errorf("stderr should be empty:\n%s", r.stderr)
			}
			if !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("stderr lacks %q\n%s", tt.stderr, r)
			}
			if tt.code == 2 && r.stdout != "" {
				t.Errorf("a usage error printed to stdout: %q", cut(r.stdout, 200))
			}
			if tt.code == 3 && r.stdout == "" {
				t.Errorf("an exceeded budget must still print the report")
			}
		})
	}
}

// runToFile runs cctx with stdout sent to a file (a full disk, for one).
func runToFile(t *testing.T, path string, args ...string) result {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	return cctxWith(t, opts{stdout: f}, args...)
}

// Standard input as a session: a transcript, an empty stream, a stream of
// garbage. Nothing hangs, nothing panics, and the valid lines count.
func TestStdin(t *testing.T) {
	transcript := lines(
		`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"hello"}}`,
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"S","timestamp":"2026-01-01T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"output_tokens":5}}}`,
	)
	tests := []struct {
		name, stdin string
		args        []string
		code        int
		out         string // substring of stdout
		stderr      string // substring of stderr
	}{
		{"tokens", transcript, []string{"tokens", "--json", "-"}, 0, `"total_tokens":15`, ""},
		{"tree", transcript, []string{"tree", "-"}, 0, "2 entries", ""},
		{"tree json", transcript, []string{"tree", "--json", "-"}, 0, `"active_leaf":"a1"`, ""},
		{"agents", transcript, []string{"agents", "--json", "-"}, 0, `"agents":[]`, ""},
		{"empty tokens", "", []string{"tokens", "--json", "-"}, 0, `"api_calls":0`, ""},
		{"empty tree", "", []string{"tree", "--json", "-"}, 0, `"nodes":[]`, "cctx: standard input is empty (0 bytes)\n"},
		{"empty agents", "", []string{"agents", "--json", "-"}, 0, `"agents":[]`, "cctx: standard input is empty (0 bytes)\n"},
		{"garbage", "\x00\x01garbage\n[1,2]\n", []string{"tokens", "-"}, 0, "", "cctx: warning: <stdin>:1: skipped malformed line"},
		{"garbage strict", "garbage\n", []string{"tree", "--strict", "-"}, 1, "", "cctx: error: <stdin>: none of its 1 line(s) is a Claude Code transcript entry (none names a sessionId or uuid)\n"},
		{"garbage", "garbage\n", []string{"show", "-"}, 1, "", "cctx: error: <stdin>: none of its 1 line(s) is a Claude Code transcript entry (none names a sessionId or uuid)\n"},
		{"garbage agents", "{\"a\":1}\n", []string{"agents", "-"}, 1, "", "cctx: error: <stdin>: none of its 1 line(s) is a Claude Code transcript entry (none names a sessionId or uuid)\n"},
		{"truncated tail is a note", transcript + `{"type":"user","uu`, []string{"tokens", "-v", "-"}, 0, "", "cctx: note: <stdin>:3: last line is incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cctxWith(t, opts{stdin: tt.stdin}, tt.args...)
			expect(t, r, tt.code, tt.name)
			if !strings.Contains(r.stdout, tt.out) {
				t.Errorf("stdout lacks %q\n%s", tt.out, r)
			}
			if !strings.Contains(r.stderr, tt.stderr) || tt.stderr == "" && r.stderr != "" {
				t.Errorf("stderr: want %q\n%s", tt.stderr, r)
			}
		})
	}
}

// The real corpus beside the repository, when present: every command on
// every session, piped and as JSON, exits 0 without a panic.
func TestRealCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole corpus, under -short")
	}
	for _, dir := range testcorpus.Folders() {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r := cctx(t, "ls", "--dir", dir, "--all", "--empty", "--json")
			expect(t, r, 0, "ls")
			sessions := objs(decode(t, r)["sessions"])
			if r := cctx(t, "tokens", "--dir", dir, "--by", "day"); r.code != 0 {
				t.Errorf("tokens --by day\n%s", r)
			}
			for _, s := range sessions {
				id := s["session_id"].(string)
				for _, verb := range []string{"tree", "tokens", "agents"} {
					for _, extra := range [][]string{nil, {"--json"}} {
						args := append([]string{verb, "--dir", dir, id}, extra...)
						r := cctx(t, args...)
						if r.code != 0 {
							t.Errorf("%s\n%s", strings.Join(args, " "), r)
						}
						if extra != nil {
							decode(t, r)
						}
					}
				}
			}
		})
	}
}

// unexpectedWarnings is the warnings of stderr but the one the samples
// are known for: the transcript of agent ab81802 (session c7d3d95c) was
// not published with its session, which every command that reads
// subagents says.
func unexpectedWarnings(stderr string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		// The prefix, not the word: a checkout in a folder named
		// "warnings" puts the word in every note's path.
		if strings.HasPrefix(l, "cctx: warning: ") && !strings.Contains(l, "agent ab81802, but no transcript agent-ab81802.jsonl was found") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
