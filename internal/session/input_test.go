package session

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestFinderFor(t *testing.T) {
	root := write(t, map[string]string{"-p/" + id1 + ".jsonl": lines(userLine("hi", ""))})
	missing := filepath.Join(root, "none")
	for _, tc := range []struct {
		name      string
		dirs      []string
		env       map[string]string
		wantErr   bool // returned: a usage error
		wantRoots bool // RootsErr set: lookups fail, a path is still read
		roots     int
	}{
		{name: "--dir", dirs: []string{root}, roots: 1},
		{name: "--dir not there", dirs: []string{missing}, wantErr: true},
		{name: "CLAUDE_CONFIG_DIR", env: map[string]string{"CLAUDE_CONFIG_DIR": root}, roots: 1},
		{name: "CLAUDE_CONFIG_DIR not there", env: map[string]string{"CLAUDE_CONFIG_DIR": missing}, wantRoots: true},
		{name: "--dir wins over a missing CLAUDE_CONFIG_DIR", dirs: []string{root}, env: map[string]string{"CLAUDE_CONFIG_DIR": missing}, roots: 1},
	} {
		f, err := FinderFor(tc.dirs, Env{Getenv: func(k string) string { return tc.env[k] }, Home: t.TempDir()}, nil)
		switch {
		case tc.wantErr:
			var cfg *ConfigDirError
			if err == nil || errors.As(err, &cfg) || f != nil {
				t.Errorf("%s: FinderFor = %v, %v; want an error", tc.name, f, err)
			}
		case err != nil:
			t.Errorf("%s: error %v", tc.name, err)
		case (f.RootsErr != nil) != tc.wantRoots || len(f.Roots) != tc.roots:
			t.Errorf("%s: RootsErr %v, %d roots; want RootsErr %v, %d roots", tc.name, f.RootsErr, len(f.Roots), tc.wantRoots, tc.roots)
		}
	}
}

func TestDescribe(t *testing.T) {
	mod := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, content string
		project       string
		updated       time.Time
	}{
		{"recorded", lines(userLine("hi", "")), "/home/me/app", time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)},
		{"no cwd", lines(`{"type":"user","timestamp":"2026-01-03T10:00:00Z","message":{"role":"user","content":"hi"}}`), "-folder", time.Date(2026, 1, 3, 10, 0, 0, 0, time.UTC)},
		{"not there", "", "-folder", mod},
	} {
		root := write(t, map[string]string{"-folder/" + id1 + ".jsonl": tc.content})
		s := &Session{ID: id1, Path: filepath.Join(root, "-folder", id1+".jsonl"), ProjectDir: filepath.Join(root, "-folder"), ModTime: mod}
		if tc.name == "not there" {
			s.Path += ".gone"
		}
		project, updated, title := s.Describe()
		wantTitle := map[string]string{"recorded": "hi", "no cwd": "hi"}[tc.name]
		if project != tc.project || !updated.Equal(tc.updated) || title != wantTitle {
			t.Errorf("%s: Describe = %q, %v, %q; want %q, %v, %q", tc.name, project, updated, title, tc.project, tc.updated, wantTitle)
		}
	}
}
