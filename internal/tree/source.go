package tree

import (
	"fmt"

	"github.com/cctx-dev/cctx/internal/reader"
)

// Source re-reads transcript lines by their offset. The tree keeps
// envelopes only; what prints content (show, export, the agents report)
// re-reads each line it needs when it needs it, so memory follows the
// number of entries, never their bytes: a 1 MB screenshot line is read,
// used and dropped.
type Source struct {
	// Paths maps a tree file to the path to read it from, for files whose
	// tree path is not a real file (standard input, spooled to a temporary
	// file). Files not in the map are read at File.Path.
	Paths map[*File]string
	// Redact, when set, rewrites every line read (--redact). It must keep a
	// JSON line valid JSON.
	Redact func([]byte) []byte

	open map[string]*reader.File
}

// Line returns the raw line of n: the JSON object exactly as the file holds
// it (the reader's BOM, whitespace and CR trimming applied), then redacted.
func (s *Source) Line(n *Node) ([]byte, error) {
	if n == nil || n.File == nil {
		return nil, fmt.Errorf("no file for entry")
	}
	path := n.File.Path
	if p, ok := s.Paths[n.File]; ok {
		path = p
	}
	f, err := s.file(path)
	if err != nil {
		return nil, err
	}
	b, err := reader.LineAt(f, n.Offset, n.Size)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", n.File.Name, n.Line, err)
	}
	if s.Redact != nil {
		b = s.Redact(b)
	}
	return b, nil
}

// file opens a transcript once. A compressed one (.jsonl.zst) is read as
// the text it holds: the tree's offsets are offsets in that text, and
// reader.File reads them from the frame that holds them.
func (s *Source) file(path string) (*reader.File, error) {
	if f, ok := s.open[path]; ok {
		return f, nil
	}
	f, err := reader.OpenFile(path)
	if err != nil {
		return nil, err
	}
	if s.open == nil {
		s.open = map[string]*reader.File{}
	}
	s.open[path] = f
	return f, nil
}

// Close closes every file the source opened.
func (s *Source) Close() error {
	for p, f := range s.open {
		f.Close()
		delete(s.open, p)
	}
	return nil
}

// Source returns a reader of the tree's lines. A transcript read from
// standard input is read back from its spool (see Open).
func (t *Tree) Source() *Source {
	s := &Source{}
	if t.spool != "" && t.Main != nil {
		s.Paths = map[*File]string{t.Main: t.spool}
	}
	return s
}
