package tokens

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"slices"
	"sync"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
)

// A project folder's sum is what a report of totals (BuildTotals) takes
// from the folder's table once its sessions are counted: each session's
// buckets (totals by agent and model) and last response, the folder's
// quarter hours, its unpriced and estimated responses by model, the
// issues of its files' lines, and the sorted first halves of its message
// ids (folderIDs: whether another folder has one of them). It is kept in
// the cache as the folder's blob (cache.Store.SetBlob) under a digest of
// everything it was made from: the sessions in their reading order, the
// stamp of every file (as its cache entry has it), the price table and
// the window. A later run whose files all check unchanged (cache.Same)
// and make the same digest takes the sum instead of decoding and
// deduplicating the entries of the folder's files again; a folder where
// one file changed is counted from its files' entries as before, and its
// sum made again. Never any message text: names of agents and models,
// numbers, and the issues the entries of its files hold already.

// sumVersion is part of every digest: bump it when what a sum holds, or
// how a table's totals are taken (the dedup rule, pricing), changes.
const sumVersion = 4 // 4: sessions that start together merged by their last response (mergeOrder)

// folderSum is one folder's sum.
type folderSum struct {
	ids      []uint64 // sorted, each once
	sessions []sessionSum
	part     folderPart
}

// sessionSum is one session's share of its folder's sum.
type sessionSum struct {
	last    row // its time only: the latest counted response's
	buckets []bucket
	issues  []reader.Issue
	// The session's total and lists (groupsOf its buckets), made as the
	// sum is loaded (grouped), on loadSums's workers: made as the report
	// takes each session, they were a third of its one-goroutine loop.
	grouped        bool
	total          Total
	agents, models []Group
}

// folderPart is what one folder's table adds to a report besides its
// sessions' buckets: its quarter hours, and its unpriced and estimated
// responses by model.
type folderPart struct {
	slots               []slotTotal
	slotAt              map[int64]int
	unpriced, estimated map[string]int64
}

func (p *folderPart) count(m *map[string]int64, model string) {
	if *m == nil {
		*m = map[string]int64{}
	}
	(*m)[model]++
}

// merge adds a folder's part to the report's, as if its responses had
// been added one by one. Its quarter hours are kept apart, merged only
// if a time grouping needs them (timeline): most reports do not, and
// merging thousands of them a folder was a fifth of a warm run's report.
func (rep *Report) merge(p *folderPart) {
	for m, n := range p.unpriced {
		rep.Unpriced[m] += n
	}
	for m, n := range p.estimated {
		rep.Estimated[m] += n
	}
	if len(p.slots) > 0 {
		rep.slots = append(rep.slots, p.slots)
	}
}

// sums are the folder sums of a report's groups, checked against the
// files; nil for a group whose sum cannot be used (or with no store).
type sums struct {
	store  *cache.Store
	prices [32]byte
	window [2]int64
	hasWin [2]bool
	got    []*folderSum
	// digests are those of the groups' sums, loaded or saved in this run
	// (known[g] false: none).
	digests [][32]byte
	known   []bool
}

// loadSums finds the usable sum of each group that needs one, checking
// the groups in parallel (the checks open every file).
func loadSums(sorted []Input, groups [][]int, store *cache.Store, prices *Prices, w Window, need func(g int) bool) *sums {
	s := &sums{store: store, prices: pricesKey(prices), got: make([]*folderSum, len(groups)),
		digests: make([][32]byte, len(groups)), known: make([]bool, len(groups))}
	s.hasWin = [2]bool{!w.Since.IsZero(), !w.Until.IsZero()}
	if s.hasWin[0] {
		s.window[0] = w.Since.UnixNano()
	}
	if s.hasWin[1] {
		s.window[1] = w.Until.UnixNano()
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for g := range next {
				if need(g) {
					s.got[g], s.digests[g] = s.load(sorted, groups[g])
					s.known[g] = s.got[g] != nil
				}
				if fs := s.got[g]; fs != nil {
					// A block the size of the folder's lists (two for
					// each bucket at most): the report's blocks of at
					// least 1,024 groups, one a folder, were 378 MB over
					// the 1,400 small folders of a real-shaped tree.
					size := 0
					for i := range fs.sessions {
						size += 2 * len(fs.sessions[i].buckets)
					}
					gb := make(groupBlock, 0, size)
					for i := range fs.sessions {
						ss := &fs.sessions[i]
						ss.total, ss.agents, ss.models = groupsOf(ss.buckets, gb.space)
						ss.grouped = true
					}
				}
			}
		})
	}
	for g := range groups {
		next <- g
	}
	close(next)
	wg.Wait()
	return s
}

