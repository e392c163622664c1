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
// (ok false: not this one, and nothing was emitted).
type jsonStreamer interface {
	streamJSON(emit func([]byte) error) (ok bool, err error)
}

// pipeJSON streams s to w through a goroutine that makes each piece safe
// (termsafe.JSON) and writes it while the next piece is made: on two
// cores, the two halves of writing a large report at once. The first
// error of a write stops the stream.
func pipeJSON(s jsonStreamer, w io.Writer) (ok bool, err error) {
	pieces := make(chan []byte, 2)
	free := make(chan []byte, 3) // buffers written, to copy the next pieces into
	done := make(chan error, 1)
	var failed atomic.Bool
	go func() {
		var err error
		for p := range pieces {
			if err == nil {
				if _, err = w.Write(termsafe.JSON(p)); err != nil {
					failed.Store(true)
				}
			}
			select {
			case free <- p[:0]:
			default:
			}
		}
		done <- err
	}()
	ok, err = s.streamJSON(func(b []byte) error {
		if failed.Load() {
			return errStopped
		}
		var p []byte
		select {
		case p = <-free:
		default:
		}
		pieces <- append(p, b...) // the streamer makes the next piece in b
		return nil
	})
	close(pieces)
	if werr := <-done; werr != nil || err == errStopped {
		err = werr
	}
	return ok, err
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
