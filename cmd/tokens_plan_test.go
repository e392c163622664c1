package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/tokens"
)

// liveTree writes a session active this morning by the tests' clock
// (2026-11-22 12:00 UTC): responses at 10:30, 11:00 and 11:30, of 100k
// cache-read and 1,000 output tokens each, and one of last night.
func liveTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	const id = "1f1f1f1f-0000-4000-8000-000000000001"
	var lines []string
	for i, ts := range []string{"2026-11-21T20:00:00Z", "2026-11-22T10:30:00Z", "2026-11-22T11:00:00Z", "2026-11-22T11:30:00Z"} {
		lines = append(lines, fmt.Sprintf(`{"type":"assistant","uuid":"a%d","parentUuid":null,"sessionId":"%s","cwd":"/w/app","timestamp":"%s","requestId":"req_%d","message":{"id":"msg_%d","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":"tu%d","name":"mcp__github__search","input":{}}],"usage":{"input_tokens":10,"output_tokens":1000,"cache_read_input_tokens":100000}}}`, i, id, ts, i, i, i))
		lines = append(lines, fmt.Sprintf(`{"type":"user","uuid":"r%d","parentUuid":"a%d","sessionId":"%s","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu%d","content":"0123456789"}]}}`, i, i, id, ts, i))
	}
	p := filepath.Join(root, "-w-app", id+".jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestTokensPlanViews(t *testing.T) {
	for _, tc := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"by-block-terminal", true, []string{"--by", "block"}},
		{"by-block-pipe", false, []string{"--by", "block", "--tz", "America/New_York"}},
		{"by-week-terminal", true, []string{"--by", "week", "--tz", "Asia/Tokyo"}},
		{"by-month-pipe", false, []string{"--by", "month"}},
		{"by-hour-pipe", false, []string{"--by", "hour", "--since", "2026-04-18", "--tz", "Asia/Kolkata"}},
		{"by-tool-terminal", true, []string{"--by", "tool"}},
		{"by-tool-pipe", false, []string{"--by", "tool"}},
		{"by-agent-type-terminal", true, []string{"--by", "agent-type"}},
		{"markdown", false, []string{"--format", "markdown", "--max-cost", "1"}},
		{"markdown-by-block", false, []string{"--format", "markdown", "--by", "block", "--max-cost", "5", "--max-tokens", "1M"}},
		{"markdown-one-session", false, []string{"b3edadab", "--format", "markdown", "--max-context", "100k"}},
		{"markdown-by-tool", false, []string{"--format", "markdown", "--by", "tool"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"tokens", "--dir", samples, "--color", "never"}, tc.args...)
			r := run(t, tc.tty, nil, args...)
			if r.code != 0 && r.code != 3 {
				t.Fatalf("exit %d: %s", r.code, r.errOut)
			}
			golden(t, "tokens/"+tc.name+".txt", strings.ReplaceAll(r.out, samples, "$SAMPLES"))
		})
	}
}

