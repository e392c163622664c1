package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// Line builders: each returns one transcript line, so the tables below read
// as the transcripts they build. Timestamps are seconds after 10:00:00.

func ts(sec int) string { return fmt.Sprintf("2026-01-01T10:%02d:%02d.000Z", sec/60, sec%60) }

func parentField(p string) string {
	if p == "" {
		return `"parentUuid":null`
	}
	return `"parentUuid":"` + p + `"`
}

// user is a typed prompt.
func user(id, parent, text string, sec int) string {
	return fmt.Sprintf(`{"type":"user","uuid":"%s",%s,"sessionId":"s1","timestamp":"%s","message":{"role":"user","content":%q}}`, id, parentField(parent), ts(sec), text)
}

// asst is an assistant line of response msg; tools are tool_use ids.
func asst(id, parent, msg string, sec int, tools ...string) string {
	return asstTool("Bash", id, parent, msg, sec, tools...)
}

// spawn is asst calling the Task tool: each call spawns a subagent.
func spawn(id, parent, msg string, sec int, tools ...string) string {
	return asstTool("Task", id, parent, msg, sec, tools...)
}

func asstTool(name, id, parent, msg string, sec int, tools ...string) string {
	content := `[{"type":"text","text":"ok"}]`
	if len(tools) > 0 {
		var bs []string
		for _, t := range tools {
			bs = append(bs, fmt.Sprintf(`{"type":"tool_use","id":"%s","name":"%s","input":{}}`, t, name))
		}
		content = "[" + strings.Join(bs, ",") + "]"
	}
	return fmt.Sprintf(`{"type":"assistant","uuid":"%s",%s,"sessionId":"s1","timestamp":"%s","message":{"id":"%s","role":"assistant","model":"m","content":%s,"usage":{"input_tokens":10,"output_tokens":5}}}`, id, parentField(parent), ts(sec), msg, content)
}

// result answers tool_use id tool.
func result(id, parent, tool string, sec int) string {
	return fmt.Sprintf(`{"type":"user","uuid":"%s",%s,"sessionId":"s1","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"done"}]}}`, id, parentField(parent), ts(sec), tool)
}

// hook is the stop_hook_summary line Claude Code writes after a reply.
func hook(id, parent string, sec int) string {
	return fmt.Sprintf(`{"type":"system","subtype":"stop_hook_summary","uuid":"%s",%s,"sessionId":"s1","timestamp":"%s"}`, id, parentField(parent), ts(sec))
}

func progress(id, parent string, sec int) string {
	return fmt.Sprintf(`{"type":"progress","uuid":"%s",%s,"sessionId":"s1","timestamp":"%s","data":{"type":"hook_progress"}}`, id, parentField(parent), ts(sec))
}

// boundary is a compact_boundary; meta is extra compactMetadata JSON.
func boundary(id, logical string, sec int, meta string) string {
	if meta != "" {
		meta = "," + meta
	}
	return fmt.Sprintf(`{"type":"system","subtype":"compact_boundary","uuid":"%s","parentUuid":null,"logicalParentUuid":"%s","sessionId":"s1","timestamp":"%s","compactMetadata":{"trigger":"auto","preTokens":1000%s}}`, id, logical, ts(sec), meta)
}

func summary(id, parent string, sec int) string {
	return fmt.Sprintf(`{"type":"user","uuid":"%s",%s,"isCompactSummary":true,"sessionId":"s1","timestamp":"%s","message":{"role":"user","content":"This session is being continued"}}`, id, parentField(parent), ts(sec))
}

func build(t *testing.T, lines ...string) (*Tree, string) {
	t.Helper()
	var stderr bytes.Buffer
	tr, err := Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "test.jsonl", diag.New(&stderr, false, false))
	if err != nil {
		t.Fatal(err)
	}
	return tr, stderr.String()
}

func uuids(ns []*Node) string {
	var s []string
	for _, n := range ns {
		s = append(s, n.UUID)
	}
	return strings.Join(s, " ")
}