// pricesKey identifies a price table by its content.
func pricesKey(p *Prices) [32]byte {
	if p == nil {
		return [32]byte{}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return [32]byte{1}
	}
	return sha256.Sum256(b)
}

// folderKey is the project folder of a group's sessions ("" when they are
// not all of one folder, or one is standard input).
func folderKey(sorted []Input, members []int) string {
	var key string
	for n, i := range members {
		s := sorted[i].Session
		if s.Path == session.StdinPath || s.ProjectDir == "" || n > 0 && s.ProjectDir != key {
			return ""
		}
		key = s.ProjectDir
	}
	return key
}

// digest is the digest of a group as it is now: its sessions in order
// and the stamp of each of their files; ok false when a file has no
// entry that describes it as it is (cache.Same).
func (s *sums) digest(sorted []Input, members []int, key string) (d [32]byte, ok bool) {
	// Hashed as it is encoded, a session at a time: the encoding of a
	// folder of thousands is hundreds of KB (1.7 MB of fresh memory for
	// 5,000 sessions, 400 page faults), its hash the same.
	h := sha256.New()
	var e cache.Encoder
	e.Grow(1024)
	e.Uvarint(sumVersion)
	e.String(string(s.prices[:]))
	for i := range 2 {
		e.Bool(s.hasWin[i])
		e.Varint(s.window[i])
	}
	e.String(key)
	e.Uvarint(uint64(len(members)))
	stamp := func(agent, path string, listed *rawfile.Info) bool {
		ent, st := s.store.LookupBrief(key, path, listed) // the stamp only
		if st != cache.Same {
			return false
		}
		e.String(agent)
		e.String(path)
		for _, v := range [...]int64{ent.Size, ent.ModTime, int64(ent.Inode), ent.Offset, ent.Lines, int64(ent.Head), int64(ent.Tail)} {
			e.Varint(v)
		}
		return true
	}
	for _, i := range members {
		in := &sorted[i]
		ss := in.Session
		e.String(ss.ID)
		e.String(ss.Path)
		e.Bool(ss.Orphan)
		e.Varint(ss.ModTime.UnixNano())
		e.Bool(in.Started.IsZero())
		e.Varint(in.Started.UnixNano())
		e.String(in.Project)
		e.Uvarint(uint64(len(in.Agents)))
		if !ss.Orphan && !stamp("", ss.Path, ss.ListedStat()) {
			return d, false
		}
		for _, a := range in.Agents {
			if !stamp(a.ID, a.Path, nil) {
				return d, false
			}
		}
		h.Write(e.Buf())
		e.Reset()
	}
	h.Write(e.Buf())
	return [32]byte(h.Sum(nil)), true
}

// load is the group's sum, and its digest, when its digest is the one of
// the files now.
func (s *sums) load(sorted []Input, members []int) (*folderSum, [32]byte) {
	key := folderKey(sorted, members)
	if key == "" {
		return nil, [32]byte{}
	}
	b := s.store.Blob(key)
	if len(b) < 32 {
		return nil, [32]byte{}
	}
	d, ok := s.digest(sorted, members, key)
	if !ok || !bytes.Equal(d[:], b[:32]) {
		return nil, [32]byte{}
	}
	fs, err := decodeSum(b[32:], len(members))
	if err != nil {
		return nil, [32]byte{}
	}
	return fs, d
}

// save keeps the sum of group g just counted, when every file of it is
// now described by its cache entry (else it drops the folder's sum).
func (s *sums) save(sorted []Input, g int, members []int, fs *folderSum) {
	key := folderKey(sorted, members)
	if key == "" {
		return
	}
	d, ok := s.digest(sorted, members, key)
	if !ok || fs == nil {
		s.store.SetBlob(key, nil)
		return
	}
	s.store.SetBlob(key, encodeSum(d, fs))
	s.digests[g], s.known[g] = d, true
}

