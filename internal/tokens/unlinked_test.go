package tokens

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

const (
	sidA = "aaaaaaaa-0000-0000-0000-000000000001"
	sidB = "bbbbbbbb-0000-0000-0000-000000000002" // resumes sidA
)

// spawn is an assistant line calling tool name with id (an Agent/Task call
// when name is one), with a usage of its own.
func spawn(sid, uuid, id, name string) string {
	return fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"assistant","uuid":%q,"timestamp":"2026-01-01T00:00:00Z","sessionId":%q,"message":{"id":"msg_%s","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"tool_use","id":%q,"name":%q,"input":{"prompt":"go","subagent_type":"general-purpose"}}],"usage":{"input_tokens":1,"output_tokens":2}},"requestId":"req_%s"}`,
		uuid, sid, uuid, id, name, uuid)
}

// result is the user line of the result of call id, naming agent (none
// when ""); isErr makes it an error result.
func result(sid, uuid, id, agent string, isErr bool) string {
	tur := `"toolUseResult":"Error: rejected"`
	if agent != "" {
		tur = fmt.Sprintf(`"toolUseResult":{"status":"completed","prompt":"go","agentId":%q,"content":[{"type":"text","text":"done"}]}`, agent)
	}
	return fmt.Sprintf(`{"parentUuid":null,"isSidechain":false,"type":"user","uuid":%q,"timestamp":"2026-01-01T00:00:01Z","sessionId":%q,"message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":[{"type":"text","text":"done"}],"is_error":%v}]},%s}`,
		uuid, sid, id, isErr, tur)
}

// agentLine is a line of agent's own transcript.
func agentLine(sid, agent, uuid string) string {
	return fmt.Sprintf(`{"parentUuid":null,"isSidechain":true,"agentId":%q,"type":"assistant","uuid":%q,"timestamp":"2026-01-01T00:00:00Z","sessionId":%q,"message":{"id":"msg_%s","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":1,"output_tokens":2}},"requestId":"req_%s"}`,
		agent, uuid, sid, uuid, uuid)
}

func mainFile(sid string) string { return "-p/" + sid + ".jsonl" }

// nested makes a main-file line a line of agent a1's transcript.
func nested(l string) string {
	return strings.Replace(l, `"isSidechain":false`, `"isSidechain":true,"agentId":"a1"`, 1)
}
func agentFile(sid, agent string) string {
	return "-p/" + sid + "/subagents/agent-" + agent + ".jsonl"
}

// unlinkedOf lists the agent warnings of a report's issues as
// "file:line: id" (file relative to root).
func unlinkedOf(root string, issues []reader.Issue) []string {
	var out []string
	for _, is := range issues {
		rel, _ := filepath.Rel(root, is.File)
		switch {
		case is.Kind == reader.UnlinkedAgent:
			out = append(out, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), is.Line, is.Detail))
		case is.Kind == reader.OddValue && strings.Contains(is.Detail, "cannot be a file name"):
			out = append(out, fmt.Sprintf("%s:%d: unsafe", filepath.ToSlash(rel), is.Line))
		}
	}
	slices.Sort(out)
	return out
}

// countIssues counts every session under root (strict: every line read,
// as --strict; cacheDir "": no cache) and returns the agent warnings.
func countIssues(t *testing.T, root, cacheDir string, strict bool) []string {
	t.Helper()
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	sel := Selection{}
	o := ReadOptions{Strict: strict}
	if cacheDir != "" {
		sel.Cache = cache.Open(cacheDir, nil)
		o.Cache = sel.Cache
	}
	inputs, err := Inputs(f, sel)
	if err != nil {
		t.Fatal(err)
	}
	var issues []reader.Issue
	o.OnIssue = func(is reader.Issue) { issues = append(issues, is) }
	rep := BuildTotals(inputs, DefaultPrices(), Window{}, o)
	if o.Cache != nil {
		o.Cache.Flush()
	}
	// The report lists the same agents as missing, session by session
	// (the JSON's missing_agent_transcripts).
	var said, listed []string
	for _, is := range issues {
		if is.Kind == reader.UnlinkedAgent {
			said = append(said, is.Detail)
		}
	}
	for _, sr := range rep.Sessions {
		listed = append(listed, sr.MissingAgents...)
	}
	slices.Sort(said)
	slices.Sort(listed)
	if !slices.Equal(said, listed) {
		t.Errorf("warned about %q, the report lists %q", said, listed)
	}
	return unlinkedOf(root, issues)
}

