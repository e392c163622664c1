package render

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
)

// pieces is a jsonStreamer of n pieces, each in a buffer of the pool (as
// TokensJSON makes them), counting those it made.
type pieces struct {
	n, made int
}

func (p *pieces) streamJSON(emit func([]byte) error) (bool, error) {
	for i := range p.n {
		b := fmt.Appendf(newPiece(), "[%d]", i)
		p.made++
		if err := emit(b); err != nil {
			return true, err
		}
	}
	return true, nil
}

type failingWriter struct{ writes int }

func (w *failingWriter) Write(b []byte) (int, error) {
	w.writes++
	return 0, errors.New("broken pipe")
}

// pipeJSON writes every piece in order, each as it was when emitted
// (its buffer goes back to the pool once written, for the next pieces),
// and stops soon after a write fails, with that write's error.
func TestPipeJSON(t *testing.T) {
	var out bytes.Buffer
	if ok, err := pipeJSON(&pieces{n: 1000}, &out); !ok || err != nil {
		t.Fatalf("pipeJSON = %v, %v", ok, err)
	}
	var want bytes.Buffer
	for i := range 1000 {
		fmt.Fprintf(&want, "[%d]", i)
	}
	if out.String() != want.String() {
		t.Errorf("the pieces came out changed or out of order: %.80q…", out.String())
	}
	p, w := &pieces{n: 100000}, &failingWriter{}
	_, err := pipeJSON(p, w)
	if err == nil || err.Error() != "broken pipe" {
		t.Errorf("err = %v, want the write's", err)
	}
	if w.writes != 1 || p.made > 100 {
		t.Errorf("after a failed write: %d writes, %d pieces made; want 1 write and the stream stopped", w.writes, p.made)
	}
}

// inOrder gives emit the pieces in order, however the goroutines that
// make them are scheduled, makes none twice, and stops making soon after
// emit fails, with emit's error.
func TestInOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 8} {
		var got []string
		var made atomic.Int64
		err := inOrder(500, workers, func(k int) []byte {
			made.Add(1)
			if k%7 == 0 {
				runtime.Gosched() // a piece made late
			}
			return fmt.Appendf(nil, "%d", k)
		}, func(b []byte) error {
			got = append(got, string(b))
			return nil
		})
		if err != nil || len(got) != 500 || made.Load() != 500 {
			t.Fatalf("%d workers: %d pieces emitted, %d made, %v", workers, len(got), made.Load(), err)
		}
		for k, s := range got {
			if s != fmt.Sprint(k) {
				t.Fatalf("%d workers: piece %d is %q", workers, k, s)
			}
		}
		made.Store(0)
		emitted := 0
		err = inOrder(100000, workers, func(k int) []byte { made.Add(1); return nil }, func([]byte) error {
			if emitted++; emitted == 10 {
				return errors.New("broken pipe")
			}
			return nil
		})
		if err == nil || err.Error() != "broken pipe" || emitted != 10 || made.Load() > int64(10+3*workers) {
			t.Errorf("%d workers, emit failing at the 10th piece: %v, %d emitted, %d made", workers, err, emitted, made.Load())
		}
	}
}
