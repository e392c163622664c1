package tokens

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// A session's stats entry, made by a run that spelled the folder one way,
// is used by a run that spells it another (relative, absolute): the
// subagent files are known by name and stamp, and an unlinked agent's
// warning names its file as the later run spells it. A subagent file
// renamed or another in its place is not the same entry.
func TestStatsEntryOfAnotherSpelling(t *testing.T) {
	parent := t.TempDir()
	t.Chdir(parent)
	os.MkdirAll(filepath.Join("p", "s1", "subagents"), 0o755)
	os.WriteFile(filepath.Join("p", "s1.jsonl"), []byte("{}\n"), 0o644)
	os.WriteFile(filepath.Join("p", "s1", "subagents", "agent-a1.jsonl"), []byte("{}\n{}\n"), 0o644)
	spell := func(dir string) (*session.Session, []session.Agent) {
		main, agent := filepath.Join(dir, "s1.jsonl"), filepath.Join(dir, "s1", "subagents", "agent-a1.jsonl")
		mi, _ := os.Stat(main)
		ai, _ := os.Stat(agent)
		return &session.Session{ID: "s1", Path: main, Size: mi.Size()}, []session.Agent{{ID: "a1", Path: agent, Size: ai.Size()}}
	}
	s, agents := spell("p")
	sub, ok := cache.Stamp(agents[0].Path, agents[0].Size, 0, nil)
	if !ok {
		t.Fatal("no stamp")
	}
	data := encodeStats(SessionStats{Prompts: 1, APICalls: 2, Tokens: 3}, s, agents, []*cache.Entry{sub},
		[]reader.Issue{{File: agents[0].Path, Line: 2, Kind: reader.UnlinkedAgent, Detail: "zz"}})

	s2, agents2 := spell(filepath.Join(parent, "p"))
	st, unlinked, ok := statsFrom(data, s2, agents2)
	if !ok || st.APICalls != 2 || len(unlinked) != 1 || unlinked[0].File != agents2[0].Path {
		t.Errorf("another spelling: ok %v, %+v, %+v", ok, st, unlinked)
	}
	agents2[0].Path = filepath.Join(parent, "p", "s1", "subagents", "agent-a2.jsonl")
	if _, _, ok := statsFrom(data, s2, agents2); ok {
		t.Error("another agent's file: the entry was used")
	}
}