// statsIssues is what ls --long says of the same sessions (Stats, each
// session read on its own), every line read or not.
func statsIssues(t *testing.T, root string, strict bool) []string {
	t.Helper()
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	var mu sync.Mutex
	var issues []reader.Issue
	Stats(f, f.Sessions(), ReadOptions{Strict: strict, OnIssue: func(is reader.Issue) {
		mu.Lock()
		issues = append(issues, is)
		mu.Unlock()
	}})
	return unlinkedOf(root, issues)
}

// everyReadSays checks that every way tokens and ls --long read the
// sessions under root says want: every line parsed (--strict), only the
// lines a counter wants, filling the cache and from it.
func everyReadSays(t *testing.T, root string, want []string) {
	t.Helper()
	cdir := t.TempDir()
	for _, run := range []struct {
		name   string
		dir    string
		strict bool
	}{{"every line read", "", true}, {"wanted lines", "", false}, {"filling the cache", cdir, false}, {"from the cache", cdir, false}} {
		if got := countIssues(t, root, run.dir, run.strict); !slices.Equal(got, want) {
			t.Errorf("tokens, %s: %q, want %q", run.name, got, want)
		}
	}
	for _, strict := range []bool{true, false} {
		if got := statsIssues(t, root, strict); !slices.Equal(got, want) {
			t.Errorf("ls --long (strict %v): %q, want %q", strict, got, want)
		}
	}
}

// treeUnlinked is what the conversation model says of the same sessions:
// the agents named by results that it could not link ("file:line: id").
func treeUnlinked(t *testing.T, root string) []string {
	t.Helper()
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	named := regexp.MustCompile(`names agent (\S+), but no transcript`)
	var out []string
	for _, s := range f.Sessions() {
		tr, err := tree.OpenQuiet(f, s, nil, diag.Discard())
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tr.Warnings {
			rel, _ := filepath.Rel(root, w.File)
			if m := named.FindStringSubmatch(w.Msg); m != nil {
				out = append(out, fmt.Sprintf("%s:%d: %s", filepath.ToSlash(rel), w.Line, m[1]))
			} else if strings.Contains(w.Msg, "cannot be a file name") {
				out = append(out, fmt.Sprintf("%s:%d: unsafe", filepath.ToSlash(rel), w.Line))
			}
		}
	}
	slices.Sort(out)
	return out
}

