package tokens

import (
	"cmp"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"strings"

	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tree"
)

// TreeUsage is the usage of one session counted from its tree.
type TreeUsage struct {
	Total Total
	// Models are the models of the responses, most tokens first, without
	// the synthetic placeholder model.
	Models []string
	// MainPath is the path the counter recorded for the main file
	// (Response.File of its lines).
	MainPath string

	c     *Counter
	order []int32 // the counter's rows as a timeline
}

// All yields the responses as a timeline (sorted by time, stable), each
// made when it is reached into one value that the next step overwrites:
// copy a response to keep it. A session of a million lines has half a
// million responses; show --tail 1 needs a handful of them kept, and
// made as a list they cost ~135 MB (issue 23.3).
func (u TreeUsage) All() iter.Seq[*Response] {
	return func(yield func(*Response) bool) {
		var r Response
		for _, i := range u.order {
			r = u.c.response(i)
			if !yield(&r) {
				return
			}
		}
	}
}

// Responses are the responses as a timeline, as a list.
func (u TreeUsage) Responses() []Response {
	out := make([]Response, 0, len(u.order))
	for r := range u.All() {
		out = append(out, *r)
	}
	return out
}

// CountTree totals the usage of a session from its tree, exactly as
// `cctx tokens` counts one session (the same rule, the files in the same
// order, responses as a timeline), so that show's header, tree's runs and
// the agents report equal its report. It feeds the counter the envelopes
// the tree already holds (its nodes and the lines it dropped) instead of
// reading every file again. sessionID names the session ("" takes the
// tree's); mainPath is the path to record for the main file ("" takes
// its own: standard input is spooled to a temporary file).
func CountTree(t *tree.Tree, sessionID, mainPath string, prices *Prices) TreeUsage {
	// File.Add counts assistant lines and names inline agents from
	// sidechain lines: nothing else changes the count.
	return countTree(t, sessionID, mainPath, prices, func(n *tree.Node) bool { return n.Type != "assistant" && !n.Sidechain })
}

// countTree is CountTree with the nodes the counter is not fed (skip,
// nil for none: a test checks that skipping them changes nothing).
func countTree(t *tree.Tree, sessionID, mainPath string, prices *Prices, skip func(*tree.Node) bool) TreeUsage {
	if sessionID == "" {
		sessionID = t.SessionID
	}
	if mainPath == "" && t.Main != nil {
		mainPath = t.Main.Path
	}
	c := NewCounter()
	n := 0 // at most one response an assistant line
	for _, nd := range t.Nodes {
		if nd.Type == "assistant" {
			n++
		}
	}
	for _, fl := range t.Files {
		n += len(fl.Dropped)
	}
	c.Grow(n)
	var cur *tree.File
	var cf *File
	t.Entries(skip, func(fl *tree.File, e *reader.Entry) {
		if fl != cur {
			src := Source{SessionID: sessionID, Path: fl.Path}
			if fl == t.Main {
				src.Path = mainPath
			}
			if fl.Agent != nil {
				src.AgentID = fl.Agent.ID
			}
			cur, cf = fl, c.File(src)
		}
		cf.Add(e)
	})
	// cctx tokens lists a session's responses as a timeline: the rows in
	// the order first seen, sorted stably by time (mostly sorted already).
	u := TreeUsage{MainPath: mainPath, c: c, order: make([]int32, c.rows.len())}
	for i := range u.order {
		u.order[i] = int32(i)
	}
	byTime := func(a, b int32) int { return c.rows.at(a).when().Compare(c.rows.at(b).when()) }
	if !slices.IsSortedFunc(u.order, byTime) {
		slices.SortStableFunc(u.order, byTime)
	}
	byModel := map[string]int64{} // in the same pass as the total: a pass over 500,000 responses is ~50 ms
	for r := range u.All() {
		u.Total.Add(r, prices)
		if r.Model != "" && r.Model != reader.SyntheticModel {
			byModel[r.Model] += r.Usage.Total()
		}
	}
	u.Models = make([]string, 0, len(byModel))
	for m := range byModel {
		u.Models = append(u.Models, m)
	}
	slices.SortFunc(u.Models, func(a, b string) int {
		if byModel[a] != byModel[b] {
			return cmp.Compare(byModel[b], byModel[a])
		}
		return strings.Compare(a, b)
	})
	return u
}

// CountWhileOpening is tree.Open that counts the tree's usage
// (CountTree) while the tree's links are made, on another core
// (tree.OpenWith); usage is the count, once the tree is open. On a
// million-line session the count took 0.4 s after the tree was done.
// Without count it is tree.Open, and usage nil.
func CountWhileOpening(prices *Prices, count bool) (open func(*session.Finder, *session.Session, io.Reader, *diag.Reporter) (*tree.Tree, error), usage func() TreeUsage) {
	if !count {
		return tree.Open, nil
	}
	var u TreeUsage
	open = tree.OpenWith(func(t *tree.Tree) { u = CountTree(t, "", "", prices) })
	return open, func() TreeUsage { return u }
}

