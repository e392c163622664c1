package tokens

import (
	"fmt"
	"sort"
	"testing"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/testcorpus"
)

// Stream gives the responses Build lists, each once, a folder at a time:
// with a response two folders hold (a copied folder) too.
func TestStreamGivesWhatBuildLists(t *testing.T) {
	const a, b = "11111111-0000-4000-8000-000000000000", "22222222-0000-4000-8000-000000000000"
	root := writeTree(t, map[string][]string{
		"-one/" + a + ".jsonl": {asst("u1", "", "msg_1", "req_1", 1, 10, 0, 0, ""), asst("u2", "u1", "msg_2", "req_2", 2, 20, 0, 0, "")},
		"-two/" + b + ".jsonl": {asst("u2", "", "msg_2", "req_2", 2, 20, 0, 0, ""), asst("u3", "u2", "msg_3", "req_3", 3, 30, 0, 0, "")},
	})
	cases := map[string][]string{"crafted": {root}}
	if folders := testcorpus.Folders(); len(folders) > 0 {
		cases["corpus"] = folders
	}
	for name, dirs := range cases {
		t.Run(name, func(t *testing.T) {
			var roots []session.Root
			for _, d := range dirs {
				roots = append(roots, session.Root{ProjectsDir: d})
			}
			f := session.NewFinder(roots, nil)
			var ins []Input
			for _, s := range f.Sessions() {
				ins = append(ins, Input{Session: s, Agents: f.Agents(s)})
			}
			key := func(r *Response) string {
				return fmt.Sprintf("%s %s %s %d %d", r.MessageID, r.RequestID, r.AgentID, r.Usage.Total(), r.Usage.Output)
			}
			var want, got []string
			for _, r := range Build(ins, DefaultPrices(), Window{}, ReadOptions{}).Responses {
				want = append(want, key(&r))
			}
			err := Stream(ins, DefaultPrices(), Window{}, ReadOptions{}, func(r *Response) error {
				got = append(got, key(r))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(want)
			sort.Strings(got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("stream %d responses, build %d\n got %v\nwant %v", len(got), len(want), got, want)
			}
			if name == "crafted" && len(got) != 3 {
				t.Errorf("msg_2 is in both folders: %d responses, want 3", len(got))
			}
		})
	}
}

func TestIDLevels(t *testing.T) {
	var l idLevels
	for i := uint64(0); i < 1000; i += 10 {
		l.add([]uint64{i + 3, i, i + 7, i})
	}
	if len(l) > 10 {
		t.Errorf("%d levels for 300 ids", len(l))
	}
	for i := uint64(0); i < 1000; i++ {
		want := i%10 == 0 || i%10 == 3 || i%10 == 7
		if l.has(i) != want {
			t.Fatalf("has(%d) = %v", i, !want)
		}
	}
}