// An Agent/Task result that names an agent whose transcript is not among
// the session's files is a warning (so --strict fails): that agent's
// tokens are missing from the totals. The rule is the conversation
// model's (show and tree say the same, checked here on every case), read
// the same with every line parsed (--strict), with only the lines a
// counter wants, from the cache, and by ls --long's counts.
func TestAResultNamingAMissingAgentIsAWarning(t *testing.T) {
	a := func(uuid, id, name string) string { return spawn(sidA, uuid, id, name) }
	r := func(uuid, id, agent string) string { return result(sidA, uuid, id, agent, false) }
	twoResults := strings.Replace(r("u2", "t1", ""), `"content":[{"tool_use_id"`, `"content":[{"type":"tool_result","tool_use_id":"t0"},{"tool_use_id"`, 1)
	escaped := strings.Replace(r("u2", "t1", "a1"), `"tool_use_id":"t1"`, `"tool_use_id":"t\u0031"`, 1)
	long := strings.Replace(r("u2", "t1", "a1"), `{"tool_use_id":"t1","type":"tool_result","content":[{"type":"text","text":"done"}]`,
		`{"type":"tool_result","content":[{"type":"text","text":"`+strings.Repeat("x", 2<<20)+`"}],"tool_use_id":"t1"`, 1)
	cases := []struct {
		name  string
		files map[string][]string
		want  []string
	}{
		{"the agent's transcript is there", map[string][]string{
			mainFile(sidA):        {a("u1", "t1", "Agent"), r("u2", "t1", "a1")},
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1")},
		}, nil},
		{"no transcript: said at the result", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), r("u2", "t1", "a1")},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a Task call (before 2.1) too", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Task"), r("u2", "t1", "a1")},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"another tool's result names no agent", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Bash"), r("u2", "t1", "a1")},
		}, nil},
		{"a rejected call ran no agent", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), result(sidA, "u2", "t1", "", true)},
		}, nil},
		{"a line of two results links neither", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), strings.Replace(r("u2", "t1", "a1"), `"content":[{"tool_use_id"`, `"content":[{"type":"tool_result","tool_use_id":"t0"},{"tool_use_id"`, 1)},
		}, nil},
		{"the result comes lines later, after other results", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), a("u2", "t2", "Agent"), a("u3", "b1", "Bash"),
				r("u4", "b1", ""), user("u5", "", "meanwhile"), r("u6", "t2", "a2"), r("u7", "t1", "a1")},
			agentFile(sidA, "a2"): {agentLine(sidA, "a2", "x2")},
		}, []string{mainFile(sidA) + ":7: a1"}},
		{"a call replayed with its result is said once", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), r("u2", "t1", "a1"), a("u3", "t1", "Agent"), r("u4", "t1", "a1")},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"an agentId that cannot be a file name is not looked up", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), r("u2", "t1", "../../etc/x")},
		}, []string{mainFile(sidA) + ":2: unsafe"}},
		{"an agent's own call (nested) is said in its file", map[string][]string{
			mainFile(sidA):        {a("u1", "t1", "Agent"), r("u2", "t1", "a1")},
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1"), spawn(sidA, "x2", "t2", "Agent"), result(sidA, "x3", "t2", "a2", false)},
		}, []string{agentFile(sidA, "a1") + ":3: a2"}},
		{"the call's first result is on a line of two: it names none, a later one is not its", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), twoResults, r("u3", "t1", "a1")},
		}, nil},
		{"a call written twice is one call, its first result the one", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), r("u2", "t1", "a1"), a("u3", "t1", "Agent"), r("u4", "t1", "a2")},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a result over 1 MiB, its tool_use_id after the text", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), long},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a result over 1 MiB whose start holds another call's tool_use_id", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), strings.Replace(long, `{"parentUuid"`, `{"x":{"tool_use_id":"zz"},"parentUuid"`, 1)},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a result over 1 MiB after 700 KB of spaces", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), strings.Repeat(" ", 700<<10) + long},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a line of two results, the first over 1 MiB: the call's wait ends there", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), strings.Replace(long, `"tool_use_id":"t1",`, `"tool_use_id":"t0"},{"type":"tool_result","tool_use_id":"t1",`, 1),
				a("u3", "t1", "Agent"), r("u4", "t1", "a2")},
		}, nil},
		{"a tool_use_id written with an escape", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), escaped},
		}, []string{mainFile(sidA) + ":2: a1"}},
		{"a session whose main transcript was deleted: its agents' own calls", map[string][]string{
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1"), nested(a("x2", "t2", "Agent")), nested(r("x3", "t2", "a2"))},
		}, []string{agentFile(sidA, "a1") + ":3: a2"}},
		{"a resumed session's replayed result: the agent ran in the session it resumes", map[string][]string{
			mainFile(sidA):        {a("u1", "t1", "Agent"), r("u2", "t1", "a1")},
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1")},
			mainFile(sidB):        {a("u1", "t1", "Agent"), r("u2", "t1", "a1"), spawn(sidB, "v1", "t3", "Agent"), result(sidB, "v2", "t3", "a3", false)},
		}, []string{mainFile(sidB) + ":4: a3"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := writeTree(t, c.files)
			if got := treeUnlinked(t, root); !slices.Equal(got, c.want) {
				t.Fatalf("the conversation model says %q, the case %q", got, c.want)
			}
			everyReadSays(t, root, c.want)
		})
	}
}

// A call whose result is appended after a run (the agent still ran then)
// is waited on from the cache: the next run reads only what was appended,
// and still says the agent has no transcript, as a run without the cache.
func TestAResultAppendedAfterItsCallIsRead(t *testing.T) {
	root := writeTree(t, map[string][]string{mainFile(sidA): {spawn(sidA, "u1", "t1", "Agent"), user("u0", "", "go on")}})
	cdir := t.TempDir()
	if got := countIssues(t, root, cdir, false); got != nil {
		t.Fatalf("before the result: %q", got)
	}
	p := filepath.Join(root, mainFile(sidA))
	appendBytes(t, p, []byte(user("u3", "", "more")+"\n"+result(sidA, "u2", "t1", "a1", false)+"\n"))
	if _, st := cache.Open(cdir, nil).Lookup(filepath.Dir(p), p); st != cache.Grown {
		t.Fatalf("cache state %d, want Grown: the test would not read from the entry's offset", st)
	}
	want := []string{mainFile(sidA) + ":4: a1"}
	if got := countIssues(t, root, cdir, false); !slices.Equal(got, want) {
		t.Errorf("from the cache and the lines appended: %q, want %q", got, want)
	}
	if got := countIssues(t, root, "", false); !slices.Equal(got, want) {
		t.Errorf("without the cache: %q, want %q", got, want)
	}
}

