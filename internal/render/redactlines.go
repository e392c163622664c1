package render

import (
	"bytes"
	"io"
)

// RedactLines passes every line written through it to fn (--redact) before
// w: whatever a view printed (a path, a title, a JSON field), it is masked
// as the redactor masks a transcript line. A line is held until its
// newline; Flush writes the last one. fn gets whole lines, so a secret is
// never cut in two by a write.
type RedactLines struct {
	w   io.Writer
	fn  func([]byte) []byte
	buf []byte
}

// NewRedactLines redacts what is written to w with fn.
func NewRedactLines(w io.Writer, fn func([]byte) []byte) *RedactLines {
	return &RedactLines{w: w, fn: fn}
}

func (r *RedactLines) Write(p []byte) (int, error) {
	r.buf = append(r.buf, p...)
	end := bytes.LastIndexByte(r.buf, '\n')
	if end < 0 {
		return len(p), nil
	}
	if _, err := r.w.Write(r.fn(r.buf[:end+1])); err != nil {
		return 0, err
	}
	r.buf = append(r.buf[:0], r.buf[end+1:]...)
	return len(p), nil
}

// Flush writes a last line without a newline.
func (r *RedactLines) Flush() error {
	if len(r.buf) == 0 {
		return nil
	}
	_, err := r.w.Write(r.fn(r.buf))
	r.buf = r.buf[:0]
	return err
}

// Own passes one of cctx's own control sequences on, after what is held.
func (r *RedactLines) Own(seq string) error {
	if err := r.Flush(); err != nil {
		return err
	}
	return WriteOwn(r.w, seq)
}
