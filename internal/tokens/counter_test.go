package tokens

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// asst writes an assistant line. Empty mid/rid leave the field out.
func asst(uuid, parent, mid, rid string, in, out, cw, cr int, extra string) string {
	id := ""
	if mid != "" {
		id = fmt.Sprintf(`"id":%q,`, mid)
	}
	req := ""
	if rid != "" {
		req = fmt.Sprintf(`"requestId":%q,`, rid)
	}
	par := "null"
	if parent != "" {
		par = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%s,%s"timestamp":"2026-01-01T00:00:00Z","sessionId":"s",%s"message":{%s"model":"claude-sonnet-4-5-20250929","role":"assistant","content":[],"usage":{"input_tokens":%d,"output_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d}}}`,
		uuid, par, extra, req, id, in, out, cw, cr)
}

func user(uuid, parent, text string) string {
	par := "null"
	if parent != "" {
		par = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%s,"sessionId":"s","message":{"role":"user","content":%q}}`, uuid, par, text)
}

type want struct {
	calls                 int
	input, output, cw, cr int64
}

func countLines(t *testing.T, files ...[]string) (*Counter, want) {
	t.Helper()
	c := NewCounter()
	for i, lines := range files {
		f := c.File(Source{SessionID: fmt.Sprintf("s%d", i), Path: fmt.Sprintf("f%d.jsonl", i)})
		r := reader.New(strings.NewReader(strings.Join(lines, "\n")+"\n"), reader.Options{})
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			f.Add(&e)
		}
	}
	var w want
	for _, r := range c.Responses() {
		w.calls++
		w.input += r.Usage.Input
		w.output += r.Usage.Output
		w.cw += r.Usage.CacheCreation
		w.cr += r.Usage.CacheRead
	}
	return c, w
}

func TestDedupRules(t *testing.T) {
	tests := []struct {
		name  string
		files [][]string
		want  want
	}{
		{"partial chunks of one response keep the final usage", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 1, 100, 1000, ""),
			asst("a2", "a1", "msg_1", "req_1", 3, 12, 100, 1000, ""),
			`{"type":"progress","uuid":"p1","parentUuid":"a2"}`,
			asst("a3", "a2", "msg_1", "req_1", 3, 250, 100, 1000, ""),
		}}, want{1, 3, 250, 100, 1000}},
		{"the final usage wins even when written first", [][]string{{
			asst("a3", "", "msg_1", "req_1", 3, 250, 100, 1000, ""),
			asst("a1", "a3", "msg_1", "req_1", 3, 1, 100, 1000, ""),
		}}, want{1, 3, 250, 100, 1000}},
		{"identical usage on two different responses counts twice", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
			asst("a2", "a1", "msg_2", "req_2", 3, 10, 100, 1000, ""),
		}}, want{2, 6, 20, 200, 2000}},
		{"missing requestId: message.id alone identifies the response", [][]string{{
			asst("a1", "", "msg_1", "", 3, 1, 100, 1000, ""),
			asst("a2", "a1", "msg_1", "", 3, 40, 100, 1000, ""),
			asst("a3", "a2", "msg_2", "", 5, 7, 0, 1100, ""),
		}}, want{2, 8, 47, 100, 2100}},
		{"requestId on some lines of a response only: still one response", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 1, 100, 1000, ""),
			asst("a2", "a1", "msg_1", "", 3, 40, 100, 1000, ""),
			asst("a3", "a2", "msg_1", "req_1", 3, 50, 100, 1000, ""),
		}}, want{1, 3, 50, 100, 1000}},
		{"a line without requestId first, then lines with it", [][]string{{
			asst("a1", "", "msg_1", "", 3, 1, 100, 1000, ""),
			asst("a2", "a1", "msg_1", "req_1", 3, 40, 100, 1000, ""),
		}}, want{1, 3, 40, 100, 1000}},
		{"same message.id with another requestId is another response", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
			asst("a2", "a1", "msg_1", "req_2", 3, 10, 100, 1000, ""),
		}}, want{2, 6, 20, 200, 2000}},
		{"missing message.id: consecutive identical usage is one response", [][]string{{
			asst("a1", "", "", "", 3, 10, 100, 1000, ""),
			asst("a2", "a1", "", "", 3, 10, 100, 1000, ""),
			user("u1", "a2", "next"),
			asst("a3", "u1", "", "", 4, 20, 0, 1110, ""),
			asst("a4", "a3", "", "", 3, 10, 100, 1000, ""),
		}}, want{3, 10, 40, 200, 3110}},
		{"a sidechain replay of a main response loses to the main copy", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
			asst("b1", "", "msg_1", "req_1", 3, 99, 100, 1000, `"isSidechain":true,`),
		}}, want{1, 3, 10, 100, 1000}},
		{"the main copy wins even when the replay comes first", [][]string{{
			asst("b1", "", "msg_1", "req_1", 3, 99, 100, 1000, `"isSidechain":true,`),
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
		}}, want{1, 3, 10, 100, 1000}},
		{"synthetic lines carry no tokens", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
			strings.Replace(asst("a2", "a1", "msg_2", "", 0, 0, 0, 0, ""), "claude-sonnet-4-5-20250929", "<synthetic>", 1),
		}}, want{1, 3, 10, 100, 1000}},
		{"an abandoned branch after a rewind was paid for", [][]string{{
			user("u1", "", "first try"),
			asst("a1", "u1", "msg_1", "req_1", 3, 10, 100, 1000, ""),
			user("u2", "", "second try"), // the rewind: a new prompt on the old parent
			asst("a2", "u2", "msg_2", "req_2", 4, 20, 0, 1100, ""),
		}}, want{2, 7, 30, 100, 2100}},
		{"corrupt lines in between do not lose the rest", [][]string{{
			asst("a1", "", "msg_1", "req_1", 3, 1, 100, 1000, ""),
			`{"type":"assistant","message":{"id":"msg_1","usa`,
			`garbage`,
			asst("a2", "a1", "msg_1", "req_1", 3, 50, 100, 1000, ""),
		}}, want{1, 3, 50, 100, 1000}},
		{"a resumed session replaying another file counts once", [][]string{
			{asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, "")},
			{asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""), asst("a2", "a1", "msg_2", "req_2", 1, 5, 0, 1100, "")},
		}, want{2, 4, 15, 100, 2100}},
		{"lines without usage are ignored", [][]string{{
			`{"type":"assistant","uuid":"x","message":{"id":"msg_9","content":[]}}`,
			asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""),
		}}, want{1, 3, 10, 100, 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, got := countLines(t, tt.files...)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			// Build reads each session into a counter of its own and
			// merges them in order: the same rule must give the same rows.
			merged := NewCounter()
			merged.name("a name the others do not have, so that indices differ")
			for i, lines := range tt.files {
				one, _ := countLines(t, lines)
				for j := range int32(one.rows.len()) { // as if read under its own name
					one.rows.at(j).session, one.rows.at(j).file = one.name(fmt.Sprintf("s%d", i)), one.name(fmt.Sprintf("f%d.jsonl", i))
				}
				merged.Merge(one)
			}
			if a, b := fmt.Sprintf("%+v", c.Responses()), fmt.Sprintf("%+v", merged.Responses()); a != b {
				t.Errorf("merged counters differ from one counter:\n one %s\nmerged %s", a, b)
			}
		})
	}
}

