package archive

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testfs"
)

const (
	sid1 = "11111111-1111-4111-8111-111111111111"
	sid2 = "22222222-2222-4222-8222-222222222222"
	sid3 = "33333333-3333-4333-8333-333333333333"
	sid4 = "44444444-4444-4444-8444-444444444444"
)

func line(i int, text string) string {
	return fmt.Sprintf(`{"type":"user","uuid":"u%d","sessionId":"%s","timestamp":"2026-01-02T10:00:%02dZ","message":{"role":"user","content":%q}}`+"\n", i, sid1, i%60, text)
}

// tree writes a projects tree: a session with a subagent and its sidecar,
// a second session, and a flat agent file.
func tree(t *testing.T) (root string) {
	root = filepath.Join(t.TempDir(), "projects")
	var big strings.Builder
	for i := range 3000 { // several zstd frames
		big.WriteString(line(i, strings.Repeat("lorem ipsum ", 40)))
	}
	write(t, root, "-p/"+sid1+".jsonl", big.String())
	write(t, root, "-p/"+sid1+"/subagents/agent-a1.jsonl", line(1, "sub"))
	write(t, root, "-p/"+sid1+"/subagents/agent-a1.meta.json", `{"agentType":"Explore"}`)
	write(t, root, "-p/"+sid2+".jsonl", line(1, "two"))
	write(t, root, "-q/agent-f1.jsonl", line(1, "flat"))
	return root
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendTo(t *testing.T, root, rel, content string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(content)
	f.Close()
}

func run(t *testing.T, src, dir string, o Options) Result {
	t.Helper()
	o.Roots, o.Dir = []session.Root{{ProjectsDir: src}}, dir
	var errOut bytes.Buffer
	if o.Report == nil {
		o.Report = diag.New(&errOut, true, false)
	}
	res, err := Run(o)
	if err != nil {
		t.Fatalf("archive: %v (stderr %s)", err, errOut.String())
	}
	return res
}

// text reads an archived file as the text it holds.
func text(t *testing.T, p string) string {
	t.Helper()
	f, err := reader.OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := f.Section(0, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return string(b)
}

// files lists an archive's files (relative, sorted), without the lock.
func files(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != ".lock" {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// checkMirror: every source file is archived whole (its complete lines).
func checkMirror(t *testing.T, src, dir string, compressed bool) {
	t.Helper()
	filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		want, _ := os.ReadFile(p)
		stored := filepath.Join(dir, "projects", rel)
		if compressed && strings.HasSuffix(p, ".jsonl") {
			stored += ".zst"
		}
		if strings.HasSuffix(p, ".jsonl") {
			want = want[:bytes.LastIndexByte(want, '\n')+1]
		}
		if got := text(t, stored); got != string(want) {
			t.Errorf("%s: archived %d bytes, want %d", rel, len(got), len(want))
		}
		return nil
	})
}

// A transcript with nothing whole in it yet (empty, or its first line
// being written) is counted as that, not as unchanged, until a line of it
// ends; then it is archived as new.
func TestArchiveCountsFilesWithNothingWholeYet(t *testing.T) {
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	write(t, src, "-r/"+sid3+".jsonl", "")
	write(t, src, "-s/"+sid4+".jsonl", `{"type":"user","uuid":"u1"`)
	for i, want := range []Result{{Files: 7, New: 5, Empty: 2}, {Files: 7, Unchanged: 5, Empty: 2}} {
		res := run(t, src, dir, Options{})
		if res.Files != want.Files || res.New != want.New || res.Unchanged != want.Unchanged || res.Empty != want.Empty {
			t.Errorf("run %d: %+v, want %+v", i+1, res, want)
		}
	}
	appendTo(t, src, "-s/"+sid4+".jsonl", "}\n")
	if res := run(t, src, dir, Options{}); res.New != 1 || res.Empty != 1 || res.Unchanged != 5 {
		t.Errorf("after its line ended: %+v", res)
	}
}

func TestArchiveMirrorsAndSkipsUnchanged(t *testing.T) {
	for _, compress := range []bool{true, false} {
		t.Run(fmt.Sprint("compress=", compress), func(t *testing.T) {
			src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
			res := run(t, src, dir, Options{NoCompress: !compress})
			if res.Files != 5 || res.New != 5 || res.Failed != 0 {
				t.Fatalf("first run %+v", res)
			}
			checkMirror(t, src, dir, compress)
			if compress && res.Ratio() < 3 {
				t.Errorf("ratio %.1f", res.Ratio())
			}
			// Every file 0600, every folder 0700 (not on Windows: no modes).
			if runtime.GOOS != "windows" {
				filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
					st, _ := os.Stat(p)
					if want := os.FileMode(0o600); d.IsDir() {
						if st.Mode().Perm() != 0o700 {
							t.Errorf("%s: %v, want 0700", p, st.Mode().Perm())
						}
					} else if st.Mode().Perm() != want {
						t.Errorf("%s: %v, want 0600", p, st.Mode().Perm())
					}
					return nil
				})
			}
			before := files(t, dir)
			res = run(t, src, dir, Options{NoCompress: !compress})
			if res.Unchanged != 5 || res.TextAdded != 0 {
				t.Fatalf("second run %+v: want everything unchanged", res)
			}
			if got := files(t, dir); strings.Join(got, " ") != strings.Join(before, " ") {
				t.Fatalf("files %v, want %v", got, before)
			}
			if !session.IsArchive(dir) {
				t.Fatal("IsArchive")
			}
		})
	}
}

