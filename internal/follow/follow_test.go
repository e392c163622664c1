package follow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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
	if got[0] != `main:2:{"a":1}` || got[1] != `main:5:{"b":2}` || got[2] != `main:6:{"c":3}` {
		t.Errorf("%q", got)
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

// What the follower tells besides lines: a BOM on a file's first line is
// dropped as the reader drops it; a line longer than the limit is skipped
// and told with its number and size; a file that shrank is read again
// from its start; and when following stops, a line finished since the
// last poll is still read.
func TestFollowerTellsWhatItSkips(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(p, []byte("\xef\xbb\xbf{\"a\":1}\n"), 0o644)
	var got, long []string
	fl := &Follower{limit: 16,
		OnLong: func(path string, line int, size int64) { long = append(long, fmt.Sprintf("%d:%d", line, size)) }}
	fl.Add(File{Path: p})
	emit := func(l Line) error { got = append(got, fmt.Sprintf("%d:%s", l.N, l.Text)); return nil }
	appendTo := func(s string) {
		f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(s)
		f.Close()
	}
	fl.Poll(emit)
	appendTo(`{"b":"` + strings.Repeat("x", 40) + "\"}\n")
	for i := 0; i < 4; i++ {
		fl.Poll(emit)
	}
	appendTo("{\"c\":3}\n")
	fl.Poll(emit)
	if strings.Join(got, " ") != `1:{"a":1} 3:{"c":3}` || strings.Join(long, " ") != "2:48" {
		t.Errorf("lines %q, long %q", got, long)
	}
	os.WriteFile(p, []byte("{\"d\":4}\n"), 0o644)
	fl.Poll(emit)
	if got[len(got)-1] != `1:{"d":4}` {
		t.Errorf("after the file shrank: lines %q", got)
	}

	// Stopping: the last poll comes after the stop, however long the interval.
	fl2 := &Follower{Interval: time.Hour}
	fl2.Add(File{Path: p, Offset: 8, Line: 1})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var last []string
	var mu sync.Mutex
	go func() {
		done <- fl2.Run(ctx, func(l Line) error { mu.Lock(); last = append(last, string(l.Text)); mu.Unlock(); return nil })
	}()
	time.Sleep(20 * time.Millisecond) // the first poll has run
	appendTo("{\"e\":5}\n")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if strings.Join(last, " ") != `{"e":5}` {
		t.Errorf("lines read by the last poll: %q", last)
	}
}

// A followed file that is truncated, or replaced by another file at its
// path (even a longer one, which a size check alone would miss), is read
// again from its start, and OnReset says so.
func TestResetIsReported(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	os.WriteFile(p, []byte("{\"a\":1}\n{\"b\":2}\n"), 0o644)
	var notes []string
	fl := &Follower{OnReset: func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }}
	fl.Add(File{Path: p, Offset: 16, Line: 2})
	var got []string
	emit := func(l Line) error { got = append(got, fmt.Sprintf("%d:%s", l.N, l.Text)); return nil }
	if fl.Poll(emit); len(notes) != 0 || len(got) != 0 {
		t.Fatalf("nothing changed, yet %q %q", notes, got)
	}
	// Truncated.
	os.WriteFile(p, []byte("{\"c\":3}\n"), 0o644)
	fl.Poll(emit)
	if len(notes) != 1 || !strings.Contains(notes[0], p+" was truncated") || strings.Join(got, ",") != `1:{"c":3}` {
		t.Fatalf("after truncation: notes %q lines %q", notes, got)
	}
	// Replaced by a longer file (an editor's save, a rename over it).
	other := filepath.Join(dir, "new.jsonl")
	os.WriteFile(other, []byte("{\"x\":1}\n{\"y\":2}\n{\"z\":3}\n"), 0o644)
	if err := os.Rename(other, p); err != nil {
		t.Fatal(err)
	}
	fl.Poll(emit)
	if len(notes) != 2 || !strings.Contains(notes[1], p+" was replaced") || strings.Join(got, ",") != `1:{"c":3},1:{"x":1},2:{"y":2},3:{"z":3}` {
		t.Fatalf("after replacement: notes %q lines %q", notes, got)
	}
	// Growing is not a reset.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"w\":4}\n")
	f.Close()
	fl.Poll(emit)
	if len(notes) != 2 || got[len(got)-1] != `4:{"w":4}` {
		t.Fatalf("after growth: notes %q lines %q", notes, got)
	}
}
