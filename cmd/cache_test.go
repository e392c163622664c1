package cmd

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/session"
)

var cacheSeed = flag.Uint64("cache.seed", 0, "seed of TestCacheChangesNoOutput (0: a new one, logged)")

// cacheCommands are the commands whose output must not depend on the
// cache: every one that reads through it.
var cacheCommands = [][]string{
	{"tokens", "--json"},
	{"tokens", "--json", "--by", "response"},
	{"tokens", "--json", "--by", "day"},
	{"tokens", "--by", "agent"},
	{"ls", "--json", "--all", "--empty"},
	{"ls", "--long", "--json", "--all", "--empty"},
	{"ls", "--json", "--limit", "2"}, // rows whose text is read once shown
}

// runCache runs cctx in-process on a tree with the cache in cacheDir
// (and --no-cache when off).
func runCache(cacheDir string, off bool, args ...string) result {
	io, _, out, errOut := TestIO()
	io.SetWidth(120)
	env := map[string]string{"CCTX_CACHE_DIR": cacheDir}
	e := session.Env{Getenv: func(k string) string { return env[k] }, Home: cacheDir}
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	if off {
		args = append(args, "--no-cache")
	}
	code := Run(args, io, e, now)
	return result{code, out.String(), errOut.String()}
}

// TestCacheChangesNoOutput drives random sequences of appends (whole
// lines, half lines, garbage), truncations, rewrites, deletions, renames,
// copies into another folder and concurrent runs over a copy of the
// sample tree, and after each step checks that every command prints
// exactly what it prints with --no-cache: the first run after the change
// (which reads what changed) and the next (which reads nothing).
func TestCacheChangesNoOutput(t *testing.T) {
	seed := *cacheSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (go test ./cmd -run TestCacheChangesNoOutput -cache.seed %d repeats it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	tree := filepath.Join(t.TempDir(), "projects")
	copyTree(t, "../testdata/projects", tree)
	cacheDir := t.TempDir()
	pool := linePool(t, tree)

	steps := 24
	if testing.Short() {
		steps = 8
	}
	check := func(step string) {
		t.Helper()
		for _, args := range cacheCommands {
			args := append(args, "--dir", tree)
			cold := runCache(cacheDir, true, args...)
			for i, warm := range []result{runCache(cacheDir, false, args...), runCache(cacheDir, false, args...)} {
				if args[0] == "ls" {
					// ls --long reads sessions in parallel and warns as
					// it goes, in no fixed order with or without the cache.
					warm.errOut, cold.errOut = sortedLines(warm.errOut), sortedLines(cold.errOut)
				}
				if warm != cold {
					t.Fatalf("after %s, run %d of %v differs from --no-cache:\n--- cached (exit %d)\n%.2000s\n%.1000s\n--- --no-cache (exit %d)\n%.2000s\n%.1000s",
						step, i+1, args, warm.code, warm.out, warm.errOut, cold.code, cold.out, cold.errOut)
				}
			}
		}
	}
	check("the first run")
	for i := range steps {
		earlier := snapshot(t, cacheDir) // the cache as the last runs left it
		files := transcripts(t, tree)
		if len(files) == 0 {
			copyTree(t, "../testdata/projects", filepath.Join(tree, fmt.Sprintf("again-%d", i)))
			continue
		}
		p := files[rng.IntN(len(files))]
		var step string
		switch k := rng.IntN(10); {
		case k < 4:
			step = "appending to " + p
			var b []byte
			for range 1 + rng.IntN(4) {
				b = append(b, pool[rng.IntN(len(pool))]...)
			}
			switch rng.IntN(4) {
			case 0: // half a line: a session being written
				l := pool[rng.IntN(len(pool))]
				b = append(b, l[:rng.IntN(len(l))]...)
			case 1:
				b = append(b, "not json\n"...)
			}
			appendFile(t, p, b)
		case k == 4:
			step = "finishing the line of " + p
			appendFile(t, p, []byte("\n"))
		case k == 5:
			st, _ := os.Stat(p)
			size := rng.Int64N(st.Size() + 1)
			step = fmt.Sprintf("truncating %s to %d", p, size)
			if err := os.Truncate(p, size); err != nil {
				t.Fatal(err)
			}
		case k == 6:
			step = "rewriting " + p
			other := files[rng.IntN(len(files))]
			b, _ := os.ReadFile(other)
			if rng.IntN(2) == 0 { // in place, as long as before: only the time tells
				old, _ := os.ReadFile(p)
				b = bytes.Repeat(append(bytes.Clone(b), '\n'), len(old)/(len(b)+1)+1)[:len(old)]
				st, _ := os.Stat(p)
				f, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.WriteAt(b, 0)
				f.Close()
				later := st.ModTime().Add(time.Second)
				os.Chtimes(p, later, later)
			} else if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		case k == 7:
			step = "deleting " + p
			os.Remove(p)
		case k == 8:
			to := filepath.Join(filepath.Dir(p), fmt.Sprintf("%08x-0000-4000-8000-%012x.jsonl", rng.Uint32(), rng.Uint64()>>16))
			if strings.Contains(p, "subagents") {
				to = filepath.Join(filepath.Dir(p), fmt.Sprintf("agent-a%x.jsonl", rng.Uint32()))
			}
			step = "renaming " + p + " to " + to
			if err := os.Rename(p, to); err != nil {
				t.Fatal(err)
			}
		default:
			dir := filepath.Join(tree, "copied")
			os.MkdirAll(dir, 0o755)
			to := filepath.Join(dir, filepath.Base(p))
			step = "copying " + p + " to " + to
			b, _ := os.ReadFile(p)
			if err := os.WriteFile(to, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		switch rng.IntN(6) {
		case 0:
			// Another run that lost the race to write the index: the
			// index is older than the folder files (a cache of the cache).
			step += ", then the indexes of the step before"
			restore(t, earlier, func(p string) bool { return filepath.Base(p) == "index.bin" })
		case 1:
			// The reverse: folder files older than the index's records.
			step += ", then the folder files of the step before"
			restore(t, earlier, func(p string) bool { return filepath.Base(p) != "index.bin" })
		}
		if rng.IntN(4) == 0 {
			// Two processes at once: both print what --no-cache prints,
			// and leave a cache the next runs can use.
			step += ", then two runs at once"
			args := []string{"tokens", "--json", "--dir", tree}
			cold := runCache(cacheDir, true, args...)
			var wg sync.WaitGroup
			got := make([]result, 2)
			for j := range got {
				wg.Go(func() { got[j] = runCache(cacheDir, false, args...) })
			}
			wg.Wait()
			for j := range got {
				if got[j] != cold {
					t.Fatalf("after %s: concurrent run %d differs from --no-cache", step, j)
				}
			}
		}
		check(step)
	}
}

// TestCacheOfATreeSpelledAnotherWay: a run names the tree relatively
// (--dir projects from its parent), a later run absolutely, then through
// "..": each prints what it prints with --no-cache, its warnings naming
// the files as it spells them, not as the run that filled the cache did.
func TestCacheOfATreeSpelledAnotherWay(t *testing.T) {
	parent := t.TempDir()
	tree := filepath.Join(parent, "projects")
	copyTree(t, "../testdata/projects", tree)
	cacheDir := t.TempDir()
	t.Chdir(parent)
	commands := append(slices.Clone(cacheCommands), []string{"ls", "--long", "--all"}, []string{"agents", "c7d3"})
	for _, dirs := range [][2]string{{"projects", tree}, {tree, "projects"}, {"projects", "projects/../projects"}} {
		for _, args := range commands {
			runCache(cacheDir, false, append(slices.Clone(args), "--dir", dirs[0])...)
			args := append(slices.Clone(args), "--dir", dirs[1])
			warm, cold := runCache(cacheDir, false, args...), runCache(cacheDir, true, args...)
			if warm != cold {
				t.Errorf("%v after the same with --dir %s differs from --no-cache:\n--- cached (exit %d)\n%.2000s\n%.1000s\n--- --no-cache (exit %d)\n%.2000s\n%.1000s",
					args, dirs[0], warm.code, warm.out, warm.errOut, cold.code, cold.out, cold.errOut)
			}
		}
	}
}

// TestCacheFilesHoldNoMessageText: on the real transcripts, every command
// prints with the cache what it prints without; no string of their
// message content is in the cache they leave, and it is under 1% of their
// size.
func TestCacheFilesHoldNoMessageText(t *testing.T) {
	cacheDir := t.TempDir()
	var dirs []string
	for _, d := range withCorpus() {
		dirs = append(dirs, "--dir", d)
	}
	for _, args := range cacheCommands {
		args := append(args, dirs...)
		cold := runCache(cacheDir, true, args...)
		for i := range 2 { // filling the cache, then from it
			warm := runCache(cacheDir, false, args...)
			if args[0] == "ls" {
				warm.errOut, cold.errOut = sortedLines(warm.errOut), sortedLines(cold.errOut)
			}
			if warm != cold {
				t.Errorf("run %d of %v on the real corpus differs from --no-cache", i+1, args)
			}
		}
	}
	var cached []byte
	filepath.WalkDir(cacheDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			cached = append(cached, b...)
		}
		return nil
	})
	if len(cached) == 0 {
		t.Fatal("no cache was written")
	}
	// Phrases of the transcripts' text (prompts, answers, tool output),
	// and every JSON key of content.
	for _, s := range []string{`"text"`, `"content"`, "Let me", "I'll", "func ", "import ", "the "} {
		if bytes.Contains(cached, []byte(s)) {
			t.Errorf("the cache holds %q", s)
		}
	}
	n := 0
	for _, d := range withCorpus() {
		for _, p := range transcripts(t, d) {
			st, _ := os.Stat(p)
			n += int(st.Size())
		}
	}
	if len(cached)*100 > n {
		t.Errorf("cache of %d bytes is over 1%% of the %d bytes of transcripts", len(cached), n)
	}
	t.Logf("cache: %d bytes for %d bytes of transcripts (%.2f%%)", len(cached), n, float64(len(cached))*100/float64(n))
}

func sortedLines(s string) string {
	l := strings.Split(s, "\n")
	sort.Strings(l)
	return strings.Join(l, "\n")
}

// transcripts lists the .jsonl files under dir, sorted.
func transcripts(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// linePool is every line of the tree, newline included.
func linePool(t *testing.T, dir string) [][]byte {
	var pool [][]byte
	for _, p := range transcripts(t, dir) {
		b, _ := os.ReadFile(p)
		for l := range bytes.Lines(b) {
			pool = append(pool, bytes.Clone(l))
		}
	}
	return pool
}

func appendFile(t *testing.T, p string, b []byte) {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(b)
	f.Close()
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// A cache directory that cannot be used only costs speed: the output and
// exit code are those of --no-cache, and -v says why.
func TestCacheUnusableDir(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(base, "read-only")
	if err := os.Mkdir(readOnly, 0o500); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(base, "corrupt")
	copyTree(t, "../testdata/projects/-Users-user-project", filepath.Join(base, "tree", "-Users-user-project"))
	tree := filepath.Join(base, "tree")
	// A cache written, then every file of it cut short.
	runCache(corrupt, false, "tokens", "--json", "--dir", tree)
	filepath.WalkDir(corrupt, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)/2], 0o600)
		}
		return nil
	})
	tests := []struct {
		name, dir, note string
	}{
		{"a file, not a directory", filepath.Join(file, "cache"), "cache: cannot write"},
		{"read-only", readOnly, "cache: cannot write"},
		{"corrupt", corrupt, "cache: ignoring"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// First, while the corrupt cache is still there.
			if os.Geteuid() == 0 && tt.name == "read-only" {
				t.Log("running as root: the directory is writable anyway; checking the output only")
			} else if r := runCache(tt.dir, false, "tokens", "--json", "-v", "--dir", tree); !strings.Contains(r.errOut, tt.note) {
				t.Errorf("-v says %q, want a note %q", r.errOut, tt.note)
			}
			for _, args := range cacheCommands {
				args := append(args, "--dir", tree)
				want := runCache(tt.dir, true, args...)
				got := runCache(tt.dir, false, args...)
				if args[0] == "ls" {
					got.errOut, want.errOut = sortedLines(got.errOut), sortedLines(want.errOut)
				}
				if got != want {
					t.Errorf("%v with the cache in %s differs from --no-cache", args, tt.dir)
				}
			}
		})
	}
}

