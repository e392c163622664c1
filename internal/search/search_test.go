package search

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
)

const (
	sid   = "11111111-2222-3333-4444-555555555555"
	other = "99999999-2222-3333-4444-555555555555"
)

// projects writes files (path relative to a projects dir → content) and
// returns the projects dir.
func projects(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func jsonl(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// clock gives the lines user and asst build times in the order they are
// built.
var clock = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func tick() string {
	clock = clock.Add(time.Second)
	return clock.Format(time.RFC3339)
}

// user and asst build conversation lines with a given uuid and content.
func user(uuid, parent, content string) string {
	return fmt.Sprintf(`{"type":"user","uuid":%q,"parentUuid":%s,"sessionId":%q,"timestamp":%q,"cwd":"/w/app","message":{"role":"user","content":%s}}`,
		uuid, quoteOrNull(parent), sid, tick(), content)
}

func asst(uuid, parent, content string) string {
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"parentUuid":%s,"sessionId":%q,"timestamp":%q,"cwd":"/w/app","message":{"id":"msg_%s","role":"assistant","model":"claude-x","content":%s,"usage":{"input_tokens":1,"output_tokens":2}}}`,
		uuid, quoteOrNull(parent), sid, tick(), uuid, content)
}

func quoteOrNull(s string) string {
	if s == "" {
		return "null"
	}
	return fmt.Sprintf("%q", s)
}

type run1 struct {
	dir     string
	args    []string
	pattern string
	po      PatternOptions
	o       Options
}

// search runs a search and returns its results and what was reported.
func search(t *testing.T, r run1) ([]*Result, string) {
	t.Helper()
	var stderr bytes.Buffer
	rep := diag.New(&stderr, true, false)
	roots, err := session.Roots([]string{r.dir}, session.Env{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	f := session.NewFinder(roots, rep)
	targets, err := Targets(f, r.args, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile(r.pattern, r.po)
	if err != nil {
		t.Fatal(err)
	}
	o := r.o
	o.Pattern, o.Report = p, rep
	if o.Roles == 0 {
		o.Roles = DefaultRoles
	}
	var out []*Result
	for res := range Run(f, targets, o) {
		out = append(out, res)
	}
	rep.Flush()
	return out, stderr.String()
}

// hits lists "uuid role kind field agent" for every hit.
func hits(rs []*Result) []string {
	var out []string
	for _, r := range rs {
		for _, h := range r.Hits {
			s := h.UUID + " " + string(h.Role) + " " + h.Kind + " " + h.Field
			if h.AgentID != "" {
				s += " @" + h.AgentID
			}
			if h.Abandoned {
				s += " abandoned"
			}
			out = append(out, s)
		}
	}
	return out
}

// escaped is a session whose text JSON escapes: quotes, backslashes, a
// line break, a slash written \/.
var escaped = jsonl(
	user("u1", "", `"he said \"quoted\" twice"`),
	asst("a1", "u1", `[{"type":"text","text":"open C:\\Users\\me\\file.txt\nthen run"},{"type":"tool_use","id":"toolu_01type","name":"Read","input":{"file_path":"C:\\src\\app\/main.go"}}]`),
	user("u2", "a1", `[{"type":"tool_result","tool_use_id":"toolu_01type","content":"line one\nline two"}]`),
)

// rg is ripgrep, which the comparison with raw-byte search needs (make
// test installs it).
func rg(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("rg")
	if err != nil {
		t.Fatal("ripgrep (rg) is needed by this test: `make test` installs it (apt-get install -y ripgrep)")
	}
	return p
}

// A text JSON escaped is found as it reads, where a search of the raw
// bytes (rg) misses it.
func TestFindsWhatRawBytesHide(t *testing.T) {
	rgPath := rg(t)
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": escaped})
	for _, tt := range []struct {
		pattern string
		want    []string
	}{
		{`"quoted"`, []string{"u1 user text text"}},
		{`C:\Users\me`, []string{"a1 assistant text text"}},
		{`C:\src\app/main.go`, []string{"a1 tool tool_use file_path"}},
		{"file.txt\nthen", []string{"a1 assistant text text"}},
	} {
		rs, _ := search(t, run1{dir: dir, pattern: tt.pattern, po: PatternOptions{Fixed: true}})
		if got := hits(rs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.pattern, got, tt.want)
		}
		out, _ := exec.Command(rgPath, "-c", "-F", tt.pattern, dir).Output()
		if len(out) > 0 {
			t.Errorf("%q: rg finds it in the raw bytes too (%s): the test proves nothing", tt.pattern, out)
		}
	}
}

// Keys, ids, signatures, base64 data and usage numbers are never text.
func TestNeverMatchesWhatIsNotText(t *testing.T) {
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": jsonl(
		user("d7c1e0aa-0000-4000-8000-000000000001", "", `"hello"`),
		asst("d7c1e0aa-0000-4000-8000-000000000002", "d7c1e0aa-0000-4000-8000-000000000001",
			`[{"type":"thinking","thinking":"","signature":"EpAxClkIDBgCKkCkSIGNATURE"},{"type":"tool_use","id":"toolu_01ABCDEF","name":"Bash","input":{"command":"ls"}}]`),
		user("d7c1e0aa-0000-4000-8000-000000000003", "d7c1e0aa-0000-4000-8000-000000000002",
			`[{"type":"tool_result","tool_use_id":"toolu_01ABCDEF","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgoAAAANSUhEUgBASE64DATA"}}]}]`),
	)})
	for _, p := range []string{"type", "content", "d7c1e0aa", "toolu_01ABCDEF", "EpAxClkIDBgCKkCkSIGNATURE", "iVBORw0KGgo", "BASE64DATA", "image/png", "input_tokens", "claude-x", "msg_"} {
		for _, thinking := range []bool{false, true} {
			roles := DefaultRoles
			if thinking {
				roles = roles.With(RoleThinking)
			}
			rs, _ := search(t, run1{dir: dir, pattern: p, o: Options{Roles: roles}})
			if got := hits(rs); len(got) > 0 {
				t.Errorf("%q (thinking %v): hits %q", p, thinking, got)
			}
		}
	}
	// While what is text is found.
	rs, _ := search(t, run1{dir: dir, pattern: "hello|ls"})
	if got := hits(rs); len(got) != 2 {
		t.Errorf("text: %q", got)
	}
}

var roleSession = jsonl(
	user("u1", "", `"needle typed"`),
	asst("a1", "u1", `[{"type":"thinking","thinking":"needle thought","signature":"s"},{"type":"text","text":"needle said"},{"type":"tool_use","id":"t1","name":"Grep","input":{"pattern":"needle","path":"src"}}]`),
	user("u2", "a1", `[{"type":"tool_result","tool_use_id":"t1","content":"src/needle.go"}]`),
)

func TestRoles(t *testing.T) {
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": roleSession})
	all := []string{"u1 user text text", "a1 thinking thinking thinking", "a1 assistant text text", "a1 tool tool_use pattern", "u2 tool tool_result content"}
	for _, tt := range []struct {
		roles RoleSet
		want  []string
	}{
		{DefaultRoles, []string{all[0], all[2], all[3], all[4]}},
		{DefaultRoles.With(RoleThinking), all},
		{RoleSet(0).With(RoleUser), all[:1]},
		{RoleSet(0).With(RoleAssistant), all[2:3]},
		{RoleSet(0).With(RoleTool), all[3:]},
		{RoleSet(0).With(RoleThinking), all[1:2]},
		{RoleSet(0).With(RoleUser).With(RoleTool), []string{all[0], all[3], all[4]}},
	} {
		rs, _ := search(t, run1{dir: dir, pattern: "needle", o: Options{Roles: tt.roles}})
		if got := hits(rs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("roles %b: %q, want %q", tt.roles, got, tt.want)
		}
	}
}

// A tool result is named by the call it answers, when the conversation is
// read (Details).
func TestToolResultsAreNamedByTheirCall(t *testing.T) {
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": roleSession})
	rs, _ := search(t, run1{dir: dir, pattern: "needle.go", o: Options{Details: true}})
	if len(rs) != 1 || len(rs[0].Hits) != 1 || rs[0].Hits[0].Tool != "Grep" {
		t.Fatalf("got %+v", rs)
	}
}

// Subagent transcripts are searched as part of their session: in
// <id>/subagents/ and flat in the folder (2.0.x), and, with Details, the
// inline sidechains of 1.0.x. Each hit carries its agent's id.
func TestSubagentHitsCarryTheAgentID(t *testing.T) {
	agentLine := func(id, text string) string {
		return fmt.Sprintf(`{"type":"assistant","uuid":"ag-%s","isSidechain":true,"agentId":%q,"sessionId":%q,"timestamp":"2026-03-01T10:05:00Z","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`, id, id, sid, text)
	}
	dir := projects(t, map[string]string{
		"-w-app/" + sid + ".jsonl": jsonl(
			user("u1", "", `"spawn the needle agents"`),
			// an inline sidechain (Claude Code 1.0)
			`{"type":"user","uuid":"sc1","parentUuid":null,"isSidechain":true,"sessionId":"`+sid+`","timestamp":"2026-03-01T10:02:00Z","message":{"role":"user","content":"inline needle"}}`,
		),
		"-w-app/" + sid + "/subagents/agent-abc123.jsonl": jsonl(agentLine("abc123", "folder needle")),
		"-w-app/agent-def456.jsonl":                       jsonl(agentLine("def456", "flat needle")),
		"-w-app/" + other + ".jsonl":                      jsonl(user("o1", "", `"no match here"`)),
	})
	rs, _ := search(t, run1{dir: dir, pattern: "needle", o: Options{Details: true}})
	got := hits(rs)
	sort.Strings(got)
	want := []string{"ag-abc123 assistant text text @abc123", "ag-def456 assistant text text @def456", "sc1 user text text @sidechain-sc1", "u1 user text text"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
	if len(rs) != 1 || !rs[0].Agents {
		t.Errorf("want one session, with agent hits: %+v", rs)
	}
}