// The block that holds now: its time left, burn rate and projection, on
// a terminal and in JSON; a budget checks every block.
func TestTokensCurrentBlock(t *testing.T) {
	root := liveTree(t)
	r := run(t, true, nil, "tokens", "--dir", root, "--by", "block", "--color", "never")
	for _, want := range []string{"BLOCK (UTC)", "2026-11-21 20:00–01:00  ", "2026-11-22 10:00–15:00 ●", "Current block  10:00 → 15:00 UTC",
		"2h00m elapsed, 3h00m left", "used       303k tokens", "burn rate  303k tokens/h", "projected  1.21M tokens"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("no %q in\n%s", want, r.out)
		}
	}
	r = run(t, false, nil, "tokens", "--dir", root, "--by", "block", "--json")
	var doc struct {
		Groups []struct {
			Key   string  `json:"key"`
			Start *string `json:"start"`
			First *string `json:"first_activity"`
		} `json:"groups"`
		Current struct {
			Key       string `json:"key"`
			Elapsed   int64  `json:"elapsed_seconds"`
			Remaining int64  `json:"remaining_seconds"`
			PerHour   *int64 `json:"tokens_per_hour"`
			Projected *int64 `json:"projected_total_tokens"`
			Cost      *float64
		} `json:"current"`
	}
	if err := json.Unmarshal([]byte(r.out), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Current
	if len(doc.Groups) != 2 || *doc.Groups[1].Start != "2026-11-22T10:00:00.000Z" || *doc.Groups[1].First != "2026-11-22T10:30:00.000Z" ||
		c.Key != "2026-11-22T10:00Z" || c.Elapsed != 7200 || c.Remaining != 10800 || c.PerHour == nil || *c.PerHour != 303030 || *c.Projected != 1212120 {
		t.Errorf("JSON: %s", r.out)
	}
	// A budget on every block: the current one is over, last night's not.
	r = run(t, false, nil, "tokens", "--dir", root, "--by", "block", "--max-tokens", "300k")
	if r.code != ExitBudget || !strings.Contains(r.errOut, "budget exceeded: block 2026-11-22T10:00Z: tokens 303030 > 300000") || strings.Contains(r.errOut, "2026-11-21") {
		t.Errorf("exit %d: %s", r.code, r.errOut)
	}
	// --budget-total checks the sum instead.
	r = run(t, false, nil, "tokens", "--dir", root, "--by", "block", "--max-tokens", "400k", "--budget-total")
	if r.code != ExitBudget || !strings.Contains(r.errOut, "budget exceeded: session 1f1f1f1f-0000-4000-8000-000000000001: tokens 404040 > 400000") {
		t.Errorf("--budget-total: exit %d: %s", r.code, r.errOut)
	}
}

// --format ndjson writes the responses of --json, one a line.
func TestTokensNDJSON(t *testing.T) {
	for _, dirs := range [][]string{{samples}, withCorpus()} {
		args := []string{"tokens", "--by", "response"}
		for _, d := range dirs {
			args = append(args, "--dir", d)
		}
		j := run(t, false, nil, append(args, "--json")...)
		var doc struct {
			Responses []json.RawMessage `json:"responses"`
		}
		if err := json.Unmarshal([]byte(j.out), &doc); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range doc.Responses {
			want = append(want, string(r))
		}
		r := run(t, false, nil, append(args, "--format", "ndjson")...)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.errOut)
		}
		got := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
		sort.Strings(got)
		sort.Strings(want)
		if len(got) != len(want) || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: %d lines, --json has %d responses", dirs, len(got), len(want))
		}
	}
}

