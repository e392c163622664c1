package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// A folder's summaries are in two parts, each with its own CRC-32C in the
// header, so that a run reads only the first:
//
//	header  magic (8), version (u32), length of part 1 (u32),
//	        CRC-32C of part 1 (u32), CRC-32C of part 2 (u32)
//	part 1  the project folder, the entry count, then per entry its path
//	        (relative to the folder), size, modification time (ns), inode,
//	        offset, lines, head hash, tail hash, its brief (the first
//	        Entry.Brief bytes of its Data) and the length of the rest of
//	        its Data; then the folder's blob
//	part 2  the rest of each entry's Data, in the order of part 1
//
// as uvarint-prefixed strings and varints (encoding/binary). The index
// (index.go) keeps the header and part 1 of every folder; the folder's own
// file, the header and part 2 (none when part 2 is empty): one home each,
// and a warm run whose folder sums hold reads the index only.
const headerLen = 24

type header struct {
	part1      uint32 // length of part 1
	crc1, crc2 uint32
}

func parseHeader(b []byte) (header, error) {
	if len(b) < headerLen || !bytes.Equal(b[:8], magic[:]) {
		return header{}, errors.New("not a cctx cache file")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != Version {
		return header{}, fmt.Errorf("version %d, not %d", v, Version)
	}
	return header{part1: binary.LittleEndian.Uint32(b[12:]), crc1: binary.LittleEndian.Uint32(b[16:]), crc2: binary.LittleEndian.Uint32(b[20:])}, nil
}

var (
	errChecksum  = errors.New("checksum mismatch (truncated or corrupt)")
	errTruncated = errors.New("truncated or corrupt: shorter than its entries say")
)

// loaded is a folder file as a run reads it: its entries with their
// briefs only (Data is the brief; Entry.rest bytes are still to read,
// from part 2 in the order of order), and its blob.
type loaded struct {
	entries map[string]*Entry
	order   []*Entry // those with a rest, in the order of part 1
	rests   int64    // their length: part 2's
	blob    []byte
	head    [headerLen]byte // the header, which says which file part 2 must be read from
	size    int64           // of the folder file that holds part 2
}

// decodePart1 reads part 1 (its checksum checked) for the folder key;
// rest is the length of part 2, which the entries' rests must fill (-1:
// not known, part 1 came from the index).
func decodePart1(p1 []byte, h header, key string, rest int64) (*loaded, error) {
	if crc32.Checksum(p1, castagnoli) != h.crc1 {
		return nil, errChecksum
	}
	d := &Decoder{b: p1}
	if d.String() != key {
		return nil, errors.New("written for another folder")
	}
	n := d.Uvarint()
	if n > uint64(len(d.b)) {
		return nil, errors.New("corrupt entry count")
	}
	// An entry takes 12 bytes at least: a count that passed its checksum
	// still sizes no map past what the bytes can hold.
	l := &loaded{entries: make(map[string]*Entry, min(n, uint64(d.Len())/12))}
	var rests int64
	for range n {
		e := &Entry{Path: decodePath(d, key), Size: d.Varint(), ModTime: d.Varint(), Inode: d.Uvarint(),
			Offset: d.Varint(), Lines: d.Varint(), Head: uint32(d.Uvarint()), Tail: uint32(d.Uvarint())}
		e.Data = d.Bytes()
		e.Brief = len(e.Data)
		r := d.Uvarint()
		if d.Err() != nil {
			return nil, d.Err()
		}
		if e.Offset < 0 || e.Lines < 0 || e.Size != e.Offset {
			return nil, errors.New("corrupt entry")
		}
		if rest >= 0 && r > uint64(rest-rests) || r > 1<<40 {
			return nil, errTruncated
		}
		e.rest = int(r)
		rests += int64(r)
		l.entries[e.Path] = e
		if r > 0 {
			l.order = append(l.order, e)
		}
	}
	l.rests = rests
	l.blob = d.Bytes()
	if len(l.blob) == 0 {
		l.blob = nil
	}
	if d.Err() != nil {
		return nil, d.Err()
	}
	if len(d.b) != 0 {
		return nil, errors.New("trailing bytes")
	}
	if rest >= 0 && rests != rest {
		return nil, errTruncated
	}
	return l, nil
}

// fill appends part 2 to the entries' briefs (its checksum checked).
func (l *loaded) fill(p2 []byte) error {
	if crc32.Checksum(p2, castagnoli) != binary.LittleEndian.Uint32(l.head[20:]) {
		return errChecksum
	}
	if int64(len(p2)) != l.rests {
		return errTruncated
	}
	total := 0
	for _, e := range l.order {
		total += len(e.Data) + e.rest
	}
	buf := make([]byte, 0, total) // one allocation for the folder
	for _, e := range l.order {
		start := len(buf)
		buf = append(buf, e.Data...)
		buf = append(buf, p2[:e.rest]...)
		p2 = p2[e.rest:]
		e.Data, e.rest = buf[start:len(buf):len(buf)], 0
	}
	l.order = nil
	return nil
}

// loadRest reads part 2 from the folder's file into the entries' Data:
// an error when the file is not the one part 1 was written with (another
// cctx wrote it meanwhile) or part 2 is not what part 1 says.
func (l *loaded) loadRest(file string) error {
	fh, err := rawfile.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	if st.Size != l.size {
		return errors.New("written again meanwhile")
	}
	b := make([]byte, st.Size)
	if _, err := fh.ReadAt(b, 0); err != nil {
		return err
	}
	if [headerLen]byte(b[:headerLen]) != l.head {
		return errors.New("written again meanwhile")
	}
	return l.fill(b[headerLen:])
}

// encodeFile is a folder's entries and blob in the layout above. Every
// entry's Data must be whole (no rest left to read).
func encodeFile(key string, entries map[string]*Entry, blob []byte) []byte {
	var p1 Encoder
	size := headerLen + len(key) + 16 + len(blob)
	for _, x := range entries {
		size += len(x.Path) + 64 + len(x.Data)
	}
	p1.b = make([]byte, headerLen, size)
	copy(p1.b, magic[:])
	binary.LittleEndian.PutUint32(p1.b[8:], Version)
	p1.String(key)
	p1.Uvarint(uint64(len(entries)))
	order := make([]*Entry, 0, len(entries))
	for _, x := range entries {
		brief := min(max(x.Brief, 0), len(x.Data))
		encodePath(&p1, key, x.Path)
		p1.Varint(x.Size)
		p1.Varint(x.ModTime)
		p1.Uvarint(x.Inode)
		p1.Varint(x.Offset)
		p1.Varint(x.Lines)
		p1.Uvarint(uint64(x.Head))
		p1.Uvarint(uint64(x.Tail))
		p1.Bytes(x.Data[:brief])
		p1.Uvarint(uint64(len(x.Data) - brief))
		order = append(order, x)
	}
	p1.Bytes(blob)
	end := len(p1.b)
	b := p1.b
	for _, x := range order {
		b = append(b, x.Data[min(max(x.Brief, 0), len(x.Data)):]...)
	}
	binary.LittleEndian.PutUint32(b[12:], uint32(end-headerLen))
	binary.LittleEndian.PutUint32(b[16:], crc32.Checksum(b[headerLen:end], castagnoli))
	binary.LittleEndian.PutUint32(b[20:], crc32.Checksum(b[end:], castagnoli))
	return b
}

// A path inside the folder is stored as its rest (shorter), after a flag.
func encodePath(e *Encoder, key, path string) {
	r, ok := strings.CutPrefix(path, key+string(filepath.Separator))
	e.Bool(ok)
	if ok {
		path = r
	}
	e.String(path)
}

func decodePath(d *Decoder, key string) string {
	if d.Bool() {
		return key + string(filepath.Separator) + d.String()
	}
	return d.String()
}

// write writes a folder's entries and blob: its file (the header and
// part 2; removed when part 2 is empty), and returns the header and part
// 1 for the index.
func write(file, key string, entries map[string]*Entry, blob []byte) (record, error) {
	b := encodeFile(key, entries, blob)
	end := headerLen + int(binary.LittleEndian.Uint32(b[12:]))
	var r record
	copy(r.head[:], b)
	r.part1 = b[headerLen:end]
	if end == len(b) {
		if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
			return r, err
		}
		return r, nil
	}
	return r, replace(file, append(b[:headerLen:headerLen], b[end:]...))
}

// replace writes b to file through a temporary file renamed over it: a
// reader sees the old file or the new one, whole.
func replace(file string, b []byte) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