func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		lines   []string
		leaf    string
		path    string // ActivePath
		context string // Context, when it differs from path
		leaves  string
		forks   string
		warn    string // substring of stderr; "" means no warning
	}{
		{
			name: "linear",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u2", "a1", "more", 2), asst("a2", "u2", "m2", 3),
			},
			leaf: "a2", path: "u1 a1 u2 a2", leaves: "a2",
		},
		{
			// A rewind: a second typed prompt under the same parent, later.
			name: "rewind",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u2", "a1", "first try", 2), asst("a2", "u2", "m2", 3),
				user("u3", "a1", "second try", 9), asst("a3", "u3", "m3", 10),
			},
			leaf: "a3", path: "u1 a1 u3 a3", leaves: "a2 a3", forks: "a1",
		},
		{
			// A regenerated reply: two responses with different message.id.
			name: "regenerated reply",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1), asst("a2", "u1", "m2", 5),
			},
			leaf: "a2", path: "u1 a2", leaves: "a1 a2", forks: "u1",
		},
		{
			// Two parallel tool calls in one response (m1): the second call
			// chunk and its result hang off the first call; the transcript
			// continues from the first result. A plain parent walk loses a2
			// and r2.
			name: "parallel tool calls",
			lines: []string{
				user("u1", "", "run both", 0),
				asst("a1", "u1", "m1", 1, "t1"),
				asst("a2", "a1", "m1", 2, "t2"),
				result("r2", "a2", "t2", 3),
				progress("p1", "a1", 3),
				result("r1", "a1", "t1", 4),
				asst("a3", "r1", "m2", 5),
			},
			leaf: "a3", path: "u1 a1 a2 r2 r1 a3", leaves: "a3",
		},
		{
			// An abandoned branch that made parallel tool calls: its
			// response m1 has two children (its second chunk a1b and the
			// first call's result r1), which is no fork; the branch still
			// starts at the rewind at a0.
			name: "abandoned branch with parallel tool calls",
			lines: []string{
				user("u0", "", "hello", 0), asst("a0", "u0", "m0", 1),
				user("u1", "a0", "do two things", 2),
				asst("a1", "u1", "m1", 3, "t1"), asst("a1b", "a1", "m1", 4, "t2"),
				result("r1", "a1", "t1", 5), result("r2", "a1b", "t2", 6),
				asst("a2", "r2", "m2", 7),
				user("u2", "a0", "do something else", 8), asst("a3", "u2", "m3", 9),
			},
			leaf: "a3", path: "u0 a0 u2 a3", leaves: "a2 a3", forks: "a0",
		},
		{
			// The same, continued from the first result: the walk up from
			// a2 comes to a1 through a tool result.
			name: "abandoned branch continued from a parallel result",
			lines: []string{
				user("u0", "", "hello", 0), asst("a0", "u0", "m0", 1),
				user("u1", "a0", "do two things", 2),
				asst("a1", "u1", "m1", 3, "t1"), asst("a1b", "a1", "m1", 4, "t2"),
				result("r2", "a1b", "t2", 5), result("r1", "a1", "t1", 6),
				asst("a2", "r1", "m2", 7),
				user("u2", "a0", "do something else", 8), asst("a3", "u2", "m3", 9),
			},
			leaf: "a3", path: "u0 a0 u2 a3", leaves: "a2 a3", forks: "a0",
		},
		{
			// A reply hanging under a parallel result of the active branch
			// is not a branch of its own, though a fork lies above: it
			// leaves the active branch at an artifact (a1), not at a0.
			name: "reply under a parallel result of the active branch",
			lines: []string{
				user("u0", "", "hello", 0), asst("a0", "u0", "m0", 1),
				user("ux", "a0", "first try", 2), asst("ax", "ux", "mx", 3),
				user("u1", "a0", "do two things", 4),
				asst("a1", "u1", "m1", 5, "t1"), asst("a1b", "a1", "m1", 6, "t2"),
				result("r1", "a1", "t1", 7), asst("a9", "r1", "m9", 8),
				result("r2", "a1b", "t2", 9), asst("a2", "r2", "m2", 10),
			},
			leaf: "a2", path: "u0 a0 u1 a1 a1b r1 r2 a2", leaves: "ax a2", forks: "a0",
		},
		{
			// Local slash commands share a parent without being a rewind.
			name: "local commands are not forks",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("c1", "a1", "<command-name>/doctor</command-name>", 2),
				user("c2", "a1", "<command-name>/status</command-name>", 3),
				user("u2", "a1", "go on", 4), asst("a2", "u2", "m2", 5),
			},
			leaf: "a2", path: "u1 a1 u2 a2", leaves: "a2",
		},
		{
			// A slash command that runs as a prompt is a typed prompt:
			// sent again in its place, it is a rewind.
			name: "a slash command run as a prompt starts a branch",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("c1", "a1", "<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>PR 12</command-args>", 2),
				asst("a2", "c1", "m2", 3),
				user("u2", "a1", "go on", 4), asst("a3", "u2", "m3", 5),
			},
			leaf: "a3", path: "u1 a1 u2 a3", leaves: "a2 a3", forks: "a1",
		},
		{
			// Context Claude Code writes into the user's turn (IDE
			// selection alone, a task notification) is not a prompt.
			name: "context lines are not forks",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("c1", "a1", "<ide_selection>The user selected the lines 1 to 2 from main.go</ide_selection>", 2),
				user("c2", "a1", "<task-notification>\n<task-id>b1</task-id>\n</task-notification>", 3),
				user("u2", "a1", "go on", 4), asst("a2", "u2", "m2", 5),
			},
			leaf: "a2", path: "u1 a1 u2 a2", leaves: "a2",
		},
		{
			name: "compaction",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				boundary("b", "a1", 2, ""), summary("s", "b", 2),
				user("u2", "s", "next", 3), asst("a2", "u2", "m2", 4),
			},
			leaf: "a2", path: "u1 a1 b s u2 a2", context: "b s u2 a2", leaves: "a2",
		},
		{
			// Suffix-preserving partial compaction: u2/a2 are kept after the
			// summary; the CLI parented the continuation on the summary.
			name: "compaction with preservedSegment",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u2", "a1", "keep me", 2), asst("a2", "u2", "m2", 3),
				boundary("b", "a2", 4, `"preservedSegment":{"headUuid":"u2","anchorUuid":"s","tailUuid":"a2"}`),
				summary("s", "b", 4),
				user("u3", "s", "next", 5), asst("a3", "u3", "m3", 6),
			},
			leaf: "a3", path: "u1 a1 b s u2 a2 u3 a3", context: "b s u2 a2 u3 a3", leaves: "a3",
		},
		{
			// The kept messages are the whole history: no entry is left
			// before the boundary to hang its junction from; it is drawn
			// where the conversation starts.
			name: "compaction that keeps every message before it",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				boundary("b", "a1", 2, `"preservedMessages":{"anchorUuid":"s","uuids":["u1","a1"]}`),
				summary("s", "b", 2),
				user("u3", "s", "next", 3), asst("a3", "u3", "m3", 4),
			},
			leaf: "a3", path: "b s u1 a1 u3 a3", leaves: "a3",
		},
		{
			name: "compaction with preservedMessages",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u2", "a1", "keep me", 2), asst("a2", "u2", "m2", 3),
				boundary("b", "a2", 4, `"preservedMessages":{"anchorUuid":"s","uuids":["u2","a2"]}`),
				summary("s", "b", 4),
				user("u3", "s", "next", 5), asst("a3", "u3", "m3", 6),
			},
			leaf: "a3", path: "u1 a1 b s u2 a2 u3 a3", context: "b s u2 a2 u3 a3", leaves: "a3",
		},
		{
			// A session resumed from a compacted one: its history is in
			// that one's file, as for a first entry whose parent is
			// elsewhere (a note, not a warning).
			name: "a file that starts at a compaction",
			lines: []string{
				boundary("b", "gone", 2, ""), summary("s", "b", 2),
				user("u2", "s", "next", 3), asst("a2", "u2", "m2", 4),
			},
			leaf: "a2", path: "b s u2 a2", leaves: "a2",
		},
		{
			name: "compaction whose history is missing",
			lines: []string{
				// a teammate's line first: of the file, not of its main conversation
				fmt.Sprintf(`{"type":"user","uuid":"tm","parentUuid":null,"teamName":"crew","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":"hi"}}`, ts(1)),
				boundary("b", "gone", 2, ""), summary("s", "b", 2),
				user("u2", "s", "next", 3), asst("a2", "u2", "m2", 4),
			},
			leaf: "a2", path: "b s u2 a2", leaves: "a2", warn: "logicalParentUuid gone is not in the file; the history before it is unreachable",
		},
		{
			name: "cycle",
			lines: []string{
				user("x1", "x2", "loop", 0), asst("x2", "x1", "m0", 1),
				user("u1", "", "hello", 2), asst("a1", "u1", "m1", 3),
			},
			leaf: "a1", path: "u1 a1", leaves: "a1", warn: "parentUuid cycle of 2 entries; the link from x1 to x2 is cut",
		},
		{
			// A hook's progress and summary lines sit between a reply and
			// the next prompt: the reply is the middle of its branch, not
			// an end (a real session: claude-code-log 03eb5929).
			name: "branches that go on through progress lines",
			lines: []string{
				user("u1", "", "one", 0), asst("a1", "u1", "m1", 1), hook("s1", "a1", 2),
				user("uA", "s1", "first try", 3), asst("aA", "uA", "m2", 4), progress("pA", "aA", 5), hook("sA", "pA", 6),
				// A response in two lines: covering the branch from its end
				// must walk on above the line it reaches first.
				user("uA2", "sA", "more", 7), asst("aA2a", "uA2", "m3", 8), asst("aA2", "aA2a", "m3", 8), progress("pA2", "aA2", 9), hook("sA2", "pA2", 10),
				user("uB", "s1", "second try", 11), asst("aB", "uB", "m4", 12),
			},
			leaf: "aB", path: "u1 a1 s1 uB aB", leaves: "aA2 aB", forks: "s1",
		},
		{
			// Damage written after the conversation does not end it: a
			// branch from a cut cycle is listed with the cycles.
			name: "cycle after the conversation",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("x1", "x2", "loop", 2), user("x2", "x1", "loop 2", 3),
			},
			leaf: "a1", path: "u1 a1", leaves: "a1", warn: "parentUuid cycle of 2 entries; the link from x1 to x2 is cut",
		},
		{
			// The conversation goes on under the damaged entry: it is
			// conversation like any other, and its end is the leaf.
			name: "an entry names itself, and the conversation goes on under it",
			lines: []string{user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1), user("u2", "a1", "more", 2),
				asst("a2", "a2", "m2", 3), user("u3", "a2", "on", 4), asst("a3", "u3", "m3", 5)},
			leaf: "a3", path: "a2 u3 a3", leaves: "u2 a3", warn: "names itself as parent",
		},
		{
			name:  "last entry names itself",
			lines: []string{user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1), user("u2", "a1", "more", 2), asst("a2", "a2", "m2", 3)},
			leaf:  "u2", path: "u1 a1 u2", leaves: "u2", warn: "names itself as parent",
		},
		{
			name:  "self parent",
			lines: []string{user("u1", "u1", "me", 0), asst("a1", "u1", "m1", 1)},
			leaf:  "a1", path: "u1 a1", leaves: "a1", warn: "names itself as parent",
		},
		{
			// A line Claude Code never wrote: the conversation goes on from
			// the entry before it in the file, and show loses nothing.
			name: "a lost parent line is bridged to the entry before it",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u5", "missing", "orphan", 5), asst("a5", "u5", "m5", 6),
			},
			leaf: "a5", path: "u1 a1 u5 a5", leaves: "a5", warn: "entry u5 names parent missing, which is not in the file (a line was lost): linked to a1, the entry before it",
		},
		{
			// Auto-compaction in the middle of a tool turn: the Write call
			// is written, its result never is; a hook's progress line and
			// the boundary both name the lost result. The history before
			// the compaction stays on the path: show loses no prompt.
			name: "a compaction whose logical parent was never written",
			lines: []string{
				user("u1", "", "write it", 0), asst("a1", "u1", "m1", 1, "toolu_W"),
				progress("p1", "r-lost", 2),
				boundary("b1", "r-lost", 3, ""), summary("s1", "b1", 4),
				user("u2", "s1", "go on", 5), asst("a2", "u2", "m2", 6),
			},
			leaf: "a2", path: "u1 a1 p1 b1 s1 u2 a2", context: "b1 s1 u2 a2", leaves: "a2",
			warn: "compaction boundary b1: logicalParentUuid r-lost is not in the file; the history before it is linked to p1, the entry before the boundary",
		},
		{
			// A resumed or continued session: its first entry's parent is
			// in the session it continues. Nothing is lost: no warning.
			name: "a first entry whose parent is in another file starts the session",
			lines: []string{
				user("u5", "elsewhere", "go on", 5), asst("a5", "u5", "m5", 6),
				user("u6", "a5", "and then", 7), asst("a6", "u6", "m6", 8),
			},
			leaf: "a6", path: "u5 a5 u6 a6", leaves: "a6",
		},
		{
			name: "duplicate uuid",
			lines: []string{
				user("u1", "", "hello", 0), asst("a1", "u1", "m1", 1),
				user("u2", "a1", "again", 2),
				asst("a1", "u1", "m9", 3), // same uuid: this later line wins
			},
			leaf: "u2", path: "u1 a1 u2", leaves: "u2", warn: "duplicate uuid a1 (also line 2): the later line wins",
		},
		{
			name:  "no conversation",
			lines: []string{`{"type":"summary","summary":"x","leafUuid":"u9"}`, progress("p1", "", 0)},
			leaf:  "", path: "", leaves: "",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, stderr := build(t, tc.lines...)
			leaf := ""
			if tr.Leaf != nil {
				leaf = tr.Leaf.UUID
			}
			if leaf != tc.leaf {
				t.Errorf("leaf = %q, want %q", leaf, tc.leaf)
			}
			if got := uuids(tr.ActivePath()); got != tc.path {
				t.Errorf("ActivePath = %q, want %q", got, tc.path)
			}
			wantCtx := tc.context
			if wantCtx == "" {
				wantCtx = tc.path
			}
			if got := uuids(tr.Context()); got != wantCtx {
				t.Errorf("Context = %q, want %q", got, wantCtx)
			}
			if got := uuids(tr.Leaves()); got != tc.leaves {
				t.Errorf("Leaves = %q, want %q", got, tc.leaves)
			}
			if got := uuids(tr.Forks()); got != tc.forks {
				t.Errorf("Forks = %q, want %q", got, tc.forks)
			}
			if tc.warn == "" && stderr != "" {
				t.Errorf("unexpected warnings:\n%s", stderr)
			}
			if tc.warn != "" && !strings.Contains(stderr, tc.warn) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.warn)
			}
			for _, n := range tr.ActivePath() {
				if !n.Active {
					t.Errorf("%s on the path is not marked Active", n.UUID)
				}
			}
			// tree draws the whole active path: every node of it is in a
			// run the drawing reaches (across forks and junctions).
			drawn := map[*Node]bool{}
			for _, n := range drawnRuns(tr) {
				drawn[n] = true
			}
			for _, n := range tr.ActivePath() {
				if !drawn[n] {
					t.Errorf("%s is on the active path, but in no run tree draws", n.UUID)
				}
			}
			// A big file is read in pieces, in parallel: the same file cut
			// every few lines must give the same tree and warnings.
			if got, want := inPieces(t, tc.lines), shape(tr, stderr); got != want {
				t.Errorf("read in pieces:\n%s\nread whole:\n%s", got, want)
			}
		})
	}
}