// A session whose main transcript is gone is searched in the subagent
// transcripts that remain.
func TestSessionWithoutItsMainFile(t *testing.T) {
	dir := projects(t, map[string]string{
		"-w-app/" + sid + "/subagents/agent-abc123.jsonl": jsonl(`{"type":"user","uuid":"x1","sessionId":"` + sid + `","message":{"role":"user","content":"orphan needle"}}`),
	})
	roots, _ := session.Roots([]string{dir}, session.Env{Getenv: func(string) string { return "" }})
	f := session.NewFinder(roots, nil)
	p, _ := Compile("needle", PatternOptions{})
	s := &session.Session{ID: sid, Path: filepath.Join(dir, "-w-app", sid+".jsonl"), ProjectDir: filepath.Join(dir, "-w-app")}
	var got []*Result
	for r := range Run(f, []Target{{Session: s}}, Options{Pattern: p, Roles: DefaultRoles, Details: true}) {
		got = append(got, r)
	}
	if h := hits(got); !reflect.DeepEqual(h, []string{"x1 user text text @abc123"}) {
		t.Errorf("got %q", h)
	}
}

// Every branch is searched; a hit the conversation left behind (a rewind)
// says so.
func TestHitsOnAnAbandonedBranch(t *testing.T) {
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": jsonl(
		user("u1", "", `"start"`),
		asst("a1", "u1", `[{"type":"text","text":"ok"}]`),
		user("u2", "a1", `"first try with the needle"`), // rewound
		asst("a2", "u2", `[{"type":"text","text":"needle reply"}]`),
		user("u3", "a1", `"second try, needle again"`), // the branch the session ends on
		asst("a3", "u3", `[{"type":"text","text":"done"}]`),
	)})
	rs, _ := search(t, run1{dir: dir, pattern: "needle", o: Options{Details: true}})
	want := []string{"u2 user text text abandoned", "a2 assistant text text abandoned", "u3 user text text"}
	if got := hits(rs); !reflect.DeepEqual(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
	if !rs[0].Abandoned {
		t.Error("the result does not say it has an abandoned hit")
	}
	// Without Details the branches are not read: no hit is marked.
	rs, _ = search(t, run1{dir: dir, pattern: "needle"})
	if got := hits(rs); len(got) != 3 || strings.Contains(strings.Join(got, ","), "abandoned") {
		t.Errorf("without details: %q", got)
	}
}

