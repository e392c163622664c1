package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// liveSession writes a session with responses 50, 30 and 10 minutes ago:
// the current block is active.
func liveSession(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	const id = "1f1f1f1f-0000-4000-8000-000000000001"
	now := time.Now().UTC()
	// The three responses fall in the last hour, or in the time since
	// midnight (UTC, baseEnv's zone) when that is shorter: all of them
	// today, however close to midnight the test runs (at 00:06 they were
	// yesterday's, and today's status showed none).
	span := min(time.Hour, now.Sub(now.Truncate(24*time.Hour)))
	var ls []string
	for i, ago := range []int{50, 30, 10} {
		ts := now.Add(-span * time.Duration(ago) / 60).Format("2006-01-02T15:04:05.000Z")
		ls = append(ls, fmt.Sprintf(`{"type":"assistant","uuid":"a%d","parentUuid":null,"sessionId":"%s","cwd":"/w/app","timestamp":"%s","requestId":"r%d","message":{"id":"m%d","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"mcp__github__search","input":{}}],"usage":{"input_tokens":10,"output_tokens":1000,"cache_read_input_tokens":100000}}}`, i, id, ts, i, i, i))
	}
	writeFile(t, root, "-w-app/"+id+".jsonl", lines(ls...))
	return root
}

// tokens --watch on a real terminal redraws in place every second and
// ends with exit 0 on Ctrl-C: the byte the terminal sends for it makes
// the pseudo-terminal deliver SIGINT to cctx.
func TestWatchOnATerminal(t *testing.T) {
	sp := scriptPath(t)
	root := liveSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	// exec: cctx alone gets the SIGINT, not a shell waiting for it.
	cmdline := "exec " + shellQuote(bin) + " tokens --watch 1 --dir " + shellQuote(root)
	c := exec.CommandContext(ctx, sp, "-qec", cmdline, "/dev/null")
	c.Env = append(baseEnv(t), "COLUMNS=100")
	c.Dir = t.TempDir()
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second)
	io.WriteString(stdin, "\x03") // Ctrl-C
	err = c.Wait()
	stdin.Close()
	if ctx.Err() != nil {
		t.Fatalf("--watch did not stop on Ctrl-C:\n%s", out.String())
	}
	if err != nil {
		t.Fatalf("exit: %v\n%s", err, out.String())
	}
	text := out.String()
	frames := strings.Count(text, "cctx tokens --watch")
	if frames < 2 || frames > 5 {
		t.Errorf("%d frames in 3 s at 1 s, want 2 to 5\n%s", frames, text)
	}
	// Each frame after the first goes back to the first line of the one
	// before it and clears the screen below.
	if n := len(redraw.FindAllString(text, -1)); n != frames-1 {
		t.Errorf("%d redraws in place for %d frames\n%q", n, frames, text)
	}
	for _, want := range []string{"Current block", "burn rate", "projected"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q:\n%s", want, text)
		}
	}
}

// redraw is what moves the cursor back up a frame and clears below.
var redraw = regexp.MustCompile("\x1b\\[[0-9]+A\r\x1b\\[J")

// In a pipe --watch prints a snapshot per interval, no cursor movement,
// and exits 0 on SIGINT.
func TestWatchInAPipe(t *testing.T) {
	root := liveSession(t)
	c := exec.Command(bin, "tokens", "--watch", "1", "--dir", root, "--by", "day")
	c.Env = baseEnv(t)
	var out, errOut bytes.Buffer
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2500 * time.Millisecond)
	if err := c.Process.Signal(os.Interrupt); err != nil {
		t.Skipf("cannot send SIGINT here: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, errOut.String())
		}
	case <-time.After(10 * time.Second):
		c.Process.Kill()
		t.Fatal("--watch did not stop on SIGINT")
	}
	text := out.String()
	if n := strings.Count(text, "\n\ncctx tokens --watch"); n < 1 || strings.Contains(text, "\x1b") {
		t.Errorf("want snapshots a blank line apart, without escapes:\n%q", text)
	}
	if !strings.Contains(text, "Today") || !strings.Contains(text, "303k tokens") {
		t.Errorf("no status of today:\n%s", text)
	}
}

// --watch --json prints one document a line, each with the current
// block.
func TestWatchJSON(t *testing.T) {
	root := liveSession(t)
	c := exec.Command(bin, "tokens", "--watch", "1", "--json", "--dir", root)
	c.Env = baseEnv(t)
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	c.Process.Signal(os.Interrupt)
	c.Wait()
	docs := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(docs) < 1 {
		t.Fatal("no document")
	}
	for _, d := range docs {
		var v map[string]any
		if err := json.Unmarshal([]byte(d), &v); err != nil {
			t.Fatalf("not one JSON document a line: %v\n%s", err, d)
		}
		report(t, currentSchema.check("current", v["current"]))
	}
}

