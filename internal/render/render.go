// Package render turns cctx's results into text: aligned tables and human
// numbers on a terminal, tab-separated values and exact numbers in a pipe,
// and JSON for tools. Colour is a value passed down (Theme), never a global.
package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cctx-dev/cctx/internal/termsafe"
)

// Options say what the output goes to.
type Options struct {
	TTY   bool // stdout is a terminal: human units, relative times, aligned columns
	Width int  // terminal width, for cutting long cells
	Theme Theme
	Home  string    // the user's home, shown as ~ in paths on a terminal
	Now   time.Time // for relative times ("3h ago")

	// Redact masks secrets and home paths (--redact); nil keeps text as
	// it is. Stdout is redacted line by line anyway (RedactLines): a view
	// calls Redacted on transcript text it cuts to a width, so that no
	// part of a secret is left to show.
	Redact func(string) string
}

// Redacted is s as --redact shows it.
func (o Options) Redacted(s string) string {
	if o.Redact == nil {
		return s
	}
	return o.Redact(s)
}

// TildePath shows a path under the home as ~/…, for people.
func TildePath(p, home string) string {
	if home != "" && (p == home || strings.HasPrefix(p, home+"/")) {
		return "~" + p[len(home):]
	}
	return p
}

// jsonStreamer is a document that writes itself as encoding/json writes
// it, byte for byte, faster, in pieces that each end between two values
// and are each already what termsafe.JSON makes of them, made so by the
// streamer (appendJSONString) on the goroutines that make them (ok false:
// not this one, and nothing was emitted). emit takes each piece: the
// streamer makes no more use of it.
type jsonStreamer interface {
	streamJSON(emit func([]byte) error) (ok bool, err error)
}

// pieceSize is the size a streamer's pieces aim at: a few hundred KiB, a
// write each (pieces of 64 KiB made a report of 5,000 sessions 1 ms
// slower: more writes and hand-offs, for 500 fewer page faults).
const pieceSize = 256 << 10

// pieceBufs are the buffers of a stream's pieces, given back once
// written: a report of 5,000 sessions is 7 MB, otherwise 7 MB to
// allocate (and clear) or copy again.
var pieceBufs = sync.Pool{New: func() any { b := make([]byte, 0, pieceSize+pieceSize/4); return &b }}

// newPiece is an empty buffer for a piece.
func newPiece() []byte { return (*pieceBufs.Get().(*[]byte))[:0] }

// pipeJSON streams s to w through a goroutine that writes each piece
// while the next ones are made. The first error of a write stops the
// stream.
func pipeJSON(s jsonStreamer, w io.Writer) (ok bool, err error) {
	made := make(chan []byte, 2)
	done := make(chan error, 1)
	var failed atomic.Bool
	go func() {
		var err error
		for p := range made {
			if err == nil {
				if _, err = w.Write(p); err != nil {
					failed.Store(true)
				}
			}
			if cap(p) <= 2*pieceSize {
				p = p[:0]
				pieceBufs.Put(&p)
			}
		}
		done <- err
	}()
	ok, err = s.streamJSON(func(b []byte) error {
		if failed.Load() {
			return errStopped
		}
		made <- b
		return nil
	})
	close(made)
	if werr := <-done; werr != nil || err == errStopped {
		err = werr
	}
	return ok, err
}

// inOrder makes n pieces (piece(k), for k from 0) on up to workers
// goroutines and gives them to emit in order, each goroutine at most two
// pieces ahead of emit: the sessions of a report of thousands are made
// on every core. The first error of emit stops it.
func inOrder(n, workers int, piece func(k int) []byte, emit func([]byte) error) error {
	workers = min(workers, n)
	if workers <= 1 {
		for k := range n {
			if err := emit(piece(k)); err != nil {
				return err
			}
		}
		return nil
	}
	made := make([]chan []byte, n)
	for k := range made {
		made[k] = make(chan []byte, 1) // sent to once: a maker never waits on it
	}
	ahead := make(chan struct{}, 2*workers) // a place taken for each piece made and not yet emitted
	stop := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case ahead <- struct{}{}:
				case <-stop:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				made[k] <- piece(k)
			}
		})
	}
	var err error
	for k := range n {
		p := <-made[k]
		<-ahead
		if err = emit(p); err != nil {
			break
		}
	}
	close(stop)
	wg.Wait()
	return err
}

var errStopped = errors.New("stopped: a write failed")

// JSON writes v as JSON, indented on a terminal. The C1 and bidi
// controls and U+2028/U+2029 are written as \u escapes, as ESC is, and a
// bad byte sequence as one \ufffd (termsafe.JSON).
func JSON(w io.Writer, v any, o Options) error {
	if s, ok := v.(jsonStreamer); ok {
		if o.TTY {
			var all []byte
			if ok, _ := s.streamJSON(func(b []byte) error { all = append(all, b...); return nil }); ok {
				var buf bytes.Buffer
				if err := json.Indent(&buf, all, "", "  "); err != nil {
					return err
				}
				_, err := w.Write(termsafe.JSON(buf.Bytes()))
				return err
			}
		} else if ok, err := pipeJSON(s, w); ok {
			return err
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if o.TTY {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(termsafe.JSON(buf.Bytes()))
	return err
}
