// Package e2e tests the built cctx binary as a user runs it: a real process
// with real pipes, a real environment, real exit codes and, when the system
// has script(1), a real pseudo-terminal. The in-process tests of ./cmd cover
// the logic; these catch what only a process shows (terminal detection,
// NO_COLOR, stdin, SIGPIPE-free writes, stderr versus stdout, os.Exit).
package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	// Imported only so that go test's cache knows these tests depend on
	// cctx's code: the binary is built in TestMain, out of the cache's sight.
	_ "github.com/cctx-dev/cctx/cmd"
	"github.com/cctx-dev/cctx/internal/termcheck"
)

// bin is the cctx binary built once for all tests.
var bin string

// samples is the projects root bundled with the repository.
var samples string

// opusOnlyPrices is a price table without Sonnet, so that the samples' Sonnet
// calls have no price (an absolute path: the binary runs in a temp dir).
var opusOnlyPrices, _ = filepath.Abs("../cmd/testdata/prices-opus-only.json")

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "cctx-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = filepath.Join(dir, "cctx")
	build := exec.Command("go", "build", "-o", bin, "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: cannot build cctx:", err)
		return 1
	}
	if samples, err = filepath.Abs("../testdata/projects"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	return m.Run()
}

// result is what one run of cctx produced.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s\n--- stderr\n%s", r.code, cut(r.stdout, 2000), cut(r.stderr, 2000))
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// opts are the conditions of one run.
type opts struct {
	stdin string
	env   []string // added to the base environment (KEY=VALUE)
	dir   string   // working directory ("" = a fresh temporary one)
	// stdout, when set, receives the output instead of a pipe (a file
	// such as /dev/full); result.stdout is then empty.
	stdout *os.File
}

// baseEnv is a clean environment: a HOME without ~/.claude (so nothing on
// the machine running the tests is read), UTC, and no colour switches.
func baseEnv(t *testing.T) []string {
	home := t.TempDir()
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TZ=UTC", "LANG=C.UTF-8", "TERM=xterm-256color"}
}

// runTimeout bounds every run: cctx must never hang, whatever its input.
const runTimeout = 60 * time.Second

// cctx runs the binary with args and the default conditions.
func cctx(t *testing.T, args ...string) result {
	t.Helper()
	return cctxWith(t, opts{}, args...)
}

func cctxWith(t *testing.T, o opts, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	c := exec.CommandContext(ctx, bin, args...)
	c.Env = append(baseEnv(t), o.env...)
	c.Dir = o.dir
	if c.Dir == "" {
		c.Dir = t.TempDir()
	}
	c.Stdin = strings.NewReader(o.stdin)
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	if o.stdout != nil {
		c.Stdout = o.stdout
	}
	err := c.Run()
	if ctx.Err() != nil {
		t.Fatalf("cctx %s: did not finish in %v", strings.Join(args, " "), runTimeout)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if code < 0 {
			t.Fatalf("cctx %s: killed by a signal: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
	} else if err != nil {
		t.Fatalf("cctx %s: %v", strings.Join(args, " "), err)
	}
	r := result{out.String(), errOut.String(), code}
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("cctx %s panicked:\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// expect fails unless r exited with code.
func expect(t *testing.T, r result, code int, what string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("%s: want exit %d\n%s", what, code, r)
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// hasSGR reports whether s holds a colour sequence.
func hasSGR(s string) bool { return sgr.MatchString(s) }

// controlChars lists the control characters of s a terminal would obey
// (termcheck.Foreign), the theme's colours allowed when stripSGR.
func controlChars(s string, stripSGR bool) []string { return termcheck.Foreign(s, stripSGR) }

// writeFile writes a file under dir, creating its directories.
func writeFile(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lines joins transcript lines, each ended by a newline.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
