package reader

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"
)

// TestSetStrings: with a caller's allocator the reader reads the same
// entries and makes every string of the envelope through it (a string
// equal to the last of its field is shared, not made again; one escaped
// in the line is decoded, not made).
func TestSetStrings(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/*/*/*.jsonl")
	if len(paths) < 10 {
		t.Fatalf("%d testdata sessions", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var plain, made []Entry
		r := New(bytes.NewReader(data), Options{Facts: true})
		for e, ok := r.Next(); ok; e, ok = r.Next() {
			plain = append(plain, e)
		}
		calls, mine := 0, map[*byte]bool{}
		r = New(bytes.NewReader(data), Options{Facts: true})
		r.SetStrings(func(b []byte) string {
			calls++
			s := string(b)
			mine[unsafe.StringData(s)] = true
			return s
		})
		for e, ok := r.Next(); ok; e, ok = r.Next() {
			made = append(made, e)
		}
		if !reflect.DeepEqual(plain, made) {
			t.Errorf("%s: the entries differ with an allocator", p)
		}
		if calls > 14*len(made) {
			t.Errorf("%s: %d strings made for %d entries", p, calls, len(made))
		}
		for _, e := range made {
			for _, f := range []string{e.UUID, e.ParentUUID, e.SessionID, e.CWD, e.MessageID, e.RequestID, e.Model} {
				if f != "" && !mine[unsafe.StringData(f)] && !bytes.Contains(data, []byte(`"`+f+`"`)) {
					continue // escaped in the line: decoded, not made
				}
				if f != "" && !mine[unsafe.StringData(f)] {
					t.Fatalf("%s line %d: %q not made by the allocator", p, e.Line, f)
				}
			}
		}
	}
}