// A file that grew gets its new complete lines only; a line still being
// written waits for the next run; a file deleted at the source stays.
func TestArchiveAppendsCompleteLines(t *testing.T) {
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	run(t, src, dir, Options{})
	rel := "-p/" + sid2 + ".jsonl"
	appendTo(t, src, rel, line(2, "second")+`{"type":"user","uuid":"half`)
	res := run(t, src, dir, Options{})
	if res.Extended != 1 || res.TextAdded != int64(len(line(2, "second"))) {
		t.Fatalf("after an append: %+v", res)
	}
	stored := filepath.Join(dir, "projects", "-p", sid2+".jsonl.zst")
	if got := text(t, stored); got != line(1, "two")+line(2, "second") {
		t.Fatalf("archived %q", got)
	}
	appendTo(t, src, rel, `","sessionId":"x"}`+"\n")
	res = run(t, src, dir, Options{})
	if res.Extended != 1 || !strings.HasSuffix(text(t, stored), `{"type":"user","uuid":"half","sessionId":"x"}`+"\n") {
		t.Fatalf("the finished line: %+v %q", res, text(t, stored))
	}
	// Many small appends: the last frame is framed again, so the file
	// does not fill with tiny frames.
	for i := range 5 {
		appendTo(t, src, rel, line(10+i, "more"))
		run(t, src, dir, Options{})
	}
	if frames, _, _ := reader.ReadSeekTable(stored); len(frames) != 1 {
		t.Errorf("%d frames after small appends, want 1", len(frames))
	}
	os.Remove(filepath.Join(src, filepath.FromSlash(rel)))
	run(t, src, dir, Options{})
	if _, err := os.Stat(stored); err != nil {
		t.Fatalf("deleted at the source, gone from the archive: %v", err)
	}
}