// The folders of a report share no message id most of the time, and
// finding that out (folderIDs.repeats: every id of the history sorted)
// was a fifth of a warm report over 5,000 sessions. So the cache keeps
// the digests of the last set of folder sums found to share none: sums of
// the same digests hold the same ids, so any of those folders share none
// again, and a folder whose sum is new (a session grew) is the only one
// to look for in the others.

// maxChangedFolders is how many folders with a new sum are each looked
// for in the others (folderIDs.sharesWithOthers, a merge of its ids with
// each other folder's); with more, every id is sorted (repeats).
const maxChangedFolders = 4

// changedSinceDisjoint is the groups whose sum is not one of the last set
// found to share no message id (keyed false when a group has no sum: it
// was not all counted from whole folders, and no set is kept for it).
func (s *sums) changedSinceDisjoint() (changed []int, keyed bool) {
	if s == nil || len(s.known) < 2 {
		return nil, false
	}
	kept := map[[32]byte]bool{}
	b := s.store.Blob(s.disjointFolder())
	for len(b) >= 32 {
		kept[[32]byte(b[:32])] = true
		b = b[32:]
	}
	for g, known := range s.known {
		if !known {
			return nil, false
		}
		if !kept[s.digests[g]] {
			changed = append(changed, g)
		}
	}
	return changed, true
}

// disjointFolder is the cache's key for the digests of the last set of
// folder sums found to share no message id: the cache's own directory,
// never a project folder, and kept while it exists (an absent folder's
// record is dropped).
func (s *sums) disjointFolder() string { return s.store.Dir() }

// rememberDisjoint keeps the digests of every group's sum as a set found
// to share no message id (sorted: the same set, the same bytes).
func (s *sums) rememberDisjoint() {
	ds := slices.Clone(s.digests)
	slices.SortFunc(ds, func(a, b [32]byte) int { return bytes.Compare(a[:], b[:]) })
	b := make([]byte, 0, 32*len(ds))
	for _, d := range ds {
		b = append(b, d[:]...)
	}
	s.store.SetBlob(s.disjointFolder(), b)
}

// idsOf is the sorted first halves of the message ids of a table.
func idsOf(c *Counter) []uint64 {
	ids := make([]uint64, c.rows.len())
	for j := range int32(c.rows.len()) {
		ids[j] = c.rows.at(j).mid[0]
	}
	slices.Sort(ids)
	// One message.id has several rows when it came with several requestIds.
	return slices.Compact(ids)
}

// encodeTotal writes a total's numbers after a mask of those that are
// not 0 (most are: web searches, unpriced and estimated calls, one of the
// cache-write splits), which only are written.
func encodeTotal(e *cache.Encoder, t *Total) {
	vs := [...]int64{t.Input, t.Output, t.CacheCreation, t.CacheCreation5m, t.CacheCreation1h, t.CacheRead, t.Tokens,
		t.WebSearch, t.APICalls, t.MaxContext, t.UnpricedCalls, t.OutputUnderstated, t.EstimatedCalls, t.pico}
	var mask uint64
	for i, v := range vs {
		if v != 0 {
			mask |= 1 << i
		}
	}
	e.Uvarint(mask)
	for _, v := range vs {
		if v != 0 {
			e.Varint(v)
		}
	}
}

func decodeTotal(d *cache.Decoder) Total {
	var t Total
	mask := d.Uvarint()
	for i, p := range [...]*int64{&t.Input, &t.Output, &t.CacheCreation, &t.CacheCreation5m, &t.CacheCreation1h, &t.CacheRead, &t.Tokens,
		&t.WebSearch, &t.APICalls, &t.MaxContext, &t.UnpricedCalls, &t.OutputUnderstated, &t.EstimatedCalls, &t.pico} {
		if mask&(1<<i) != 0 {
			*p = d.Varint()
		}
	}
	t.Cost = float64(t.pico) / 1e12
	return t
}

func encodeCounts(e *cache.Encoder, m map[string]int64) {
	e.Uvarint(uint64(len(m)))
	for k, v := range m {
		e.String(k)
		e.Varint(v)
	}
}

