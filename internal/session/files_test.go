package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/testfs"
)

// The file matrix: odd files on disk. Each case builds a projects dir with
// one good session (id1) beside the odd one and checks that the good one is
// still listed, the odd one gives the expected warning (or is silently not
// a session), and nothing hangs.
func TestFileMatrix(t *testing.T) {
	good := lines(userLine("the good one", ""))
	tests := []struct {
		name   string
		setup  func(t *testing.T, root string)
		ids    string // sessions Sessions() lists, sorted
		listed string // sessions List() shows, sorted
		warn   string // substring of the warnings ("" = none)
	}{
		{
			name:   "empty file: a session, hidden from the listing",
			setup:  func(t *testing.T, root string) { writeAt(t, root, "-p/"+id2+".jsonl", "") },
			ids:    id1 + " " + id2,
			listed: id1,
		},
		{
			name:   "only blank lines",
			setup:  func(t *testing.T, root string) { writeAt(t, root, "-p/"+id2+".jsonl", "\n\n \r\n") },
			ids:    id1 + " " + id2,
			listed: id1,
		},
		{
			name: "a directory named <uuid>.jsonl",
			setup: func(t *testing.T, root string) {
				mkdir(t, filepath.Join(root, "-p", id2+".jsonl"))
			},
			ids: id1, listed: id1, warn: id2 + ".jsonl: not a regular file, skipped",
		},
		{
			name: "a symlink to itself named <uuid>.jsonl",
			setup: func(t *testing.T, root string) {
				symlink(t, id2+".jsonl", filepath.Join(root, "-p", id2+".jsonl"))
			},
			ids: id1, listed: id1, warn: id2 + ".jsonl: too many levels of symbolic links, skipped",
		},
		{
			name: "two symlinks pointing at each other",
			setup: func(t *testing.T, root string) {
				symlink(t, id3+".jsonl", filepath.Join(root, "-p", id2+".jsonl"))
				symlink(t, id2+".jsonl", filepath.Join(root, "-p", id3+".jsonl"))
			},
			ids: id1, listed: id1, warn: id2 + ".jsonl: too many levels of symbolic links, skipped",
		},
		{
			name: "a project folder that links to itself",
			setup: func(t *testing.T, root string) {
				symlink(t, "loop", filepath.Join(root, "loop"))
			},
			ids: id1, listed: id1,
		},
		{
			// The link makes the same file reachable twice: listed once.
			name: "a project folder that links back to the projects dir",
			setup: func(t *testing.T, root string) {
				symlink(t, root, filepath.Join(root, "up"))
				symlink(t, filepath.Join(root, "-p"), filepath.Join(root, "-p-again"))
			},
			ids: id1, listed: id1,
		},
		{
			name: "a dangling symlink named <uuid>.jsonl",
			setup: func(t *testing.T, root string) {
				symlink(t, "/nonexistent/cctx", filepath.Join(root, "-p", id2+".jsonl"))
			},
			ids: id1, listed: id1, warn: "no such file or directory",
		},
		{
			name:   "a symlinked session file is followed",
			setup:  func(t *testing.T, root string) { symlink(t, id1+".jsonl", filepath.Join(root, "-p", id2+".jsonl")) },
			ids:    id1 + " " + id2,
			listed: id1 + " " + id2,
		},
		{
			name: "a FIFO named <uuid>.jsonl is never opened",
			setup: func(t *testing.T, root string) {
				if err := mkfifo(filepath.Join(root, "-p", id2+".jsonl")); err != nil {
					t.Skip("no mkfifo:", err)
				}
			},
			ids: id1, listed: id1, warn: "not a regular file, skipped",
		},
		{
			name: "binary garbage",
			setup: func(t *testing.T, root string) {
				writeAt(t, root, "-p/"+id2+".jsonl", "\x00\x01\x02\xff\xfe"+strings.Repeat("\x00", 100<<10))
			},
			ids: id1 + " " + id2, listed: id1,
		},
		{
			name: "a file that is one huge line without a newline",
			setup: func(t *testing.T, root string) {
				writeAt(t, root, "-p/"+id2+".jsonl", `{"type":"user","message":{"content":"`+strings.Repeat("x", 3*liteBytes))
			},
			ids: id1 + " " + id2, listed: id1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, map[string]string{"-p/" + id1 + ".jsonl": good})
			tt.setup(t, root)
			var stderr bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, true, false))
			done := make(chan Listing, 1)
			var ss []*Session
			go func() {
				ss = f.Sessions()
				done <- f.List(ListOptions{})
			}()
			var l Listing
			select {
			case l = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("listing did not finish: a loop was followed")
			}
			if got := sortedIDs(ss); got != tt.ids {
				t.Errorf("Sessions %q, want %q", got, tt.ids)
			}
			var listed []*Session
			for _, in := range l.Sessions {
				listed = append(listed, in.Session)
			}
			if got := sortedIDs(listed); got != tt.listed {
				t.Errorf("List %q, want %q", got, tt.listed)
			}
			warnings := warningLines(stderr.String())
			if tt.warn == "" && warnings != "" {
				t.Errorf("unexpected warnings:\n%s", warnings)
			}
			if !strings.Contains(warnings, tt.warn) {
				t.Errorf("warnings %q, want %q", warnings, tt.warn)
			}
			// Every listed session can be read to the end.
			for _, s := range ss {
				r, c, err := reader.Open(s.Path, reader.Options{})
				if err != nil {
					t.Errorf("%s: %v", s.Path, err)
					continue
				}
				for _, ok := r.Next(); ok; _, ok = r.Next() {
				}
				c.Close()
			}
		})
	}
}

