package tree

import (
	"reflect"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/reader"
)

// TestNodeEntry: what a node keeps of its line's envelope, in line, shared
// or out of line, is the envelope again (Node.Entry), timestamps with
// their location.
func TestNodeEntry(t *testing.T) {
	utc := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	paris := time.Date(2026, 1, 2, 4, 4, 5, 0, time.FixedZone("", 3600))
	full := reader.Entry{
		Line: 7, Offset: 1234, Size: 99, Type: "assistant", Subtype: "x",
		UUID: "u-1", ParentUUID: "u-0", LogicalParentUUID: "u-l", SessionID: "s", AgentID: "a", TeamName: "t",
		Sidechain: true, Meta: true, CompactSummary: true, APIError: true, StopReasonNull: true,
		Timestamp: utc, CWD: "/w", GitBranch: "main", Version: "2.1.0",
		MessageID: "m", RequestID: "r", Model: "claude", Role: "assistant", HasUsage: true,
		Usage:   reader.Usage{Input: 1, Output: 2, CacheCreation: 3, CacheCreation5m: 4, CacheCreation1h: 5, CacheRead: 6, WebSearch: 7, Speed: "fast", ServiceTier: "std"},
		Content: reader.HasText, CompactTrigger: "auto", CompactPreTokens: 42, ToolUseResultAgentID: "ag",
	}
	cases := []struct {
		name string
		e    reader.Entry
	}{
		{"every field", full},
		{"empty", reader.Entry{}},
		{"a user line", reader.Entry{Type: "user", UUID: "u", SessionID: "s", CWD: "/w", Role: "user", Timestamp: utc}},
		{"a timestamp with an offset", reader.Entry{Type: "user", UUID: "u", Timestamp: paris}},
		{"a timestamp out of UnixNano's range", reader.Entry{Type: "user", UUID: "u", Timestamp: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}},
		{"the epoch", reader.Entry{Type: "user", UUID: "u", Timestamp: time.Unix(0, 0).UTC()}},
		{"a local time", reader.Entry{Type: "user", UUID: "u", Timestamp: utc.Local()}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := NewNode(nil, c.e)
			if got := n.Entry(); !reflect.DeepEqual(got, c.e) {
				t.Errorf("Entry() =\n%+v\nwant\n%+v", got, c.e)
			}
			if got := n.Timestamp(); got != c.e.Timestamp || got.Location().String() != c.e.Timestamp.Location().String() {
				t.Errorf("Timestamp() = %v, want %v", got, c.e.Timestamp)
			}
		})
	}
}

// TestInternerParent: a line's parentUuid shares the bytes of the previous
// line's uuid only when they are equal.
func TestInternerParent(t *testing.T) {
	var in interner
	lines := []struct{ uuid, parent string }{{"a", ""}, {"b", "a"}, {"c", "a"}, {"d", "c"}, {"d", "d"}}
	for _, l := range lines {
		p := in.parentUUID(l.parent)
		u := in.uuid(l.uuid)
		if p != l.parent || u != l.uuid {
			t.Errorf("line %s: uuid %q parent %q, want %q %q", l.uuid, u, p, l.uuid, l.parent)
		}
	}
}