// A Counter keeps its rows in blocks; a response whose lines are far apart
// (its first line in the first block, its last in the third) is still one.
func TestResponsesAcrossRowBlocks(t *testing.T) {
	var lines []string
	n := 2*rowBlock + 500
	for i := range n {
		lines = append(lines, asst(fmt.Sprint("a", i), "", fmt.Sprint("msg_", i), fmt.Sprint("req_", i), 1, 1, 0, 0, ""))
	}
	// The final usage of the first responses, and a line without
	// requestId for one of them, come last.
	for i := range 10 {
		lines = append(lines, asst(fmt.Sprint("b", i), "", fmt.Sprint("msg_", i), fmt.Sprint("req_", i), 1, 5, 0, 0, ""))
	}
	lines = append(lines, asst("c", "", "msg_3", "", 1, 9, 0, 0, ""))
	_, got := countLines(t, lines)
	if want := (want{n, int64(n), int64(n + 10*4 + 4), 0, 0}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestAReplayedLineBelongsToTheSessionItNames(t *testing.T) {
	// The resumed file (s1) replays msg_1 keeping its sessionId "s0": it
	// is s0's, even when s1 is counted first.
	line := strings.Replace(asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""), `"sessionId":"s"`, `"sessionId":"s0"`, 1)
	c := NewCounter()
	for _, f := range []struct{ sid, path string }{{"s1", "resumed.jsonl"}, {"s0", "original.jsonl"}} {
		file := c.File(Source{SessionID: f.sid, Path: f.path})
		r := reader.New(strings.NewReader(line+"\n"), reader.Options{})
		e, _ := r.Next()
		file.Add(&e)
	}
	if got := c.Responses(); len(got) != 1 || got[0].SessionID != "s0" || got[0].Lines != 2 {
		t.Errorf("responses %+v", got)
	}
}

func TestResumedResponsesBelongToTheFirstSession(t *testing.T) {
	c, _ := countLines(t,
		[]string{asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, "")},
		[]string{asst("a1", "", "msg_1", "req_1", 3, 10, 100, 1000, ""), asst("a2", "a1", "msg_2", "req_2", 1, 5, 0, 1100, "")})
	got := []string{}
	for _, r := range c.Responses() {
		got = append(got, r.MessageID+"@"+r.SessionID)
	}
	if strings.Join(got, ",") != "msg_1@s0,msg_2@s1" {
		t.Errorf("attribution %v", got)
	}
}