// Subagent folders: directories named like agent files, symlink loops and
// links that leave the session's folder. The walk does not follow links,
// so a loop cannot trap it and a link cannot smuggle in another file.
func TestAgentFileMatrix(t *testing.T) {
	sub := "-p/" + id1 + "/subagents/"
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":          lines(userLine("main", "")),
		sub + "agent-ok.jsonl":          lines(userLine("sub", `"isSidechain":true,`)),
		sub + "deep/agent-deep.jsonl":   lines(userLine("sub", `"isSidechain":true,`)),
		"elsewhere/agent-outside.jsonl": lines(userLine("outside", "")),
	})
	base := filepath.Join(root, "-p", id1, "subagents")
	mkdir(t, filepath.Join(base, "agent-dir.jsonl"))
	symlink(t, base, filepath.Join(base, "deep", "loop-up"))
	symlink(t, "self", filepath.Join(base, "self"))
	symlink(t, filepath.Join(root, "elsewhere", "agent-outside.jsonl"), filepath.Join(base, "agent-link.jsonl"))
	symlink(t, filepath.Join(root, "elsewhere"), filepath.Join(base, "elsewhere"))
	// A flat agent-*.jsonl directory and a flat link loop in the project.
	mkdir(t, filepath.Join(root, "-p", "agent-flatdir.jsonl"))
	symlink(t, "agent-flatloop.jsonl", filepath.Join(root, "-p", "agent-flatloop.jsonl"))

	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, true, false))
	done := make(chan []Agent, 1)
	go func() {
		s, err := f.Resolve(id1)
		if err != nil {
			t.Error(err)
			done <- nil
			return
		}
		agents := f.Agents(s)
		// What tokens counts: the same files, found without a stat each.
		if got, want := agentKeys(f.AgentPaths(s)), agentKeys(agents); got != want {
			t.Errorf("AgentPaths %q, Agents %q", got, want)
		}
		done <- agents
	}()
	var agents []Agent
	select {
	case agents = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Agents did not finish: a link loop was followed")
	}
	var ids []string
	for _, a := range agents {
		ids = append(ids, a.ID)
		if !strings.HasPrefix(a.Path, base) {
			t.Errorf("agent %s outside the session folder: %s", a.ID, a.Path)
		}
	}
	if got := strings.Join(ids, " "); got != "ok deep" { // sorted by path
		t.Errorf("agents %q, want the two real files (ok deep)", got)
	}
	// What is skipped is said, so that a transcript reported missing is
	// no mystery.
	for _, skipped := range []string{"agent-link.jsonl", "elsewhere", "loop-up"} {
		if !strings.Contains(stderr.String(), skipped+": a symlink, not followed") {
			t.Errorf("no warning for the link %s: %q", skipped, stderr.String())
		}
	}
}

