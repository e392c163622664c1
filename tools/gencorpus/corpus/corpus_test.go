package corpus_test

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/agents"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
	"github.com/cctx-dev/cctx/tools/gencorpus/corpus"
)

func generate(t *testing.T, size int64, seed uint64) (string, *corpus.Totals) {
	t.Helper()
	dir := t.TempDir()
	tot, err := corpus.Generate(corpus.Options{Dir: dir, Size: size, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return dir, tot
}

func finder(dir string) *session.Finder {
	return session.NewFinder([]session.Root{{ProjectsDir: corpus.ProjectsDir(dir)}}, diag.Discard())
}

func asUsage(tt tokens.Total) corpus.Usage {
	return corpus.Usage{Input: tt.Input, Output: tt.Output, CacheCreation: tt.CacheCreation,
		CacheRead: tt.CacheRead, Total: tt.Tokens, APICalls: tt.APICalls}
}

// The totals the generator wrote are what cctx's counter finds, per session
// and over the whole tree, and every line is valid JSON.
func TestTotalsMatchCounter(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		dir, _ := generate(t, 2<<20, seed)
		want, err := corpus.ReadTotals(dir) // the file, as a benchmark would read it
		if err != nil {
			t.Fatal(err)
		}
		f := finder(dir)
		ss := f.Sessions()
		if len(ss) != len(want.Sessions) {
			t.Fatalf("seed %d: finder lists %d sessions, totals.json has %d", seed, len(ss), len(want.Sessions))
		}
		byID := map[string]corpus.SessionTotals{}
		for _, s := range want.Sessions {
			byID[s.SessionID] = s
		}
		opts := reader.Options{OnIssue: func(is reader.Issue) { t.Errorf("seed %d: %v", seed, is) }}
		onErr := func(p string, err error) { t.Errorf("seed %d: %s: %v", seed, p, err) }
		all := tokens.NewCounter()
		for _, s := range ss {
			w, ok := byID[s.ID]
			if !ok {
				t.Fatalf("seed %d: session %s not in totals.json", seed, s.ID)
			}
			agents := f.Agents(s)
			if len(agents) != w.Agents {
				t.Errorf("seed %d: session %s: finder lists %d agents, generator wrote %d", seed, s.ID, len(agents), w.Agents)
			}
			c := tokens.NewCounter()
			tokens.ReadSession(c, s, agents, opts, nil, onErr)
			if got := asUsage(tokens.Sum(c.Responses(), nil)); got != w.Usage {
				t.Errorf("seed %d: session %s:\n got %+v\nwant %+v", seed, s.ID, got, w.Usage)
			}
			tokens.ReadSession(all, s, agents, opts, nil, onErr)
		}
		if got := asUsage(tokens.Sum(all.Responses(), nil)); got != want.Usage {
			t.Errorf("seed %d: whole tree:\n got %+v\nwant %+v", seed, got, want.Usage)
		}
		if want.Usage.APICalls == 0 {
			t.Errorf("seed %d: no API calls generated", seed)
		}
	}
}

// A 2 MB tree still holds every trap the generator claims, and the traps
// are real: summing every assistant line's usage over-counts.
func TestFeatures(t *testing.T) {
	dir, tot := generate(t, 2<<20, 1)
	ft := tot.Features
	for name, n := range map[string]int{
		"split_responses": ft.SplitResponses, "partial_usage_lines": ft.PartialUsageLines,
		"parallel_tool_calls": ft.ParallelToolCalls, "interleaved_calls": ft.InterleavedCalls,
		"progress_lines": ft.ProgressLines, "agent_progress_lines": ft.AgentProgress,
		"big_tool_results": ft.BigToolResults, "subagent_files": ft.SubagentFiles,
		"meta_files": ft.MetaFiles, "flat_agent_files": ft.FlatAgentFiles,
		"compactions": ft.Compactions, "synthetic_lines": ft.SyntheticLines,
	} {
		if n == 0 {
			t.Errorf("feature %s: none in a 2 MB tree", name)
		}
	}
	if ft.MaxLineBytes < 200<<10 {
		t.Errorf("longest line is %d bytes; want a long-tail line of 200 KiB or more", ft.MaxLineBytes)
	}

	// Read the tree back line by line and check the claims independently.
	var naive, lines int64
	seen := map[string]int{} // entry kind → count
	files, metas := 0, 0
	err := filepath.WalkDir(corpus.ProjectsDir(dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, ".meta.json") {
			metas++
			return nil
		}
		files++
		r, closer, err := reader.Open(p, reader.Options{OnIssue: func(is reader.Issue) { t.Error(is) }})
		if err != nil {
			return err
		}
		defer closer.Close()
		var last reader.Entry
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			lines++
			if !e.Timestamp.IsZero() {
				if e.Timestamp.Before(last.Timestamp) {
					t.Errorf("%s:%d: timestamp %v goes back from %v", p, e.Line, e.Timestamp, last.Timestamp)
				}
				last = e
			}
			if e.HasUsage && e.Type == "assistant" {
				naive += e.Usage.Total()
			}
			switch {
			case e.Subtype == "compact_boundary":
				if e.ParentUUID != "" || e.LogicalParentUUID == "" || e.CompactPreTokens == 0 {
					t.Errorf("%s:%d: boundary %+v: want no parent, a logical parent, preTokens", p, e.Line, e)
				}
				seen["boundary"]++
			case e.CompactSummary:
				seen["summary"]++
			case e.Synthetic():
				seen["synthetic"]++
			case e.Type == "progress":
				seen["progress"]++
			case e.Sidechain && e.AgentID == "":
				t.Errorf("%s:%d: sidechain line without agentId", p, e.Line)
			}
		}
		return r.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != tot.JSONLFiles || metas != ft.MetaFiles || int64(lines) != tot.Lines {
		t.Errorf("on disk: %d .jsonl, %d .meta.json, %d lines; totals.json says %d, %d, %d",
			files, metas, lines, tot.JSONLFiles, ft.MetaFiles, tot.Lines)
	}
	if seen["boundary"] != ft.Compactions || seen["summary"] != ft.Compactions {
		t.Errorf("%d boundaries and %d summaries on disk; %d compactions claimed", seen["boundary"], seen["summary"], ft.Compactions)
	}
	if seen["synthetic"] != ft.SyntheticLines || seen["progress"] != ft.ProgressLines+ft.AgentProgress {
		t.Errorf("on disk: %v; claimed %+v", seen, ft)
	}
	if naive <= tot.Usage.Total {
		t.Errorf("summing every line gives %d, the true total is %d: the split responses do not over-count", naive, tot.Usage.Total)
	}
}

// The same seed gives the same bytes; another seed gives another tree.
func TestDeterministic(t *testing.T) {
	a, _ := generate(t, 1<<20, 5)
	b, _ := generate(t, 1<<20, 5)
	c, _ := generate(t, 1<<20, 6)
	ha, hb, hc := treeHash(t, a), treeHash(t, b), treeHash(t, c)
	if !bytes.Equal(ha, hb) {
		t.Error("two trees from seed 5 differ")
	}
	if bytes.Equal(ha, hc) {
		t.Error("seeds 5 and 6 gave the same tree")
	}
}

// treeHash hashes every file's relative path, content and mtime.
func treeHash(t *testing.T, dir string) []byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		mtime := st.ModTime().UTC().String()
		if rel == "totals.json" {
			mtime = "" // written now; its content is compared
		}
		h.Write([]byte(rel + "\x00" + mtime + "\x00"))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h.Sum(nil)
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []corpus.Options{{Size: 1 << 20}, {Dir: t.TempDir()}, {Dir: t.TempDir(), Size: -1}} {
		if _, err := corpus.Generate(o); err == nil {
			t.Errorf("Generate(%+v): no error", o)
		}
	}
}

// An Agent result reports the agent's last API response, as Claude Code
// does: cctx agents finds that response in the agent's transcript.
func TestAgentResultsMatchTheirTranscripts(t *testing.T) {
	dir, _ := generate(t, 2<<20, 1)
	f := finder(dir)
	checked := 0
	for _, s := range f.Sessions() {
		tr, err := tree.LoadQuiet(s.Path, f.Agents(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		res := agents.Report(tr, nil, nil)
		for _, a := range res.Agents {
			if a.TokenCheck == "" {
				continue
			}
			checked++
			if a.TokenCheck == agents.CheckMismatch {
				t.Errorf("session %s, agent %s: reported tokens match no API call of its transcript", s.ID, a.ID)
			}
		}
		for _, w := range res.Warnings {
			t.Errorf("session %s: %v", s.ID, w)
		}
	}
	if checked == 0 {
		t.Fatal("no agent result carried totalTokens")
	}
}
