package archive

// Writing one archived file: a new copy, an extension, a version kept.

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// keepVersion links (else moves) the stored file of e to the first free
// name@N beside it.
func (a *archiver) keepVersion(e *entry) error {
	p := a.abs(e.Stored)
	dir, name := filepath.Split(p)
	stem, ext := name, ""
	for _, x := range []string{".jsonl.zst", ".jsonl", ".meta.json"} {
		if strings.HasSuffix(name, x) {
			stem, ext = strings.TrimSuffix(name, x), x
			break
		}
	}
	for n := 1; ; n++ {
		v := filepath.Join(dir, fmt.Sprintf("%s@%d%s", stem, n, ext))
		if _, err := os.Lstat(v); err == nil {
			continue
		}
		if err := os.Link(p, v); err == nil {
			return nil
		}
		if err := os.Rename(p, v); err != nil {
			return &writeError{path: v, err: err}
		}
		return nil
	}
}

// write puts the source's bytes [prior.Text, end) after what the stored
// file holds (prior.Text 0, or prior nil: [0, end) in a new file) in a
// temporary file, then renames it into place as stored and records it. h
// has hashed the bytes before prior.Text.
func (a *archiver) write(s source, src *os.File, stored string, prior *entry, h hash.Hash, end int64) (*entry, error) {
	from := int64(0)
	if prior != nil {
		from = prior.Text
	}
	extend := from > 0
	dst := a.abs(stored)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return nil, &writeError{path: filepath.Dir(dst), err: err}
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".*"+tmpSuffix)
	if err != nil {
		return nil, &writeError{path: dst, err: err}
	}
	fail := func(err error) (*entry, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	var out io.Writer = tmp
	var zw *reader.ZstdWriter
	compressed := strings.HasSuffix(stored, ".zst")
	if compressed {
		var prev []reader.SeekEntry
		if extend {
			frames, tail, err := copyFrames(tmp, dst)
			if err != nil {
				return fail(err)
			}
			prev = frames
			zw = reader.NewZstdWriter(tmp, prev)
			if _, err := zw.Write(tail); err != nil {
				return fail(&writeError{path: dst, err: err})
			}
		} else {
			zw = reader.NewZstdWriter(tmp, nil)
		}
		out = zw
	} else if extend {
		if err := copyWhole(tmp, dst); err != nil {
			return fail(err)
		}
	}
	// The new bytes: read once, hashed and written.
	hooked := false
	w := &hookWriter{w: io.MultiWriter(h, out), after: func() {
		if !hooked && a.o.Hook != nil {
			hooked = true
			a.o.Hook("copying", dst)
		}
	}}
	if _, err := io.Copy(w, io.NewSectionReader(src, from, end-from)); err != nil {
		if w.err != nil {
			return fail(&writeError{path: dst, err: err})
		}
		return fail(err) // the source could not be read
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return fail(&writeError{path: dst, err: err})
		}
	}
	if err := tmp.Sync(); err != nil {
		return fail(&writeError{path: dst, err: err})
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return nil, &writeError{path: dst, err: err}
	}
	os.Chtimes(tmp.Name(), s.Mtime, s.Mtime)
	if err := os.Rename(tmp.Name(), dst); err != nil {
		os.Remove(tmp.Name())
		return nil, &writeError{path: dst, err: err}
	}
	if a.o.Hook != nil {
		a.o.Hook("committed", dst)
	}
	st, err := os.Stat(dst)
	if err != nil {
		return nil, &writeError{path: dst, err: err}
	}
	e := &entry{Path: s.Rel, Stored: stored, SrcSize: s.Size, SrcMtime: s.Mtime.UnixNano(), Text: end,
		Hash: hex.EncodeToString(h.Sum(nil)), StoredSize: st.Size(), StoredMtime: st.ModTime().UnixNano(), Whole: s.Whole}
	if prior != nil {
		e.Versions = prior.Versions
	}
	if err := a.m.record(e); err != nil {
		return nil, &writeError{path: a.m.path, err: err}
	}
	return e, nil
}

// hookWriter calls after once something was written; it remembers a
// write error (to tell it from a read error of the source).
type hookWriter struct {
	w     io.Writer
	after func()
	err   error
}

func (h *hookWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	if err != nil {
		h.err = err
		return n, err
	}
	h.after()
	return n, nil
}

// copyFrames copies the frames of a seekable zstd file to w, but its last
// frame when that one is not full: its text is returned, to be framed
// again with what follows (so that appends of a few lines do not leave a
// file of tiny frames).
func copyFrames(w *os.File, path string) ([]reader.SeekEntry, []byte, error) {
	frames, dataEnd, ok := reader.ReadSeekTable(path)
	if !ok {
		return nil, nil, fmt.Errorf("%s: not a seekable zstd file", path)
	}
	f, err := rawfile.OpenOS(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// The frames after the last full one (the writer ends a file on a
	// short frame and an edge frame) are decompressed and framed again.
	keep := dataEnd
	var tail []byte
	for pulled := 0; len(frames) > 0 && pulled < 2; pulled++ {
		last := frames[len(frames)-1]
		if last.Decompressed >= reader.FrameBytes {
			break
		}
		keep -= int64(last.Compressed)
		frames = frames[:len(frames)-1]
		src := make([]byte, last.Compressed)
		if _, err := f.ReadAt(src, keep); err != nil {
			return nil, nil, err
		}
		text, err := reader.DecodeFrame(src, int(last.Decompressed))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		tail = append(text, tail...)
	}
	if _, err := io.Copy(w, io.NewSectionReader(f, 0, keep)); err != nil {
		return nil, nil, &writeError{path: w.Name(), err: err}
	}
	return frames, tail, nil
}

func copyWhole(w *os.File, path string) error {
	f, err := rawfile.OpenOS(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return &writeError{path: w.Name(), err: err}
	}
	return nil
}

// lastNewline is the offset just past the file's last newline: the end
// of its complete lines (0 when it has none).
func lastNewline(f *os.File, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		b := buf[:end-start]
		if _, err := f.ReadAt(b, start); err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}
