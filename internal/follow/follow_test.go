package follow

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestPollWaitsForWholeLines(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, []byte("{\"old\":1}\n"), 0o644)
	fl := &Follower{}
	fl.Add(File{Path: p, Offset: 10, Line: 1, Tag: "main"})
	var got []string
	emit := func(l Line) error {
		got = append(got, fmt.Sprintf("%s:%d:%s", l.Tag, l.N, l.Text))
		return nil
	}
	appendTo := func(s string) {
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(s)
		f.Close()
	}
	steps := []struct {
		write string
		want  int
	}{
		{"", 0},
		{"{\"a\":", 0},                 // half a line: nothing yet
		{"1}\r\n\n  \n{\"b\":2}\n", 2}, // the rest, a blank line, another line
		{"{\"c\":3}", 2},               // no newline yet
		{"\n", 3},
	}
	for i, s := range steps {
		appendTo(s.write)
		if err := fl.Poll(emit); err != nil {
			t.Fatal(err)
		}
		if len(got) != s.want {
			t.Fatalf("step %d: %q", i, got)
		}
	}
	// Numbered as in the whole file: blank lines count, as a reader counts them.
	if got[0] != `main:2:{"a":1}` || got[1] != `main:5:{"b":2}` || got[2] != `main:6:{"c":3}` || fl.Lines(p) != 6 {
		t.Errorf("%q, %d lines read", got, fl.Lines(p))
	}
	// A truncated (replaced) file is read again from its start.
	os.WriteFile(p, []byte("{\"new\":1}\n"), 0o644)
	fl.Poll(emit)
	if got[len(got)-1] != `main:1:{"new":1}` {
		t.Errorf("after truncation: %q", got)
	}
}

func TestMissingFileIsReportedOnce(t *testing.T) {
	n := 0
	fl := &Follower{OnError: func(string, error) { n++ }}
	fl.Add(File{Path: filepath.Join(t.TempDir(), "gone.jsonl")})
	for i := 0; i < 3; i++ {
		fl.Poll(func(Line) error { return nil })
	}
	if n != 1 {
		t.Errorf("reported %d times", n)
	}
}
