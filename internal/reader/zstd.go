package reader

// Transcripts compressed with zstd (.jsonl.zst, as `cctx archive` stores
// them) are read as the text they hold: every offset, size and line number
// is one of the decompressed stream, so a compressed copy reads exactly as
// the plain file. A file is known as compressed by its first bytes (a zstd
// or skippable frame), never by its name.
//
// Random access (tree.Source re-reading a line by offset, SplitPoints, the
// head and tail a listing reads) needs a seek index. cctx writes files in
// the zstd seekable format (facebook/zstd contrib/seekable_format):
// independent frames of at most FrameBytes decompressed bytes, then a
// skippable frame holding the table of frame sizes. Any zstd tool
// decompresses such a file (it skips the table); cctx reads a frame only
// to read inside it. A zstd file without the table (written by another
// tool) is streamed from its start; reading it by offset decompresses it
// once to a temporary file.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// FrameBytes is the decompressed size of each frame cctx writes: big
// enough to compress well, small enough that reading one line by offset
// decompresses little.
const FrameBytes = 1 << 20

const (
	// maxFrameBytes bounds a frame's decompressed size as a seek table
	// states it: a larger one is taken for a corrupt table.
	maxFrameBytes = 64 << 20
	// maxWindow bounds the window of a stream read from the start
	// (zstd --long=27 uses 128 MiB): memory stays flat on a hostile file.
	maxWindow = 128 << 20

	seekTableMagic = 0x8F92EAB1
	skippableMagic = 0x184D2A5E // the seek table's skippable frame
	footerBytes    = 9          // number of frames, descriptor, magic
)

var zstdFrameMagic = []byte{0x28, 0xB5, 0x2F, 0xFD}

// isZstd reports whether a file starts as a zstd stream does: with a zstd
// frame or a skippable frame. A JSONL file starts with '{', whitespace or
// a BOM.
func isZstd(head []byte) bool {
	if len(head) < 4 {
		return false
	}
	if bytes.Equal(head[:4], zstdFrameMagic) {
		return true
	}
	m := binary.LittleEndian.Uint32(head)
	return m&0xFFFFFFF0 == 0x184D2A50
}

// IsCompressed reports whether the file at path is zstd-compressed.
func IsCompressed(path string) bool {
	f, err := openRead(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return IsCompressedFile(f)
}

// IsCompressedFile is IsCompressed of a file open (its first 4 bytes).
func IsCompressedFile(f io.ReaderAt) bool {
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	return isZstd(head[:n])
}

// SeekEntry is one frame of a seekable zstd file.
type SeekEntry struct {
	Compressed, Decompressed uint32
}

// File is a transcript file opened for reading by offset: a plain file, or
// a zstd-compressed one read as the text it holds. It is safe for
// concurrent use.
type File struct {
	f          *os.File
	path       string
	st         os.FileInfo
	compressed bool

	// A seekable compressed file: its frames, with their starts in the
	// file (comp) and in the text (text), one more than frames.
	frames     []SeekEntry
	comp, text []int64

	mu    sync.Mutex
	cache [2]frameCache // the last frames read, newest first
	spool *os.File      // a compressed file without a seek table, decompressed
}

type frameCache struct {
	i    int
	data []byte
}

// OpenFile opens a transcript file. It must be a regular file.
func OpenFile(path string) (*File, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", path, ErrNotRegular)
	}
	file := &File{f: f, path: path, st: st, cache: [2]frameCache{{i: -1}, {i: -1}}}
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	if file.compressed = isZstd(head[:n]); file.compressed {
		if frames, _, ok := readSeekTable(f, st.Size()); ok {
			file.setFrames(frames)
		}
	}
	return file, nil
}

func (f *File) setFrames(frames []SeekEntry) {
	f.frames = frames
	f.comp = make([]int64, len(frames)+1)
	f.text = make([]int64, len(frames)+1)
	for i, e := range frames {
		f.comp[i+1] = f.comp[i] + int64(e.Compressed)
		f.text[i+1] = f.text[i] + int64(e.Decompressed)
	}
}

// Compressed reports whether the file is zstd-compressed.
func (f *File) Compressed() bool { return f.compressed }

// Seekable reports whether a range of the text can be read without
// decompressing what comes before it: a plain file, or a compressed one
// with a seek table.
func (f *File) Seekable() bool { return !f.compressed || f.comp != nil }

// Stat is the file's own information (its size on disk).
func (f *File) Stat() os.FileInfo { return f.st }