// drawnRuns walks the Layout as cctx tree draws it, from each start
// through real forks' branches and compaction junctions, and returns
// every node of every run it reaches.
func drawnRuns(tr *Tree) []*Node {
	l := tr.Layout()
	var out []*Node
	todo := append([]*Node(nil), tr.Starts()...)
	seen := map[*Node]bool{}
	for len(todo) > 0 {
		cur := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[cur] {
			continue
		}
		seen[cur] = true
		r := l.Run(cur)
		out = append(out, r.Nodes...)
		if r.End.Fork {
			starts, _ := l.Branches(r.End)
			todo = append(todo, starts...)
		}
		if r.Next != nil {
			todo = append(todo, r.Next)
		}
	}
	return out
}

// inPieces loads lines from a file cut into pieces of 100 bytes.
func inPieces(t *testing.T, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old int64) { pieceBytes = old }(pieceBytes)
	pieceBytes = 100
	var stderr bytes.Buffer
	tr, err := LoadFiles(path, nil, diag.New(&stderr, false, false))
	if err != nil {
		t.Fatal(err)
	}
	return shape(tr, strings.ReplaceAll(stderr.String(), path, "test.jsonl"))
}

// shape is what a tree says: every node with its line, offset and parent,
// every line a counter sees, the leaf, and the warnings.
func shape(tr *Tree, stderr string) string {
	var b strings.Builder
	for _, n := range tr.Nodes {
		p := ""
		if n.Parent != nil {
			p = n.Parent.UUID
		}
		fmt.Fprintf(&b, "%s@%d+%d<%s ", n.UUID, n.Line, n.Offset, p)
	}
	tr.Entries(nil, func(_ *File, e *reader.Entry) { fmt.Fprintf(&b, "e%d ", e.Line) })
	if tr.Leaf != nil {
		fmt.Fprintf(&b, "leaf %s ", tr.Leaf.UUID)
	}
	return b.String() + "session " + tr.SessionID + "\n" + stderr
}