func TestTokensPlanFlags(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	for _, tc := range []struct {
		args    []string
		check   func(o *TokensOptions) bool
		wantErr string
	}{
		{args: []string{"tokens", "--by", "block"}, check: func(o *TokensOptions) bool {
			return o.plan.By == tokens.ByBlock && o.plan.Zone == time.Local && o.plan.Format == tokens.FormatTable
		}},
		{args: []string{"tokens", "--tz", "Europe/Paris", "--by", "week", "--since", "2026-11-01"},
			check: func(o *TokensOptions) bool {
				return o.plan.Zone.String() == "Europe/Paris" && o.plan.Window.Since.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, paris))
			}},
		{args: []string{"tokens", "--tz", "utc"}, check: func(o *TokensOptions) bool { return o.plan.Zone == time.UTC }},
		{args: []string{"tokens", "--json"}, check: func(o *TokensOptions) bool { return o.plan.Format == tokens.FormatJSON }},
		{args: []string{"tokens", "--format", "markdown", "--max-cost", "3"}, check: func(o *TokensOptions) bool { return o.plan.Format == tokens.FormatMarkdown }},
		{args: []string{"tokens", "--format", "md"}, check: func(o *TokensOptions) bool { return o.plan.Format == tokens.FormatMarkdown }}, // export's name
		{args: []string{"tokens", "--by", "response", "--format", "ndjson"}, check: func(o *TokensOptions) bool { return o.plan.Format == tokens.FormatNDJSON }},
		// ndjson lists responses: --by response is implied.
		{args: []string{"tokens", "--format", "ndjson"}, check: func(o *TokensOptions) bool {
			return o.plan.Format == tokens.FormatNDJSON && o.plan.By == tokens.ByResponse
		}},
		{args: []string{"tokens", "--by", "tool"}, check: func(o *TokensOptions) bool { return o.plan.By == tokens.ByTool }},
		{args: []string{"tokens", "--watch"}, check: func(o *TokensOptions) bool {
			return o.plan.Interval == 5*time.Second && o.plan.By == tokens.ByBlock && len(o.Sessions) == 0 && o.plan.Window.Since.Equal(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
		}},
		{args: []string{"tokens", "--watch", "2"}, check: func(o *TokensOptions) bool { return o.plan.Interval == 2*time.Second && len(o.Sessions) == 0 }},
		{args: []string{"tokens", "--watch", "1.5", "--by", "day"}, check: func(o *TokensOptions) bool {
			return o.plan.Interval == 1500*time.Millisecond && o.plan.By == tokens.ByDay
		}},
		{args: []string{"tokens", "--watch=3", "1234"}, check: func(o *TokensOptions) bool { return o.plan.Interval == 3*time.Second && len(o.Sessions) == 1 }},
		{args: []string{"tokens", "abcd", "--watch"}, check: func(o *TokensOptions) bool { return o.plan.Interval == 5*time.Second && o.Sessions[0] == "abcd" }},
		{args: []string{"tokens", "--tz", "Mars/Olympus"}, wantErr: `--tz "Mars/Olympus": not a time zone`},
		{args: []string{"tokens", "--format", "yaml"}, wantErr: `--format "yaml": choose one of table, json, markdown, ndjson`},
		{args: []string{"tokens", "--format", "markdown", "--json"}, wantErr: "--json and --format markdown: choose one"},
		{args: []string{"tokens", "--format", "ndjson", "--by", "model"}, wantErr: "--format ndjson lists responses, not --by model"},
		{args: []string{"tokens", "--by", "response", "--format", "ndjson", "--max-cost", "1"}, wantErr: "drop the --max-* flags"},
		{args: []string{"tokens", "--watch", "--by", "model"}, wantErr: "--by block (the default) or --by day"},
		{args: []string{"tokens", "--watch=0"}, wantErr: `--watch "0": give the seconds`},
		{args: []string{"tokens", "--watch=soon"}, wantErr: `--watch "soon"`},
		{args: []string{"tokens", "--watch", "--format", "markdown"}, wantErr: "without --format markdown"},
		{args: []string{"tokens", "-", "--by", "tool"}, wantErr: "not -"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var got *TokensOptions
			f, err := parseArgs(t, func(f *Factory) *cobra.Command {
				return NewCmdTokens(f, func(o *TokensOptions) error { got = o; return nil })
			}, tc.args...)
			_ = f
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

// parseArgs is parse with the command line in the Factory, as Run puts it.
func parseArgs(t *testing.T, cmd func(f *Factory) *cobra.Command, args ...string) (*Factory, error) {
	t.Helper()
	var fac *Factory
	f, err := parse(t, func(f *Factory) *cobra.Command {
		f.Args, fac = args, f
		return cmd(f)
	}, args...)
	_ = fac
	return f, err
}

// --watch draws a frame, waits, draws the next until it is stopped, and
// ends with no error; in a pipe the frames follow each other.
func TestTokensWatchFrames(t *testing.T) {
	root := liveTree(t)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"block", nil, []string{"Current block  10:00 → 15:00 UTC", "burn rate", "budget     ✘ --max-cost $0.1 (now $0.14) · projected ✘"}},
		{"day", []string{"--by", "day"}, []string{"Today  Sun 2026-11-22 UTC", "used       303k tokens"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o *TokensOptions
			_, err := parseArgs(t, func(f *Factory) *cobra.Command {
				return NewCmdTokens(f, func(opts *TokensOptions) error { o = opts; return nil })
			}, append([]string{"tokens", "--dir", root, "--watch", "--max-cost", "0.1", "--color", "never"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			o.Context, o.plan.Interval = ctx, 10*time.Millisecond
			out := &frameWriter{after: 3, stop: cancel}
			o.F.IO.Out = out
			if err := tokensRun(o); err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(out.String(), "cctx tokens --watch"); n != 3 {
				t.Errorf("%d frames, want 3\n%s", n, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "\x1b[") || !strings.Contains(out.String(), "\n\ncctx tokens --watch") {
				t.Error("cursor movements in a pipe")
			}
		})
	}
}

// frameWriter collects frames and calls stop after the given number.
type frameWriter struct {
	b     strings.Builder
	after int
	stop  func()
}

func (w *frameWriter) Write(p []byte) (int, error) {
	if w.after--; w.after == 0 {
		w.stop()
	}
	return w.b.Write(p)
}

func (w *frameWriter) String() string { return w.b.String() }

// After the first frame of --watch nothing is said on stderr, not even
// what the cache notes under -v (a folder file it cannot write, written
// again by another cctx): it would break the frame on the terminal.
func TestTokensWatchSilentCache(t *testing.T) {
	root := liveTree(t)
	var o *TokensOptions
	_, err := parseArgs(t, func(f *Factory) *cobra.Command {
		return NewCmdTokens(f, func(opts *TokensOptions) error { o = opts; return nil })
	}, "tokens", "--dir", root, "--watch", "-v", "--color", "never")
	if err != nil {
		t.Fatal(err)
	}
	// A file where the cache directory should be: every write fails,
	// with a note.
	notDir := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	o.F.Env.Getenv = func(k string) string {
		if k == "CCTX_CACHE_DIR" {
			return notDir
		}
		return ""
	}
	errOut := &bytes.Buffer{}
	o.F.IO.ErrOut = errOut
	transcript, _ := filepath.Glob(filepath.Join(root, "*", "*.jsonl"))
	ctx, cancel := context.WithCancel(context.Background())
	o.Context, o.plan.Interval = ctx, 10*time.Millisecond
	frames, said := 0, -1
	out := writerFunc(func(p []byte) (int, error) {
		if frames++; frames == 1 {
			said = errOut.Len()
		}
		if frames == 3 {
			cancel()
		}
		// A session that grows between frames: each frame writes its
		// folder file again (and fails).
		line := fmt.Sprintf(`{"type":"assistant","uuid":"g%d","parentUuid":null,"sessionId":"1f1f1f1f-0000-4000-8000-000000000001","timestamp":"2026-11-22T11:40:00Z","requestId":"req_g%d","message":{"id":"msg_g%d","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`+"\n", frames, frames, frames)
		fh, err := os.OpenFile(transcript[0], os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(line)
		fh.Close()
		return len(p), nil
	})
	o.F.IO.Out = out
	if err := tokensRun(o); err != nil {
		t.Fatal(err)
	}
	if said <= 0 || !strings.Contains(errOut.String()[:said], "cache") {
		t.Fatalf("no cache note before the first frame: %q", errOut.String())
	}
	if later := errOut.String()[said:]; later != "" {
		t.Errorf("said after the first frame:\n%s", later)
	}
}

type writerFunc func(p []byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

// An hour or block table names its zone once, in the header, when every
// row has the same; across a change of summer time each row keeps its
// own (CEST, CET).
func TestTokensTimeGroupsNameTheirZone(t *testing.T) {
	r := run(t, true, nil, "tokens", "--dir", samples, "--by", "hour", "--tz", "UTC", "--color", "never")
	if !strings.Contains(r.out, "HOUR (UTC)") || strings.Contains(r.out, ":00 UTC ") {
		t.Errorf("one zone:\n%s", r.out)
	}
	r = run(t, true, nil, "tokens", "--dir", samples, "--by", "hour", "--tz", "Europe/Paris", "--color", "never")
	if strings.Contains(r.out, "HOUR (") || !strings.Contains(r.out, "CEST") || !strings.Contains(r.out, "CET ") {
		t.Errorf("summer and winter time:\n%s", r.out)
	}
}
