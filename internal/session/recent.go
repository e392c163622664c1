package session

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// Recent lists, for completing a <session> argument, the sessions whose
// id starts with prefix (any case), at most n, newest activity first as
// ls orders them: each read as ls reads it (head and tail) for its title,
// project and last activity. Only the files of the n newest by file time
// are read (and those it skips), so that completing stays fast on
// thousands of sessions: for a file Claude Code writes, its time is its
// last activity. Files without a conversation and files that start with
// a sidechain are left out, as ls leaves them out. Nothing is reported:
// a completion must not print.
func (f *Finder) Recent(prefix string, n int) []*Info {
	prefix = strings.ToLower(prefix)
	var cands []*Session
	matches := func(id string) bool { return strings.HasPrefix(strings.ToLower(id), prefix) }
	for _, s := range f.sessionsOf(func(string, ...any) {}, nil, false, matches) {
		if matches(s.ID) {
			cands = append(cands, s)
		}
	}
	var out []*Info
	for len(cands) > 0 && len(out) < n {
		batch := cands[:min(len(cands), n-len(out))]
		cands = cands[len(batch):]
		infos := make([]*Info, len(batch))
		var wg sync.WaitGroup
		sem := make(chan struct{}, max(4, runtime.GOMAXPROCS(0)*2))
		for i, s := range batch {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				if in, err := Lite(s); err == nil && !in.Sidechain && !in.Empty {
					infos[i] = in
				}
			}()
		}
		wg.Wait()
		for _, in := range infos {
			if in != nil {
				out = append(out, in)
			}
		}
	}
	now := time.Now()
	sort.SliceStable(out, func(i, j int) bool { return CompareActivity(out[i], out[j], now) < 0 })
	return out
}

// Project is a folder sessions ran in, as completing --project offers it.
type Project struct {
	Path     string    // the cwd its newest session recorded
	Sessions int       // sessions in its project folders
	Updated  time.Time // the newest of their files
}

// Projects lists the projects of the sessions under the roots, most
// recently active first: the cwd recorded at the start of the newest
// session of each project folder that records one (a head read or a few
// a folder). Folders whose sessions record the same cwd are one project.
func (f *Finder) Projects() []Project {
	byDir := map[string][]*Session{}
	var order []string
	none := func(string) bool { return false } // a folder's cwd: no main read whole to find it emptied
	for _, s := range f.sessionsOf(func(string, ...any) {}, nil, false, none) {
		dir := s.ProjectDir
		if dir == "" {
			dir = filepath.Dir(s.Path)
		}
		if _, ok := byDir[dir]; !ok {
			order = append(order, dir)
		}
		byDir[dir] = append(byDir[dir], s) // sessions come newest first
	}
	paths := make([]string, len(order))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(4, runtime.GOMAXPROCS(0)*2))
	for i, dir := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			// Metadata-only files record no cwd: try a few.
			for _, s := range byDir[dir][:min(len(byDir[dir]), 8)] {
				if _, project, err := Start(s); err == nil && project != "" {
					paths[i] = project
					return
				}
			}
		}()
	}
	wg.Wait()
	var out []Project
	at := map[string]int{}
	for i, dir := range order {
		p, n := paths[i], len(byDir[dir])
		if p == "" {
			continue
		}
		if j, ok := at[p]; ok {
			out[j].Sessions += n
			continue
		}
		at[p] = len(out)
		out = append(out, Project{Path: p, Sessions: n, Updated: byDir[dir][0].ModTime})
	}
	return out
}