// NodesTokens is the total tokens of the API responses of some nodes, each
// response once, as cctx tokens counts: the lines of a response are
// grouped as the Counter groups them (message.id, then requestId; a run of
// anonymous lines with equal usage is one response), and a response's
// tokens are those of its largest line, a main line winning over a
// sidechain replay (Counter.put). It sums without building the responses:
// a run of a million lines made half a million of them just for one number.
func NodesTokens(nodes []*tree.Node) int64 {
	type resp struct { // 32 bytes: the bools after the int32
		rid       string
		tokens    int64
		next      int32 // next response of the same message.id, -1 for none
		hasRID    bool
		sidechain bool
	}
	counted := func(n *tree.Node) bool { return n.Type == "assistant" && n.HasUsage() && !n.Synthetic() }
	// A message.id on one line only is a response of its own: summed
	// without an entry in the table. The ids on more than one line are
	// found by a filter of their hashes (a false positive only costs an
	// entry): a table of every id of a million-line run, with the list of
	// responses, was ~40 MB (issue 23.3).
	withID := 0
	for _, n := range nodes {
		if counted(n) && n.MessageID != "" {
			withID++
		}
	}
	size := uint64(64)
	for size < filterBitsPerID*uint64(withID) {
		size <<= 1
	}
	once, twice := make([]uint64, size/64), make([]uint64, size/64)
	bit := func(mid string) (int, uint64) {
		h := maphash.String(midSeed, mid) & (size - 1)
		return int(h / 64), 1 << (h % 64)
	}
	for _, n := range nodes {
		if counted(n) && n.MessageID != "" {
			if w, b := bit(n.MessageID); once[w]&b != 0 {
				twice[w] |= b
			} else {
				once[w] |= b
			}
		}
	}
	shared := func(mid string) bool {
		w, b := bit(mid)
		return twice[w]&b != 0
	}
	tabled, withShared := 0, 0 // sized once: grown by appends, garbage
	for _, n := range nodes {
		if counted(n) && (n.MessageID == "" || shared(n.MessageID)) {
			tabled++
			if n.MessageID != "" {
				withShared++
			}
		}
	}
	var sum int64
	rs := make([]resp, 0, tabled)
	var byMID map[string]int32
	find := func(mid, rid string) (int32, bool) {
		head, ok := byMID[mid]
		if !ok {
			return -1, false
		}
		if rid == "" {
			return head, true
		}
		for i := head; i >= 0; i = rs[i].next {
			if rs[i].hasRID && rs[i].rid == rid {
				return i, true
			}
		}
		if !rs[head].hasRID {
			return head, true
		}
		return -1, false
	}
	anonSeen, anon := false, int32(-1)
	var anonUsage reader.Usage
	for _, n := range nodes {
		if !counted(n) {
			continue
		}
		mid, rid, u := n.MessageID, n.RequestID(), n.Usage()
		if mid != "" && !shared(mid) {
			anonSeen = false
			sum += u.Total()
			continue
		}
		in := resp{sidechain: n.Sidechain, tokens: u.Total(), next: -1}
		i, seen := int32(-1), false
		if mid != "" {
			anonSeen = false
			if byMID == nil {
				byMID = make(map[string]int32, withShared)
			}
			if i, seen = find(mid, rid); !seen {
				in.rid, in.hasRID = rid, rid != ""
				i = int32(len(rs))
				if head, ok := byMID[mid]; ok {
					last := head
					for rs[last].next >= 0 {
						last = rs[last].next
					}
					rs[last].next = i
				} else {
					byMID[mid] = i
				}
			}
		} else {
			if anonSeen && u == anonUsage {
				i, seen = anon, true
			} else {
				i = int32(len(rs))
				anon = i
			}
			anonSeen, anonUsage = true, u
		}
		if !seen {
			rs = append(rs, in)
			continue
		}
		r := &rs[i]
		if rid != "" && mid != "" && !r.hasRID {
			r.rid, r.hasRID = rid, true
		}
		switch {
		case r.sidechain && !in.sidechain:
			r.sidechain, r.tokens = false, in.tokens
		case !r.sidechain && in.sidechain:
		default:
			r.tokens = max(r.tokens, in.tokens)
		}
	}
	for i := range rs {
		sum += rs[i].tokens
	}
	return sum
}

// midSeed hashes message ids for NodesTokens' filter.
var midSeed = maphash.MakeSeed()

// filterBitsPerID sizes NodesTokens' filter: at least this many bits an
// id, so that an id on one line is tabled (a false positive) about once
// in that many. A variable: a test makes the filter tiny to force them.
var filterBitsPerID uint64 = 32
