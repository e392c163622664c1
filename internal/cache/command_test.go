package cache

import (
	"fmt"
	"path/filepath"
	"testing"
)

func TestForCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	for _, tc := range []struct {
		name    string
		off     bool
		env     map[string]string
		home    string
		wantDir string // "": no store
		note    string
	}{
		{name: "CCTX_CACHE_DIR", env: map[string]string{"CCTX_CACHE_DIR": dir}, wantDir: dir},
		{name: "--no-cache", off: true, env: map[string]string{"CCTX_CACHE_DIR": dir}},
		{name: "CCTX_NO_CACHE", env: map[string]string{"CCTX_CACHE_DIR": dir, "CCTX_NO_CACHE": "1"}},
		{name: "CCTX_NO_CACHE=0", env: map[string]string{"CCTX_CACHE_DIR": dir, "CCTX_NO_CACHE": "0"}, wantDir: dir},
		{name: "no home", env: map[string]string{"XDG_CACHE_HOME": "relative"}, note: "no cache: no home directory for the cache"},
	} {
		if tc.name == "no home" && filepath.Separator != '/' {
			continue // Windows and plan9 find their cache folder without a home
		}
		var notes []string
		s := ForCommand(tc.off, func(k string) string { return tc.env[k] }, tc.home, func(f string, a ...any) { notes = append(notes, fmt.Sprintf(f, a...)) })
		switch {
		case (s != nil) != (tc.wantDir != ""), s != nil && s.Dir() != tc.wantDir:
			t.Errorf("%s: store %v, want dir %q", tc.name, s, tc.wantDir)
		case tc.note == "" && len(notes) > 0, tc.note != "" && (len(notes) != 1 || notes[0] != tc.note):
			t.Errorf("%s: notes %q, want %q", tc.name, notes, tc.note)
		}
	}
}