// Permissions: an unreadable session is reported and the rest is listed.
// Root reads everything: as root the test runs again as nobody.
func TestUnreadableFiles(t *testing.T) {
	if testfs.RunUnprivileged(t) {
		return
	}
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                         lines(userLine("readable", "")),
		"-p/" + id2 + ".jsonl":                         lines(userLine("locked", "")),
		"-q/" + id3 + ".jsonl":                         lines(userLine("in a locked folder", "")),
		"-p/" + id1 + "/subagents/agent-x.jsonl":       lines(userLine("sub", `"isSidechain":true,`)),
		"-p/" + id1 + "/subagents/inner/agent-y.jsonl": lines(userLine("sub", `"isSidechain":true,`)),
	})
	chmod(t, filepath.Join(root, "-p", id2+".jsonl"), 0)
	chmod(t, filepath.Join(root, "-q"), 0)
	chmod(t, filepath.Join(root, "-p", id1, "subagents", "inner"), 0)
	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
	l := f.List(ListOptions{})
	var listed []*Session
	for _, in := range l.Sessions {
		listed = append(listed, in.Session)
	}
	if got := sortedIDs(listed); got != id1 {
		t.Errorf("listed %q, want only the readable session", got)
	}
	out := stderr.String()
	for _, want := range []string{"/-p/" + id2 + ".jsonl: ", "/-q: ", "/inner: "} {
		found := false
		for _, line := range strings.Split(out, "\n") {
			found = found || strings.HasPrefix(line, "cctx: warning: ") && strings.Contains(line, want) && strings.HasSuffix(line, "permission denied")
		}
		if !found {
			t.Errorf("no warning naming %q with permission denied in %q", want, out)
		}
	}
	s, _ := f.Resolve(id1)
	if ag := f.Agents(s); len(ag) != 1 || ag[0].ID != "x" {
		t.Errorf("agents %v, want x (inner/ is unreadable)", ag)
	}
	if !strings.Contains(out, "inner") {
		t.Errorf("the unreadable subagent folder is not reported: %q", out)
	}
}