// snapshot is every file under dir, by path.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[p] = b
		}
		return nil
	})
	return files
}

// restore writes back the files of a snapshot that which picks, through
// a rename as the cache writes them.
func restore(t *testing.T, files map[string][]byte, which func(string) bool) {
	t.Helper()
	for p, b := range files {
		if !which(p) {
			continue
		}
		if err := os.WriteFile(p+".restore", b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".restore", p); err != nil {
			t.Fatal(err)
		}
	}
}

// tokens writes what it adds to the cache while it prints its report
// (tokens.ReadOptions.WriteBehind): Run returns only once that is on
// disk, else the next run would find nothing and read every file again.
func TestRunReturnsOnceTheCacheIsWritten(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "projects")
	copyTree(t, "../testdata/projects", tree)
	for _, args := range [][]string{{"tokens", "--json"}, {"tokens"}, {"tokens", "--by", "response"}} {
		cacheDir := t.TempDir()
		if r := runCache(cacheDir, false, append(args, "--dir", tree)...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.errOut)
		}
		folder := filepath.Join(tree, "-Users-user-project")
		entries, _, err := cache.ReadFolder(cacheDir, folder)
		if err != nil || len(entries) == 0 {
			t.Errorf("%v: right after Run, the cache of %s: %d entries, %v", args, folder, len(entries), err)
		}
	}
}
