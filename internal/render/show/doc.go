// Package show renders one conversation of the model in internal/tree the
// way `cctx show` prints it: a terminal view (light Markdown, tool calls
// with their results, diffs, truncation, hidden thinking, compaction
// dividers, subagent links), JSON for tools, and the raw JSONL lines.
//
// The tree keeps envelopes only. This package has each displayed line
// re-read at its offset when it prints it (tree.Source), so memory follows
// the number of entries, never their bytes: a 1 MB screenshot line is
// read, rendered and dropped.
package show

import "github.com/cctx-dev/cctx/internal/tree"

// Source is the tree's line reader, under the name this package used
// before it moved there.
type Source = tree.Source