// Entries gives a token counter every line it would count, in file order:
// the nodes, plus the assistant lines with usage that have no uuid and the
// lines that lost to a later duplicate uuid (not nodes, still API calls).
func TestEntriesKeepLinesThatAreNotNodes(t *testing.T) {
	noUUID := `{"type":"assistant","sessionId":"s1","message":{"id":"m7","role":"assistant","model":"m","content":[],"usage":{"input_tokens":3,"output_tokens":4}}}`
	tr, _ := build(t,
		user("u1", "", "hello", 0),         // line 1
		asst("a1", "u1", "m1", 1),          // line 2: loses to line 6
		noUUID,                             // line 3
		`{"type":"summary","summary":"x"}`, // line 4: no uuid, no usage
		user("u2", "a1", "again", 2),       // line 5
		asst("a1", "u1", "m9", 3),          // line 6
		`{"type":"user","sessionId":"s1","message":{"role":"user","content":"no uuid"}}`, // line 7
	)
	var got []string
	tr.Entries(nil, func(f *File, e *reader.Entry) {
		if f != tr.Main {
			t.Errorf("line %d: file %v", e.Line, f.Name)
		}
		got = append(got, fmt.Sprintf("%d:%s", e.Line, e.MessageID))
	})
	if want := "1: 2:m1 3:m7 5: 6:m9"; strings.Join(got, " ") != want {
		t.Errorf("Entries = %q, want %q", strings.Join(got, " "), want)
	}
	if n := len(tr.Main.Dropped); n != 2 {
		t.Errorf("%d dropped lines, want 2", n)
	}
	// The nodes skip names are left out; the lines that are not nodes
	// never are, and stay in file order.
	for _, tc := range []struct {
		name string
		skip func(*Node) bool
		want string
	}{
		{"none", func(*Node) bool { return false }, "1: 2:m1 3:m7 5: 6:m9"},
		{"users", func(n *Node) bool { return n.Type == "user" }, "2:m1 3:m7 6:m9"},
		{"every node", func(*Node) bool { return true }, "2:m1 3:m7"},
	} {
		got = got[:0]
		tr.Entries(tc.skip, func(_ *File, e *reader.Entry) { got = append(got, fmt.Sprintf("%d:%s", e.Line, e.MessageID)) })
		if strings.Join(got, " ") != tc.want {
			t.Errorf("skip %s: Entries = %q, want %q", tc.name, strings.Join(got, " "), tc.want)
		}
	}
}