// A file removed while it is read: the open descriptor keeps the data
// (POSIX), so the read ends normally with every entry.
func TestFileRemovedWhileRead(t *testing.T) {
	p, n := bigTranscript(t, 4<<20)
	r, c, err := reader.Open(p, reader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := 0
	for ; got < 10; got++ {
		if _, ok := r.Next(); !ok {
			t.Fatal("short file")
		}
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	for _, ok := r.Next(); ok; _, ok = r.Next() {
		got++
	}
	if r.Err() != nil || got != n {
		t.Errorf("read %d of %d entries after removal, err %v", got, n, r.Err())
	}
}

// A file truncated while it is read (a log rotated, a session rewritten):
// the read stops at the new end; the cut line is reported, never returned
// as an entry, and the entries read are intact and in order.
func TestFileTruncatedWhileRead(t *testing.T) {
	p, n := bigTranscript(t, 4<<20)
	var issues []reader.Issue
	r, c, err := reader.Open(p, reader.Options{KeepRaw: true, OnIssue: func(is reader.Issue) { issues = append(issues, is) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got := 0
	check := func(e reader.Entry) {
		if want := fmt.Sprintf("u%06d", got); e.UUID != want || !reader.Valid(e.Raw) {
			t.Fatalf("entry %d: uuid %q valid %v", got, e.UUID, reader.Valid(e.Raw))
		}
		got++
	}
	for got < 10 {
		e, ok := r.Next()
		if !ok {
			t.Fatal("short file")
		}
		check(e)
	}
	// Cut in the middle of a line, well past what the reader has buffered.
	if err := os.Truncate(p, 3<<20+17); err != nil {
		t.Fatal(err)
	}
	for e, ok := r.Next(); ok; e, ok = r.Next() {
		check(e)
	}
	if r.Err() != nil {
		t.Errorf("read error: %v", r.Err())
	}
	if got >= n || got < 10 {
		t.Errorf("read %d of %d entries: the truncation was not seen", got, n)
	}
	if len(issues) != 1 || issues[0].Kind != reader.TruncatedTail {
		t.Errorf("issues %v, want one truncated tail", issues)
	}

	// Lite on a file that shrank under it reads what is there.
	if err := os.Truncate(p, 100<<10+5); err != nil {
		t.Fatal(err)
	}
	in, err := Lite(&Session{ID: id1, Path: p})
	if err != nil || in.FirstPrompt == "" {
		t.Errorf("Lite after truncation: %v, %+v", err, in)
	}
}

// A file appended to while it is read (a live session): the reader sees a
// prefix of the lines, each whole, in order. A line caught half-written at
// the end is at most one truncated-tail issue, never a broken entry.
func TestFileAppendedWhileRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), id1+".jsonl")
	w, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const total = 3000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range total {
			l := fmt.Sprintf(`{"type":"user","uuid":"u%06d","message":{"role":"user","content":"%s"}}`+"\n", i, strings.Repeat("z", i%500))
			// Write each line in two pieces so the reader can catch one
			// half-written.
			half := len(l) / 2
			w.WriteString(l[:half])
			if i%50 == 0 {
				time.Sleep(time.Millisecond)
			}
			w.WriteString(l[half:])
		}
	}()
	// Read repeatedly while the writer runs, then once more at the end.
	// The limit is time, not passes: on a loaded machine (or under -race)
	// the writer can be starved for many fast passes.
	deadline := time.Now().Add(2 * time.Minute)
	for pass := 0; ; pass++ {
		finished := waitTimeout(&wg, 0)
		var issues []reader.Issue
		r, c, err := reader.Open(p, reader.Options{KeepRaw: true, OnIssue: func(is reader.Issue) { issues = append(issues, is) }})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for e, ok := r.Next(); ok; e, ok = r.Next() {
			if want := fmt.Sprintf("u%06d", got); e.UUID != want || !reader.Valid(e.Raw) {
				t.Fatalf("pass %d entry %d: uuid %q", pass, got, e.UUID)
			}
			got++
		}
		c.Close()
		if r.Err() != nil {
			t.Fatalf("pass %d: %v", pass, r.Err())
		}
		if len(issues) > 1 || len(issues) == 1 && (issues[0].Kind != reader.TruncatedTail || issues[0].Line != got+1) {
			t.Fatalf("pass %d: issues %v after %d entries", pass, issues, got)
		}
		if finished {
			if got != total || len(issues) != 0 {
				t.Errorf("final pass: %d of %d entries, issues %v", got, total, issues)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("writer never finished (%d passes)", pass)
		}
	}
}

// A project folder with thousands of sessions is listed fast: a listing
// reads only each file's head and tail, in parallel.
func TestThousandsOfSessions(t *testing.T) {
	const n = 3000
	dir := filepath.Join(t.TempDir(), "-p")
	mkdir(t, dir)
	for i := range n {
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		content := lines(
			fmt.Sprintf(`{"type":"user","uuid":"u","cwd":"/w","timestamp":"2026-01-01T10:%02d:%02dZ","message":{"role":"user","content":"prompt %d"}}`, i/60%60, i%60, i),
			`{"type":"assistant","uuid":"a","parentUuid":"u","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"ok"}]}}`,
		)
		if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := NewFinder([]Root{{ProjectsDir: filepath.Dir(dir)}}, nil)
	start := time.Now()
	l := f.List(ListOptions{Limit: 50})
	took := time.Since(start)
	if l.Matched != n || len(l.Sessions) != 50 {
		t.Errorf("matched %d, shown %d", l.Matched, len(l.Sessions))
	}
	if l.Sessions[0].Title != fmt.Sprintf("prompt %d", n-1) && l.Sessions[0].UpdatedAt.Before(l.Sessions[49].UpdatedAt) {
		t.Errorf("not newest first: %q", l.Sessions[0].Title)
	}
	// Generous for -race on a loaded machine; a listing that reads whole
	// files or runs one file at a time with a slow path shows up here.
	if limit := 10 * time.Second; took > limit {
		t.Errorf("listing %d sessions took %v (limit %v)", n, took, limit)
	}
	t.Logf("listed %d sessions in %v", n, took)
	start = time.Now()
	if s, err := f.Resolve("00000bb8"[:8]); err == nil {
		t.Errorf("resolved a missing session to %s", s.ID)
	}
	if s, err := f.Resolve(fmt.Sprintf("%08x", 2999)); err != nil || !strings.HasPrefix(s.ID, "00000bb7") {
		t.Errorf("resolve among %d: %v", n, err)
	}
	t.Logf("two resolutions in %v", time.Since(start))
}

// bigTranscript writes a transcript of at least size bytes with numbered
// uuids (u000000, …) and returns its path and number of lines.
func bigTranscript(t *testing.T, size int) (string, int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), id1+".jsonl")
	var b strings.Builder
	n := 0
	for b.Len() < size {
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%06d","message":{"role":"user","content":"%s"}}`+"\n", n, strings.Repeat("y", 900))
		n++
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, n
}

// waitTimeout reports whether wg is done within d.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	c := make(chan struct{})
	go func() { wg.Wait(); close(c) }()
	select {
	case <-c:
		return true
	case <-time.After(d):
		return false
	}
}

func sortedIDs(ss []*Session) string {
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.ID)
	}
	sortStrings(ids)
	return strings.Join(ids, " ")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// warningLines keeps the warning lines of a diagnostic stream (notes are
