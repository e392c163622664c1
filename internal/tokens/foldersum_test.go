package tokens

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// totalsWith is a report of totals (BuildTotals, the one folder sums
// serve) of every session under root, with the cache in dir ("": none),
// as text: totals, sessions, groups, quarter hours, unpriced models and
// issues.
func totalsWith(root, dir string, prices *Prices, w Window) string {
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	inputs, _ := Inputs(f, Selection{})
	var issues []reader.Issue
	o := ReadOptions{OnIssue: func(is reader.Issue) { issues = append(issues, is) }}
	if dir != "" {
		o.Cache = cache.Open(dir, nil)
	}
	rep := BuildTotals(inputs, prices, w, o)
	out := fmt.Sprintf("%+v\n", rep.Total)
	for _, s := range rep.Sessions {
		out += fmt.Sprintf("%s %v %+v %+v %+v\n", s.ID, s.Last, s.Total, s.Agents, s.Models)
	}
	rep.Zone = time.UTC
	for _, g := range []Grouping{ByAgent, ByModel, ByProject, ByHour, ByBlock} {
		out += fmt.Sprintf("%s %+v\n", g, rep.GroupBy(g))
	}
	return out + fmt.Sprintf("%v %v %+v", rep.Unpriced, rep.Estimated, issues)
}

// tamperSums adds 1000 input tokens to a bucket of every folder sum in
// the cache dir, keeping its digest: a report that shows them took the
// sum.
func tamperSums(t *testing.T, root, dir string) {
	t.Helper()
	keys, _ := filepath.Glob(filepath.Join(root, "*"))
	s := cache.Open(dir, nil)
	n := 0
	for _, key := range keys {
		b := s.Blob(key)
		if len(b) < 32 {
			continue
		}
		nids, k := binary.Uvarint(b[32:])
		sessions, _ := binary.Uvarint(b[32+k+8*int(nids):])
		fs, err := decodeSum(b[32:], int(sessions))
		if err != nil {
			t.Fatalf("the sum of %s: %v", key, err)
		}
		for i := range fs.sessions {
			if bs := fs.sessions[i].buckets; len(bs) > 0 {
				bs[0].total.Input += 1000
				n++
				break
			}
		}
		s.SetBlob(key, encodeSum([32]byte(b[:32]), fs))
	}
	if n == 0 {
		t.Fatal("no folder sum to tamper with")
	}
	s.Flush()
}

// TestFolderSums: a folder whose files are all as they were when its sum
// was kept is taken from the sum (a tampered sum shows); any change to
// one of its files, to the prices or to the window makes it counted
// again (the tampered sum does not show), and the report is the one
// without a cache.
func TestFolderSums(t *testing.T) {
	folder := "-Users-user-project"
	tests := []struct {
		name   string
		change func(t *testing.T, dir string) (*Prices, Window)
		used   bool
	}{
		{"nothing", func(*testing.T, string) (*Prices, Window) { return DefaultPrices(), Window{} }, true},
		{"a line appended", func(t *testing.T, dir string) (*Prices, Window) {
			p := filepath.Join(dir, "0d3b22c1-ba90-4fd3-b8d2-056ffc626725.jsonl")
			b, _ := os.ReadFile(filepath.Join(dir, "be89c3cd-bfbf-4c4f-a515-5af6e13249bf.jsonl"))
			appendBytes(t, p, b)
			return DefaultPrices(), Window{}
		}, false},
		{"a file touched", func(t *testing.T, dir string) (*Prices, Window) {
			p := filepath.Join(dir, "agent-a434715.jsonl")
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(p, later, later); err != nil {
				t.Fatal(err)
			}
			return DefaultPrices(), Window{}
		}, false},
		{"a session deleted", func(t *testing.T, dir string) (*Prices, Window) {
			if err := os.Remove(filepath.Join(dir, "3f6ddfee-788c-48a5-8f7a-d43377b51472.jsonl")); err != nil {
				t.Fatal(err)
			}
			return DefaultPrices(), Window{}
		}, false},
		{"other prices", func(t *testing.T, _ string) (*Prices, Window) {
			p := DefaultPrices()
			p.Models = p.Models[1:]
			return p, Window{}
		}, false},
		{"no prices", func(*testing.T, string) (*Prices, Window) { return nil, Window{} }, false},
		{"a window", func(*testing.T, string) (*Prices, Window) {
			return DefaultPrices(), Window{Since: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "projects")
			copyDir(t, filepath.Join(testcorpus.Samples(), folder), filepath.Join(root, folder))
			dir := t.TempDir()
			cold := totalsWith(root, "", DefaultPrices(), Window{})
			if got := totalsWith(root, dir, DefaultPrices(), Window{}); got != cold {
				t.Fatalf("the first run with the cache differs:\n%s\n---\n%s", got, cold)
			}
			tamperSums(t, root, dir)
			prices, w := tt.change(t, filepath.Join(root, folder))
			want := totalsWith(root, "", prices, w)
			got := totalsWith(root, dir, prices, w)
			if used := got != want; used != tt.used {
				t.Errorf("the sum used: %v, want %v\n%s\n---\n%s", used, tt.used, got, want)
			}
			if !tt.used {
				// The sum is made again: the next run takes it.
				if again := totalsWith(root, dir, prices, w); again != want {
					t.Errorf("the run after differs:\n%s\n---\n%s", again, want)
				}
			}
		})
	}
}

