package render

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// pieces is a jsonStreamer of n pieces, each made in the same buffer (as
// TokensJSON does), counting those it made.
type pieces struct {
	n, made int
}

func (p *pieces) streamJSON(emit func([]byte) error) (bool, error) {
	b := make([]byte, 0, 64)
	for i := range p.n {
		b = fmt.Appendf(b[:0], "[%d]", i)
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
// (the streamer reuses its buffer), and stops soon after a write fails,
// with that write's error.
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
