package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Live is the record Claude Code keeps for a running process in
// <config dir>/sessions/<pid>.json. It is deleted when the process exits;
// a record whose process is gone is stale and ignored.
type Live struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Status    string `json:"status"` // working or idle
	Kind      string `json:"kind"`
	UpdatedAt int64  `json:"updatedAt"` // epoch ms
}

// Updated is UpdatedAt as a time.
func (l Live) Updated() time.Time { return time.UnixMilli(l.UpdatedAt) }

// ProcessAlive reports whether a process exists; tests replace it.
var ProcessAlive = func(pid int) bool {
	return pid > 0 && processAlive(pid)
}

// LiveSessions reads the live records of every root's config dir, keyed by
// session id. Records that are unreadable, malformed or stale are skipped:
// they only decorate a listing.
func LiveSessions(roots []Root) map[string]Live {
	out := map[string]Live{}
	for _, r := range roots {
		if r.ConfigDir == "" {
			continue
		}
		dir := filepath.Join(r.ConfigDir, "sessions")
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name())) // a few hundred bytes
			if err != nil || len(b) > 1<<20 {
				continue
			}
			var l Live
			if json.Unmarshal(b, &l) != nil || l.SessionID == "" || !ProcessAlive(l.PID) {
				continue
			}
			if old, ok := out[l.SessionID]; ok && old.UpdatedAt > l.UpdatedAt {
				continue
			}
			out[l.SessionID] = l
		}
	}
	return out
}