// Size is the size of the text: the file's, or for a compressed file what
// it decompresses to (a file without a seek table is decompressed once to
// know it).
func (f *File) Size() (int64, error) {
	switch {
	case !f.compressed:
		return f.st.Size(), nil
	case f.comp != nil:
		return f.text[len(f.text)-1], nil
	}
	sp, err := f.spooled()
	if err != nil {
		return 0, err
	}
	st, err := sp.Stat()
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Close closes the file and removes its spool, if any.
func (f *File) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.spool != nil {
		f.spool.Close()
		os.Remove(f.spool.Name())
		f.spool = nil
	}
	f.cache = [2]frameCache{{i: -1}, {i: -1}}
	return f.f.Close()
}

// ReadAt reads the text at off.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if !f.compressed {
		return f.f.ReadAt(p, off)
	}
	if f.comp == nil {
		sp, err := f.spooled()
		if err != nil {
			return 0, err
		}
		return sp.ReadAt(p, off)
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	for n < len(p) {
		at := off + int64(n)
		if at >= f.text[len(f.text)-1] {
			return n, io.EOF
		}
		i := sort.Search(len(f.frames), func(i int) bool { return f.text[i+1] > at })
		data, err := f.frame(i)
		if err != nil {
			return n, err
		}
		n += copy(p[n:], data[at-f.text[i]:])
	}
	return n, nil
}

// frame returns the text of frame i, from the cache or decompressed.
func (f *File) frame(i int) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache[0].i == i {
		return f.cache[0].data, nil
	}
	if f.cache[1].i == i {
		f.cache[0], f.cache[1] = f.cache[1], f.cache[0]
		return f.cache[0].data, nil
	}
	e := f.frames[i]
	src := make([]byte, e.Compressed)
	if _, err := f.f.ReadAt(src, f.comp[i]); err != nil {
		return nil, f.corrupt(fmt.Errorf("frame %d: %w", i, err))
	}
	d := getDecoder()
	defer putDecoder(d)
	// Reuse the older buffer of the cache.
	dst := f.cache[1].data[:0]
	if cap(dst) < int(e.Decompressed) {
		dst = make([]byte, 0, e.Decompressed)
	}
	out, err := d.DecodeAll(src, dst)
	if err != nil {
		return nil, f.corrupt(fmt.Errorf("frame %d: %w", i, err))
	}
	if len(out) != int(e.Decompressed) {
		return nil, f.corrupt(fmt.Errorf("frame %d holds %d bytes, its seek table says %d", i, len(out), e.Decompressed))
	}
	f.cache[1] = f.cache[0]
	f.cache[0] = frameCache{i: i, data: out}
	return out, nil
}

func (f *File) corrupt(err error) error {
	return fmt.Errorf("corrupt compressed file: %w", err)
}

// spooled decompresses a compressed file without a seek table to a
// temporary file, once.
func (f *File) spooled() (*os.File, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.spool != nil {
		return f.spool, nil
	}
	tmp, err := os.CreateTemp("", "cctx-zst-*.jsonl")
	if err != nil {
		return nil, err
	}
	d := getDecoder()
	defer putDecoder(d)
	if err = d.Reset(io.NewSectionReader(f.f, 0, f.st.Size())); err == nil {
		_, err = io.Copy(tmp, d)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, f.corrupt(err)
	}
	f.spool = tmp
	return tmp, nil
}

// Section is a part of a plain file. A Reader made on one (New) reads a
// line too long to hold again from it by offset instead of putting it
// together: a line over the limit then costs holdBytes, not the limit.
type Section struct{ *io.SectionReader }

// Close does nothing: the File is closed by its owner.
func (Section) Close() error { return nil }

// Section streams the text from start to end (end < 0: to its end). A
// seekable file starts decompressing at the frame holding start; a
// compressed file without a seek table is decompressed from its start and
// the text before start dropped. Closing the reader returns its decoder.
func (f *File) Section(start, end int64) (io.ReadCloser, error) {
	if !f.compressed {
		if end < 0 {
			end = f.st.Size()
		}
		return &Section{io.NewSectionReader(f.f, start, max(0, end-start))}, nil
	}
	var src io.Reader
	skip := start
	if f.comp != nil {
		i := sort.Search(len(f.frames), func(i int) bool { return f.text[i+1] > start })
		if i == len(f.frames) {
			return io.NopCloser(bytes.NewReader(nil)), nil
		}
		src = io.NewSectionReader(f.f, f.comp[i], f.comp[len(f.comp)-1]-f.comp[i])
		skip = start - f.text[i]
	} else {
		src = io.NewSectionReader(f.f, 0, f.st.Size())
	}
	d := getDecoder()
	if err := d.Reset(src); err != nil {
		putDecoder(d)
		return nil, err
	}
	zr := &zstdStream{d: d, path: f.path}
	if skip > 0 {
		if _, err := io.CopyN(io.Discard, zr, skip); err != nil {
			zr.Close()
			if err == io.EOF {
				return io.NopCloser(bytes.NewReader(nil)), nil
			}
			return nil, err
		}
	}
	var r io.Reader = zr
	if end >= 0 {
		r = io.LimitReader(zr, max(0, end-start))
	}
	return struct {
		io.Reader
		io.Closer
	}{r, zr}, nil
}