// The main file's start and cwd are those of its first line, in line
// order, that has one (any line, in the DAG or not): the session's start
// and project, as ls reads them from the head. Read whole or in pieces.
func TestMainFileStartAndCWD(t *testing.T) {
	lines := []string{
		`{"type":"summary","summary":"before","leafUuid":"x"}`,
		`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-01-01T11:00:00.500Z","sessionId":"s1"}`,
		user("u1", "", "hello", 0), // 10:00:00, earlier, no cwd
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","cwd":"/w/app","timestamp":"2026-01-01T10:00:01Z","message":{"id":"m1","role":"assistant","content":[]}}`,
		`{"type":"user","uuid":"u2","parentUuid":"a1","cwd":"/w/other","timestamp":"2026-01-01T10:00:02Z","message":{"role":"user","content":"next"}}`,
	}
	want := time.Date(2026, 1, 1, 11, 0, 0, 500e6, time.UTC)
	whole, _ := build(t, lines...)
	if !whole.Main.Started.Equal(want) || whole.Main.CWD != "/w/app" {
		t.Errorf("read whole: started %v cwd %q, want %v /w/app", whole.Main.Started, whole.Main.CWD, want)
	}
	path := filepath.Join(t.TempDir(), "test.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(old int64) { pieceBytes = old }(pieceBytes)
	pieceBytes = 100
	cut, err := LoadFiles(path, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !cut.Main.Started.Equal(want) || cut.Main.CWD != "/w/app" {
		t.Errorf("read in pieces: started %v cwd %q, want %v /w/app", cut.Main.Started, cut.Main.CWD, want)
	}
}

func TestIslandsAndCyclesAreListed(t *testing.T) {
	// An island of the main conversation would be bridged (see TestRules):
	// this one is an inline sidechain whose parent is lost.
	side := `{"type":"user","uuid":"o1","parentUuid":"missing","isSidechain":true,"sessionId":"s1","timestamp":"` + ts(1) + `","message":{"role":"user","content":"orphan"}}`
	tr, _ := build(t,
		user("u1", "", "hello", 0),
		side, strings.Replace(asst("o2", "o1", "m2", 2), `"type":"assistant",`, `"type":"assistant","isSidechain":true,`, 1),
		user("x1", "x2", "loop", 3), asst("x2", "x1", "m3", 4),
	)
	if len(tr.Islands) != 1 || tr.Islands[0].Root.UUID != "o1" || tr.Islands[0].Size != 2 || tr.Islands[0].Missing != "missing" {
		t.Errorf("islands = %+v", tr.Islands)
	}
	if len(tr.Cycles) != 1 || tr.Cycles[0].Node.UUID != "x1" || tr.Cycles[0].Members != 2 {
		t.Errorf("cycles = %+v", tr.Cycles)
	}
	if got := uuids(tr.Roots); got != "u1 x1" { // a sidechain is no root of the main conversation
		t.Errorf("roots = %q", got)
	}
}

// A 100 000-entry chain is built, walked and sized without recursion: the
// goroutine stack is capped far below what one frame per entry would need.
func TestLongChainNoRecursion(t *testing.T) {
	const n = 100000
	var b strings.Builder
	parent := ""
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("n%06d", i)
		if i%2 == 0 {
			b.WriteString(user(id, parent, "p", i%3600))
		} else {
			b.WriteString(asst(id, parent, fmt.Sprintf("m%d", i), i%3600))
		}
		b.WriteByte('\n')
		parent = id
	}
	old := debug.SetMaxStack(1 << 20)
	defer debug.SetMaxStack(old)
	tr, err := Read(strings.NewReader(b.String()), "long.jsonl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tr.ActivePath()); got != n {
		t.Fatalf("path has %d entries, want %d", got, n)
	}
	if tr.Leaf.UUID != parent || len(tr.Leaves()) != 1 || subtreeSize(tr.Roots[0]) != n {
		t.Errorf("leaf %s, %d leaves", tr.Leaf.UUID, len(tr.Leaves()))
	}
}

func writeFile(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Subagent files are linked under the tool call that spawned them: by the
// meta.json sidecar, by toolUseResult.agentId; a compaction agent under
// its boundary; an agent nothing names stays unlinked.
func TestFileAgents(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	spawn := func(id, parent, tool, desc string, sec int) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"%s","message":{"id":"m-%s","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Agent","input":{"description":"%s","subagent_type":"Explore","prompt":"look"}}]}}`, id, parent, ts(sec), id, tool, desc)
	}
	agentResult := func(id, parent, tool, agent string, sec int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"ok"}]},"toolUseResult":{"agentId":"%s","totalTokens":5}}`, id, parent, ts(sec), tool, agent)
	}
	writeFile(t, main,
		user("u1", "", "start", 0),
		spawn("a1", "u1", "toolu_1", "by result", 1),
		agentResult("r1", "a1", "toolu_1", "aaa", 5),
		spawn("a2", "r1", "toolu_2", "by meta", 6),
		result("r2", "a2", "toolu_2", 9),
		asst("a3", "r2", "m3", 10),
		boundary("b", "a3", 12, ""), summary("s", "b", 12),
	)
	agentLine := func(id, parent, agent string, sec int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s",%s,"isSidechain":true,"agentId":"%s","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":"look"}}`, id, parentField(parent), agent, ts(sec))
	}
	sub := filepath.Join(dir, "s1", "subagents")
	writeFile(t, filepath.Join(sub, "agent-aaa.jsonl"), agentLine("x1", "", "aaa", 2), asst("x2", "x1", "mx", 3))
	writeFile(t, filepath.Join(sub, "agent-bbb.jsonl"), agentLine("y1", "", "bbb", 7))
	writeFile(t, filepath.Join(sub, "agent-bbb.meta.json"), `{"agentType":"Plan","description":"from meta","toolUseId":"toolu_2"}`)
	writeFile(t, filepath.Join(sub, "agent-acompact-1.jsonl"), agentLine("z1", "a3", "acompact-1", 11))
	writeFile(t, filepath.Join(dir, "agent-ccc.jsonl"), agentLine("w1", "", "ccc", 1))

	s := &session.Session{ID: "s1", Path: main, ProjectDir: dir}
	agents := session.NewFinder(nil, nil).Agents(s)
	if len(agents) != 3 { // the flat agent-ccc names session s1 too
		t.Logf("agents listed: %+v", agents)
	}
	tr, err := Load(session.NewFinder(nil, nil), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"aaa": "a1 toolUseResult Explore by result", "bbb": "a2 meta.json Plan from meta", "acompact-1": "b compaction compaction ", "ccc": "  "}
	for id, w := range want {
		a := tr.AgentByID(id)
		if a == nil {
			t.Errorf("agent %s not loaded", id)
			continue
		}
		sp := ""
		if a.Spawn != nil {
			sp = a.Spawn.UUID
		}
		if got := strings.Join([]string{sp, a.LinkedBy, a.Type, a.Description}, " "); got != w && !(id == "ccc" && a.Spawn == nil) {
			t.Errorf("agent %s: %q, want %q", id, got, w)
		}
	}
	if a := tr.AgentByID("aaa"); a != nil && (a.Result == nil || a.Result.UUID != "r1" || a.Leaf.UUID != "x2") {
		t.Errorf("agent aaa result/leaf wrong: %+v", a)
	}
	if len(tr.Islands) != 0 {
		t.Errorf("a compaction agent's link into the main file is not an island: %+v", tr.Islands[0].Root.UUID)
	}
}

