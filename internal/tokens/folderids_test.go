package tokens

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// A report deduplicated a folder at a time is exact only if no response is
// in two folders; folderIDs is how it finds out, after the last folder,
// and which folders are to be counted again in one table.
func TestFolderIDsFindAnIDInTwoFolders(t *testing.T) {
	tests := []struct {
		name    string
		folders [][]string // each folder's lines: message id, requestId
		joined  [][]int
	}{
		{"no folder", nil, nil},
		{"one folder", [][]string{{"m1 r1", "m2 r2"}}, nil},
		{"one folder, a message id with two requestIds", [][]string{{"m1 r1", "m1 r2"}}, nil},
		{"disjoint folders", [][]string{{"m1 r1", "m3 r3"}, {"m2 r2"}, {"m4 r4", "m5 r5"}}, nil},
		{"an empty folder among others", [][]string{{"m1 r1"}, {}, {"m2 r2"}}, nil},
		{"the same response in two folders", [][]string{{"m1 r1", "m2 r2"}, {"m3 r3", "m2 r2"}}, [][]int{{0, 1}}},
		{"the same message id with another requestId", [][]string{{"m1 r1"}, {"m1 r9"}}, [][]int{{0, 1}}},
		{"in the first and the last of many", [][]string{{"m1 r1", "m9 r9"}, {"m2 r2"}, {"m3 r3"}, {"m4 r4"}, {"m9 r9"}}, [][]int{{0, 4}}},
		{"repeated in one folder and met in another", [][]string{{"m1 r1", "m1 r2"}, {"m2 r2"}, {"m1 r3"}}, [][]int{{0, 2}}},
		{"in three folders", [][]string{{"m5 r5"}, {"m1 r1"}, {"m1 r1"}, {"m1 r1"}}, [][]int{{1, 2, 3}}},
		{"a chain", [][]string{{"m1 r1"}, {"m1 r1", "m2 r2"}, {"m3 r3"}, {"m2 r2"}}, [][]int{{0, 1, 3}}},
		{"two sets", [][]string{{"m2 r2"}, {"m1 r1"}, {"m2 r2"}, {"m7 r7"}, {"m1 r1"}}, [][]int{{0, 2}, {1, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f folderIDs
			for _, lines := range tt.folders {
				var jsonl []string
				for i, l := range lines {
					var mid, rid string
					for j := range l {
						if l[j] == ' ' {
							mid, rid = l[:j], l[j+1:]
						}
					}
					jsonl = append(jsonl, asst("u"+l+string(rune('a'+i)), "", mid, rid, 1, 1, 0, 0, ""))
				}
				c, w := countLines(t, jsonl)
				if w.calls != len(lines) {
					t.Fatalf("folder %v: %d calls", lines, w.calls)
				}
				f.add(c)
			}
			if got := f.joined(); !reflect.DeepEqual(got, tt.joined) {
				t.Errorf("joined = %v, want %v", got, tt.joined)
			}
			// The check of a few folders against the others (a warm
			// report's folders whose sums changed) finds the same.
			inJoined := map[int]bool{}
			for _, set := range tt.joined {
				for _, g := range set {
					inJoined[g] = true
				}
			}
			var all []int
			for g := range tt.folders {
				all = append(all, g)
				if got := f.sharesWithOthers([]int{g}); got != inJoined[g] {
					t.Errorf("sharesWithOthers([%d]) = %v, want %v", g, got, inJoined[g])
				}
			}
			if got := f.sharesWithOthers(all); got != (tt.joined != nil) {
				t.Errorf("sharesWithOthers(all) = %v, want %v", got, tt.joined != nil)
			}
		})
	}
}

// joinGroups makes each set of folders that share an id one group, in the
// place of its first, its sessions in reading order; the others stay.
func TestJoinGroups(t *testing.T) {
	tests := []struct {
		name   string
		groups [][]int
		sets   [][]int
		want   [][]int
	}{
		{"none", [][]int{{0, 2}, {1}}, nil, [][]int{{0, 2}, {1}}},
		{"two of three", [][]int{{0, 3}, {1}, {2, 4}}, [][]int{{0, 2}}, [][]int{{0, 2, 3, 4}, {1}}},
		{"two sets", [][]int{{0}, {1}, {2}, {3}}, [][]int{{1, 3}, {0, 2}}, [][]int{{0, 2}, {1, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := joinGroups(tt.groups, tt.sets); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("joinGroups = %v, want %v", got, tt.want)
			}
		})
	}
}

// radixSort sorts as slices.Sort does, short or long, with repeats and
// ids that differ only in their high or low bits.
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 1023, 1024, 5000} {
		for _, mask := range []uint64{^uint64(0), 0xffff, 0xffff << 48, 7} {
			ids := make([]uint64, n)
			for i := range ids {
				ids[i] = rng.Uint64() & mask
			}
			want := slices.Clone(ids)
			slices.Sort(want)
			if got := radixSort(ids); !slices.Equal(got, want) {
				t.Errorf("%d ids, mask %#x: not sorted", n, mask)
			}
		}
	}
}