// zstdStream reads a decoder and gives it back to the pool when closed.
// A stream cut short (a file truncated inside a frame) is an error that
// names the file, as an unreadable file is.
type zstdStream struct {
	d    *zstd.Decoder
	path string
}

func (z *zstdStream) Read(p []byte) (int, error) {
	if z.d == nil {
		return 0, io.EOF
	}
	n, err := z.d.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("corrupt compressed file: %w", err)
	}
	return n, err
}

func (z *zstdStream) Close() error {
	if z.d != nil {
		putDecoder(z.d)
		z.d = nil
	}
	return nil
}

var decoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxWindow),
		zstd.WithDecoderMaxMemory(maxWindow))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
}}

func getDecoder() *zstd.Decoder { return decoders.Get().(*zstd.Decoder) }

func putDecoder(d *zstd.Decoder) {
	d.Reset(nil)
	decoders.Put(d)
}

// readSeekTable reads the seek table at the end of a seekable zstd file,
// checking that it describes the file: frames that end where the table
// begins, none empty or over maxFrameBytes. A file that is its table
// alone, of no frame, holds no text (what ZstdWriter makes of nothing: a
// transcript emptied and archived).
func readSeekTable(r io.ReaderAt, size int64) (frames []SeekEntry, dataEnd int64, ok bool) {
	if size < footerBytes+8 {
		return nil, 0, false
	}
	var foot [footerBytes]byte
	if _, err := r.ReadAt(foot[:], size-footerBytes); err != nil {
		return nil, 0, false
	}
	if binary.LittleEndian.Uint32(foot[5:]) != seekTableMagic {
		return nil, 0, false
	}
	n := int64(binary.LittleEndian.Uint32(foot[:4]))
	desc := foot[4]
	if desc&0x7C != 0 { // reserved bits
		return nil, 0, false
	}
	entry := int64(8)
	if desc&0x80 != 0 {
		entry = 12 // with a checksum, which cctx does not need
	}
	tableBytes := n*entry + footerBytes
	start := size - 8 - tableBytes
	if start < 0 || n == 0 && start != 0 {
		return nil, 0, false
	}
	var hdr [8]byte
	if _, err := r.ReadAt(hdr[:], start); err != nil {
		return nil, 0, false
	}
	if binary.LittleEndian.Uint32(hdr[:4]) != skippableMagic || int64(binary.LittleEndian.Uint32(hdr[4:])) != tableBytes {
		return nil, 0, false
	}
	table := make([]byte, n*entry)
	if _, err := r.ReadAt(table, start+8); err != nil {
		return nil, 0, false
	}
	frames = make([]SeekEntry, n)
	var sum int64
	for i := range frames {
		b := table[int64(i)*entry:]
		e := SeekEntry{Compressed: binary.LittleEndian.Uint32(b), Decompressed: binary.LittleEndian.Uint32(b[4:])}
		if e.Compressed == 0 || e.Decompressed == 0 || e.Decompressed > maxFrameBytes {
			return nil, 0, false
		}
		sum += int64(e.Compressed)
		frames[i] = e
	}
	if sum != start {
		return nil, 0, false
	}
	return frames, start, true
}

// ReadSeekTable returns the frames of a seekable zstd file and where its
// seek table starts; ok is false for a file that is not one.
func ReadSeekTable(path string) (frames []SeekEntry, dataEnd int64, ok bool) {
	f, err := openRead(path)
	if err != nil {
		return nil, 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, false
	}
	return readSeekTable(f, st.Size())
}

// TextSize is the size of the text a file holds: its own size, or for a
// seekable zstd file what it decompresses to, read from its seek table.
// A compressed file without a table gives its size on disk.
func TextSize(path string, diskSize int64) int64 {
	var head [4]byte
	f, err := openRead(path)
	if err != nil {
		return diskSize
	}
	defer f.Close()
	if n, _ := f.ReadAt(head[:], 0); !isZstd(head[:n]) {
		return diskSize
	}
	frames, _, ok := readSeekTable(f, diskSize)
	if !ok {
		return diskSize
	}
	var n int64
	for _, e := range frames {
		n += int64(e.Decompressed)
	}
	return n
}

