package session

import "github.com/cctx-dev/cctx/internal/reader"

// inlineSidechains counts the inline sidechains of a ≤1.0.x main file:
// chains of isSidechain lines (a Task subagent's, written into the main
// file), each starting at a line whose parent is not a sidechain line.
// Only such files are read whole for it (they are old and small); only
// their sidechain lines are parsed.
func inlineSidechains(path string) int {
	r, c, err := reader.Open(path, reader.Options{EnvelopeOnly: true, Want: func(line []byte) bool {
		_, _, side := reader.Peek(line)
		return side
	}})
	if err != nil {
		return 0
	}
	defer c.Close()
	side := map[string]bool{}
	n := 0
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		if !e.Sidechain || e.UUID == "" {
			continue
		}
		if e.ParentUUID == "" || !side[e.ParentUUID] {
			n++
		}
		side[e.UUID] = true
	}
	return n
}