func TestModesAndLimits(t *testing.T) {
	dir := projects(t, map[string]string{
		"-w-app/" + sid + ".jsonl":   jsonl(user("u1", "", `"needle needle"`), asst("a1", "u1", `[{"type":"text","text":"a needle"}]`), user("u2", "a1", `"needle"`)),
		"-w-app/" + other + ".jsonl": jsonl(user("o1", "", `"one needle"`)),
	})
	rs, _ := search(t, run1{dir: dir, pattern: "needle"})
	if len(rs) != 2 || rs[0].Count+rs[1].Count != 4 {
		t.Fatalf("hits: %+v", rs)
	}
	rs, _ = search(t, run1{dir: dir, pattern: "needle", o: Options{MaxCount: 2}})
	for _, r := range rs {
		if r.Session.ID == sid && (r.Count != 2 || !reflect.DeepEqual(hits([]*Result{r}), []string{"u1 user text text", "a1 assistant text text"})) {
			t.Errorf("max-count 2: %d %q", r.Count, hits([]*Result{r}))
		}
	}
	rs, _ = search(t, run1{dir: dir, pattern: "needle", o: Options{Mode: Counts}})
	counts := map[string]int{}
	for _, r := range rs {
		counts[r.Session.ID] = r.Count
		if len(r.Hits) != 0 {
			t.Error("counts keep hits")
		}
	}
	if counts[sid] != 3 || counts[other] != 1 {
		t.Errorf("counts: %v", counts)
	}
	rs, _ = search(t, run1{dir: dir, pattern: "needle", o: Options{Mode: Sessions, MatchText: true}})
	if len(rs) != 2 {
		t.Errorf("sessions: %d", len(rs))
	}
	if h := rs[0].Hits; len(h) != 1 || h[0].Matches[0].Text != "needle" {
		t.Errorf("a session's first hit: %+v", h)
	}
	// The matches and their offsets into the decoded text.
	rs, _ = search(t, run1{dir: dir, args: []string{sid}, pattern: "needle", o: Options{MatchText: true}})
	h := rs[0].Hits[0]
	if len(h.Matches) != 2 || h.Matches[1] != (Match{7, 13, "needle"}) || h.TextBytes != 13 || h.Line != 1 {
		t.Errorf("first hit: %+v", h)
	}
}

