package tree_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// When Claude Code deleted a session's main transcript, the entries its
// subagents' lines name there (a compaction agent's lines name the
// conversation's) are missing because of it: the one warning that says so
// covers them, and -v counts them. With a main transcript, an agent line
// whose parent is nowhere is an island, warned.
func TestDeletedMainImpliesItsIslands(t *testing.T) {
	const sid = "8463c716-a2ea-4c14-9efa-87158ebd9f20"
	compact := func(uuid, parent string) string {
		return `{"type":"user","uuid":"` + uuid + `","parentUuid":"` + parent + `","isSidechain":true,"agentId":"acompact-f46190","sessionId":"` + sid + `","timestamp":"2026-02-11T21:59:13Z","message":{"role":"user","content":"reminder"},"isMeta":true}`
	}
	agent := strings.Join([]string{compact("c1", "gone-1"), compact("c2", "gone-2"), compact("c3", "c2")}, "\n") + "\n"
	main := `{"type":"user","uuid":"m1","parentUuid":null,"sessionId":"` + sid + `","timestamp":"2026-02-11T21:00:00Z","message":{"role":"user","content":"go"}}` + "\n"
	tests := []struct {
		name     string
		withMain bool
		warnings []string // each warning said, in order
		note     string   // said with -v ("" none)
	}{
		{"main deleted", false, []string{"its main transcript was deleted"}, "2 subagent line(s) name a parent in the deleted main transcript: shown as islands"},
		{"main present", true, []string{"entry c1 names parent gone-1, which is not in the file (island)", "entry c2 names parent gone-2, which is not in the file (island)"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			sub := filepath.Join(root, "-p", sid, "subagents")
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "agent-acompact-f46190.jsonl"), []byte(agent), 0o644)
			if tt.withMain {
				os.WriteFile(filepath.Join(root, "-p", sid+".jsonl"), []byte(main), 0o644)
			}
			f := session.NewFinder([]session.Root{{ProjectsDir: root}}, nil)
			s, err := f.Resolve(sid)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			tr, err := tree.Open(f, s, nil, diag.New(&buf, true, false))
			if err != nil {
				t.Fatal(err)
			}
			var warned []string
			for _, l := range strings.Split(buf.String(), "\n") {
				if strings.HasPrefix(l, "cctx: warning: ") {
					warned = append(warned, l)
				}
			}
			if len(warned) != len(tt.warnings) {
				t.Fatalf("warnings:\n%s", buf.String())
			}
			for i, w := range tt.warnings {
				if !strings.Contains(warned[i], w) {
					t.Errorf("warning %d = %q, want %q", i, warned[i], w)
				}
			}
			if got := strings.Contains(buf.String(), "cctx: note: "+tt.note); tt.note != "" && !got || tt.note == "" && strings.Contains(buf.String(), "deleted main transcript") {
				t.Errorf("note %q:\n%s", tt.note, buf.String())
			}
			// The model is the same either way: two islands, in
			// Tree.Warnings only when they were said.
			if len(tr.Islands) != 2 || len(tr.Warnings) != len(tt.warnings) || (tr.MainDeleted != nil) == tt.withMain {
				t.Errorf("islands %d, tree warnings %v, MainDeleted %v", len(tr.Islands), tr.Warnings, tr.MainDeleted)
			}
		})
	}
}