// -v extras).
func warningLines(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "cctx: warning: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func writeAt(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, rel)
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	// Restore, so that t.TempDir can remove it.
	t.Cleanup(func() { os.Chmod(p, 0o755) })
}

// mkfifo makes a named pipe: opening it for reading would block forever.

// Agents runs again and again while a session is followed: what it skips
// is said once.
func TestAgentsWarnsOnce(t *testing.T) {
	root := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("main", "")), "elsewhere/agent-x.jsonl": lines(userLine("x", ""))})
	sub := filepath.Join(root, "-p", id1, "subagents")
	mkdir(t, sub)
	symlink(t, filepath.Join(root, "elsewhere", "agent-x.jsonl"), filepath.Join(sub, "agent-x.jsonl"))
	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
	s, err := f.Resolve(id1)
	if err != nil {
		t.Fatal(err)
	}
	f.Agents(s)
	f.Agents(s)
	if n := strings.Count(stderr.String(), "a symlink, not followed"); n != 1 {
		t.Errorf("warned %d times: %q", n, stderr.String())
	}
}

// An agent's sidecar that is a link is not read (it could bring a file
// from anywhere in as the agent's type and description), and is said; a
// sidecar that is a file of the folder is.
func TestAgentSidecarLinkIsNotFollowed(t *testing.T) {
	root := write(t, map[string]string{
		"-p/" + id1 + ".jsonl":                       lines(userLine("main", "")),
		"-p/" + id1 + "/subagents/agent-a.jsonl":     lines(userLine("a", "")),
		"-p/" + id1 + "/subagents/agent-a.meta.json": `{"agentType":"Explore"}`,
		"-p/" + id1 + "/subagents/agent-b.jsonl":     lines(userLine("b", "")),
		"elsewhere/secret.json":                      `{"agentType":"secret"}`,
	})
	symlink(t, filepath.Join(root, "elsewhere", "secret.json"), filepath.Join(root, "-p", id1, "subagents", "agent-b.meta.json"))
	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
	s, err := f.Resolve(id1)
	if err != nil {
		t.Fatal(err)
	}
	metas := map[string]string{}
	for _, a := range f.Agents(s) {
		metas[a.ID] = a.MetaPath
	}
	if metas["a"] == "" || metas["b"] != "" || len(metas) != 2 {
		t.Errorf("sidecars %q: want agent-a's only", metas)
	}
	if !strings.Contains(stderr.String(), "agent-b.meta.json: a symlink, not followed") {
		t.Errorf("the link is not said: %q", stderr.String())
	}
}