// A 2.0.x warm-up agent (first prompt "Warmup", no call) is a warm-up, not
// an agent that failed to link; an unlinked agent with another prompt is
// not a warm-up.
func TestWarmupAgents(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	writeFile(t, main, user("u1", "", "start", 0), asst("a1", "u1", "m1", 1))
	agentLine := func(id, agent, text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s","parentUuid":null,"isSidechain":true,"agentId":"%s","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":%q}}`, id, agent, ts(0), text)
	}
	writeFile(t, filepath.Join(dir, "agent-www.jsonl"), agentLine("w1", "www", "Warmup"), asst("w2", "w1", "mw", 1))
	writeFile(t, filepath.Join(dir, "agent-nnn.jsonl"), agentLine("n1", "nnn", "  Warmup\n"))
	writeFile(t, filepath.Join(dir, "agent-ooo.jsonl"), agentLine("o1", "ooo", "look around"))
	tr, err := Load(session.NewFinder(nil, nil), &session.Session{ID: "s1", Path: main, ProjectDir: dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"www": "true warmup", "nnn": "true warmup", "ooo": "false "} {
		a := tr.AgentByID(id)
		if a == nil {
			t.Errorf("agent %s not loaded", id)
			continue
		}
		if got := fmt.Sprint(a.Warmup, " ", a.Type); got != want || a.Spawn != nil {
			t.Errorf("agent %s: warm-up, type = %q, want %q (spawn %v)", id, got, want, a.Spawn)
		}
	}
}

// An agent's first prompt is its first user line that is not a tool
// result: the one rule the linker, the warm-up test and cctx agents read.
func TestAgentFirstPrompt(t *testing.T) {
	line := func(typ, id, parent, content string) string {
		return fmt.Sprintf(`{"type":%q,"uuid":"%s",%s,"isSidechain":true,"agentId":"aaa","sessionId":"s1","timestamp":"%s","message":{"role":%q,"content":%s}}`, typ, id, parentField(parent), ts(1), typ, content)
	}
	result := `[{"type":"tool_result","tool_use_id":"toolu_9","content":"ok"}]`
	cases := []struct {
		name  string
		lines []string
		want  string // its uuid, "" for none
	}{
		{"the first line", []string{line("user", "x1", "", `"look"`), line("user", "x2", "x1", `"again"`)}, "x1"},
		{"after an assistant line", []string{line("assistant", "x1", "", `[{"type":"text","text":"hi"}]`), line("user", "x2", "x1", `"look"`)}, "x2"},
		{"a tool result is no prompt", []string{line("user", "x1", "", result), line("user", "x2", "x1", `[{"type":"text","text":"look"}]`)}, "x2"},
		{"none", []string{line("user", "x1", "", result), line("assistant", "x2", "x1", `[{"type":"text","text":"hi"}]`)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			main := filepath.Join(dir, "s1.jsonl")
			writeFile(t, main, user("u1", "", "start", 0))
			agent := filepath.Join(dir, "s1", "subagents", "agent-aaa.jsonl")
			writeFile(t, agent, tc.lines...)
			tr, err := LoadFiles(main, []session.Agent{{ID: "aaa", Path: agent}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if n := tr.AgentByID("aaa").FirstPrompt(); n != nil {
				got = n.UUID
			}
			if got != tc.want {
				t.Errorf("first prompt %q, want %q", got, tc.want)
			}
		})
	}
}

// Inline sidechains (≤1.0.x) are linked by their first prompt: the one
// call that sent it exactly. Never by time: a sidechain whose prompt no
// call sent stays unlinked, in every command.
func TestInlineSidechains(t *testing.T) {
	task := func(id, parent, tool, prompt string, sec int) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"%s","message":{"id":"m-%s","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Task","input":{"description":"d-%s","prompt":%q}}]}}`, id, parent, ts(sec), id, tool, tool, prompt)
	}
	side := func(id, parent, text string, sec int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s",%s,"isSidechain":true,"sessionId":"s1","timestamp":"%s","message":{"role":"user","content":%q}}`, id, parentField(parent), ts(sec), text)
	}
	tr, _ := build(t,
		user("u1", "", "start", 0),
		task("t1", "u1", "toolu_A", "Check the package", 1),
		task("t2", "t1", "toolu_B", "Something else entirely", 2),
		side("s1", "", "Analyze structure", 3), // no Task has this prompt: not linked
		result("r1", "t2", "toolu_A", 4),
		side("s2", "", "Check the package", 5), // prompt match → toolu_A, though toolu_B is later
		side("s3", "s2", "and more", 6),
		result("r2", "r1", "toolu_B", 7),
	)
	got := map[string]string{}
	for _, a := range tr.Agents {
		sp := ""
		if a.Spawn != nil {
			sp = a.ToolUseID
		}
		got[a.ID] = sp + " " + a.LinkedBy + " " + fmt.Sprint(len(a.Nodes))
	}
	want := map[string]string{"sidechain-s1": "  1", "sidechain-s2": "toolu_A prompt 2"}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("agent %s = %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
	if tr.Leaf == nil || tr.Leaf.UUID != "r2" {
		t.Errorf("leaf = %v, want r2 (sidechain lines are never the main leaf)", tr.Leaf)
	}
}

// corpusDir holds the real corpus folders (testcorpus.Folders: the shared
// corpus when it is beside the repository, else the copies in testdata).
func corpusDir(t *testing.T) string {
	return filepath.Dir(testcorpus.Folders()[0])
}

// On every real session: every tool_use on the active path has its
// tool_result on the path when the file has one, every line of a
// message.id on the path is on it, and no node appears twice.
func TestCorpusActivePathInvariants(t *testing.T) {
	dir := corpusDir(t)
	folders, _ := os.ReadDir(dir)
	checked := 0
	for _, fo := range folders {
		if !fo.IsDir() || fo.Name() == "codex" {
			continue
		}
		finder := session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(dir, fo.Name())}}, nil)
		for _, s := range finder.Sessions() {
			tr, err := Load(finder, s, nil)
			if err != nil {
				t.Errorf("%s: %v", s.Path, err)
				continue
			}
			checked++
			seen := map[*Node]bool{}
			for _, n := range tr.ActivePath() {
				if seen[n] {
					t.Errorf("%s: %s twice on the active path", s.ID, n.UUID)
				}
				seen[n] = true
			}
			for _, n := range tr.ActivePath() {
				for _, tu := range n.ToolUses() {
					rs := tr.ResultNodes(tu.ID)
					ok := len(rs) == 0
					for _, r := range rs {
						ok = ok || seen[r]
					}
					if !ok {
						t.Errorf("%s: tool_use %s on the path (line %d) has its result off the path", s.ID, tu.ID, n.Line)
					}
				}
				if n.Type == "assistant" && n.MessageID != "" {
					for _, m := range tr.msgLines(nil, n) {
						if !seen[m] {
							t.Errorf("%s: line %d of message %s is off the path", s.ID, m.Line, n.MessageID)
						}
					}
				}
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d sessions checked", checked)
	}
}

