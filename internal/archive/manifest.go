package archive

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/cctx-dev/cctx/internal/session"
)

// The manifest, <archive>/cctx-archive.jsonl, says what the archive holds:
// one line per archived file, appended when the file is in place (the
// last line of a path wins), and a "run" line at the end of each run. It
// makes a run with nothing new cost a stat of each file. A line cut by an
// interrupted run is ignored, and an entry is trusted only while its
// stored file has the size and time it records: otherwise the stored
// file itself is read again (see recoverEntry).

// manifestVersion is the format of the manifest's lines.
const manifestVersion = 1

// entry is one archived file.
type entry struct {
	Path        string `json:"path"`   // the source, relative to projects/, with /
	Stored      string `json:"stored"` // the archived file, relative to projects/, with /
	SrcSize     int64  `json:"src_size"`
	SrcMtime    int64  `json:"src_mtime_ns"`
	Text        int64  `json:"text"`   // bytes of the source archived: its complete lines
	Hash        string `json:"sha256"` // of those bytes
	StoredSize  int64  `json:"stored_size"`
	StoredMtime int64  `json:"stored_mtime_ns"`
	Whole       bool   `json:"whole,omitempty"`    // a sidecar, copied whole
	Versions    int    `json:"versions,omitempty"` // older versions kept beside it (name@1, …)
}

// runLine ends each run.
type runLine struct {
	Run   string `json:"run"` // when it ended, RFC 3339 UTC
	Files int    `json:"files"`
}

type manifest struct {
	mu      sync.Mutex // entries and w, while files are archived in parallel
	path    string
	entries map[string]*entry
	lines   int
	lastRun time.Time
	w       *os.File // open for appending during a run
}

func loadManifest(dir string) (*manifest, error) {
	if err := isDirOrMissing(dir); err != nil {
		return nil, err
	}
	m := &manifest{path: filepath.Join(dir, session.ArchiveMarker), entries: map[string]*entry{}}
	f, err := os.Open(m.path)
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' { // a cut last line is not read
			m.lines++
			var probe struct {
				Path string `json:"path"`
				Run  string `json:"run"`
			}
			if json.Unmarshal(line, &probe) == nil {
				switch {
				case probe.Path != "":
					var e entry
					if json.Unmarshal(line, &e) == nil && e.Stored != "" {
						m.entries[e.Path] = &e
					}
				case probe.Run != "":
					if t, err := time.Parse(time.RFC3339Nano, probe.Run); err == nil {
						m.lastRun = t
					}
				}
			}
		}
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// open starts appending. A manifest whose last line was cut (a run killed
// while writing it) gets a newline first, so the next line stands alone.
func (m *manifest) open() error {
	f, err := os.OpenFile(m.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		var last [1]byte
		if r, err := os.Open(m.path); err == nil {
			r.ReadAt(last[:], st.Size()-1)
			r.Close()
		}
		if last[0] != '\n' {
			f.Write([]byte("\n"))
		}
	} else if err == nil {
		fmt.Fprintf(f, "{\"cctx_archive\":%d}\n", manifestVersion)
		m.lines++
	}
	m.w = f
	return nil
}

// get is the entry of a source path, or nil.
func (m *manifest) get(rel string) *entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.entries[rel]
}

func (m *manifest) record(e *entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[e.Path] = e
	b, _ := json.Marshal(e)
	m.lines++
	_, err := m.w.Write(append(b, '\n'))
	return err
}

// finish writes the run line, and rewrites the manifest with one line
// per file when it has grown to more than twice that (temp + rename).
func (m *manifest) finish(now time.Time, files int) error {
	b, _ := json.Marshal(runLine{Run: now.UTC().Format(time.RFC3339Nano), Files: files})
	if _, err := m.w.Write(append(b, '\n')); err != nil {
		return err
	}
	m.lines++
	if err := m.w.Sync(); err != nil {
		return err
	}
	if err := m.w.Close(); err != nil {
		return err
	}
	m.w = nil
	if m.lines <= 2*len(m.entries)+16 {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(m.path), "cctx-archive.*"+tmpSuffix)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(tmp)
	fmt.Fprintf(bw, "{\"cctx_archive\":%d}\n", manifestVersion)
	paths := make([]string, 0, len(m.entries))
	for p := range m.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		b, _ := json.Marshal(m.entries[p])
		bw.Write(append(b, '\n'))
	}
	b, _ = json.Marshal(runLine{Run: now.UTC().Format(time.RFC3339Nano), Files: files})
	bw.Write(append(b, '\n'))
	err = bw.Flush()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), m.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func (m *manifest) close() {
	if m.w != nil {
		m.w.Close()
		m.w = nil
	}
}

// isDirOrMissing says when the archive's path is a file (--to /dev/null):
// in a message of cctx's, not the error of a file made under it.
func isDirOrMissing(dir string) error {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("the archive %s is not a directory", dir)
	}
	return nil
}