// A listing looks for subagents only in the session folders its project
// folder listing showed (a session folder as a link too); a session that
// is followed sees a folder made after it was listed.
func TestListedSessionFolders(t *testing.T) {
	root := t.TempDir()
	const line = `{"type":"user","timestamp":"2026-01-01T00:00:00Z","cwd":"/p","message":{"role":"user","content":"hi"}}` + "\n"
	const a, b, c = "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002", "cccccccc-0000-4000-8000-000000000003"
	for _, id := range []string{a, b, c} {
		writeAt(t, root, "proj/"+id+".jsonl", line)
	}
	writeAt(t, root, "proj/"+a+"/subagents/agent-x1.jsonl", line)
	writeAt(t, root, "proj/agent-f1.jsonl", `{"type":"user","sessionId":"`+a+`","isSidechain":true}`+"\n") // 2.0.x flat
	writeAt(t, root, "elsewhere/subagents/agent-x2.jsonl", line)
	symlink(t, filepath.Join(root, "elsewhere"), filepath.Join(root, "proj", c))
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.Discard())
	list := f.List(ListOptions{})
	got := map[string]int{}
	for _, in := range list.Sessions {
		got[in.ID] = in.Subagents
	}
	for _, s := range f.Sessions() {
		if got, want := agentKeys(f.AgentPaths(s)), agentKeys(f.Agents(s)); got != want {
			t.Errorf("%s: AgentPaths %q, Agents %q", s.ID, got, want)
		}
	}
	for _, w := range []struct {
		id   string
		want int
	}{{a, 2}, {b, 0}, {c, 1}} {
		if got[w.id] != w.want {
			t.Errorf("%s: %d subagents, want %d", w.id, got[w.id], w.want)
		}
	}
	// b gets subagents after it was listed, in both layouts: a listing's
	// view no more.
	writeAt(t, root, "proj/"+b+"/subagents/agent-x3.jsonl", line)
	writeAt(t, root, "proj/agent-f2.jsonl", `{"type":"user","sessionId":"`+b+`","isSidechain":true}`+"\n")
	for _, s := range f.Sessions() {
		if s.ID == b {
			if n := len(f.AgentsNow(s)); n != 2 {
				t.Errorf("AgentsNow of a session whose agents came after the listing: %d agents, want 2", n)
			}
		}
	}
	// A folder listed but not yet indexed: AgentsNow lists it again.
	f2 := NewFinder([]Root{{ProjectsDir: root}}, diag.Discard())
	ss := f2.Sessions()
	writeAt(t, root, "proj/agent-f3.jsonl", `{"type":"user","sessionId":"`+a+`","isSidechain":true}`+"\n")
	for _, s := range ss {
		if s.ID == a {
			if n := len(f2.AgentsNow(s)); n != 3 {
				t.Errorf("AgentsNow after a listing: %d agents, want 3", n)
			}
		}
	}
	for _, in := range list.Sessions {
		if in.ID == b {
			if n := len(f.AgentsNow(in.Session)); n != 2 {
				t.Errorf("AgentsNow of a listed row whose agents came after the listing: %d agents, want 2", n)
			}
		}
	}
}

// agentKeys is the ids and paths of agents, in order.
func agentKeys(agents []Agent) string {
	var b strings.Builder
	for _, a := range agents {
		fmt.Fprintf(&b, "%s=%s ", a.ID, a.Path)
	}
	return b.String()
}

// A nest of folders under subagents/ deeper than any real one is not
// walked to the length a path can reach: said once, with the path cut.
func TestAgentsNestBounded(t *testing.T) {
	root := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("main", ""))})
	deep := filepath.Join(root, "-p", id1, "subagents")
	for range 40 {
		deep = filepath.Join(deep, "dddddddddd")
	}
	mkdir(t, deep)
	if err := os.WriteFile(filepath.Join(deep, "agent-x.jsonl"), []byte(lines(userLine("x", ""))), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
	s, err := f.Resolve(id1)
	if err != nil {
		t.Fatal(err)
	}
	if as := f.Agents(s); len(as) != 0 {
		t.Errorf("agents %v from 40 folders down", as)
	}
	if !strings.Contains(stderr.String(), "nested more than 16 deep") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr %q", stderr.String())
	}
}
