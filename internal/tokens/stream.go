package tokens

import (
	"slices"
	"sort"
)

// Stream counts the sessions as Build does and gives every counted
// response to emit as soon as its project folder is counted, so that
// memory follows the largest folder, not the whole history (Claude Code
// resumes and forks a session within its folder). Folders come in the
// order of their first session's start; within a folder, sessions in
// start order, each one's responses in time order, as in
// Report.Responses. A response that two folders hold (a folder renamed
// or copied) is given once, in the first folder's session; the 8 bytes
// kept of each message id to know it are all that grows with the
// history. Stream stops at the first error emit returns.
func Stream(inputs []Input, prices *Prices, w Window, o ReadOptions, emit func(*Response) error) error {
	sorted := byStart(inputs)
	var seen idLevels
	for _, members := range byFolder(sorted) {
		folder := make([]Input, len(members))
		for i, m := range members {
			folder[i] = sorted[m]
		}
		rep := Build(folder, prices, w, o)
		var ids []uint64
		for i := range rep.Responses {
			r := &rep.Responses[i]
			if r.MessageID != "" { // a response without one is its file's own
				id := hashString("m" + r.MessageID)[0]
				if seen.has(id) {
					continue
				}
				ids = append(ids, id)
			}
			if err := emit(r); err != nil {
				return err
			}
		}
		seen.add(ids)
	}
	return nil
}

// idLevels is a set of ids as sorted slices of growing sizes (each at
// least twice the next), merged as they fill: adding n ids costs
// O(n log n) in all, looking one up O(log² n), and memory is 8 bytes an id.
type idLevels [][]uint64

func (l *idLevels) add(ids []uint64) {
	if len(ids) == 0 {
		return
	}
	slices.Sort(ids)
	cur := slices.Compact(ids)
	for n := len(*l); n > 0 && len((*l)[n-1]) <= 2*len(cur); n = len(*l) {
		cur = mergeSorted((*l)[n-1], cur)
		*l = (*l)[:n-1]
	}
	*l = append(*l, cur)
}

func (l idLevels) has(id uint64) bool {
	for _, s := range l {
		if i := sort.Search(len(s), func(i int) bool { return s[i] >= id }); i < len(s) && s[i] == id {
			return true
		}
	}
	return false
}

// mergeSorted merges two sorted slices without repeats.
func mergeSorted(a, b []uint64) []uint64 {
	out := make([]uint64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var v uint64
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			v, i = a[i], i+1
		case i == len(a) || b[j] < a[i]:
			v, j = b[j], j+1
		default:
			v, i, j = a[i], i+1, j+1
		}
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}
