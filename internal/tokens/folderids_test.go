package tokens

import "testing"

// A report deduplicated a folder at a time is exact only if no response is
// in two folders; folderIDs is how it finds out, after the last folder.
func TestFolderIDsFindAnIDInTwoFolders(t *testing.T) {
	tests := []struct {
		name    string
		folders [][]string // each folder's lines: message id, requestId
		shared  bool
	}{
		{"no folder", nil, false},
		{"one folder", [][]string{{"m1 r1", "m2 r2"}}, false},
		{"one folder, a message id with two requestIds", [][]string{{"m1 r1", "m1 r2"}}, false},
		{"disjoint folders", [][]string{{"m1 r1", "m3 r3"}, {"m2 r2"}, {"m4 r4", "m5 r5"}}, false},
		{"an empty folder among others", [][]string{{"m1 r1"}, {}, {"m2 r2"}}, false},
		{"the same response in two folders", [][]string{{"m1 r1", "m2 r2"}, {"m3 r3", "m2 r2"}}, true},
		{"the same message id with another requestId", [][]string{{"m1 r1"}, {"m1 r9"}}, true},
		{"in the first and the last of many", [][]string{{"m1 r1", "m9 r9"}, {"m2 r2"}, {"m3 r3"}, {"m4 r4"}, {"m9 r9"}}, true},
		{"repeated in one folder and met in another", [][]string{{"m1 r1", "m1 r2"}, {"m2 r2"}, {"m1 r3"}}, true},
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
			if got := f.shared(); got != tt.shared {
				t.Errorf("shared = %v, want %v", got, tt.shared)
			}
		})
	}
}
