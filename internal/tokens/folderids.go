package tokens

import "container/heap"

// folderIDs holds the message ids of each project folder already counted,
// so that a report deduplicated a folder at a time can tell, at the end,
// whether some response was counted in two folders (then it is made again
// with one table). An id is the first half of a response's 128-bit
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

// shared reports whether an id is in two of the folders: a k-way merge of
// the sorted slices, where a repeat is an id met in two of them.
func (f *folderIDs) shared() bool {
	h := make(idHeap, 0, len(f.sets))
	for _, s := range f.sets {
		if len(s) > 0 {
			h = append(h, s)
		}
	}
	heap.Init(&h)
	var last uint64
	for first := true; len(h) > 0; first = false {
		id := h[0][0]
		if !first && id == last {
			return true
		}
		last = id
		if h[0] = h[0][1:]; len(h[0]) == 0 {
			heap.Pop(&h)
		} else {
			heap.Fix(&h, 0)
		}
	}
	return false
}

// idHeap orders the slices by their first id.
type idHeap [][]uint64

func (h idHeap) Len() int           { return len(h) }
func (h idHeap) Less(i, j int) bool { return h[i][0] < h[j][0] }
func (h idHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *idHeap) Push(x any)        { *h = append(*h, x.([]uint64)) }
func (h *idHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
