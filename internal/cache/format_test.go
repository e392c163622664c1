package cache

import (
	"encoding/binary"
	"encoding/hex"
	"path/filepath"
	"testing"
)

// TestFileFormatIsPinned: the layout of a folder file and of the index is
// the one Version stands for. A file written by the build before a change
// to encodeFile or encodeIndex would be read by the build after as if
// nothing had changed, which no test that starts from an empty cache
// sees. When this fails after a change on purpose, bump Version and pin
// the new bytes.
func TestFileFormatIsPinned(t *testing.T) {
	if filepath.Separator != '/' {
		t.Skip("the bytes are pinned for paths with /")
	}
	key := "/p/-home-u-proj"
	e := &Entry{Path: filepath.Join(key, "s1.jsonl"), Size: 300, ModTime: 1_700_000_000_000_000_000, Inode: 42,
		Offset: 300, Lines: 3, Head: 7, Tail: 9, Data: []byte("brief+rest"), Brief: 5}
	file := encodeFile(key, map[string]*Entry{e.Path: e}, []byte("blob"))
	const wantFile = "43435458434143480600000038000000af44ab2772530cd90f2f702f2d686f6d652d752d70726f6a01010873312e6a736f6e6cd8048080d0e2c6bfce972f2ad8040607090562726965660504626c6f622b72657374"
	if got := hex.EncodeToString(file); got != wantFile {
		t.Errorf("a folder file is written as %s, pinned %s: if its layout changed on purpose, bump Version (now %d) and pin the new bytes", got, wantFile, Version)
	}
	end := headerLen + int(binary.LittleEndian.Uint32(file[12:]))
	var r record
	copy(r.head[:], file)
	r.part1 = file[headerLen:end]
	index := encodeIndex(map[string]record{key: r})
	const wantIndex = "43435458494e4458060000002235b09f010f2f702f2d686f6d652d752d70726f6a1843435458434143480600000038000000af44ab2772530cd9380f2f702f2d686f6d652d752d70726f6a01010873312e6a736f6e6cd8048080d0e2c6bfce972f2ad8040607090562726965660504626c6f62"
	if got := hex.EncodeToString(index); got != wantIndex {
		t.Errorf("the index is written as %s, pinned %s: if its layout changed on purpose, bump Version (now %d) and pin the new bytes", got, wantIndex, Version)
	}
}
