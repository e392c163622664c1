package reader

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// sampleText is a transcript of n lines, some of them long (a line
// crossing frames), with a BOM, CRLF and a malformed line.
func sampleText(n int, seed int64) []byte { return sampleTextPad(n, seed, 1_500_000) }

func sampleTextPad(n int, seed int64, long int) []byte {
	rnd := rand.New(rand.NewSource(seed))
	var b bytes.Buffer
	b.WriteString("\xEF\xBB\xBF")
	for i := range n {
		pad := rnd.Intn(min(2000, long+1))
		if i%97 == 5 {
			pad = long // longer than a frame
		}
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"u%d","sessionId":"s","message":{"id":"m%d","role":"assistant","usage":{"input_tokens":%d,"output_tokens":3}},"pad":"%s"}`,
			i, i, i, bytes.Repeat([]byte{'a' + byte(i%26)}, pad))
		switch i % 50 {
		case 7:
			b.WriteString("\r\n")
		case 9:
			b.WriteString("\n{not json\n")
		default:
			b.WriteString("\n")
		}
	}
	return b.Bytes()
}

func writeSeekable(t testing.TB, path string, text []byte) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	z := NewZstdWriter(f, nil)
	// Odd write sizes: frames are cut by size, not by write.
	for len(text) > 0 {
		k := min(len(text), 777_777)
		if _, err := z.Write(text[:k]); err != nil {
			t.Fatal(err)
		}
		text = text[k:]
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func writeStream(t testing.TB, path string, text []byte) {
	t.Helper()
	var b bytes.Buffer
	w, _ := zstd.NewWriter(&b)
	w.Write(text)
	w.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

type readEntry struct {
	Line   int
	Offset int64
	Size   int
	UUID   string
	Input  int64
}

func readRange(t testing.TB, path string, start, end int64) ([]readEntry, []Issue) {
	t.Helper()
	var issues []Issue
	r, c, err := OpenRange(path, start, end, Options{Name: "x", OnIssue: func(is Issue) { issues = append(issues, is) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var out []readEntry
	for {
		e, ok := r.Next()
		if !ok {
			break
		}
		out = append(out, readEntry{e.Line, e.Offset, e.Size, e.UUID, e.Usage.Input})
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return out, issues
}

// TestZstdReadsAsPlain: a compressed file, seekable or not, reads exactly
// as the plain file: the same entries at the same offsets and lines, the
// same issues, the same pieces, and every byte by offset.
func TestZstdReadsAsPlain(t *testing.T) {
	dir := t.TempDir()
	text := sampleText(400, 1)
	plain := filepath.Join(dir, "a.jsonl")
	seek := filepath.Join(dir, "a.jsonl.zst")
	stream := filepath.Join(dir, "b.jsonl.zst")
	os.WriteFile(plain, text, 0o600)
	writeSeekable(t, seek, text)
	writeStream(t, stream, text)

	want, wantIssues := readRange(t, plain, 0, -1)
	if len(want) < 390 || len(wantIssues) == 0 {
		t.Fatalf("sample: %d entries, %d issues", len(want), len(wantIssues))
	}
	wantSplit, _ := SplitPoints(plain, 1<<20)
	if len(wantSplit) < 4 {
		t.Fatalf("sample splits in %d pieces", len(wantSplit))
	}
	for _, p := range []string{seek, stream} {
		if !IsCompressed(p) || IsCompressed(plain) {
			t.Fatalf("IsCompressed(%s) wrong", p)
		}
		got, issues := readRange(t, p, 0, -1)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(issues, wantIssues) {
			t.Fatalf("%s: entries or issues differ from the plain file's", p)
		}
		f, err := OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := f.Size(); n != int64(len(text)) {
			t.Fatalf("%s: size %d, want %d", p, n, len(text))
		}
		rnd := rand.New(rand.NewSource(2))
		for range 200 {
			off := rnd.Int63n(int64(len(text)))
			buf := make([]byte, rnd.Intn(3<<20))
			n, err := f.ReadAt(buf, off)
			if err != nil && err != io.EOF {
				t.Fatal(err)
			}
			if !bytes.Equal(buf[:n], text[off:min(int64(len(text)), off+int64(len(buf)))]) {
				t.Fatalf("%s: ReadAt(%d, %d) differs", p, off, len(buf))
			}
		}
		f.Close()
	}
	// Pieces: the seekable file is cut as the plain one, and each piece
	// reads the same entries; the stream is one piece.
	got, _ := SplitPoints(seek, 1<<20)
	if !reflect.DeepEqual(got, wantSplit) {
		t.Fatalf("split points %v, want %v", got, wantSplit)
	}
	if got, _ := SplitPoints(stream, 1<<20); !reflect.DeepEqual(got, []int64{0}) {
		t.Fatalf("a stream without seek table: split points %v, want one piece", got)
	}
	for i, s := range wantSplit {
		end := int64(-1)
		if i+1 < len(wantSplit) {
			end = wantSplit[i+1]
		}
		a, _ := readRange(t, plain, s, end)
		b, _ := readRange(t, seek, s, end)
		c, _ := readRange(t, stream, s, end)
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
			t.Fatalf("piece %d [%d,%d) differs", i, s, end)
		}
	}
	if fi, _ := os.Stat(seek); TextSize(seek, fi.Size()) != int64(len(text)) {
		t.Fatalf("TextSize of the seekable file")
	}
}

// TestZstdExtend: frames written after the prior ones of a file make one
// file whose table covers both.
func TestZstdExtend(t *testing.T) {
	dir := t.TempDir()
	text := sampleText(120, 3)
	p := filepath.Join(dir, "a.jsonl.zst")
	cut := len(text) / 3
	writeSeekable(t, p, text[:cut])
	frames, dataEnd, ok := ReadSeekTable(p)
	if !ok {
		t.Fatal("no seek table")
	}
	old, _ := os.ReadFile(p)
	var b bytes.Buffer
	b.Write(old[:dataEnd])
	z := NewZstdWriter(&b, frames)
	z.Write(text[cut:])
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, b.Bytes(), 0o600)
	f, err := OpenFile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := make([]byte, len(text))
	if n, err := f.ReadAt(got, 0); n != len(text) || (err != nil && err != io.EOF) || !bytes.Equal(got, text) {
		t.Fatalf("extended file reads %d bytes (%v), equal %v", n, err, bytes.Equal(got, text))
	}
}

// TestZstdTruncated: a compressed file cut inside a frame reads what it
// holds and ends with an error naming it as corrupt, never a panic.
func TestZstdTruncated(t *testing.T) {
	dir := t.TempDir()
	text := sampleText(200, 4)
	p := filepath.Join(dir, "a.jsonl.zst")
	writeSeekable(t, p, text)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, b[:len(b)/2], 0o600)
	r, c, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	n := 0
	for {
		if _, ok := r.Next(); !ok {
			break
		}
		n++
	}
	if n == 0 || r.Err() == nil {
		t.Fatalf("%d entries, err %v: want some entries and an error", n, r.Err())
	}
}

// FuzzZstd feeds arbitrary bytes, read as a compressed transcript file,
// to every way cctx reads one: streamed, in pieces, and by offset. It must
// never panic, and what it streams must be JSON objects.
func FuzzZstd(f *testing.F) {
	dir := f.TempDir()
	for i, text := range [][]byte{sampleTextPad(3, 5, 50), []byte("{\"a\":1}\n{\"b\""), sampleTextPad(40, 6, 100)} {
		p := filepath.Join(dir, fmt.Sprint(i))
		writeSeekable(f, p, text)
		b, _ := os.ReadFile(p)
		f.Add(b)
		writeStream(f, p, text)
		b, _ = os.ReadFile(p)
		f.Add(b)
	}
	f.Add(append([]byte{0x28, 0xB5, 0x2F, 0xFD}, bytes.Repeat([]byte{0xff}, 40)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f.jsonl.zst")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, c, err := Open(p, Options{KeepRaw: true, MaxLineBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for {
			e, ok := r.Next()
			if !ok {
				break
			}
			if !Valid(e.Raw) {
				t.Fatalf("entry on line %d is not a JSON object", e.Line)
			}
		}
		c.Close()
		starts, _ := SplitPoints(p, 64)
		for i, s := range starts {
			end := int64(-1)
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			if r, c, err := OpenRange(p, s, end, Options{}); err == nil {
				for {
					if _, ok := r.Next(); !ok {
						break
					}
				}
				c.Close()
			}
		}
		zf, err := OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		defer zf.Close()
		if size, err := zf.Size(); err == nil {
			buf := make([]byte, 100)
			for _, off := range []int64{0, size / 2, max(0, size-50)} {
				zf.ReadAt(buf, off)
			}
		}
	})
}

// A seekable file of no text (its table alone: what ZstdWriter makes of
// nothing, an emptied transcript archived) holds 0 bytes of text, read as
// such; a table of no frame after data is no seek table.
func TestZstdOfNothing(t *testing.T) {
	dir := t.TempDir()
	for _, text := range []string{"", "\n", `{"type":"user"}` + "\n"} {
		p := filepath.Join(dir, fmt.Sprintf("t%d.jsonl.zst", len(text)))
		writeSeekable(t, p, []byte(text))
		fi, _ := os.Stat(p)
		if got := TextSize(p, fi.Size()); got != int64(len(text)) {
			t.Errorf("%q: TextSize %d (file of %d bytes), want %d", text, got, fi.Size(), len(text))
		}
		f, err := OpenFile(p)
		if err != nil {
			t.Fatal(err)
		}
		size, _ := f.Size()
		r, _ := f.Section(0, -1)
		b, _ := io.ReadAll(r)
		if !f.Seekable() || size != int64(len(text)) || string(b) != text {
			t.Errorf("%q: seekable %v, size %d, text %q", text, f.Seekable(), size, b)
		}
		f.Close()
	}
	// One frame, then a table that says none: refused.
	var b bytes.Buffer
	z := NewZstdWriter(&b, nil)
	z.Write([]byte("{}\n"))
	z.Close()
	_, dataEnd, _ := readSeekTable(bytes.NewReader(b.Bytes()), int64(b.Len()))
	empty := []byte{0x5e, 0x2a, 0x4d, 0x18, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0xb1, 0xea, 0x92, 0x8f}
	bad := append(append([]byte(nil), b.Bytes()[:dataEnd]...), empty...)
	if _, _, ok := readSeekTable(bytes.NewReader(bad), int64(len(bad))); ok {
		t.Error("a table of no frame after a frame was taken as a seek table")
	}
	if _, _, ok := readSeekTable(bytes.NewReader(empty), int64(len(empty))); !ok {
		t.Error("the table of nothing was not taken")
	}
}

// What holds a conversation, as the commands read lines.
func TestHoldsConversation(t *testing.T) {
	user := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`
	tests := []struct {
		name, text string
		talks      bool
	}{
		{"nothing", "", false},
		{"a newline", "\n", false},
		{"NUL bytes (a crash)", strings.Repeat("\x00", 4096), false},
		{"metadata only", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n" + `{"type":"summary","summary":"s","leafUuid":"u"}` + "\n", false},
		{"a broken line", "{\"type\":\"user\"\n", false},
		{"a user line", user + "\n", true},
		{"an assistant line, last", "\n" + `{"type":"assistant","uuid":"a","message":{"role":"assistant","content":[]}}`, true},
		{"a user line after a crash's NUL run", strings.Repeat("\x00", 100) + user + "\n", true},
		{"UTF-16 (not read: not taken as empty)", "{\x00\"\x00t\x00", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := HoldsConversation(strings.NewReader(tt.text)); got != tt.talks {
				t.Errorf("HoldsConversation = %v, want %v", got, tt.talks)
			}
		})
	}
}
