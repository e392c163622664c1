package reader

import (
	"testing"
	"unsafe"
)

// A value written with escapes (a Windows cwd) that repeats the line
// before's is the last string again, not decoded again; every value still
// reads as what it says.
func TestLineStringsEscapedRepeats(t *testing.T) {
	steps := []struct {
		raw, want string
		shared    bool // the same string as the step before
	}{
		{`"C:\\Users\\a"`, `C:\Users\a`, false},
		{`"C:\\Users\\a"`, `C:\Users\a`, true},
		{`"C:\\Users\\b"`, `C:\Users\b`, false},
		{`"C:\\Users\\b"`, `C:\Users\b`, true},
		{`"C:\u005cUsers\u005cb"`, `C:\Users\b`, false}, // other escapes of the same value: decoded
		{`"C:\u005cUsers\u005cb"`, `C:\Users\b`, true},
		{`"plain"`, `plain`, false},
		{`"plain"`, `plain`, true},
		{`"C:\\Users\\b"`, `C:\Users\b`, false}, // not the last any more
		{`"line\nbreak"`, "line\nbreak", false},
		{`"line\nbreak"`, "line\nbreak", true},
		{`"line\\nbreak"`, `line\nbreak`, false}, // the same bytes but one: another string
	}
	var ls lineStrings
	prev := ""
	for i, s := range steps {
		got := ls.str(fCWD, []byte(s.raw))
		if got != s.want {
			t.Fatalf("step %d: %s read as %q, want %q", i, s.raw, got, s.want)
		}
		same := i > 0 && unsafe.StringData(got) == unsafe.StringData(prev)
		if same != s.shared {
			t.Errorf("step %d: %s shared %v, want %v", i, s.raw, same, s.shared)
		}
		prev = got
	}
	// An escaped value is decoded once while it repeats.
	ls = lineStrings{}
	v := []byte(`"C:\\Users\\someone\\project"`)
	ls.str(fCWD, v)
	if n := testing.AllocsPerRun(50, func() { ls.str(fCWD, v) }); n != 0 {
		t.Errorf("a repeated escaped value: %v allocations", n)
	}
}
