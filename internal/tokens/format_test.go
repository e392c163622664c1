package tokens

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// formatDigest is what cacheFormat gives today. A cache written by the
// build before a change to it would be read by the build after as if
// nothing had changed: wrong totals on the first warm run after an
// upgrade, which no test that starts from an empty cache sees.
const formatDigest = "2960fb4cacb4d1d2816a3dc3e2e245c7a1ab660af60eef2c585bb69d0d14bc98"

// TestCacheFormatIsPinned: the bytes tokens keeps in the cache for the
// sample sessions (each file's entry data, each folder's sum after its
// digest) are the ones this build's cache.Version stands for. When this
// fails after a change to what an entry or a sum holds, bump
// cache.Version (tokens' sumVersion too, for a sum) and set formatDigest
// to the digest it prints.
func TestCacheFormatIsPinned(t *testing.T) {
	// A table of its own: a sum's costs follow the prices, whose updates
	// are not a change of format.
	prices, err := LoadPrices(filepath.Join("testdata", "prices-2026-11-01.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := cacheFormat(t, prices)
	if again := cacheFormat(t, prices); again != got {
		t.Fatalf("two runs over copies of the same files kept different bytes (%s, %s): the format holds something of the run (a path, a time, an inode), and this test cannot pin it", got, again)
	}
	if got != formatDigest {
		t.Errorf("the cache format of tokens is %s, pinned %s: if its entries or sums changed on purpose, bump cache.Version (now %d) and pin the new digest", got, formatDigest, cache.Version)
	}
}

// cacheFormat counts copies of the sample projects with a cache and
// digests what the cache kept, file by file in path order.
func cacheFormat(t *testing.T, prices *Prices) string {
	t.Helper()
	// A relative root: the issues a sum keeps name their files by the
	// path the listing found them at, which is not of the format.
	t.Chdir(t.TempDir())
	root := "projects"
	copyDir(t, testcorpus.Samples(), root)
	dir := t.TempDir()
	totalsWith(root, dir, prices, Window{})
	store := cache.Open(dir, nil)
	h := sha256.New()
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".jsonl" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	entries, sums := 0, 0
	folders := map[string]bool{}
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		folder := filepath.Join(root, firstElem(rel))
		folders[folder] = true
		e, st := store.Lookup(folder, p)
		if st != cache.Same {
			continue
		}
		entries++
		h.Write([]byte(filepath.ToSlash(rel) + "\x00"))
		h.Write(e.Data)
	}
	for _, folder := range slices.Sorted(maps.Keys(folders)) {
		if b := store.Blob(folder); len(b) > 32 {
			sums++
			h.Write([]byte(filepath.Base(folder) + "\x00"))
			h.Write(b[32:]) // the digest names the files' stamps: not of the format
		}
	}
	if entries < len(files)/2 || sums == 0 {
		t.Fatalf("%d of %d files had an entry, %d folders a sum: too few to pin the format", entries, len(files), sums)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func firstElem(rel string) string {
	for i := range len(rel) {
		if os.IsPathSeparator(rel[i]) {
			return rel[:i]
		}
	}
	return rel
}

// TestStatsFormatIsPinned: the bytes a session's ls --long counts are
// kept as are the ones statsFormat stands for (see
// TestCacheFormatIsPinned). When this fails after a change on purpose,
// bump statsFormat and pin the new bytes.
func TestStatsFormatIsPinned(t *testing.T) {
	s := &session.Session{ID: "s1", Path: "/p/s1.jsonl"}
	agents := []session.Agent{{ID: "a1", Path: "/p/s1/subagents/agent-a1.jsonl"}}
	sub := &cache.Entry{Path: agents[0].Path, Size: 300, ModTime: 1_700_000_000_000_000_000, Inode: 42, Head: 7, Tail: 9}
	data := encodeStats(SessionStats{Prompts: 2, APICalls: 5, Tokens: 12345}, s, agents, []*cache.Entry{sub},
		[]reader.Issue{{File: agents[0].Path, Line: 4, Kind: reader.UnlinkedAgent, Detail: "a9"}})
	const want = "05010e6167656e742d61312e6a736f6e6cd8048080d0e2c6bfce972f2a0709040af2c0010101080e026139"
	if got := hex.EncodeToString(data); got != want {
		t.Errorf("ls --long counts are kept as %s, pinned %s: if encodeStats changed on purpose, bump statsFormat (now %d) and pin the new bytes", got, want, statsFormat)
	}
}