// ZstdWriter compresses text into a seekable zstd stream: frames of
// FrameBytes, then the seek table when closed.
type ZstdWriter struct {
	w      io.Writer
	enc    *zstd.Encoder
	buf    []byte
	out    []byte
	frames []SeekEntry
	err    error
}

// NewZstdWriter writes to w. prior are the frames already written to w's
// start (a file extended: its frames but its table), so that the table
// written at Close covers the whole file.
func NewZstdWriter(w io.Writer, prior []SeekEntry) *ZstdWriter {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(true), zstd.WithWindowSize(FrameBytes))
	return &ZstdWriter{w: w, enc: enc, err: err, frames: append([]SeekEntry(nil), prior...), buf: make([]byte, 0, FrameBytes+EdgeFrameBytes)}
}

// EdgeFrameBytes is the size of a file's first frame and of its last one
// (when the file is longer): a listing reads the first and last 64 KiB of
// each file, and then decompresses these two small frames only.
const EdgeFrameBytes = 64 << 10

// Write buffers p and writes each full frame. The text of the last frames
// is held back until Close, which cuts the end into a frame of at most
// FrameBytes and a last one of EdgeFrameBytes.
func (z *ZstdWriter) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	n := len(p)
	for len(p) > 0 {
		size := FrameBytes
		if len(z.frames) == 0 {
			size = EdgeFrameBytes
		}
		k := min(len(p), size+EdgeFrameBytes-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
		if len(z.buf) == size+EdgeFrameBytes {
			if err := z.flushFrame(size); err != nil {
				return n - len(p), err
			}
		}
	}
	return n, nil
}

// flushFrame writes the first n buffered bytes as a frame.
func (z *ZstdWriter) flushFrame(n int) error {
	n = min(n, len(z.buf))
	if n == 0 {
		return nil
	}
	z.out = z.enc.EncodeAll(z.buf[:n], z.out[:0])
	if _, err := z.w.Write(z.out); err != nil {
		z.err = err
		return err
	}
	z.frames = append(z.frames, SeekEntry{Compressed: uint32(len(z.out)), Decompressed: uint32(n)})
	z.buf = z.buf[:copy(z.buf, z.buf[n:])]
	return nil
}

// Close writes the last frames and the seek table. It does not close w.
func (z *ZstdWriter) Close() error {
	if z.err != nil {
		return z.err
	}
	if len(z.buf) > EdgeFrameBytes {
		if err := z.flushFrame(len(z.buf) - EdgeFrameBytes); err != nil {
			return err
		}
	}
	if err := z.flushFrame(len(z.buf)); err != nil {
		return err
	}
	z.enc.Close()
	n := len(z.frames)
	tableBytes := n*8 + footerBytes
	t := make([]byte, 8+tableBytes)
	binary.LittleEndian.PutUint32(t, skippableMagic)
	binary.LittleEndian.PutUint32(t[4:], uint32(tableBytes))
	for i, e := range z.frames {
		binary.LittleEndian.PutUint32(t[8+i*8:], e.Compressed)
		binary.LittleEndian.PutUint32(t[12+i*8:], e.Decompressed)
	}
	foot := t[8+n*8:]
	binary.LittleEndian.PutUint32(foot, uint32(n))
	foot[4] = 0
	binary.LittleEndian.PutUint32(foot[5:], seekTableMagic)
	_, err := z.w.Write(t)
	z.err = errors.New("zstd writer closed")
	return err
}

// Frames are the frames written so far (with the prior ones).
func (z *ZstdWriter) Frames() []SeekEntry { return z.frames }

// DecodeFrame decompresses one frame read from a file (a frame cctx wrote:
// the archive re-frames the last, partial frame of a file it extends).
func DecodeFrame(src []byte, want int) ([]byte, error) {
	if want > maxFrameBytes {
		return nil, errors.New("frame too large")
	}
	d := getDecoder()
	defer putDecoder(d)
	out, err := d.DecodeAll(src, make([]byte, 0, want))
	if err == nil && len(out) != want {
		err = fmt.Errorf("frame holds %d bytes, its seek table says %d", len(out), want)
	}
	return out, err
}

// openZstdRange is OpenRange for a compressed file (f is open, its first
// bytes a zstd frame): the range is one of the text.
func openZstdRange(f *os.File, path string, start, end int64, o Options) (*Reader, io.Closer, error) {
	f.Close()
	zf, err := OpenFile(path)
	if err != nil {
		return nil, nil, err
	}
	src, err := zf.Section(start, end)
	if err != nil {
		zf.Close()
		return nil, nil, err
	}
	r := newPooled(src, o)
	r.offset, r.midFile = start, start > 0
	r.done = start
	return r, closeFunc(func() error { r.release(); src.Close(); return zf.Close() }), nil
}