// The cache keeps a file's calls waiting on a result, and the agents its
// results name (an entry's data), across its encoding.
func TestCallsSurviveTheCacheEntry(t *testing.T) {
	c := newCounter(true)
	f := c.File(Source{SessionID: sidA, Path: "/p/" + sidA + ".jsonl"})
	f.pending, f.answered = map[string]bool{"t1": true, "t2": true}, map[string]bool{"t0": true}
	f.named = []namedAgent{{"a1", 3}, {"a\x1b[31m", 9}}
	data, _ := encodeFile(c, f, nil, nil)
	_, g, _, err := decodeFile(data, f.src)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(g.pending, f.pending) || !maps.Equal(g.answered, f.answered) || !slices.Equal(g.named, f.named) {
		t.Errorf("decoded %v %v %v, want %v %v %v", g.pending, g.answered, g.named, f.pending, f.answered, f.named)
	}
	_, named, _, err := decodeInto(data, f.src, newCounter(false), false)
	if err != nil || !slices.Equal(named, f.named) {
		t.Errorf("decodeInto named %v (%v), want %v", named, err, f.named)
	}
}

// Where a file bends the shape Claude Code writes, tokens (and ls --long)
// follow the calls and results line by line, as a counter reads them, and
// the conversation model by its nodes and links: the two may differ. What
// tokens says is pinned here, the model's beside it; none of these shapes
// is in a real transcript of the corpus.
func TestUnlinkedAgentsWhereTheModelDiffers(t *testing.T) {
	a := func(uuid, id, name string) string { return spawn(sidA, uuid, id, name) }
	r := func(uuid, id, agent string) string { return result(sidA, uuid, id, agent, false) }
	cases := []struct {
		name        string
		files       map[string][]string
		want, model []string
	}{
		{"a result before its call: not read (a counter reads results after their call)", map[string][]string{
			mainFile(sidA): {r("u2", "t1", "a1"), a("u1", "t1", "Agent")},
		}, nil, []string{mainFile(sidA) + ":1: a1"}},
		{"a result line without a uuid (the model has no node for it)", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), strings.Replace(r("u2", "t1", "a1"), `"uuid":"u2",`, ``, 1)},
		}, []string{mainFile(sidA) + ":2: a1"}, nil},
		{"a result line whose uuid a later line takes (the model keeps the later)", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), r("u2", "t1", "a1"), user("u2", "", "later")},
		}, []string{mainFile(sidA) + ":2: a1"}, nil},
		{"a call in the main file, its result in an agent's (calls wait in their own file)", map[string][]string{
			mainFile(sidA):        {a("u1", "t1", "Agent")},
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1"), nested(r("x2", "t1", "a9"))},
		}, nil, []string{agentFile(sidA, "a1") + ":2: a9"}},
		{"a call its sidecar links to another agent than its result names", map[string][]string{
			mainFile(sidA):        {a("u1", "t1", "Agent"), r("u2", "t1", "a2")},
			agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1")},
			"-p/" + sidA + "/subagents/agent-a1.meta.json": {`{"agentType":"general-purpose","toolUseId":"t1"}`},
		}, []string{mainFile(sidA) + ":2: a2"}, nil},
		{"a call on a user line, its result on an assistant line (a counter reads neither there)", map[string][]string{
			mainFile(sidA): {strings.Replace(a("u1", "t1", "Agent"), `"type":"assistant"`, `"type":"user"`, 1), strings.Replace(r("u2", "t1", "a1"), `"type":"user"`, `"type":"assistant"`, 1)},
		}, nil, []string{mainFile(sidA) + ":2: a1"}},
		{"two calls naming one agent, answered in reverse: said at the first result read", map[string][]string{
			mainFile(sidA): {a("u1", "t1", "Agent"), a("u2", "t2", "Agent"), r("u3", "t2", "a1"), r("u4", "t1", "a1")},
		}, []string{mainFile(sidA) + ":3: a1"}, []string{mainFile(sidA) + ":4: a1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := writeTree(t, c.files)
			if got := treeUnlinked(t, root); !slices.Equal(got, c.model) {
				t.Errorf("the model says %q, the case %q", got, c.model)
			}
			everyReadSays(t, root, c.want)
		})
	}
}