// hashBytes is hashString of the prefixed string, short or long: the
// first half is the same in every run, as folder sums need.
func TestHashBytes(t *testing.T) {
	for _, n := range []int{0, 1, 30, 126, 127, 128, 500} {
		id := make([]byte, n)
		for i := range id {
			id[i] = byte('a' + i%26)
		}
		if got, want := hashBytes('m', id), hashString("m"+string(id)); got != want {
			t.Errorf("%d bytes: hashBytes = %x, hashString = %x", n, got, want)
		}
	}
	if got := hashString("msg_01")[0]; got != 0x6a15f865b8960989 {
		t.Errorf("hashString(msg_01)[0] = %#x: not the same as in other runs", got)
	}
}

func appendBytes(t *testing.T, p string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// One store for several reports (tokens --watch counts again every few
// seconds with the cache it opened once): a file that grew between two
// reports is read again, whole report or totals.
func TestStoreAcrossReports(t *testing.T) {
	folder := "-Users-user-project"
	for _, detail := range []bool{false, true} {
		t.Run(fmt.Sprint("detail ", detail), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "projects")
			dir := filepath.Join(root, folder)
			copyDir(t, filepath.Join(testcorpus.Samples(), folder), dir)
			store := cache.Open(t.TempDir(), nil)
			count := func(store *cache.Store) string {
				f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
				inputs, _ := Inputs(f, Selection{Cache: store})
				rep := Count(inputs, DefaultPrices(), Window{}, ReadOptions{Cache: store}, detail)
				return fmt.Sprintf("%+v %d", rep.Total, len(rep.Responses))
			}
			count(store)
			count(store)
			// Another session's lines, as new responses (ids of their own).
			b, _ := os.ReadFile(filepath.Join(dir, "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
			b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte(`"msg_`), []byte(`"msg_new`)), []byte(`"req_`), []byte(`"req_new`))
			before := count(nil)
			appendBytes(t, filepath.Join(dir, "0d3b22c1-ba90-4fd3-b8d2-056ffc626725.jsonl"), b)
			if count(nil) == before {
				t.Fatal("the append changes no count")
			}
			if got, want := count(store), count(nil); got != want {
				t.Errorf("after an append, the same store counts\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// The cache keeps the key of the last folders found to share no message
// id (sums.idsKey, a digest of every folder's sum), and a report whose
// folders' sums make that key again does not look for a shared id. A
// change to any folder makes another key: a session copied into another
// folder (each of its responses in two folders) is found and counted
// once, as without a cache.
func TestDisjointFoldersAreRemembered(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	for _, folder := range []string{"-Users-user-project", "-tmp-tmpqwh7888i"} {
		copyDir(t, filepath.Join(testcorpus.Samples(), folder), filepath.Join(root, folder))
	}
	dir := t.TempDir()
	memo := func() []byte {
		s := cache.Open(dir, nil)
		return s.Blob(s.Dir())
	}
	cold := totalsWith(root, "", DefaultPrices(), Window{})
	if got := totalsWith(root, dir, DefaultPrices(), Window{}); got != cold {
		t.Fatalf("the first run with the cache differs:\n%s\n---\n%s", got, cold)
	}
	first := memo()
	if len(first) != 2*32 {
		t.Fatalf("not the digests of the two folders' sums kept: %x", first)
	}
	if got := totalsWith(root, dir, DefaultPrices(), Window{}); got != cold {
		t.Fatalf("the warm run differs:\n%s\n---\n%s", got, cold)
	}
	if !bytes.Equal(memo(), first) {
		t.Errorf("the warm run changed the digests kept of the same folders")
	}

	// A session grows with a response of its own: its folder's sum is
	// new, looked for in the other folder, and the new set kept.
	grown := filepath.Join(root, "-tmp-tmpqwh7888i", "c7d3d95c-57f0-4359-8f4b-926a9bef5a3f.jsonl")
	appendBytes(t, grown, []byte(asst("grown-1", "", "msg_grown", "req_grown", 10, 20, 0, 0, "")+"\n"))
	want := totalsWith(root, "", DefaultPrices(), Window{})
	if got := totalsWith(root, dir, DefaultPrices(), Window{}); got != want {
		t.Fatalf("the run after a session grew differs:\n%s\n---\n%s", got, want)
	}
	if m := memo(); len(m) != 2*32 || bytes.Equal(m, first) {
		t.Errorf("the digests kept after a folder changed: %x (before %x)", m, first)
	}
	cold = want

	b, err := os.ReadFile(filepath.Join(root, "-Users-user-project", "b3edadab-bca0-4054-9b41-f7ffa6941260.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "-tmp-tmpqwh7888i", "b3edadab-0000-4000-8000-000000000000.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	shared := totalsWith(root, "", DefaultPrices(), Window{})
	if shared == cold {
		t.Fatal("the copy changed nothing: the test shows nothing")
	}
	for run := range 3 {
		if got := totalsWith(root, dir, DefaultPrices(), Window{}); got != shared {
			t.Fatalf("run %d after the copy differs from the run without a cache:\n%s\n---\n%s", run, got, shared)
		}
	}
}

// A warm report over many small folders allocates in proportion to what
// they hold: each folder's lists of agents and models are cut from a
// block its own size (blocks of 1,024 groups, one a folder, were 378 MB
// over a real-shaped tree's 1,400 folders).
func TestAWarmReportOfManyFoldersAllocatesLittle(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	const folders = 200
	for i := range folders {
		p := filepath.Join(root, fmt.Sprintf("-home-u-p%d", i))
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("%08x-0000-4000-8000-000000000000", i)
		line := fmt.Sprintf(`{"type":"assistant","uuid":"u%d","timestamp":"2026-01-01T00:00:00Z","sessionId":%q,"cwd":"/home/u/p%d","requestId":"req_%d","message":{"id":"msg_%d","model":"claude-sonnet-4-6","role":"assistant","content":[],"usage":{"input_tokens":3,"output_tokens":5}}}`+"\n", i, id, i, i, i)
		if err := os.WriteFile(filepath.Join(p, id+".jsonl"), []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cold := totalsWith(root, dir, DefaultPrices(), Window{})
	totalsWith(root, dir, DefaultPrices(), Window{}) // the sums, and the set of disjoint folders, kept
	if warm := totalsWith(root, dir, DefaultPrices(), Window{}); warm != cold {
		t.Fatalf("warm report differs from the first:\n%s\nwant\n%s", warm, cold)
	}
	f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
	store := cache.Open(dir, nil)
	inputs, _ := Inputs(f, Selection{Cache: store})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep := BuildTotals(inputs, DefaultPrices(), Window{}, ReadOptions{Cache: store})
	runtime.ReadMemStats(&after)
	if rep.Total.APICalls != folders {
		t.Fatalf("%d calls", rep.Total.APICalls)
	}
	perFolder := (after.TotalAlloc - before.TotalAlloc) / folders
	t.Logf("%d bytes a folder", perFolder)
	if perFolder > 16<<10 {
		t.Errorf("a warm report allocated %d bytes a folder", perFolder)
	}
}