// A file whose start changed is archived anew; the old copy is kept as a
// version beside it, never overwritten.
func TestArchiveKeepsVersionOnRewrite(t *testing.T) {
	for _, compress := range []bool{true, false} {
		src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
		run(t, src, dir, Options{NoCompress: !compress})
		rel := "-p/" + sid2 + ".jsonl"
		write(t, src, rel, line(1, "TWO rewritten")+line(2, "and more"))
		res := run(t, src, dir, Options{NoCompress: !compress})
		if res.Versioned != 1 {
			t.Fatalf("%+v: want one new version", res)
		}
		ext := ".jsonl"
		if compress {
			ext += ".zst"
		}
		cur := filepath.Join(dir, "projects", "-p", sid2+ext)
		old := filepath.Join(dir, "projects", "-p", sid2+"@1"+ext)
		if text(t, cur) != line(1, "TWO rewritten")+line(2, "and more") || text(t, old) != line(1, "two") {
			t.Fatalf("current %q, version %q", text(t, cur), text(t, old))
		}
		// A second rewrite keeps both older versions.
		write(t, src, rel, line(1, "three"))
		run(t, src, dir, Options{NoCompress: !compress})
		if text(t, filepath.Join(dir, "projects", "-p", sid2+"@2"+ext)) != line(1, "TWO rewritten")+line(2, "and more") || text(t, old) != line(1, "two") {
			t.Fatal("versions")
		}
		// The sidecar too.
		write(t, src, "-p/"+sid1+"/subagents/agent-a1.meta.json", `{"agentType":"Plan"}`)
		run(t, src, dir, Options{NoCompress: !compress})
		if text(t, filepath.Join(dir, "projects", "-p", sid1, "subagents", "agent-a1@1.meta.json")) != `{"agentType":"Explore"}` {
			t.Fatal("sidecar version")
		}
		// Versions are neither sessions nor agents.
		f := session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(dir, "projects")}}, nil)
		ss := f.Sessions()
		if len(ss) != 2 {
			t.Fatalf("%d sessions in the archive, want 2", len(ss))
		}
	}
}

// The kill test runs an archive in a child process that dies (os.Exit,
// no deferred call runs) at a point of its run; the next run must leave
// the archive as a clean run does.
func TestArchiveRepairsAfterKill(t *testing.T) {
	if os.Getenv("CCTX_ARCHIVE_CHILD") != "" {
		childRun()
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, point := range []string{"copying", "committed"} {
		for _, n := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s#%d", point, n), func(t *testing.T) {
				src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
				run(t, src, dir, Options{})
				// Something to do in the killed run: new lines, a new
				// file, a rewritten one.
				big := strings.Repeat(line(7, strings.Repeat("dolor ", 100)), 3000)
				appendTo(t, src, "-p/"+sid1+".jsonl", big)
				write(t, src, "-p/"+sid2+".jsonl", line(1, "rewritten"))
				write(t, src, "-q/agent-f2.jsonl", line(1, "new"))
				cmd := exec.Command(exe, "-test.run=^TestArchiveRepairsAfterKill$")
				cmd.Env = append(os.Environ(), "CCTX_ARCHIVE_CHILD=1", "CHILD_SRC="+src, "CHILD_DIR="+dir, "CHILD_POINT="+point, "CHILD_N="+strconv.Itoa(n))
				out, err := cmd.CombinedOutput()
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 9 {
					t.Fatalf("child: %v\n%s", err, out)
				}
				// The archive is whole even now: every file reads.
				for _, f := range files(t, filepath.Join(dir, "projects")) {
					if !strings.HasSuffix(f, tmpSuffix) {
						text(t, filepath.Join(dir, "projects", f))
					}
				}
				res := run(t, src, dir, Options{})
				if res.Failed != 0 {
					t.Fatalf("repair run %+v", res)
				}
				checkMirror(t, src, dir, true)
				for _, f := range files(t, dir) {
					if strings.HasSuffix(f, tmpSuffix) {
						t.Errorf("left over: %s", f)
					}
				}
				if _, err := os.Stat(filepath.Join(dir, "projects", "-p", sid2+"@1.jsonl.zst")); err != nil {
					t.Errorf("the rewritten file's old version: %v", err)
				}
				if res := run(t, src, dir, Options{}); res.Unchanged != res.Files {
					t.Errorf("a third run still works: %+v", res)
				}
			})
		}
	}
}

func childRun() {
	n, _ := strconv.Atoi(os.Getenv("CHILD_N"))
	var seen atomic.Int32
	o := Options{Roots: []session.Root{{ProjectsDir: os.Getenv("CHILD_SRC")}}, Dir: os.Getenv("CHILD_DIR"),
		Hook: func(point, path string) {
			if point == os.Getenv("CHILD_POINT") && int(seen.Add(1)) == n {
				os.Exit(9) // as a kill: no deferred call runs, files stay as they are
			}
		}}
	Run(o)
	os.Exit(0)
}

