package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// The index is one file beside the folder files, `index.bin`, holding the
// header and part 1 of every folder (file.go): a run reads it, not one
// file a project folder (hundreds of opens and reads on a real history),
// and a folder's own file only for the rests of its entries' summaries,
// which the header kept in the index says must come from that very file.
//
// Two runs at once each write the index whole (the last rename wins): a
// record older than its folder file (the run that wrote the folder lost
// the race to write the index) is still a whole part 1 as it was written,
// whose entries are checked against the transcripts like any other; only
// their rests are refused (the folder file's header is not the record's),
// and what needs them is read again from the transcripts. A folder
// without a record has no entries. The layout: magic `CCTXINDX`, version
// (u32), CRC-32C of the rest (u32), the record count, then per record the
// project folder, the 24 header bytes and part 1 (length-prefixed).
const indexName = "index.bin"

var indexMagic = [8]byte{'C', 'C', 'T', 'X', 'I', 'N', 'D', 'X'}

// record is a folder file's header and part 1, as the index keeps it.
type record struct {
	head  [headerLen]byte
	part1 []byte
}

// indexFile is the path of the index of the folder files of dir.
func indexFile(dir string) string {
	return filepath.Join(dir, fmt.Sprintf("v%d", Version), indexName)
}

// loadIndex reads an index; nil (and why) when there is none or it
// cannot be used.
func loadIndex(file string) (map[string]record, error) {
	b, err := rawfile.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return decodeIndex(b)
}

func decodeIndex(b []byte) (map[string]record, error) {
	if len(b) < 16 || !bytes.Equal(b[:8], indexMagic[:]) {
		return nil, errors.New("not a cctx cache index")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != Version {
		return nil, fmt.Errorf("version %d, not %d", v, Version)
	}
	if crc32.Checksum(b[16:], castagnoli) != binary.LittleEndian.Uint32(b[12:]) {
		return nil, errChecksum
	}
	d := &Decoder{b: b[16:]}
	n := d.Uvarint()
	if n > uint64(d.Len()) {
		return nil, errors.New("corrupt record count")
	}
	recs := make(map[string]record, min(n, uint64(d.Len())/27)) // 27 bytes a record at least
	for range n {
		key := d.String()
		head := d.Bytes()
		part1 := d.Bytes()
		if d.Err() != nil {
			return nil, d.Err()
		}
		if len(head) != headerLen {
			return nil, errors.New("corrupt record")
		}
		var r record
		copy(r.head[:], head)
		r.part1 = part1
		recs[key] = r
	}
	if d.Len() != 0 {
		return nil, errors.New("trailing bytes")
	}
	return recs, nil
}

func encodeIndex(recs map[string]record) []byte {
	size := 16 + 8
	for k, r := range recs {
		size += len(k) + headerLen + len(r.part1) + 12
	}
	e := Encoder{b: make([]byte, 16, size)}
	copy(e.b, indexMagic[:])
	binary.LittleEndian.PutUint32(e.b[8:], Version)
	e.Uvarint(uint64(len(recs)))
	for k, r := range recs {
		e.String(k)
		e.Bytes(r.head[:])
		e.Bytes(r.part1)
	}
	binary.LittleEndian.PutUint32(e.b[12:], crc32.Checksum(e.b[16:], castagnoli))
	return e.b
}

// fromRecord is the folder key as its index record has it: part 1 decoded
// (its checksum checked against the record's header), the rests to read
// from the folder file of that header.
func fromRecord(r record, key string) (*loaded, error) {
	h, err := parseHeader(r.head[:])
	if err != nil {
		return nil, err
	}
	if int(h.part1) != len(r.part1) {
		return nil, errTruncated
	}
	l, err := decodePart1(r.part1, h, key, -1)
	if err != nil {
		return nil, err
	}
	l.head = r.head
	l.size = headerLen + l.rests
	return l, nil
}

// writeIndex replaces the index file with recs.
func writeIndex(file string, recs map[string]record) error {
	return replace(file, encodeIndex(recs))
}

// keepRecord reports whether the record of a folder that no run looked
// up is kept in the index: while its project folder exists.
func keepRecord(key string) bool {
	_, err := os.Stat(key)
	return err == nil
}

// ReadFolder is what the cache in dir holds for the project folder key:
// its entries, whole, and its blob (for tests and tools that look inside
// a cache; a run reads them through a Store).
func ReadFolder(dir, key string) (map[string]*Entry, []byte, error) {
	recs, err := loadIndex(indexFile(dir))
	if err != nil {
		return nil, nil, err
	}
	r, ok := recs[key]
	if !ok {
		return nil, nil, os.ErrNotExist
	}
	l, err := fromRecord(r, key)
	if err != nil {
		return nil, nil, err
	}
	if len(l.order) > 0 {
		if err := l.loadRest(FileOf(dir, key)); err != nil {
			return nil, nil, err
		}
	}
	return l.entries, l.blob, nil
}
