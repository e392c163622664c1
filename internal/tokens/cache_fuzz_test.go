package tokens

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// countWith counts every session under root, listing each response, with
// the cache in dir ("": none), and prints the report and its issues.
func countWith(root, dir string) string {
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	inputs, _ := Inputs(f, Selection{})
	var issues []reader.Issue
	o := ReadOptions{OnIssue: func(is reader.Issue) { issues = append(issues, is) }}
	if dir != "" {
		o.Cache = cache.Open(dir, nil)
	}
	rep := Build(inputs, DefaultPrices(), Window{}, o)
	out := fmt.Sprintf("%+v\n%+v\n", rep.Total, rep.Responses)
	for _, s := range rep.Sessions {
		out += fmt.Sprintf("%s %+v %+v %+v\n", s.ID, s.Total, s.Agents, s.Models)
	}
	for _, g := range rep.GroupBy(ByAgent) {
		out += fmt.Sprintf("%+v\n", g)
	}
	return out + fmt.Sprintf("%+v", issues)
}

// FuzzCache writes what the fuzzer makes as the file of each project
// folder (its header and part 2, beside a whole and valid index), or
// (asData) as the summary of every file and the folder's sum after its
// true digest, in a cache that is otherwise whole and valid, and counts
// the folders. A folder file that is not the one its index record was
// written with must change nothing, and is rebuilt; a valid cache with
// nonsense summaries must not crash or hang the count.
func FuzzCache(f *testing.F) {
	root := filepath.Join(f.TempDir(), "projects")
	var keys []string
	for _, folder := range []string{"-Users-user-project", "-experiments-worktrees"} {
		keys = append(keys, filepath.Join(root, folder))
		copyDir(f, filepath.Join(testcorpus.Samples(), folder), filepath.Join(root, folder))
	}
	want := countWith(root, "")
	warm := f.TempDir()
	if got := countWith(root, warm); got != want {
		f.Fatal("a first run with the cache differs from one without")
	}
	if totalsWith(root, warm, DefaultPrices(), Window{}) != totalsWith(root, "", DefaultPrices(), Window{}) {
		f.Fatal("a first run of totals with the cache differs from one without")
	}
	for _, k := range keys {
		b, err := os.ReadFile(cache.FileOf(warm, k))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b[:len(b)/2], false)
		entries, blob, err := cache.ReadFolder(warm, k)
		if err != nil {
			f.Fatal(err)
		}
		for _, e := range entries {
			f.Add(e.Data, true)
			f.Add(e.Data[:len(e.Data)-1], true)
		}
		if len(blob) > 32 {
			f.Add(blob[32:], true)
			f.Add(blob[32:len(blob)-1], true)
		}
	}
	f.Add([]byte("CCTXCACH"), false)
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte, asData bool) {
		dir, err := os.MkdirTemp(tmp, "cache")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if asData {
			s := cache.Open(dir, nil)
			for _, k := range keys {
				entries, blob, _ := cache.ReadFolder(warm, k)
				if len(blob) >= 32 {
					blob = append(blob[:32:32], b...)
				}
				for _, e := range entries {
					e.Data = b
					s.Put(k, e)
				}
				s.SetBlob(k, blob)
			}
			s.Flush()
			countWith(root, dir)
			totalsWith(root, dir, DefaultPrices(), Window{})
			return
		}
		if err := os.CopyFS(dir, os.DirFS(warm)); err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if err := os.WriteFile(cache.FileOf(dir, k), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for run := range 2 { // the second with what the first rebuilt
			if got := countWith(root, dir); got != want {
				t.Fatalf("run %d with a fuzzed folder file: the count changed", run+1)
			}
		}
	})
}

func copyDir(t testing.TB, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// FuzzCacheIndex writes what the fuzzer makes as the cache's index (the
// folder files beside it whole and valid) and counts the folders: an
// index that does not decode, or whose records are not part 1 of a folder
// file, changes nothing, and is rebuilt.
func FuzzCacheIndex(f *testing.F) {
	root := filepath.Join(f.TempDir(), "projects")
	for _, folder := range []string{"-Users-user-project", "-experiments-worktrees"} {
		copyDir(f, filepath.Join(testcorpus.Samples(), folder), filepath.Join(root, folder))
	}
	want := countWith(root, "")
	warm := f.TempDir()
	countWith(root, warm)
	index := filepath.Join(warm, fmt.Sprintf("v%d", cache.Version), "index.bin")
	b, err := os.ReadFile(index)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add(b[:len(b)-1])
	f.Add([]byte("CCTXINDX"))
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		dir, err := os.MkdirTemp(tmp, "cache")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if err := os.CopyFS(dir, os.DirFS(warm)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("v%d", cache.Version), "index.bin"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		for run := range 2 { // the second with the index the first wrote
			if got := countWith(root, dir); got != want {
				t.Fatalf("run %d with a fuzzed index: the count changed", run+1)
			}
		}
	})
}