// Links are followed where the listing follows them: a project folder, a
// session file or a session folder may be a symlink wherever it points
// (history moved to another disk), and is archived as ls lists it; inside
// a session folder a link is said and left (a loop cannot trap the walk).
func TestArchiveSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	moved := t.TempDir() // another disk
	write(t, moved, "-moved/"+sid3+".jsonl", line(1, "moved project"))
	write(t, moved, "elsewhere.jsonl", line(1, "moved session"))
	write(t, moved, sid4+"/subagents/agent-m1.jsonl", line(1, "moved session folder"))
	write(t, moved, "stray.jsonl", line(1, "not a transcript of this session"))
	os.Symlink(filepath.Join(moved, "-moved"), filepath.Join(src, "-moved"))
	os.Symlink(filepath.Join(moved, "elsewhere.jsonl"), filepath.Join(src, "-p", sid4+".jsonl"))
	os.Symlink(filepath.Join(moved, sid4), filepath.Join(src, "-p", sid4))
	os.Symlink(filepath.Join(moved, "stray.jsonl"), filepath.Join(src, "-p", sid1, "subagents", "agent-s1.jsonl"))
	os.Symlink(filepath.Join(src, "-p", sid1), filepath.Join(src, "-p", sid1, "subagents", "loop"))
	os.Symlink(filepath.Join(moved, "gone.jsonl"), filepath.Join(src, "-p", "55555555-5555-4555-8555-555555555555.jsonl"))
	os.Symlink(filepath.Join(moved, "gone.txt"), filepath.Join(src, "-p", "notes.txt")) // not a transcript: left, as ls leaves it
	os.Symlink(filepath.Join(moved, "unmounted"), filepath.Join(src, "-gone"))
	var errOut bytes.Buffer
	rep := diag.New(&errOut, false, false)
	res := run(t, src, dir, Options{Report: rep})
	// A link to nothing is a file that cannot be read (exit 1), said as
	// the listing says it.
	if rep.UnreadableFiles() != 1 || !strings.Contains(errOut.String(), "55555555-5555-4555-8555-555555555555.jsonl: no such file or directory") {
		t.Errorf("a dangling link: %d unreadable, stderr %q", rep.UnreadableFiles(), errOut.String())
	}
	for _, rel := range []string{"-moved/" + sid3 + ".jsonl.zst", "-p/" + sid4 + ".jsonl.zst", "-p/" + sid4 + "/subagents/agent-m1.jsonl.zst"} {
		if _, err := os.Stat(filepath.Join(dir, "projects", filepath.FromSlash(rel))); err != nil {
			t.Errorf("a linked %s is not archived: %v", rel, err)
		}
	}
	for _, f := range files(t, dir) {
		if strings.Contains(f, "agent-s1") || strings.Contains(f, "loop") {
			t.Errorf("archived %s, a link inside a session folder", f)
		}
	}
	if n := strings.Count(errOut.String(), "a symlink, not followed"); n != 2 {
		t.Errorf("%d links said, want 2 (agent-s1, loop): %q", n, errOut.String())
	}
	if res.Files != 8 {
		t.Errorf("%d files archived, want 8 (5 of the tree, 3 linked)", res.Files)
	}
	// --status counts the linked sessions like the others: archived now.
	st, err := GetStatus([]session.Root{{ProjectsDir: src}}, dir, t.TempDir(), time.Now(), nil)
	if err != nil || st.Sessions != 4 || st.Files != 8 || st.PendingFiles != 0 {
		t.Errorf("status after the run: %d sessions, %d files, %d not archived (%v); want 4, 8, 0", st.Sessions, st.Files, st.PendingFiles, err)
	}
}