func TestInlineSidechainsAreNamedAfterTheirRoot(t *testing.T) {
	c, _ := countLines(t, []string{
		user("u1", "", "main prompt"),
		asst("a1", "u1", "msg_1", "req_1", 1, 1, 1, 1, ""),
		`{"type":"user","uuid":"abcdef12-side","parentUuid":null,"isSidechain":true,"message":{"role":"user","content":"task"}}`,
		asst("s1", "abcdef12-side", "msg_2", "req_2", 1, 1, 1, 1, `"isSidechain":true,`),
		asst("s2", "s1", "msg_3", "req_3", 1, 1, 1, 1, `"isSidechain":true,`),
	})
	var agents []string
	for _, r := range c.Responses() {
		agents = append(agents, r.AgentID)
	}
	if strings.Join(agents, ",") != ",sidechain-abcdef12,sidechain-abcdef12" {
		t.Errorf("agents %q", agents)
	}
}

// writeTree writes files under a temporary projects root.
func writeTree(t *testing.T, files map[string][]string) string {
	t.Helper()
	root := t.TempDir()
	for name, lines := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestSubagentsInBothLayoutsCountUnderTheirAgent(t *testing.T) {
	const sid = "11111111-2222-3333-4444-555555555555"
	withSession := func(line string) string { return strings.Replace(line, `"sessionId":"s"`, `"sessionId":"`+sid+`"`, 1) }
	root := writeTree(t, map[string][]string{
		"-p/" + sid + ".jsonl": {withSession(asst("a1", "", "msg_1", "req_1", 1, 10, 0, 0, ""))},
		"-p/" + sid + "/subagents/agent-nested1.jsonl": {
			withSession(asst("n1", "", "msg_2", "req_2", 2, 20, 0, 0, `"isSidechain":true,"agentId":"nested1",`))},
		"-p/" + sid + "/subagents/workflows/run1/agent-deep.jsonl": {
			withSession(asst("d1", "", "msg_4", "req_4", 4, 40, 0, 0, `"isSidechain":true,`))},
		"-p/agent-flat1.jsonl": {withSession(asst("f1", "", "msg_3", "req_3", 3, 30, 0, 0, `"isSidechain":true,"agentId":"flat1",`))},
		"-p/agent-other.jsonl": {asst("o1", "", "msg_9", "req_9", 9, 90, 0, 0, `"isSidechain":true,`)},
	})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	ss := f.Sessions()
	if len(ss) != 1 {
		t.Fatalf("sessions %d", len(ss))
	}
	rep := Build([]Input{{Session: ss[0], Agents: f.Agents(ss[0])}}, DefaultPrices(), Window{}, ReadOptions{Strict: true})
	got := map[string]int64{}
	for _, a := range rep.Sessions[0].Agents {
		got[a.Key] = a.Total.Output
	}
	wantAgents := map[string]int64{"": 10, "nested1": 20, "flat1": 30, "deep": 40}
	if fmt.Sprint(got) != fmt.Sprint(wantAgents) {
		t.Errorf("by agent %v, want %v", got, wantAgents)
	}
}

// The reference totals of ../shared/docs/tokens.md, which ccusage and an
// independent script agree on.
func TestRealCorpusReferenceTotals(t *testing.T) {
	base := testcorpus.Root() // the six folders of the reference totals are all copied there
	tests := []struct {
		folder string
		want   [5]int64 // input, output, cache creation, cache read, responses
	}{
		{"claude-code-log", [5]int64{11552, 121830, 1312721, 21173937, 437}},
		{"spotter", [5]int64{5234, 89854, 668278, 32819400, 379}},
		{"kfischer-claude-history", [5]int64{153, 1740, 45563, 315668, 18}},
		{"claude-code-viewer", [5]int64{947, 55562, 185723, 3972113, 190}},
		{"codemie", [5]int64{6412, 81071, 1903009, 4592497, 72}},
		{"claude-reliability", [5]int64{38, 563, 22988, 1114040, 39}},
	}
	for _, tt := range tests {
		t.Run(tt.folder, func(t *testing.T) {
			f := session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(base, tt.folder)}}, nil)
			var ins []Input
			for _, s := range f.Sessions() {
				ins = append(ins, Input{Session: s, Agents: f.Agents(s)})
			}
			rep := Build(ins, DefaultPrices(), Window{}, ReadOptions{Strict: true, OnError: func(p string, err error) { t.Errorf("%s: %v", p, err) }})
			tot := rep.Total
			got := [5]int64{tot.Input, tot.Output, tot.CacheCreation, tot.CacheRead, tot.APICalls}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if !tot.CostKnown() {
				t.Errorf("unpriced models: %v", rep.Unpriced)
			}
			// Without the per-response list, every total and group is the same.
			lean := BuildTotals(ins, DefaultPrices(), Window{}, ReadOptions{Strict: true})
			if len(lean.Responses) != 0 || fmt.Sprint(lean.Total) != fmt.Sprint(rep.Total) {
				t.Errorf("BuildTotals: %d responses listed, total %+v, want none and %+v", len(lean.Responses), lean.Total, rep.Total)
			}
			for i := range rep.Sessions {
				if a, b := fmt.Sprintf("%+v", lean.Sessions[i].Total), fmt.Sprintf("%+v", rep.Sessions[i].Total); a != b {
					t.Errorf("session %s: %s, want %s", rep.Sessions[i].ID, a, b)
				}
			}
			for _, g := range Groupings {
				if a, b := fmt.Sprintf("%+v", lean.GroupBy(g)), fmt.Sprintf("%+v", rep.GroupBy(g)); a != b {
					t.Errorf("--by %s: %s, want %s", g, a, b)
				}
			}
		})
	}
}