// Plan windows, tools and agent types in JSON, as docs/json.md documents
// them.
func TestTokensPlanJSON(t *testing.T) {
	live := liveSession(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"by block", []string{"--dir", live, "--by", "block"}},
		{"by week", []string{"--dir", samples, "--by", "week", "--tz", "Europe/Paris"}},
		{"by agent-type", []string{"--dir", samples, "--by", "agent-type"}},
		{"by tool", []string{"--dir", samples, "--by", "tool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cctx(t, append([]string{"tokens", "--json"}, tc.args...)...)
			expect(t, r, 0, "tokens --json")
			v := decode(t, r)
			errs := tokensTopSchema.check("tokens", v, tokensOptional)
			var calls int64
			for i, g := range objs(v["groups"]) {
				where := fmt.Sprintf("groups[%d]", i)
				errs = append(errs, tokensGroupSchema.check(where, g, groupTimesSchema, groupRunsSchema)...)
				_, times := g["start"]
				if times != (tc.name != "by agent-type") {
					errs = append(errs, where+": start, end, first_activity and last_activity are for time groupings")
				}
				if _, runs := g["runs"]; runs != (tc.name == "by agent-type") {
					errs = append(errs, where+": runs is for --by agent-type")
				}
				for _, k := range []string{"start", "end", "first_activity", "last_activity"} {
					if s, ok := g[k].(string); ok && !isJSONTime(s) {
						errs = append(errs, fmt.Sprintf("%s.%s %q", where, k, s))
					}
				}
				calls += num(g["total"].(map[string]any)["api_calls"])
			}
			if tc.name != "by tool" && calls != num(v["total"].(map[string]any)["api_calls"]) {
				errs = append(errs, fmt.Sprintf("groups sum to %d calls, total %d", calls, num(v["total"].(map[string]any)["api_calls"])))
			}
			if tc.name == "by block" {
				errs = append(errs, currentSchema.check("current", v["current"])...)
			}
			if tc.name == "by tool" {
				var sum int64
				for i, tool := range objs(v["tools"]) {
					errs = append(errs, toolSchema.check(fmt.Sprintf("tools[%d]", i), tool)...)
					sum += num(tool["calls"])
				}
				errs = append(errs, toolSchema.check("tools_total", v["tools_total"])...)
				if sum != num(v["tools_total"].(map[string]any)["calls"]) || sum == 0 {
					errs = append(errs, fmt.Sprintf("tools sum to %d calls, tools_total says %v", sum, v["tools_total"]))
				}
			}
			report(t, errs)
		})
	}
}

// --format ndjson: one object of responses[] a line.
func TestTokensNDJSONLines(t *testing.T) {
	r := cctx(t, "tokens", "--dir", samples, "--by", "response", "--format", "ndjson")
	expect(t, r, 0, "ndjson")
	ls := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(ls) < 100 {
		t.Fatalf("%d lines", len(ls))
	}
	var errs []string
	for i, l := range ls {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		errs = append(errs, responseSchema.check(fmt.Sprintf("line %d", i+1), v)...)
	}
	report(t, errs)
}

// Tool names, agent types and models come from transcripts: in every new
// view they reach the terminal inert, and Markdown cannot be broken out
// of.
func TestPlanViewsAreInert(t *testing.T) {
	root, id := hostileSession(t)
	for _, run := range [][]string{
		{"tokens", "--by", "tool"}, {"tokens", "--by", "agent-type"}, {"tokens", "--by", "block"}, {"tokens", "--by", "week"},
		{"tokens", "--format", "markdown"}, {"tokens", "--format", "markdown", "--by", "tool"}, {"tokens", "--format", "markdown", "--by", "model"},
		{"tokens", "--by", "response", "--format", "ndjson"}, {"__complete", "show", ""}, {"__complete", "show", id, "--leaf", ""},
	} {
		args := append(append([]string{}, run...), "--dir", root)
		r := cctx(t, args...)
		what := strings.Join(run, " ")
		if r.code != 0 {
			t.Errorf("%s: exit %d\n%s", what, r.code, r)
			continue
		}
		if bad := controlChars(r.stdout, true); len(bad) > 0 {
			t.Errorf("%s: stdout lets content drive the terminal: %v", what, bad[:min(3, len(bad))])
		}
		if strings.Contains(what, "markdown") && (strings.Contains(r.stdout, "<") || strings.Contains(r.stdout, "`"+"\x1b")) {
			t.Errorf("%s: raw markup from a transcript:\n%s", what, r.stdout)
		}
	}
}