// The rewind session of kfischer-claude-history: three branches at one
// fork, three leaves, the Task agent linked.
func TestCorpusRewind(t *testing.T) {
	dir := corpusDir(t)
	finder := session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(dir, "kfischer-claude-history")}}, nil)
	s, err := finder.Resolve("b3edadab-bca0-4054-9b41-f7ffa6941260")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Load(finder, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := tr.Forks(); len(f) != 1 || f[0].Short() != "8fe00b4a" {
		t.Errorf("forks = %s", uuids(f))
	}
	var leaves []string
	for _, l := range tr.Leaves() {
		leaves = append(leaves, l.Short())
	}
	if got := strings.Join(leaves, " "); got != "51be2f36 39a76b25 38842167" {
		t.Errorf("leaves = %s", got)
	}
	if a := tr.AgentByID("a434715"); a == nil || a.Spawn == nil || a.Spawn.Short() != "a1e5c40e" {
		t.Errorf("Task agent not linked under its call: %+v", a)
	}
}

// failingReader gives its text, then an error instead of the end.
type failingReader struct{ r io.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("device gone")
	}
	return n, err
}

// A main file that fails midway is an error, but what was read before is
// still said: its warnings come before the error.
func TestAReadErrorStillSaysWhatWasRead(t *testing.T) {
	in := strings.Join([]string{user("u1", "", "hi", 0), user("u1", "", "again", 1)}, "\n") + "\n"
	var stderr bytes.Buffer
	_, err := Read(&failingReader{strings.NewReader(in)}, "test.jsonl", diag.New(&stderr, false, false))
	if err == nil || !strings.Contains(err.Error(), "device gone") {
		t.Errorf("err = %v", err)
	}
	if !strings.Contains(stderr.String(), "duplicate uuid") {
		t.Errorf("stderr %q: the duplicate read before the error is not said", stderr.String())
	}
}

// The same agent in both layouts (a copied folder) is one agent, drawn
// once: the subagents/ file is read and the other is reported.
func TestAnAgentInTwoLayoutsIsOneAgent(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	writeFile(t, main, user("u1", "", "start", 0))
	line := `{"type":"user","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"aaa","sessionId":"s1","timestamp":"` + ts(1) + `","message":{"role":"user","content":"look"}}`
	nested := filepath.Join(dir, "s1", "subagents", "agent-aaa.jsonl")
	writeFile(t, nested, line)
	writeFile(t, filepath.Join(dir, "agent-aaa.jsonl"), line)
	var stderr bytes.Buffer
	tr, err := Load(session.NewFinder(nil, nil), &session.Session{ID: "s1", Path: main, ProjectDir: dir}, diag.New(&stderr, false, false))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Agents) != 1 || tr.Agents[0].File.Path != nested {
		t.Fatalf("agents %d, want the one in subagents/", len(tr.Agents))
	}
	if !strings.Contains(stderr.String(), "a second transcript for agent aaa; reading "+nested+" only") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// A result that names an agent whose transcript is not there is said, as
// cctx agents says it; an unsafe id is never looked up.
func TestResultsNamingAMissingAgentAreReported(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	res := func(id, parent, tool, agent string, sec int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"ok"}]},"toolUseResult":{"agentId":%q,"totalTokens":5}}`, id, parent, ts(sec), tool, agent)
	}
	writeFile(t, main, user("u1", "", "start", 0), spawn("a1", "u1", "m1", 1, "toolu_1", "toolu_2"),
		res("r1", "a1", "toolu_1", "zzz", 2), res("r2", "r1", "toolu_2", "../x", 3))
	var stderr bytes.Buffer
	if _, err := Load(session.NewFinder(nil, nil), &session.Session{ID: "s1", Path: main, ProjectDir: dir}, diag.New(&stderr, false, false)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		main + ":3: the Agent/Task result names agent zzz, but no transcript agent-zzz.jsonl was found",
		main + `:4: the Agent/Task result names agentId "../x", which cannot be a file name`,
	} {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("no warning %q in %q", w, stderr.String())
		}
	}
}

// Call.Unlinked is the warning the tree said of the agent a result names
// (the one cctx agents repeats), on the first call naming it only; from
// standard input the tree says nothing, and keeps what is said of it by
// the commands that report on agents.
func TestCallUnlinkedIsTheWarningSaid(t *testing.T) {
	res := func(id, parent, tool, agent string, sec int) string {
		return fmt.Sprintf(`{"type":"user","uuid":"%s","parentUuid":"%s","sessionId":"s1","timestamp":"%s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"ok"}]},"toolUseResult":{"agentId":%q}}`, id, parent, ts(sec), tool, agent)
	}
	lines := []string{user("u1", "", "start", 0), spawn("a1", "u1", "m1", 1, "toolu_1", "toolu_2", "toolu_3"),
		res("r1", "a1", "toolu_1", "zzz", 2), res("r2", "r1", "toolu_2", "zzz", 3), res("r3", "r2", "toolu_3", "../x", 4)}
	cases := []struct {
		name  string
		stdin bool
		want  []string // each call's Unlinked, "" for nil
		said  bool     // said on stderr, and kept in Tree.Warnings
	}{
		{"from a file", false, []string{
			":3: the Agent/Task result names agent zzz, but no transcript agent-zzz.jsonl was found",
			"",
			`:5: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`}, true},
		{"from standard input", true, []string{
			":3: the Agent/Task result names agent zzz, whose transcript is not read from standard input (name the session, not -, to read it)",
			"",
			`:5: the Agent/Task result names agentId "../x", which cannot be a file name: its transcript was not looked up`}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			main := filepath.Join(t.TempDir(), "s1.jsonl")
			writeFile(t, main, lines...)
			var stderr bytes.Buffer
			rep := diag.New(&stderr, false, false)
			var tr *Tree
			var err error
			name := main
			if tc.stdin {
				name = "<stdin>"
				tr, err = Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), name, rep)
			} else {
				tr, err = LoadFiles(main, nil, rep)
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, warned, said []string
			for _, c := range tr.Calls {
				w := ""
				if c.Unlinked != nil {
					w = strings.TrimPrefix(c.Unlinked.String(), name)
					if tc.said {
						warned = append(warned, c.Unlinked.String())
						said = append(said, "cctx: warning: "+c.Unlinked.String())
					}
				}
				got = append(got, w)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("Unlinked %q, want %q", got, tc.want)
			}
			var inTree []string
			for _, w := range tr.Warnings {
				inTree = append(inTree, w.String())
			}
			if !slices.Equal(inTree, warned) {
				t.Errorf("Tree.Warnings %q, want %q", inTree, warned)
			}
			if out := strings.Split(strings.TrimSpace(stderr.String()), "\n"); stderr.Len() > 0 || len(said) > 0 {
				if !slices.Equal(out, said) {
					t.Errorf("said %q, want %q", out, said)
				}
			}
		})
	}
}