// A file that cannot be written (here a folder stands where it goes, as
// a full disk would fail) stops the run with an error naming it; what was
// archived before is intact.
func TestArchiveWriteErrorNamesTheFile(t *testing.T) {
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	run(t, src, dir, Options{})
	write(t, src, "-z/"+sid2+".jsonl", line(1, "new"))
	os.MkdirAll(filepath.Join(dir, "projects", "-z", sid2+".jsonl.zst", "x"), 0o700)
	_, err := Run(Options{Roots: []session.Root{{ProjectsDir: src}}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), filepath.Join("-z", sid2+".jsonl.zst")) || !strings.Contains(err.Error(), "intact") {
		t.Fatalf("err %v", err)
	}
	os.RemoveAll(filepath.Join(src, "-z"))
	checkMirror(t, src, dir, true)
}

func TestArchiveRefusesOverlap(t *testing.T) {
	src := tree(t)
	for _, dir := range []string{filepath.Join(src, "-p", "arch"), filepath.Dir(src)} {
		if _, err := Run(Options{Roots: []session.Root{{ProjectsDir: src}}, Dir: dir}); err == nil || !strings.Contains(err.Error(), "overlap") {
			t.Errorf("%s: err %v", dir, err)
		}
	}
}

func TestStatus(t *testing.T) {
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	home := t.TempDir()
	now := time.Now()
	old := now.Add(-25 * 24 * time.Hour) // deleted within 7 days at 30
	os.Chtimes(filepath.Join(src, "-p", sid2+".jsonl"), old, old)
	st, err := GetStatus([]session.Root{{ProjectsDir: src}}, dir, home, now, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Exists || st.PendingFiles != 5 || st.PendingSessions != 2 || len(st.AtRisk) != 1 || st.AtRisk[0].Session != "-p/"+sid2 || st.CleanupDays != 30 {
		t.Fatalf("before: %+v", st)
	}
	run(t, src, dir, Options{})
	appendTo(t, src, "-p/"+sid1+".jsonl", line(9, "new"))
	st, _ = GetStatus([]session.Root{{ProjectsDir: src}}, dir, home, now, nil)
	if !st.Exists || st.LastRun.IsZero() || st.PendingFiles != 1 || st.PendingBytes != int64(len(line(9, "new"))) || len(st.AtRisk) != 0 {
		t.Fatalf("after: %+v", st)
	}
	// cleanupPeriodDays from settings.json: 60 days puts nothing at risk,
	// 10 puts everything older than 3 days.
	write(t, home, ".claude/settings.json", `{"cleanupPeriodDays": 10}`)
	os.Chtimes(filepath.Join(src, "-p", sid1+".jsonl"), old, old)
	st, _ = GetStatus([]session.Root{{ProjectsDir: src}}, dir, home, now, nil)
	if st.CleanupDays != 10 || len(st.AtRisk) != 1 {
		t.Fatalf("at 10 days: %+v", st)
	}
}

// TestArchiveIsNotAFile: an archive path that is a file is said so, by
// a run and by --status, not as the error of a file made under it.
func TestArchiveIsNotAFile(t *testing.T) {
	src := tree(t)
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	roots := []session.Root{{ProjectsDir: src}}
	_, runErr := Run(Options{Roots: roots, Dir: file})
	_, stErr := GetStatus(roots, file, t.TempDir(), time.Now(), nil)
	for _, err := range []error{runErr, stErr} {
		if want := "the archive " + file + " is not a directory"; err == nil || err.Error() != want {
			t.Errorf("err %v, want %q", err, want)
		}
	}
}

// A transcript the run could not read (permission denied) and a project
// folder it could not list are said by --status as by the run, and
// counted among what could not be read: both exit 1.
func TestStatusSaysWhatTheRunCouldNotRead(t *testing.T) {
	if testfs.RunUnprivileged(t) {
		return
	}
	src, dir := tree(t), filepath.Join(t.TempDir(), "arch")
	write(t, src, "-r/"+sid2+".jsonl", line(1, "in a folder that cannot be listed"))
	if err := os.Chmod(filepath.Join(src, "-p", sid2+".jsonl"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(src, "-r"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(src, "-r"), 0o755) })
	var errOut bytes.Buffer
	rep := diag.New(&errOut, false, false)
	if _, err := GetStatus([]session.Root{{ProjectsDir: src}}, dir, t.TempDir(), time.Now(), rep); err != nil {
		t.Fatal(err)
	}
	if n := rep.UnreadableFiles(); n != 2 {
		t.Errorf("--status: %d unreadable, want 2 (the file and the folder)\n%s", n, errOut.String())
	}
	errOut.Reset()
	rep = diag.New(&errOut, false, false)
	run(t, src, dir, Options{Report: rep})
	if n := rep.UnreadableFiles(); n != 2 {
		t.Errorf("the run: %d unreadable, want 2\n%s", n, errOut.String())
	}
	// The projects dir itself unreadable: nothing of it is archived.
	os.Chmod(filepath.Join(src, "-r"), 0o755)
	if err := os.Chmod(src, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(src, 0o755) })
	rep = diag.New(&errOut, false, false)
	if _, err := GetStatus([]session.Root{{ProjectsDir: src}}, dir, t.TempDir(), time.Now(), rep); err != nil {
		t.Fatal(err)
	}
	if n := rep.UnreadableFiles(); n != 1 {
		t.Errorf("an unreadable projects dir: %d unreadable, want 1\n%s", n, errOut.String())
	}
}

