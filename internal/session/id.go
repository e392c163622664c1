package session

import (
	"path/filepath"
	"strings"
)

// IDOfPath is the session id a transcript's file name gives
// (<session-id>.jsonl, or .jsonl.zst in an archive), or "" when the name
// is not a session id (a copied or renamed file, standard input): a
// session is named by its file, not by what its first line records.
func IDOfPath(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".jsonl.zst", ".jsonl"} {
		if id, ok := strings.CutSuffix(base, ext); ok && IsSessionID(id) {
			return id
		}
	}
	return ""
}