// Calls left waiting (a session cut off mid-call, results the counter
// never links) cost one pass over each later user line, whatever their
// number: not one pass a call. The start of a user line too long to be
// shown whole is parsed while a call waits.
func TestWaitingCallsAreLookedUpInOnePass(t *testing.T) {
	f := newCounter(false).File(Source{Path: "x"})
	f.pending = map[string]bool{}
	for i := range 1000 {
		f.pending[fmt.Sprintf("toolu_%04d", i)] = true
	}
	no := func([]byte) bool { return false }
	line := []byte(`{"type":"user","message":{"content":[{"tool_use_id":"toolu_other","type":"tool_result","content":"` + strings.Repeat("x", 10000) + `"}]}}`)
	for _, tc := range []struct {
		line []byte
		want bool
	}{
		{line, false},
		{bytes.Replace(line, []byte("toolu_other"), []byte("toolu_0999"), 1), true},
		{bytes.Replace(line, []byte(`"tool_use_id":"toolu_other"`), []byte(`"tool_use_id" : "toolu_0500"`), 1), true},
		{bytes.Replace(line, []byte("toolu_other"), []byte(`toolu_\u0030`), 1), true}, // an escape: parsed to be sure
		{bytes.Replace(line, []byte(`"type":"user"`), []byte(`"type":"progress"`), 1), false},
	} {
		if got := f.wants(no, tc.line); got != tc.want {
			t.Errorf("wants %.60q… = %v, want %v", tc.line, got, tc.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { f.wants(no, line) }); n != 0 {
		t.Errorf("%v allocations a line", n)
	}
	if !f.wantsHead(no, line) || f.wantsHead(no, bytes.Replace(line, []byte(`"type":"user"`), []byte(`"type":"progress"`), 1)) {
		t.Error("the start of a long user line is not parsed while calls wait, or another line's is")
	}
	if idle := newCounter(false).File(Source{Path: "y"}); idle.wantsHead(no, line) {
		t.Error("the start of a long line is parsed while no call waits")
	}
}

// ls --long keeps the counts of a session whose results name a missing
// agent (a warm run does not read it again) and says the agent on every
// run; whether it ran in another session is looked at again each time,
// so that a warm run says what --no-cache says when that session's
// transcript of it is gone.
func TestLsLongCachesAndSaysMissingAgents(t *testing.T) {
	root := writeTree(t, map[string][]string{
		mainFile(sidA):        {spawn(sidA, "u1", "t1", "Agent"), result(sidA, "u2", "t1", "a1", false), spawn(sidA, "u3", "t3", "Agent"), result(sidA, "u4", "t3", "a3", false)},
		agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1")},
		// B resumes A: A's call and result replayed, its agent's transcript A's.
		mainFile(sidB): {spawn(sidA, "u1", "t1", "Agent"), result(sidA, "u2", "t1", "a1", false), user("v1", "u2", "go on")},
	})
	cdir := t.TempDir()
	stats := func(cacheDir string) (said []string, read int) {
		f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
		var mu sync.Mutex
		var issues []reader.Issue
		o := ReadOptions{OnIssue: func(is reader.Issue) { mu.Lock(); issues = append(issues, is); mu.Unlock() }}
		if cacheDir != "" {
			o.Cache = cache.Open(cacheDir, nil)
		}
		readStats = func(s *session.Session, agents []session.Agent, o ReadOptions) (SessionStats, []reader.Issue) {
			mu.Lock()
			read++
			mu.Unlock()
			return sessionStats(s, agents, o)
		}
		defer func() { readStats = sessionStats }()
		Stats(f, f.Sessions(), o)
		return unlinkedOf(root, issues), read
	}
	want := []string{mainFile(sidA) + ":4: a3"}
	if said, read := stats(cdir); !slices.Equal(said, want) || read != 2 {
		t.Fatalf("first run: said %q, read %d sessions; want %q, 2", said, read, want)
	}
	if said, read := stats(cdir); !slices.Equal(said, want) || read != 0 {
		t.Errorf("warm run: said %q, read %d sessions; want %q, none read", said, read, want)
	}
	if err := os.Remove(filepath.Join(root, agentFile(sidA, "a1"))); err != nil {
		t.Fatal(err)
	}
	cold, _ := stats("")
	warm, _ := stats(cdir)
	if want := []string{mainFile(sidA) + ":2: a1", mainFile(sidA) + ":4: a3", mainFile(sidB) + ":2: a1"}; !slices.Equal(cold, want) || !slices.Equal(warm, cold) {
		t.Errorf("A's agent transcript deleted: warm %q, --no-cache %q, want %q", warm, cold, want)
	}
	if tk := countIssues(t, root, "", false); !slices.Equal(tk, cold) {
		t.Errorf("ls --long %q, tokens %q", cold, tk)
	}
}

// With a window, a session without a response in it is left out of the
// report, and so is what its agents lack: an old session's missing agent
// does not fail tokens --since 1d --strict. A session with a response in
// the window still says it.
func TestAWindowLeavesOutTheMissingAgentsOfSessionsOutsideIt(t *testing.T) {
	root := writeTree(t, map[string][]string{mainFile(sidA): {spawn(sidA, "u1", "t1", "Agent"), result(sidA, "u2", "t1", "a1", false)}})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	inputs, err := Inputs(f, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tc := range []struct {
		w    Window
		want []string
	}{
		{Window{}, []string{mainFile(sidA) + ":2: a1"}},
		{Window{Since: day("2025-12-01")}, []string{mainFile(sidA) + ":2: a1"}},
		{Window{Since: day("2026-06-01")}, nil},
		{Window{Until: day("2025-06-01")}, nil},
	} {
		var issues []reader.Issue
		BuildTotals(inputs, DefaultPrices(), tc.w, ReadOptions{OnIssue: func(is reader.Issue) { issues = append(issues, is) }})
		if got := unlinkedOf(root, issues); !slices.Equal(got, tc.want) {
			t.Errorf("window %+v: %q, want %q", tc.w, got, tc.want)
		}
	}
}

// A session copied (or resumed) into another project folder names the
// agents of the one it replays, whose transcripts stay in the first
// folder: counted together, the agent's tokens are in the report (under
// the first session), and that is no warning; counted alone, the copy
// lacks them, and says so.
func TestAnAgentCountedInAnotherFolderIsNoWarning(t *testing.T) {
	const sidC = "cccccccc-0000-0000-0000-000000000003"
	lines := []string{spawn(sidA, "u1", "t1", "Agent"), result(sidA, "u2", "t1", "a1", false)}
	copied := "-q/" + sidC + ".jsonl"
	root := writeTree(t, map[string][]string{
		mainFile(sidA):        lines,
		agentFile(sidA, "a1"): {agentLine(sidA, "a1", "x1")},
		copied:                lines,
	})
	for _, cacheDir := range []string{"", t.TempDir()} {
		if got := countIssues(t, root, cacheDir, false); got != nil {
			t.Errorf("both folders counted (cache %q): %q", cacheDir, got)
		}
	}
	alone := writeTree(t, map[string][]string{copied: lines})
	if got, want := countIssues(t, alone, "", false), []string{copied + ":2: a1"}; !slices.Equal(got, want) {
		t.Errorf("the copy alone: %q, want %q", got, want)
	}
}

// A 2.0.x session whose main transcript is gone leaves its flat agent
// files (agent-<id>.jsonl beside the sessions, each recording the
// session): they are the session, counted as a subagents/ folder left
// by Claude Code's cleanup is.
func TestAFlatAgentWithoutItsSessionIsCounted(t *testing.T) {
	root := writeTree(t, map[string][]string{
		"-p/agent-a1.jsonl": {agentLine(sidA, "a1", "x1"), asst("x2", "x1", "m1", "r1", 1, 10, 0, 100, "")},
	})
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	inputs, err := Inputs(f, Selection{})
	if err != nil {
		t.Fatal(err)
	}
	rep := BuildTotals(inputs, nil, Window{}, ReadOptions{})
	if len(rep.Sessions) != 1 || rep.Sessions[0].ID != sidA || rep.Total.APICalls != 2 || rep.Total.Output != 12 { // the agent line is a response too
		t.Errorf("sessions %d, total %+v", len(rep.Sessions), rep.Total)
	}
}