// --status counts the sessions cctx ls lists (a 2.0.x flat agent file
// belongs to the session its lines record, even when that session's main
// transcript is gone; a session in two folders is one; a file of no
// session is none), and puts at risk every file Claude Code's cleanup
// deletes that is not archived: a main transcript or a flat agent file
// in a project folder, not a session folder's subagents. Once archived,
// the archive lists the same sessions, and nothing is at risk.
func TestStatusCountsFlatAgentsAsLsListsThem(t *testing.T) {
	now := time.Now()
	old := now.Add(-25 * 24 * time.Hour) // deleted within 7 days at 30
	lineOf := func(sid, text string) string {
		return fmt.Sprintf(`{"type":"user","uuid":"u1","sessionId":"%s","cwd":"/w","timestamp":"2026-01-02T10:00:00Z","message":{"role":"user","content":%q}}`+"\n", sid, text)
	}
	type file struct {
		rel, content string
		old          bool
	}
	tests := []struct {
		name     string
		files    []file
		sessions int
		atRisk   []string
	}{
		{"a flat agent whose session's main transcript is gone", []file{{"-p/agent-f1.jsonl", lineOf(sid2, "flat"), true}}, 1, []string{sid2 + ": -p/agent-f1.jsonl"}},
		{"a flat agent of a main beside it, both recent", []file{{"-p/" + sid2 + ".jsonl", lineOf(sid2, "main"), false}, {"-p/agent-f1.jsonl", lineOf(sid2, "flat"), false}}, 1, nil},
		{"an old flat agent of a recent main", []file{{"-p/" + sid2 + ".jsonl", lineOf(sid2, "main"), false}, {"-p/agent-f1.jsonl", lineOf(sid2, "flat"), true}}, 1, []string{sid2 + ": -p/agent-f1.jsonl"}},
		{"an old main and its old flat agent", []file{{"-p/" + sid2 + ".jsonl", lineOf(sid2, "main"), true}, {"-p/agent-f1.jsonl", lineOf(sid2, "flat"), true}}, 1, []string{sid2 + ": -p/" + sid2 + ".jsonl -p/agent-f1.jsonl"}},
		{"two flat agents of one gone main, in two folders", []file{{"-p/agent-f1.jsonl", lineOf(sid2, "a"), true}, {"-q/agent-f2.jsonl", lineOf(sid2, "b"), true}}, 1, []string{sid2 + ": -p/agent-f1.jsonl -q/agent-f2.jsonl"}},
		{"a flat agent recording no session", []file{{"-p/agent-f1.jsonl", `{"type":"summary","summary":"s"}` + "\n", true}}, 0, []string{": -p/agent-f1.jsonl"}},
		{"a file of no session", []file{{"-p/notes.jsonl", lineOf(sid2, "notes"), false}}, 0, nil},
		{"an old file of no session", []file{{"-p/notes.jsonl", lineOf(sid2, "notes"), true}}, 0, []string{": -p/notes.jsonl"}},
		{"a session in two folders", []file{{"-p/" + sid2 + ".jsonl", lineOf(sid2, "main"), false}, {"-q/" + sid2 + ".jsonl", lineOf(sid2, "copy"), false}}, 1, nil},
		{"an old session in two folders", []file{{"-p/" + sid2 + ".jsonl", lineOf(sid2, "main"), true}, {"-q/" + sid2 + ".jsonl", lineOf(sid2, "copy"), true}}, 1, []string{sid2 + ": -p/" + sid2 + ".jsonl -q/" + sid2 + ".jsonl"}},
		// The review's tree: two sessions, one with flat agents in two
		// folders, one in two folders, two files of no session.
		{"two sessions in two folders and two files of none", []file{
			{"-a/" + sid2 + ".jsonl", lineOf(sid2, "main"), true}, {"-a/agent-f1.jsonl", lineOf(sid2, "a"), true}, {"-b/agent-f1.jsonl", lineOf(sid2, "a"), true},
			{"-a/" + sid3 + ".jsonl", lineOf(sid3, "three"), true}, {"-b/" + sid3 + ".jsonl", lineOf(sid3, "three"), true},
			{"-b/notes.jsonl", lineOf(sid2, "notes"), true}, {"-b/agent-zzz.jsonl", `{"type":"summary","summary":"s"}` + "\n", true},
		}, 2, []string{sid2 + ": -a/" + sid2 + ".jsonl -a/agent-f1.jsonl -b/agent-f1.jsonl", sid3 + ": -a/" + sid3 + ".jsonl -b/" + sid3 + ".jsonl", ": -b/agent-zzz.jsonl", ": -b/notes.jsonl"}},
		{"a deleted main's old subagents", []file{{"-p/" + sid2 + "/subagents/agent-a1.jsonl", lineOf(sid2, "sub"), true}}, 1, nil},
		// Its empty main has nothing to archive, nor to lose.
		{"an emptied main and its subagents", []file{{"-p/" + sid2 + ".jsonl", "", true}, {"-p/" + sid2 + "/subagents/agent-a1.jsonl", lineOf(sid2, "sub"), true}}, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, dir, home := filepath.Join(t.TempDir(), "projects"), filepath.Join(t.TempDir(), "arch"), t.TempDir()
			for _, f := range tt.files {
				write(t, src, f.rel, f.content)
				if f.old {
					os.Chtimes(filepath.Join(src, filepath.FromSlash(f.rel)), old, old)
				}
			}
			roots := []session.Root{{ProjectsDir: src}}
			listed := len(session.NewFinder(roots, nil).List(session.ListOptions{IncludeEmpty: true}).Sessions)
			st, err := GetStatus(roots, dir, home, now, nil)
			if err != nil {
				t.Fatal(err)
			}
			// Each session at risk once, with its files; each file of no
			// session on its own.
			var risk []string
			sessions, others := 0, 0
			for _, r := range st.AtRisk {
				risk = append(risk, r.ID+": "+strings.Join(r.Files, " "))
				if r.ID != "" {
					sessions++
				} else {
					others++
				}
			}
			sort.Strings(risk)
			if st.Sessions != tt.sessions || st.PendingSessions != tt.sessions || listed != tt.sessions || st.Files != len(tt.files) ||
				strings.Join(risk, "|") != strings.Join(tt.atRisk, "|") || st.AtRiskSessions != sessions || st.AtRiskFiles != others ||
				st.AtRiskSessions > st.PendingSessions {
				t.Errorf("sessions %d (pending %d), ls lists %d, files %d, at risk %q (%d sessions, %d files); want %d sessions, %d files, at risk %q",
					st.Sessions, st.PendingSessions, listed, st.Files, risk, st.AtRiskSessions, st.AtRiskFiles, tt.sessions, len(tt.files), tt.atRisk)
			}
			// Archived: each file, nothing pending or at risk, and the
			// archive alone lists the same sessions.
			whole := 0
			for _, f := range tt.files {
				if f.content != "" {
					whole++
				}
			}
			if res := run(t, src, dir, Options{}); res.New != whole {
				t.Errorf("archived %+v, want %d new files", res, whole)
			}
			st, _ = GetStatus(roots, dir, home, now, nil)
			inArchive := len(session.NewFinder([]session.Root{{ProjectsDir: filepath.Join(dir, "projects"), Archive: true}}, nil).List(session.ListOptions{IncludeEmpty: true}).Sessions)
			if st.PendingFiles != 0 || st.PendingSessions != 0 || len(st.AtRisk) != 0 || inArchive != tt.sessions {
				t.Errorf("after archiving: %+v; the archive lists %d sessions", st, inArchive)
			}
		})
	}
}