func TestSinceAndUntilApplyToHits(t *testing.T) {
	line := func(uuid, ts string) string {
		return `{"type":"user","uuid":"` + uuid + `","timestamp":"` + ts + `","message":{"role":"user","content":"needle"}}`
	}
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": jsonl(
		line("early", "2026-01-01T00:00:00Z"), line("mid", "2026-02-01T00:00:00Z"), line("late", "2026-03-01T00:00:00Z"),
		`{"type":"user","uuid":"notime","message":{"role":"user","content":"needle"}}`,
	)})
	rs, _ := search(t, run1{dir: dir, args: []string{sid}, pattern: "needle", o: Options{
		Since: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), Until: time.Date(2026, 2, 15, 0, 0, 0, 0, time.UTC)}})
	if got := hits(rs); !reflect.DeepEqual(got, []string{"mid user text text", "notime user text text"}) {
		t.Errorf("%q", got)
	}
}

// Broken input is said and passed over; the hits in the rest are found:
// also past the first megabyte of a long line, and on the line a crash's
// NUL bytes run into.
func TestBadInput(t *testing.T) {
	long := strings.Repeat("hay ", 900_000) // 3.6 MB: longer than a read buffer
	dir := projects(t, map[string]string{"-w-app/" + sid + ".jsonl": "\xef\xbb\xbf" + jsonl(
		user("u1", "", `"first needle"`)+"\r",
		`{"type":"user","uuid":"broken","message":{"content":"needle in a broken line"`,
		`not json at all, needle`,
		user("u2", "u1", `"`+long+`needle at the end"`),
		user("u3", "u2", `"invalid \xff utf-8 needle"`),
		"\x00\x00\x00"+user("u4", "u3", `"after a crash, needle"`),
	) + user("u5", "u4", `"needle in the last line, unfinished`)})
	rs, stderr := search(t, run1{dir: dir, pattern: "needle"})
	want := []string{"u1 user text text", "u2 user text text", "u3 user text text", "u4 user text text"}
	if got := hits(rs); !reflect.DeepEqual(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
	for _, w := range []string{":2: skipped malformed line", ":3: skipped malformed line", ":6: skipped", "NUL bytes", ":7: last line is incomplete"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	if rs[0].Hits[1].Line != 4 || rs[0].Hits[1].Matches[0].Start != len(long) {
		t.Errorf("the long line's hit: line %d, at %v", rs[0].Hits[1].Line, rs[0].Hits[1].Matches)
	}
}

// The prefilter never loses a hit: searching with it and reading every
// line give the same hits, on the sample sessions and on crafted ones, for
// patterns of every kind.
func TestPrefilteredEqualsUnfiltered(t *testing.T) {
	dirs := []string{"../../testdata/projects", projects(t, map[string]string{
		"-w-app/" + sid + ".jsonl": escaped + roleSession,
	})}
	patterns := []struct {
		p string
		o PatternOptions
	}{
		{"session", PatternOptions{}}, {"Session", PatternOptions{}}, {"session", PatternOptions{Fold: true}},
		{`"quoted"`, PatternOptions{Fixed: true}}, {`C:\src`, PatternOptions{Fixed: true}}, {"line one\nline", PatternOptions{}},
		{"the|and", PatternOptions{}}, {`\bgit\b`, PatternOptions{}}, {"k", PatternOptions{Fold: true}},
		{"é", PatternOptions{}}, {"—", PatternOptions{}}, {"/", PatternOptions{}}, {".", PatternOptions{}},
		{"TODO", PatternOptions{Word: true}}, {"^#", PatternOptions{}}, {`\d{3}`, PatternOptions{}},
	}
	for _, dir := range dirs {
		for _, pt := range patterns {
			for _, roles := range []RoleSet{DefaultRoles, DefaultRoles.With(RoleThinking)} {
				pre, _ := search(t, run1{dir: dir, pattern: pt.p, po: pt.o, o: Options{Roles: roles}})
				all, _ := search(t, run1{dir: dir, pattern: pt.p, po: pt.o, o: Options{Roles: roles, Every: true}})
				a, b := fullHits(pre), fullHits(all)
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s %q: prefiltered %d hits, unfiltered %d", dir, pt.p, len(a), len(b))
				}
			}
		}
	}
	// The real sessions beside the repository, when they are there.
	if testing.Short() {
		return
	}
	real, _ := filepath.Glob("../../../shared/corpus/real/*")
	for _, dir := range real {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() || filepath.Base(dir) == "codex" {
			continue
		}
		for _, pt := range patterns[:6] {
			pre, _ := search(t, run1{dir: dir, pattern: pt.p, po: pt.o})
			all, _ := search(t, run1{dir: dir, pattern: pt.p, po: pt.o, o: Options{Every: true}})
			if a, b := fullHits(pre), fullHits(all); !reflect.DeepEqual(a, b) {
				t.Errorf("%s %q: prefiltered %d hits, unfiltered %d", dir, pt.p, len(a), len(b))
			}
		}
	}
}

func fullHits(rs []*Result) []string {
	var out []string
	for _, r := range rs {
		for _, h := range r.Hits {
			out = append(out, fmt.Sprintf("%s %s:%d %s %s %v", r.Session.ID, h.File, h.Line, h.Role, h.Field, h.Matches))
		}
	}
	return out
}

// Sessions come newest activity first, as ls lists them: by the times in
// the files, not the files' modification times (a copied folder).
func TestNewestActivityFirst(t *testing.T) {
	line := func(ts string) string {
		return `{"type":"user","uuid":"x","timestamp":"` + ts + `","message":{"role":"user","content":"needle"}}`
	}
	dir := projects(t, map[string]string{
		"-w-app/" + sid + ".jsonl":   jsonl(line("2026-01-01T00:00:00Z")),
		"-w-app/" + other + ".jsonl": jsonl(line("2026-05-01T00:00:00Z")),
	})
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "-w-app", other+".jsonl"), old, old) // the newest activity, the oldest file
	rs, _ := search(t, run1{dir: dir, pattern: "needle"})
	if len(rs) != 2 || rs[0].Session.ID != other || rs[1].Session.ID != sid {
		t.Errorf("order: %v", []string{rs[0].Session.ID, rs[1].Session.ID})
	}
	for _, args := range [][]string{{sid, other}, {other, sid}} {
		rs, _ = search(t, run1{dir: dir, args: args, pattern: "needle"})
		if rs[0].Session.ID != other {
			t.Errorf("named %v: %s first", args, rs[0].Session.ID)
		}
	}
}
