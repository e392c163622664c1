package tokens

import (
	"container/heap"
	"slices"
)

// folderIDs holds the message ids of each project folder already counted,
// so that a report deduplicated a folder at a time can tell, at the end,
// whether some response was counted in two folders (then the folders that
// share one are counted again in one table). An id is the first half of a response's 128-bit
// fingerprint: a false match only costs the exact way round.
//
// Each folder's ids are one sorted slice of exactly its size, 8 bytes a
// response, and the check is a merge of the slices. A hash set of every
// id grew with the history at ~22 bytes a response and was most of the
// memory tokens needed over a few GB.
type folderIDs struct {
	sets [][]uint64
}

// add records the ids of one folder's table.
func (f *folderIDs) add(c *Counter) { f.sets = append(f.sets, idsOf(c)) }

// joined is the groups (indices of sets) that share an id with another,
// each set of groups that do as one sorted list, in the order of their
// first group; nil when no id is in two sets. A k-way merge of the
// sorted slices: an id met twice in a row is in two of them.
func (f *folderIDs) joined() [][]int {
	if !f.repeats() {
		return nil
	}
	h := make(idHeap, 0, len(f.sets))
	for g, s := range f.sets {
		if len(s) > 0 {
			h = append(h, idSet{s, g})
		}
	}
	heap.Init(&h)
	var parent []int // union-find over the sets, made at the first shared id
	root := func(g int) int {
		for parent[g] != g {
			parent[g] = parent[parent[g]]
			g = parent[g]
		}
		return g
	}
	var last uint64
	lastSet := -1
	for len(h) > 0 {
		id, g := h[0].ids[0], h[0].set
		if lastSet >= 0 && id == last {
			if parent == nil {
				parent = make([]int, len(f.sets))
				for i := range parent {
					parent[i] = i
				}
			}
			if a, b := root(lastSet), root(g); a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
		last, lastSet = id, g
		if h[0].ids = h[0].ids[1:]; len(h[0].ids) == 0 {
			heap.Pop(&h)
		} else {
			heap.Fix(&h, 0)
		}
	}
	if parent == nil {
		return nil
	}
	size := make([]int, len(f.sets)) // a root → how many sets it joins
	for g := range f.sets {
		size[root(g)]++
	}
	at := map[int]int{} // a root → its list in out
	var out [][]int
	for g := range f.sets {
		r := root(g)
		if size[r] < 2 {
			continue
		}
		i, ok := at[r]
		if !ok {
			i = len(out)
			at[r] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], g)
	}
	return out
}

// sharesWithOthers reports whether a set of groups holds an id that
// another set holds: each set of groups, a merge with each other set
// (all sets are sorted, each id once in each).
func (f *folderIDs) sharesWithOthers(groups []int) bool {
	for _, g := range groups {
		for h, other := range f.sets {
			if h != g && intersect(f.sets[g], other) {
				return true
			}
		}
	}
	return false
}

// intersect reports whether two sorted sets share an id.
func intersect(a, b []uint64) bool {
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			return true
		}
	}
	return false
}

// repeats reports whether an id is in two sets (each set holds an id
// once): every id in one slice, sorted, with two equal neighbours. Most
// reports have none, and sorting ~100k ids once took a quarter of the
// time of the merge joined makes, whose heap finds which sets share.
func (f *folderIDs) repeats() bool {
	if len(f.sets) < 2 {
		return false // each set holds an id once
	}
	n := 0
	for _, s := range f.sets {
		n += len(s)
	}
	all := make([]uint64, 0, n)
	for _, s := range f.sets {
		all = append(all, s...)
	}
	all = radixSort(all)
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			return true
		}
	}
	return false
}

// radixSort sorts ids (four passes of 16 bits: five times as fast as
// slices.Sort on 100k ids); it returns the sorted slice, which is ids or
// a buffer of the same length.
func radixSort(ids []uint64) []uint64 {
	if len(ids) < 1024 {
		slices.Sort(ids)
		return ids
	}
	tmp := make([]uint64, len(ids))
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, id := range ids {
			count[id>>shift&0xffff]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, id := range ids {
			d := id >> shift & 0xffff
			tmp[count[d]] = id
			count[d]++
		}
		ids, tmp = tmp, ids
	}
	return ids
}

// idSet is a set's ids not yet merged, and which set it is.
type idSet struct {
	ids []uint64
	set int
}

// idHeap orders the sets by their first id.
type idHeap []idSet

func (h idHeap) Len() int           { return len(h) }
func (h idHeap) Less(i, j int) bool { return h[i].ids[0] < h[j].ids[0] }
func (h idHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *idHeap) Push(x any)        { *h = append(*h, x.(idSet)) }
func (h *idHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