func decodeCounts(d *cache.Decoder) map[string]int64 {
	n := d.Uvarint()
	if n == 0 || n > uint64(d.Len()) {
		return nil
	}
	m := make(map[string]int64, n)
	for range n {
		k := d.String()
		m[k] = d.Varint()
	}
	return m
}

// encodeSum is a sum's bytes, after its digest.
func encodeSum(digest [32]byte, fs *folderSum) []byte {
	var e cache.Encoder
	b := append([]byte(nil), digest[:]...)
	b = binary.AppendUvarint(b, uint64(len(fs.ids)))
	for _, id := range fs.ids {
		b = binary.LittleEndian.AppendUint64(b, id)
	}
	e.Uvarint(uint64(len(fs.sessions)))
	for _, ss := range fs.sessions {
		e.Bool(ss.last.hasTime)
		if ss.last.hasTime {
			e.Varint(ss.last.sec)
			e.Varint(int64(ss.last.nsec))
		}
		e.Uvarint(uint64(len(ss.buckets)))
		for i := range ss.buckets {
			bk := &ss.buckets[i]
			e.String(bk.key.agent)
			e.String(bk.key.model)
			encodeTotal(&e, &bk.total)
		}
		e.Uvarint(uint64(len(ss.issues)))
		for _, is := range ss.issues {
			e.String(is.File)
			e.Varint(int64(is.Line))
			e.Varint(int64(is.Kind))
			e.Varint(int64(is.Size))
			e.String(is.Detail)
			e.Varint(int64(is.Limit))
		}
	}
	e.Uvarint(uint64(len(fs.part.slots)))
	for i := range fs.part.slots {
		st := &fs.part.slots[i]
		e.Varint(st.slot)
		e.Varint(st.first)
		e.Varint(st.last)
		encodeTotal(&e, &st.total)
	}
	encodeCounts(&e, fs.part.unpriced)
	encodeCounts(&e, fs.part.estimated)
	return append(b, e.Buf()...)
}

// decodeSum reads what encodeSum wrote after the digest, for a group of
// n sessions.
func decodeSum(b []byte, n int) (*folderSum, error) {
	nids, k := binary.Uvarint(b)
	if k <= 0 || nids > uint64(len(b)-k)/8 {
		return nil, errEntry
	}
	b = b[k:]
	fs := &folderSum{ids: make([]uint64, nids)}
	for i := range fs.ids {
		fs.ids[i] = binary.LittleEndian.Uint64(b[8*i:])
		if i > 0 && fs.ids[i] <= fs.ids[i-1] {
			return nil, errEntry // folderIDs.shared needs them sorted, each once
		}
	}
	d := cache.NewDecoder(b[8*nids:])
	if d.Uvarint() != uint64(n) {
		return nil, errEntry
	}
	fs.sessions = make([]sessionSum, n)
	for i := range fs.sessions {
		ss := &fs.sessions[i]
		if ss.last.hasTime = d.Bool(); ss.last.hasTime {
			ss.last.sec, ss.last.nsec = d.Varint(), int32(d.Varint())
		}
		m := d.Uvarint()
		if m > uint64(d.Len()) {
			return nil, errEntry
		}
		ss.buckets = make([]bucket, m)
		for j := range ss.buckets {
			bk := &ss.buckets[j]
			bk.key.agent, bk.key.model = d.String(), d.String()
			bk.total = decodeTotal(d)
		}
		m = d.Uvarint()
		if m > uint64(d.Len()) {
			return nil, errEntry
		}
		for range m {
			ss.issues = append(ss.issues, reader.Issue{File: d.String(), Line: int(d.Varint()), Kind: reader.IssueKind(d.Varint()),
				Size: int(d.Varint()), Detail: d.String(), Limit: int(d.Varint())})
		}
	}
	m := d.Uvarint()
	if m > uint64(d.Len()) {
		return nil, errEntry
	}
	fs.part.slots = make([]slotTotal, m)
	for i := range fs.part.slots {
		st := &fs.part.slots[i]
		st.slot, st.first, st.last = d.Varint(), d.Varint(), d.Varint()
		st.total = decodeTotal(d)
	}
	fs.part.unpriced = decodeCounts(d)
	fs.part.estimated = decodeCounts(d)
	if d.Err() != nil {
		return nil, d.Err()
	}
	if d.Len() != 0 {
		return nil, errEntry
	}
	return fs, nil
}