// An agent file that cannot be read is reported as such, not also as a
// transcript not found.
func TestAnUnreadableAgentFileIsNotAlsoMissing(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "s1.jsonl")
	res := `{"type":"user","uuid":"r1","parentUuid":"a1","sessionId":"s1","timestamp":"` + ts(2) + `","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]},"toolUseResult":{"agentId":"zzz","totalTokens":5}}`
	writeFile(t, main, user("u1", "", "start", 0), spawn("a1", "u1", "m1", 1, "toolu_1"), res)
	var stderr bytes.Buffer
	gone := filepath.Join(dir, "s1", "subagents", "agent-zzz.jsonl") // listed, then gone
	tr, err := LoadFiles(main, []session.Agent{{ID: "zzz", Path: gone}}, diag.New(&stderr, false, false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), gone) || strings.Contains(stderr.String(), "no transcript agent-zzz.jsonl was found") {
		t.Errorf("stderr %q", stderr.String())
	}
	if len(tr.Unreadable) != 1 || tr.Unreadable[0] != gone {
		t.Errorf("Unreadable %v", tr.Unreadable)
	}
}

// TestOpenWithSeesTheLines: OpenWith's also runs while the links are
// made and sees what the lines say as Open's tree says it after: the
// session id, and every line's envelope through Entries (the race
// detector checks that it reads nothing the links write).
func TestOpenWithSeesTheLines(t *testing.T) {
	dir := corpusDir(t)
	folders, _ := os.ReadDir(dir)
	lines := func(tr *Tree) string {
		var b strings.Builder
		tr.Entries(nil, func(f *File, e *reader.Entry) { fmt.Fprintf(&b, "%s %+v\n", f.Path, *e) })
		return b.String()
	}
	checked := 0
	for _, fo := range folders {
		if !fo.IsDir() || fo.Name() == "codex" {
			continue
		}
		finder := session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(dir, fo.Name())}}, nil)
		for _, s := range finder.Sessions() {
			var during, id string
			open := OpenWith(func(tr *Tree) { during, id = lines(tr), tr.SessionID })
			tr, err := open(finder, s, nil, nil)
			if err != nil {
				t.Errorf("%s: %v", s.Path, err)
				continue
			}
			if after := lines(tr); during != after || id != tr.SessionID {
				t.Errorf("%s: also saw session %q and\n%s\nthe tree says %q and\n%s", s.Path, id, during, tr.SessionID, after)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("%d sessions checked", checked)
	}
}

// A main file none of whose lines is Claude Code's (a text file, another
// program's JSONL) is found to be that (Tree.NotTranscript, the error of
// a command that shows it, not also a warning), with a hint for a Codex
// rollout; a file of Claude Code's lines of any kind, or an empty one,
// is not.
func TestAFileThatIsNotATranscriptIsSaid(t *testing.T) {
	const not = "test.jsonl: none of its "
	tests := []struct {
		name  string
		lines []string
		want  string // "" none
	}{
		{"text", []string{"hello", "world"}, not + "2 line(s) is a Claude Code transcript entry"},
		{"other JSON", []string{`{"a":1}`, `[1,2]`, `{"type":"user"}`}, not + "3 line(s)"},
		{"a Codex rollout", []string{`{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}`, `{"type":"response_item","payload":{}}`}, "it looks like a Codex CLI rollout"},
		{"a conversation", []string{user("u1", "", "hi", 0)}, ""},
		{"summaries only", []string{`{"type":"summary","summary":"s","leafUuid":"x"}`}, ""},
		{"a title only", []string{`{"type":"custom-title","customTitle":"t","sessionId":"s1"}`}, ""},
		{"snapshots only", []string{`{"type":"file-history-snapshot","messageId":"m","snapshot":{}}`}, ""},
		{"deltas only", []string{`{"type":"file-history-delta","messageId":"m"}`}, ""},
		{"a line cut by a crash", []string{`{"type":"user","uuid":"u1","sessionId":"s","mess` + "\x00\x00\x00"}, ""},
		{"an odd value, one line", []string{`{"type":"user","uuid":123}`}, not + "1 line(s)"},
		{"garbage, then a line of Claude Code's", []string{"garbage", user("u1", "", "hi", 0)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, stderr := build(t, tt.lines...)
			switch {
			case strings.Contains(stderr, not):
				t.Errorf("said as a warning: %s", stderr)
			case tt.want == "" && tr.NotTranscript != "":
				t.Errorf("found of a transcript: %s", tr.NotTranscript)
			case tt.want != "" && !strings.Contains(tr.NotTranscript, tt.want):
				t.Errorf("NotTranscript %q, want %q", tr.NotTranscript, tt.want)
			case tt.want != "" && len(tr.Warnings) == 0:
				t.Error("not in Tree.Warnings")
			}
		})
	}
	if tr, _ := build(t); tr.NotTranscript != "" {
		t.Errorf("an empty file: %s", tr.NotTranscript)
	}
	// A session just begun: its first line not yet whole.
	var stderr bytes.Buffer
	if tr, err := Read(strings.NewReader(`{"type":"user","uuid":"u1","sessionId":"s1"`), "test.jsonl", diag.New(&stderr, true, false)); err != nil || tr.NotTranscript != "" {
		t.Errorf("a first line being written: %v %s", err, stderr.String())
	}
}

// What follows the active leaf without being conversation (a hook's
// summary, progress) trails it: on the active branch as it is drawn,
// though not on the path to the leaf; the same lines after a message of
// an abandoned branch do not.
func TestTrails(t *testing.T) {
	tr, _ := build(t,
		user("u1", "", "first", 0),
		asst("a1", "u1", "m1", 1),
		hook("h1", "a1", 2), // after a reply that was branched from
		user("u2", "a1", "second", 3),
		asst("a2", "u2", "m2", 4),
		hook("h2", "a2", 5),
		progress("p2", "h2", 6),
		user("u3", "a1", "third", 7),
		asst("a3", "u3", "m3", 8),
		hook("h3", "a3", 9),
		progress("p3", "h3", 10),
	)
	if tr.Leaf == nil || tr.Leaf.UUID != "a3" {
		t.Fatalf("leaf %v, want a3", tr.Leaf)
	}
	for id, want := range map[string]bool{"h3": true, "p3": true, "h2": false, "p2": false, "h1": false, "a3": false, "u1": false} {
		if got := tr.Trails(tr.byUUID.get(id)); got != want {
			t.Errorf("Trails(%s) = %v, want %v", id, got, want)
		}
	}
}