// Wanted skips most lines unparsed; counting with it must give exactly the
// totals of parsing every line.
func TestWantedLosesNothing(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/projects/*/*.jsonl")
	files = append(files, testcorpus.Files("*/*.jsonl", "*/*/subagents/*.jsonl")...)
	for _, p := range files {
		count := func(want func([]byte) bool) []Response {
			c := NewCounter()
			r, cl, err := reader.Open(p, reader.Options{Want: want})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			f := c.File(Source{Path: p})
			for {
				e, ok := r.Next()
				if !ok {
					break
				}
				f.Add(&e)
			}
			return c.Responses()
		}
		all, picked := count(nil), count(Wanted)
		if fmt.Sprint(all) != fmt.Sprint(picked) {
			t.Errorf("%s: %d responses parsing every line, %d with Wanted", p, len(all), len(picked))
		}
	}
}

func TestBuildCountsAResumedSessionOnceInTheSessionThatStartedFirst(t *testing.T) {
	const a, b = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"
	line := func(uuid, mid, ts string, out int) string {
		return strings.Replace(asst(uuid, "", mid, "req_"+mid, 1, out, 0, 100, ""), "2026-01-01T00:00:00Z", ts, 1)
	}
	root := writeTree(t, map[string][]string{
		"-p/" + a + ".jsonl": {line("u1", "m1", "2026-01-01T10:00:00Z", 10)},
		// b resumes a: it replays m1, then makes its own call.
		"-p/" + b + ".jsonl": {line("u1", "m1", "2026-01-01T10:00:00Z", 10), line("u2", "m2", "2026-01-02T10:00:00Z", 20)},
	})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() { // newest file first: b before a
		st := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		if s.ID == b {
			st = st.Add(24 * time.Hour)
		}
		ins = append(ins, Input{Session: s, Started: st})
	}
	rep := Build(ins, nil, Window{}, ReadOptions{Strict: true})
	got := map[string]int64{}
	for _, s := range rep.Sessions {
		got[s.ID[:1]] = s.Total.Output
	}
	if got["a"] != 10 || got["b"] != 20 || rep.Total.APICalls != 2 {
		t.Errorf("per session %v, calls %d", got, rep.Total.APICalls)
	}
}

func TestResumedSessionWithTheSameFirstTimestampComesAfterTheOriginal(t *testing.T) {
	const a, b = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"
	root := writeTree(t, map[string][]string{
		"-p/" + a + ".jsonl": {asst("u1", "", "m1", "r1", 1, 10, 0, 100, "")},
		"-p/" + b + ".jsonl": {asst("u1", "", "m1", "r1", 1, 10, 0, 100, ""), asst("u2", "u1", "m2", "r2", 1, 20, 0, 100, "")},
	})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(root, "-p", a+".jsonl"), old, old) // the original was written to first
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() { // same Started for both: the replayed line's time
		ins = append(ins, Input{Session: s, Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	}
	rep := Build(ins, nil, Window{}, ReadOptions{Strict: true})
	for _, s := range rep.Sessions {
		if want := map[string]int64{a: 10, b: 20}[s.ID]; s.Total.Output != want {
			t.Errorf("%s: output %d, want %d", s.ID[:1], s.Total.Output, want)
		}
	}
}

// The original keeps the responses a resumed session replays from its
// start by what the files record (its last activity is earlier), not by
// their modification times: a backup restored without -p, or a touch,
// gives the original the newer one.
func TestResumedSessionKeepsItsOrderWhateverTheModificationTimes(t *testing.T) {
	const a, b = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"
	at := func(l, ts string) string { return strings.Replace(l, "2026-01-01T00:00:00Z", ts, 1) }
	replayed := at(asst("u1", "", "m1", "r1", 1, 10, 0, 100, ""), "2026-01-01T10:00:00Z")
	for _, tc := range []struct {
		name        string
		aOld, equal bool
	}{
		{"the original written to first", true, false},
		{"the original written to last (touched, copied)", false, false},
		{"the same last activity: the file written to first", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resumed := at(asst("u2", "u1", "m2", "r2", 1, 20, 0, 100, ""), "2026-01-02T10:00:00Z")
			want := map[string]int64{a: 10, b: 20}
			if tc.equal { // b's own line is as old as a's: nothing to tell them by but the files
				resumed = at(asst("u2", "u1", "m2", "r2", 1, 20, 0, 100, ""), "2026-01-01T10:00:00Z")
			}
			root := writeTree(t, map[string][]string{"-p/" + a + ".jsonl": {replayed}, "-p/" + b + ".jsonl": {replayed, resumed}})
			older, newer := time.Now().Add(-time.Hour), time.Now()
			if !tc.aOld {
				older, newer = newer, older
			}
			os.Chtimes(filepath.Join(root, "-p", a+".jsonl"), older, older)
			os.Chtimes(filepath.Join(root, "-p", b+".jsonl"), newer, newer)
			rep := buildStartingTogether(root)
			for _, s := range rep.Sessions {
				if s.Total.Output != want[s.ID] {
					t.Errorf("%s: output %d, want %d", s.ID[:1], s.Total.Output, want[s.ID])
				}
			}
		})
	}
}

func TestWantedPicksLinesFromTheirStart(t *testing.T) {
	big := strings.Repeat("x", 1000)
	tests := []struct {
		name, line string
		want       bool
	}{
		{"assistant, type after the message", `{"parentUuid":null,"message":{"model":"m","role":"assistant","content":[]},"type":"assistant"}`, true},
		{"assistant, type first", `{"type":"assistant","message":{"role":"assistant"}}`, true},
		{"user tool result", `{"parentUuid":"p","type":"user","message":{"role":"user","content":"` + big + `"}}`, false},
		{"user, role before a cut", `{"message":{"role":"user","content":"` + big[:10], false},
		{"progress", `{"type":"progress","data":{}}`, false},
		{"inline sidechain user line", `{"isSidechain":true,"type":"user"}`, true},
		// The start of a long line the reader showed: nothing decided yet.
		{"cut before type or message", `{"parentUuid":"p","toolUseResult":{"stdout":"` + big[:10], true},
		{"no type at all", `{"uuid":"u"}`, true},
	}
	for _, tt := range tests {
		if got := Wanted([]byte(tt.line)); got != tt.want {
			t.Errorf("%s: Wanted = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Without the per-response list, responses are deduplicated a project
// folder at a time. A session copied into another folder shares its
// message ids with the original: then the report is made again, the two
// folders in one table, and comes out as one table of all makes it. Each
// warning is given once.
func TestTotalsAcrossFoldersMatchOneTable(t *testing.T) {
	const a, b, c = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222", "cccccccc-3333-4333-8333-333333333333"
	line := func(uuid, mid, sid, ts string, out int) string {
		l := strings.Replace(asst(uuid, "", mid, "req_"+mid, 1, out, 0, 100, ""), "2026-01-01T00:00:00Z", ts, 1)
		return strings.Replace(l, `"sessionId":"s"`, `"sessionId":"`+sid+`"`, 1)
	}
	for _, tc := range []struct {
		name  string
		files map[string][]string
		calls int64
	}{
		{"independent folders", map[string][]string{
			"-p/" + a + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 10), "not json"},
			"-q/" + b + ".jsonl": {line("u2", "m2", b, "2026-01-02T10:00:00Z", 20), "not json"},
			"-p/" + c + ".jsonl": {line("u3", "m3", c, "2026-01-03T10:00:00Z", 30), "not json"},
		}, 3},
		{"a session resumed in another folder", map[string][]string{
			"-p/" + a + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 10), "not json"},
			// b, in another folder, replays m1 (keeping a's sessionId), a
			// partial usage of it first, then makes its own call.
			"-q/" + b + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 4), line("u1", "m1", a, "2026-01-01T10:00:00Z", 10),
				line("u2", "m2", b, "2026-01-02T10:00:00Z", 20), "not json either"},
			"-p/" + c + ".jsonl": {line("u3", "m3", c, "2026-01-03T10:00:00Z", 30)},
		}, 3},
		{"a session resumed in another folder, a third folder apart", map[string][]string{
			"-p/" + a + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 10), "not json"},
			"-q/" + b + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 4), line("u1", "m1", a, "2026-01-01T10:00:00Z", 10),
				line("u2", "m2", b, "2026-01-02T10:00:00Z", 20), "not json either"},
			"-r/" + c + ".jsonl": {line("u3", "m3", c, "2026-01-03T10:00:00Z", 30), "not json"},
		}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
			var ins []Input
			for _, s := range f.Sessions() {
				ins = append(ins, Input{Session: s, Agents: f.AgentPaths(s), Started: map[string]time.Time{
					a: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), b: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), c: time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)}[s.ID]})
			}
			var said []string
			o := ReadOptions{Strict: true, OnIssue: func(is reader.Issue) { said = append(said, fmt.Sprintf("%s:%d", filepath.Base(is.File), is.Line)) }}
			lean := BuildTotals(ins, nil, Window{}, o)
			saidLean := strings.Join(said, " ")
			said = nil
			full := Build(ins, nil, Window{}, o)
			if lean.Total.APICalls != tc.calls || fmt.Sprint(lean.Total) != fmt.Sprint(full.Total) {
				t.Errorf("totals %+v, one table %+v (want %d calls)", lean.Total, full.Total, tc.calls)
			}
			for i := range full.Sessions {
				if a, b := fmt.Sprint(lean.Sessions[i].ID, lean.Sessions[i].Total), fmt.Sprint(full.Sessions[i].ID, full.Sessions[i].Total); a != b {
					t.Errorf("session %s, one table %s", a, b)
				}
			}
			for _, g := range Groupings {
				if a, b := fmt.Sprint(lean.GroupBy(g)), fmt.Sprint(full.GroupBy(g)); a != b {
					t.Errorf("--by %s: %s, one table %s", g, a, b)
				}
			}
			if saidFull := strings.Join(said, " "); saidLean != saidFull || strings.Count(saidLean, ":") != strings.Count(strings.Join(flatten(tc.files), "\n"), "not json") {
				t.Errorf("issues %q, one table %q", saidLean, saidFull)
			}
			// In start order, a folder's sessions not grouped together.
			var files []string
			for _, f := range strings.Fields(saidLean) {
				files = append(files, f[:1])
			}
			want := ""
			for _, id := range []string{a, b, c} {
				for name, ls := range tc.files {
					if strings.HasSuffix(name, id+".jsonl") && strings.Contains(strings.Join(ls, "\n"), "not json") {
						want += id[:1]
					}
				}
			}
			if got := strings.Join(files, ""); got != want {
				t.Errorf("issues in the order %s, want the sessions' start order %s", got, want)
			}
		})
	}
}

func flatten(files map[string][]string) []string {
	var out []string
	for _, ls := range files {
		out = append(out, ls...)
	}
	return out
}

// A session whose file cannot be read (deleted since the listing, no
// permission) is a warning; the others are counted.
func TestAnUnreadableSessionIsAWarning(t *testing.T) {
	root := writeTree(t, map[string][]string{"-p/" + "aaaaaaaa-1111-4111-8111-111111111111.jsonl": {asst("u1", "", "m1", "r1", 1, 10, 0, 100, "")}})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	ins := []Input{{Session: &session.Session{ID: "gone", Path: filepath.Join(root, "-p", "gone.jsonl")}}}
	for _, s := range f.Sessions() {
		ins = append(ins, Input{Session: s, Started: time.Now()})
	}
	for _, build := range []func([]Input, *Prices, Window, ReadOptions) *Report{Build, BuildTotals} {
		var errs []string
		rep := build(ins, nil, Window{}, ReadOptions{Strict: true, OnError: func(p string, err error) { errs = append(errs, filepath.Base(p)) }})
		if rep.Total.APICalls != 1 || len(rep.Sessions) != 2 || fmt.Sprint(errs) != "[gone.jsonl]" {
			t.Errorf("calls %d, sessions %d, errors %v", rep.Total.APICalls, len(rep.Sessions), errs)
		}
	}
}

// A response keeps its time whatever the year (a row stores seconds and
// nanoseconds: nanoseconds alone overflow outside 1678-2262).
func TestTimesOfAnyYear(t *testing.T) {
	var lines []string
	for i, ts := range []string{"2300-06-01T00:00:00.5Z", "1600-01-01T00:00:00Z", "2026-01-01T00:00:00Z"} {
		lines = append(lines, strings.Replace(asst(fmt.Sprint("u", i), "", fmt.Sprint("m", i), "r", 1, 1, 0, 0, ""), "2026-01-01T00:00:00Z", ts, 1))
	}
	c, _ := countLines(t, lines)
	var got []string
	for _, r := range c.Responses() {
		got = append(got, r.Time.Format(time.RFC3339Nano))
	}
	if want := "[2300-06-01T00:00:00.5Z 1600-01-01T00:00:00Z 2026-01-01T00:00:00Z]"; fmt.Sprint(got) != want {
		t.Errorf("times %v, want %v", got, want)
	}
}

// Total's JSON, built by hand, is what encoding/json made of its fields
// (the reference below is the MarshalJSON it replaced).
func TestTotalJSON(t *testing.T) {
	type plain Total
	reference := func(t Total) string {
		var cost *float64
		if t.CostKnown() {
			c := float64(t.Micros()) / 1e6
			cost = &c
		}
		b, _ := json.Marshal(struct {
			plain
			CostUSD       *float64 `json:"cost_usd"`
			CostEstimated bool     `json:"cost_estimated"`
		}{plain(t), cost, t.CostEstimated()})
		return string(b)
	}
	tests := []Total{
		{},
		{Input: 1, Output: -2, CacheCreation: 3, CacheCreation5m: 4, CacheCreation1h: 5, CacheRead: 6, Tokens: 7, WebSearch: 8, APICalls: 9,
			MaxContext: 10, UnpricedCalls: 11, OutputUnderstated: 12, EstimatedCalls: 13, pico: 14_000_000},
		{UnpricedCalls: 1, pico: 5},
		{pico: 1}, {pico: 499_999}, {pico: 500_000}, {pico: 1e18}, {pico: math.MaxInt64 - 500_000}, {pico: -3_000_000},
		{EstimatedCalls: 1, pico: 123_456_789_012},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		tests = append(tests, Total{Input: rng.Int64(), Output: rng.Int64N(1e9), APICalls: rng.Int64N(3), MaxContext: -rng.Int64(),
			UnpricedCalls: rng.Int64N(2), EstimatedCalls: rng.Int64N(2), pico: rng.Int64N(1 << uint(rng.IntN(62)))})
	}
	for _, tt := range tests {
		got, _ := tt.MarshalJSON()
		if want := reference(tt); string(got) != want {
			t.Errorf("%+v:\n%s\nwant\n%s", tt, got, want)
		}
	}
}

// Sessions whose main transcript was deleted (Claude Code's cleanup) are
// counted with their project folder's other sessions, whatever their
// start: a report that counts folders apart (a response in two folders
// makes a second pass) once kept them apart from their folder under the
// folder's name, and took one's totals for the other's (a panic when the
// numbers of sessions differed).
func TestOrphansCountedWithTheirFolder(t *testing.T) {
	const a, b, c, d = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222",
		"cccccccc-3333-4333-8333-333333333333", "dddddddd-4444-4444-8444-444444444444"
	line := func(uuid, mid, sid, ts string, out int) string {
		l := strings.Replace(asst(uuid, "", mid, "req_"+mid, 1, out, 0, 100, ""), "2026-01-01T00:00:00Z", ts, 1)
		return strings.Replace(l, `"sessionId":"s"`, `"sessionId":"`+sid+`"`, 1)
	}
	files := map[string][]string{
		"-p/" + a + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 10)},
		// b, in another folder, replays a's m1: a second pass.
		"-q/" + b + ".jsonl": {line("u1", "m1", a, "2026-01-01T10:00:00Z", 10), line("u2", "m2", b, "2026-01-02T10:00:00Z", 20)},
		// Orphans in -p, started before a.
		"-p/" + c + "/subagents/agent-x1.jsonl": {line("u3", "m3", c, "2025-12-30T10:00:00Z", 30)},
	}
	for _, tc := range []struct {
		name  string
		more  map[string][]string
		calls int64
	}{
		{"one orphan, one session", nil, 3},
		{"two orphans, one session", map[string][]string{"-p/" + d + "/subagents/agent-x2.jsonl": {line("u4", "m4", d, "2025-12-31T10:00:00Z", 40)}}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := maps.Clone(files)
			maps.Copy(all, tc.more)
			root := writeTree(t, all)
			f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
			start := map[string]time.Time{a: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), b: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
				c: time.Date(2025, 12, 30, 0, 0, 0, 0, time.UTC), d: time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)}
			var ins []Input
			for _, s := range f.Sessions() {
				ins = append(ins, Input{Session: s, Agents: f.AgentPaths(s), Started: start[s.ID]})
			}
			lean := BuildTotals(ins, nil, Window{}, ReadOptions{Strict: true})
			full := Build(ins, nil, Window{}, ReadOptions{Strict: true})
			if lean.Total.APICalls != tc.calls || fmt.Sprint(lean.Total) != fmt.Sprint(full.Total) {
				t.Errorf("totals %+v, one table %+v (want %d calls)", lean.Total, full.Total, tc.calls)
			}
			for i := range full.Sessions {
				if a, b := fmt.Sprint(lean.Sessions[i].ID, lean.Sessions[i].Total), fmt.Sprint(full.Sessions[i].ID, full.Sessions[i].Total); a != b {
					t.Errorf("session %s, one table %s", a, b)
				}
			}
		})
	}
}

// The order of sessions that start together is total: one without a
// timed response (a prompt only) comes first, and does not make the
// others' order depend on the listing's (it compared equal to both).
func TestSessionsThatStartTogetherWithOneWithoutResponses(t *testing.T) {
	const a, b, c = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222", "cccccccc-3333-4333-8333-333333333333"
	at := func(l, ts string) string { return strings.Replace(l, "2026-01-01T00:00:00Z", ts, 1) }
	replayed := at(asst("u1", "", "m1", "r1", 1, 10, 0, 100, ""), "2026-01-01T10:00:00Z")
	own := at(asst("u2", "u1", "m2", "r2", 1, 20, 0, 100, ""), "2026-01-02T10:00:00Z")
	prompt := at(user("p1", "", "hello"), "2026-01-01T10:00:00Z")
	// Every order of the files' modification times: byStart's order of
	// the three.
	for _, order := range [][3]string{{a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}} {
		root := writeTree(t, map[string][]string{"-p/" + a + ".jsonl": {replayed}, "-p/" + b + ".jsonl": {prompt}, "-p/" + c + ".jsonl": {replayed, own}})
		for i, id := range order {
			m := time.Now().Add(time.Duration(i-3) * time.Hour)
			os.Chtimes(filepath.Join(root, "-p", id+".jsonl"), m, m)
		}
		newest := order[0][:1] + order[1][:1] + order[2][:1]
		rep := buildStartingTogether(root)
		for _, s := range rep.Sessions {
			if want := map[string]int64{a: 10, c: 20}[s.ID]; s.Total.Output != want {
				t.Errorf("written in the order %s: %s has output %d, want %d", newest, s.ID[:1], s.Total.Output, want)
			}
		}
	}
}

// buildStartingTogether counts every session under root as started at the
// same time (a resumption replays from the first line).
func buildStartingTogether(root string) *Report {
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var ins []Input
	for _, s := range f.Sessions() {
		ins = append(ins, Input{Session: s, Started: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)})
	}
	return Build(ins, nil, Window{}, ReadOptions{Strict: true})
}