// A transcript emptied or truncated at the source (0 bytes, a newline,
// a crash's NUL bytes, metadata lines only) never demotes the archived
// copy, which holds the conversation, to a version no command reads: the
// copy stays the current one, the session stays listed from it (with
// or without subagents), later runs skip the file, and a file that holds
// a conversation again is archived anew as any rewrite is.
func TestArchiveKeepsTheCopyOfAnEmptiedTranscript(t *testing.T) {
	meta := `{"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":{}}}` + "\n"
	for _, tt := range []struct {
		name, emptied string
	}{
		{"0 bytes", ""},
		{"a newline", "\n"},
		{"NUL bytes (a crash)", strings.Repeat("\x00", 4096) + "\n"},
		{"metadata only", meta},
	} {
		for _, compress := range []bool{true, false} {
			for _, subagent := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/compress=%v/subagent=%v", tt.name, compress, subagent), func(t *testing.T) {
					src, dir := filepath.Join(t.TempDir(), "projects"), filepath.Join(t.TempDir(), "arch")
					full := line(1, "find the callers") + line(2, "and fix them")
					write(t, src, "-p/"+sid1+".jsonl", full)
					if subagent {
						write(t, src, "-p/"+sid1+"/subagents/agent-a1.jsonl", line(1, "sub"))
					}
					o := Options{NoCompress: !compress}
					run(t, src, dir, o)
					write(t, src, "-p/"+sid1+".jsonl", tt.emptied)
					var errOut bytes.Buffer
					o.Report = diag.New(&errOut, false, false)
					res := run(t, src, dir, o)
					ext := ".jsonl"
					if compress {
						ext += ".zst"
					}
					cur := filepath.Join(dir, "projects", "-p", sid1+ext)
					if res.Kept != 1 || res.Versioned != 0 || text(t, cur) != full {
						t.Fatalf("%+v, current %q: want the full copy kept", res, text(t, cur))
					}
					if _, err := os.Stat(filepath.Join(dir, "projects", "-p", sid1+"@1"+ext)); err == nil {
						t.Error("a version was made")
					}
					if !strings.Contains(errOut.String(), "holds no conversation now") {
						t.Errorf("not said: %q", errOut.String())
					}
					// Listed, from the archive, live and archive together,
					// and the archive alone.
					for _, roots := range [][]session.Root{
						{{ProjectsDir: src}, {ProjectsDir: filepath.Join(dir, "projects"), Archive: true}},
						{{ProjectsDir: filepath.Join(dir, "projects")}},
					} {
						l := session.NewFinder(roots, nil).List(session.ListOptions{})
						if len(l.Sessions) != 1 || l.Sessions[0].Orphan || l.Sessions[0].Path != cur || l.Sessions[0].FirstPrompt != "find the callers" {
							t.Errorf("roots %v: listed %d (hidden %d): want %s read from %s", roots, len(l.Sessions), len(l.Hidden), sid1, cur)
						}
					}
					// Said once: the next run skips it.
					if res := run(t, src, dir, o); res.Kept != 0 || res.Unchanged != res.Files {
						t.Errorf("next run %+v: want all unchanged", res)
					}
					// A conversation again: a rewrite, archived anew.
					write(t, src, "-p/"+sid1+".jsonl", line(1, "a new start"))
					if res := run(t, src, dir, o); res.Versioned != 1 || text(t, cur) != line(1, "a new start") {
						t.Errorf("after a new conversation %+v: want a new version", res)
					}
				})
			}
		}
	}
}
