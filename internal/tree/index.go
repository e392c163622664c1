package tree

import "hash/maphash"

// uuidIndex finds a file's nodes by uuid: an open-addressing hash table
// of node pointers, at most half full, with 32 bits of each uuid's hash
// beside them (a probe that meets another uuid does not read its node). A
// Go map of a million uuids cost ~63 bytes a node; this costs 12 to 24
// (the uuids are the nodes' own).
type uuidIndex struct {
	slots []*Node
	tags  []uint32
	n     int
}

var indexSeed = maphash.MakeSeed()

func newUUIDIndex(size int) *uuidIndex {
	c := 16
	for c < 2*size {
		c *= 2
	}
	return &uuidIndex{slots: make([]*Node, c), tags: make([]uint32, c)}
}

// slot is where u is, or the empty slot where it would go, and u's tag.
func (x *uuidIndex) slot(u string) (int, uint32) {
	h := maphash.String(indexSeed, u)
	tag := uint32(h >> 32)
	mask := len(x.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if n := x.slots[i]; n == nil || x.tags[i] == tag && n.UUID == u {
			return i, tag
		}
	}
}

// get returns the node with uuid u, or nil.
func (x *uuidIndex) get(u string) *Node {
	if x == nil || len(x.slots) == 0 || u == "" {
		return nil
	}
	i, _ := x.slot(u)
	return x.slots[i]
}

// put indexes n under its uuid and returns the node it replaces (nil when
// the uuid is new). The replaced node keeps its uuid: the caller marks it.
func (x *uuidIndex) put(n *Node) *Node {
	i, tag := x.slot(n.UUID)
	old := x.slots[i]
	x.slots[i], x.tags[i] = n, tag
	if old == nil {
		x.n++
		if 2*x.n > len(x.slots) {
			x.grow()
		}
	}
	return old
}

func (x *uuidIndex) grow() {
	old := x.slots
	x.slots, x.tags = make([]*Node, 2*len(old)), make([]uint32, 2*len(old))
	for _, n := range old {
		if n != nil {
			i, tag := x.slot(n.UUID)
			x.slots[i], x.tags[i] = n, tag
		}
	}
}

// msgIndex finds the first line of each API response (same file, same
// sidechain flag, same message.id) among the assistant nodes; the next
// lines follow through Node.msgNext. An open-addressing table of node
// pointers, at most half full, where a map of slices cost ~140 bytes a
// response.
type msgIndex struct {
	slots []*Node
	tags  []uint32 // 32 bits of the hash of each slot's message.id
}

func newMsgIndex(size int) msgIndex {
	c := 16
	for c < 2*size {
		c *= 2
	}
	return msgIndex{slots: make([]*Node, c), tags: make([]uint32, c)}
}

func sameMsg(a, b *Node) bool {
	return a.File == b.File && a.Sidechain == b.Sidechain && a.MessageID == b.MessageID
}

// slot is where the response of n is, or the empty slot where it would
// go, and the tag of n's message.id.
func (x msgIndex) slot(n *Node) (int, uint32) {
	h := maphash.String(indexSeed, n.MessageID)
	tag := uint32(h >> 32)
	mask := len(x.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		if m := x.slots[i]; m == nil || x.tags[i] == tag && sameMsg(m, n) {
			return i, tag
		}
	}
}

// first returns the first line of n's response (n itself when it is the
// first, or when the index has no entry for it).
func (x msgIndex) first(n *Node) *Node {
	if len(x.slots) == 0 || n.MessageID == "" {
		return n
	}
	if i, _ := x.slot(n); x.slots[i] != nil {
		return x.slots[i]
	}
	return n
}

// msgLines appends to buf the lines of n's response (n with a message.id,
// in file order: every line with its file, sidechain flag and id), or n
// alone when it has no message.id.
func (t *Tree) msgLines(buf []*Node, n *Node) []*Node {
	if n.MessageID == "" {
		return append(buf, n)
	}
	return t.msgLinesFrom(buf, t.msgs.first(n))
}

// msgLinesFrom is msgLines from the response's first line.
func (t *Tree) msgLinesFrom(buf []*Node, first *Node) []*Node {
	for m := first; m != nil; {
		buf = append(buf, m)
		if m.msgNext == 0 {
			break
		}
		m = t.Nodes[m.msgNext-1]
	}
	return buf
}
