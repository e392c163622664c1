package cache

import (
	"encoding/binary"
	"errors"
	"slices"
)

// Encoder appends varints and length-prefixed strings, for the cache file
// and for the summaries its users keep in Entry.Data.
type Encoder struct{ b []byte }

// Buf is what was encoded.
func (e *Encoder) Buf() []byte { return e.b }

// Grow makes room for n more bytes (an encoder that knows its size
// grows its buffer once).
func (e *Encoder) Grow(n int) { e.b = slices.Grow(e.b, n) }

// Reset empties the encoder, keeping its buffer.
func (e *Encoder) Reset() { e.b = e.b[:0] }

func (e *Encoder) Uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *Encoder) Varint(v int64) { e.b = binary.AppendVarint(e.b, v) }

func (e *Encoder) Bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *Encoder) String(s string) {
	e.Uvarint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *Encoder) Bytes(b []byte) {
	e.Uvarint(uint64(len(b)))
	e.b = append(e.b, b...)
}

// Decoder reads what an Encoder wrote. The first error sticks: every
// later read returns zero, and Err says what went wrong, so that a caller
// checks once.
type Decoder struct {
	b   []byte
	err error
}

// NewDecoder reads b.
func NewDecoder(b []byte) *Decoder { return &Decoder{b: b} }

var errShort = errors.New("truncated or corrupt data")

// Err is the first error met.
func (d *Decoder) Err() error { return d.err }

// Len is the number of bytes left.
func (d *Decoder) Len() int { return len(d.b) }

func (d *Decoder) fail() {
	if d.err == nil {
		d.err = errShort
	}
	d.b = nil
}

func (d *Decoder) Uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *Decoder) Varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *Decoder) Bool() bool {
	if len(d.b) == 0 || d.b[0] > 1 {
		d.fail()
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// Bytes returns a slice of the decoder's input (not a copy).
func (d *Decoder) Bytes() []byte {
	n := d.Uvarint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *Decoder) String() string { return string(d.Bytes()) }
