package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
	"github.com/cctx-dev/cctx/internal/rawfile"
	"github.com/cctx-dev/cctx/internal/reader"
)

// Session is one main transcript file: <project-key>/<session-id>.jsonl.
type Session struct {
	ID         string
	Path       string
	ProjectDir string // the project folder holding the file
	Root       Root
	ModTime    time.Time
	Size       int64
	// Copies are older copies of the same session in other folders or
	// roots: the newest file is read, and the subagent transcripts of
	// every copy (a copy may hold some the newest lacks).
	Copies []*Session
	// Archived: read from a cctx archive (Root.Archive), because no live
	// root has the session (Claude Code deleted it) or has its main
	// transcript.
	Archived bool
	// Orphan: the main transcript is gone: Claude Code's cleanup deletes
	// <id>.jsonl after cleanupPeriodDays and leaves <id>/subagents/. Path
	// is "" and the session is its subagent transcripts, counted under the
	// folder's session id. ModTime is their latest, Size 0.
	Orphan bool
	// Emptied: of an Orphan, its main transcript is there but holds no
	// conversation (empty, a newline, NUL bytes, metadata lines: at most
	// noConversationMax bytes), or cannot be read (mainErr), while its
	// subagent transcripts hold one: that file's path. Such a session is
	// read as one whose main transcript was deleted (Path is "", Size 0);
	// only what is said of it differs (MainGone, MainState).
	Emptied string
	// emptiedSize is the size of the Emptied file's text; mainErr why it
	// could not be read (a permission denied), or nil.
	emptiedSize int64
	mainErr     error

	// noFolder: the project folder, when listed, held no entry named
	// as the session's own folder (Folder).
	noFolder bool
	// headTalks: the listing found a user or assistant line in the
	// file's first bytes (headTalks): it holds a conversation, and is
	// no emptied main to read whole (emptiedMain). headWhole: those
	// bytes were the whole file, headBroken: one of its lines is no
	// entry (conversationInText), so emptiedMain need not read it again.
	headTalks, headWhole, headBroken bool
	// flat: of an orphan of Claude Code 2.0.x, its agent files beside
	// the sessions (agent-<id>.jsonl recording its id): no folder of its
	// own holds them.
	flat []string
	// listedStat: the file's status when the listing stat'ed it (stat
	// known), which the check of its cached row takes instead of a
	// status of the file once open (the same file, a moment earlier).
	listedStat rawfile.Info
	statKnown  bool
}

// ListedStat is the file's status when a listing found it (nil when the
// session was not listed: found by its path or id): what a check of the
// file's cache entry takes instead of an fstat (cache.CheckListed).
func (s *Session) ListedStat() *rawfile.Info {
	if !s.statKnown {
		return nil
	}
	return &s.listedStat
}

// ProjectKey is the name of the project folder (a lossy encoding of the
// cwd; use the cwd recorded in the entries to name a project).
func (s *Session) ProjectKey() string { return filepath.Base(s.ProjectDir) }

// Folder is the session's own folder, which holds its subagents:
// <project>/<id>/ beside <id>.jsonl (or .jsonl.zst).
func (s *Session) Folder() string {
	if s.Path == "" {
		return filepath.Join(s.ProjectDir, s.ID)
	}
	stem, _ := TranscriptStem(s.Path)
	return stem
}

// Where is where a session's transcripts are, to name it in messages: its
// main file, or, its main transcript gone, its own folder (subagents/),
// else (2.0.x flat agent files only) its project folder.
func (s *Session) Where() string {
	switch {
	case s.Path != "":
		return s.Path
	case len(s.flat) > 0 && s.noFolder:
		return s.ProjectDir
	}
	return s.Folder()
}

// MainGone says what became of an Orphan's main transcript, for
// messages ("session X: its main transcript …").
func (s *Session) MainGone() string {
	name := filepath.Base(s.Emptied)
	switch {
	case s.mainErr != nil:
		return "could not be read (" + diag.FileErrorText(s.Emptied, s.mainErr) + ": " + name + ")"
	case s.Emptied != "" && s.emptiedSize == 0:
		return "is empty (0 bytes: " + name + ")"
	case s.Emptied != "":
		unit := "bytes"
		if s.emptiedSize == 1 {
			unit = "byte"
		}
		return fmt.Sprintf("holds no conversation (%d %s, no user or assistant line: %s)", s.emptiedSize, unit, name)
	}
	return "was deleted (Claude Code's cleanup, after cleanupPeriodDays)"
}

// MainState is one word for what became of an Orphan's main transcript,
// as ls shows it ("(main transcript deleted)"): deleted, empty (or of no
// conversation) or unreadable.
func (s *Session) MainState() string {
	switch {
	case s.mainErr != nil:
		return "unreadable"
	case s.Emptied != "":
		return "empty"
	}
	return "deleted"
}

// MainPhrase names an Orphan's main transcript in a note on what it held
// ("their calls were in …"): the deleted main transcript, or one emptied
// or unreadable.
func (s *Session) MainPhrase() string {
	switch s.MainState() {
	case "unreadable":
		return "the main transcript, which could not be read"
	case "empty":
		return "the main transcript, empty now"
	}
	return "the deleted main transcript"
}

// NoConversation says why a session read from its main transcript has
// nothing to show or count, when that file holds no conversation (what
// noConversation finds) and no subagent made it an Orphan: "its
// transcript is empty (0 bytes: <id>.jsonl)", or "holds no conversation
// (…)"; "" otherwise (a file that holds one, or is too long to look
// into, standard input, an Orphan).
func (s *Session) NoConversation() string {
	if s.Orphan || s.Path == "" || s.Path == StdinPath || !noConversation(s.Path, s.Size) {
		return ""
	}
	e := Session{Emptied: s.Path, emptiedSize: s.Size}
	return "its transcript " + e.MainGone()
}

// StdinNothing is NoConversation of standard input, read to its end into
// spool (size bytes) with nothing in it to show: "standard input is empty
// (0 bytes)" (a pipe from a command that failed), or "holds no
// conversation (…)" when its text holds no user or assistant line (as a
// file's is looked into); "" otherwise (a line without a uuid is no entry
// of a tree, but it is a conversation's).
func StdinNothing(spool string, size int64) string {
	if size == 0 {
		return "standard input is empty (0 bytes)"
	}
	if !noConversation(spool, size) {
		return ""
	}
	unit := "bytes"
	if size == 1 {
		unit = "byte"
	}
	return fmt.Sprintf("standard input holds no conversation (%d %s, no user or assistant line)", size, unit)
}

// MainUnreadable reports whether the session is an Orphan because its
// main transcript could not be read: a command that names it says so as
// a file it could not read (exit 1).
func (s *Session) MainUnreadable() bool { return s.mainErr != nil }

// TranscriptStem strips a transcript's extension: .jsonl, or .jsonl.zst
// for a compressed one. ok is false for another name.
func TranscriptStem(name string) (stem string, ok bool) {
	for _, ext := range []string{".jsonl.zst", ".jsonl"} {
		if strings.HasSuffix(name, ext) {
			return strings.TrimSuffix(name, ext), true
		}
	}
	return name, false
}

// Agent is one subagent transcript found on disk.
type Agent struct {
	ID       string // from the file name agent-<id>.jsonl
	Path     string
	MetaPath string // agent-<id>.meta.json beside it, or ""
	Flat     bool   // 2.0.x layout: in the project folder, linked by sessionId
	Size     int64
	ModTime  time.Time
}

// IsSessionID reports whether s has the 8-4-4-4-12 hex shape of a session id.
// (Asked of every name in every project folder: no regular expression.)
func IsSessionID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// SafeAgentID reports whether an agent id taken from file content may be
// compared with file names. cctx never builds a path from content; it looks
// ids up among the files it listed, and refuses ids that could only match
// by escaping a directory.
func SafeAgentID(id string) bool {
	if id == "" || len(id) > 200 || id == "." || strings.Contains(id, "..") {
		return false
	}
	return !strings.ContainsAny(id, "/\\\x00:")
}

// QuoteAgentID quotes an agent id from file content for a message, cut to
// 80 bytes: an id that SafeAgentID refuses may be thousands of bytes long.
func QuoteAgentID(id string) string {
	const max = 80
	if len(id) <= max {
		return strconv.Quote(id)
	}
	n := max
	for n > 0 && !utf8.RuneStart(id[n]) {
		n--
	}
	return strconv.Quote(id[:n]) + "…"
}

// Finder lists the sessions and subagent files under a set of roots.
type Finder struct {
	Roots  []Root
	Report *diag.Reporter
	// RootsErr, when set, says the roots could not all be read (a
	// CLAUDE_CONFIG_DIR entry that is not there): looking a session up
	// fails with it, reading a file or standard input does not.
	RootsErr error
	// noHome: no home directory is known (HOME unset): the default roots
	// under ~ could not be looked for.
	noHome bool
	// Cache keeps the rows of List (nil: none), in rowShards stores of
	// its own (Sub).
	Cache *cache.Store

	shardsOnce sync.Once
	shards     [rowShards]*cache.Store

	mu      sync.Mutex
	orphans sync.Once
	flat    map[string]*flatIndex             // project dir → session id → flat agents
	flatSID map[string]string                 // flat agent file → the session its lines record
	warned  map[string]bool                   // paths already warned about by Agents
	byAgent map[string]map[string][]agentCopy // project dir → agent id → its transcripts (AgentElsewhere)
	// listedAgents: the agent file names a listing of a project folder
	// saw (sessionsFrom), for flatAgents to take instead of listing the
	// folder again; taken once.
	listedAgents map[string][]string

	noRoots sync.Once
}

// warnOnce warns about path once per Finder: Agents runs again and again
// while a session is followed.
func (f *Finder) warnOnce(path, format string, args ...any) {
	f.mu.Lock()
	seen := f.warned[path]
	if f.warned == nil {
		f.warned = map[string]bool{}
	}
	f.warned[path] = true
	f.mu.Unlock()
	if !seen {
		f.Report.Warn(format, args...)
	}
}

// NewFinder returns a Finder over roots that reports problems to rep.
func NewFinder(roots []Root, rep *diag.Reporter) *Finder {
	if rep == nil {
		rep = diag.Discard()
	}
	return &Finder{Roots: roots, Report: rep}
}

// Sessions lists every main session under the roots, newest file first.
// Only directory metadata is read. A session id present in several roots
// is listed once: the most recently modified copy wins.
func (f *Finder) Sessions() []*Session {
	f.sayNoRoots()
	ss := f.sessions(f.Report.Warn, nil)
	f.sayOrphans(ss)
	return ss
}

// sayNoRoots says, once, that there is no projects directory to list.
func (f *Finder) sayNoRoots() {
	if len(f.Roots) == 0 {
		// Said when a listing is needed, not for a path or stdin argument.
		f.noRoots.Do(func() {
			if f.noHome {
				f.Report.Warn("no projects directory found: HOME is not set, so ~/.claude/projects could not be looked for (set HOME, or give --dir or CLAUDE_CONFIG_DIR)")
				return
			}
			f.Report.Warn("no projects directory found (looked for ~/.claude/projects and ~/.config/claude/projects; set --dir or CLAUDE_CONFIG_DIR)")
		})
	}
}

// SessionsWith is Sessions that also calls found on every session file the
// listing finds, as soon as the file is stat'ed, in the listing's workers
// (in parallel, in no order, before the sessions are sorted or told
// apart from a copy in another root): what its caller would do with
// every session next (tokens checks each file's cache entry) is done
// while the rest are listed. A file the folder lists as a regular one
// is opened and its status taken from the open file: one path lookup,
// not a stat by path (1.9 µs on the benchmarks' VM) and an open, where
// an fstat is 0.47 µs. found gets it open, until it returns (nil: not
// opened).
func (f *Finder) SessionsWith(found func(*Session, *rawfile.File)) []*Session {
	if found == nil || len(f.Roots) == 0 {
		return f.Sessions()
	}
	ss := f.sessions(f.Report.Warn, found)
	f.sayOrphans(ss)
	return ss
}

// sessionsQuietOrphans is SessionsWith without the orphans' warning: a
// listing that leaves some of them out says it of those it lists (List).
func (f *Finder) sessionsQuietOrphans(found func(*Session, *rawfile.File)) []*Session {
	f.sayNoRoots()
	return f.sessions(f.Report.Warn, found)
}

// sessions lists the sessions, saying what it skips through warn. Finding
// one session by its id (Resolve) is quiet about the others: a broken link
// in another project is for a listing to report, and must not fail
// `tree <id> --strict`.
func (f *Finder) sessions(warn func(format string, args ...any), listed func(*Session, *rawfile.File)) []*Session {
	return f.sessionsOf(warn, listed, true, nil)
}

// sessionsOf is sessions, with the sessions of 2.0.x flat agent files
// whose main transcript is gone when flat: finding them reads the head of
// every flat agent file, which a listing that counts or shows agents
// does anyway, and a lookup by id needs only when nothing else matches.
//
// look, when not nil, says which sessions' main transcripts are looked
// into (emptiedMain): a lookup by id reads only the ones it may return.
func (f *Finder) sessionsOf(warn func(format string, args ...any), listed func(*Session, *rawfile.File), flat bool, look func(id string) bool) []*Session {
	byID := map[string]*Session{}
	for _, root := range f.Roots {
		dirs := f.projectDirs(root, warn)
		found := 0
		// The folders are read in parallel (hundreds of them), then taken
		// in order, warnings too.
		lists := make([]dirListing, len(dirs))
		each(len(dirs), func(i int) { lists[i] = listDir(root, dirs[i], listed) })
		for i, dir := range dirs {
			for _, s := range f.sessionsFrom(root, dir, lists[i], warn, flat, look) {
				found++
				// A session id is a uuid: B3EDADAB-….jsonl beside
				// b3edadab-….jsonl is the session in two places.
				key := strings.ToLower(s.ID)
				if old, ok := byID[key]; ok {
					newer, older := s, old
					if preferred(old, s) {
						newer, older = old, s
					}
					switch {
					case newer.Archived || older.Archived || newer.Orphan || older.Orphan:
					case newer.Size != older.Size: // what only the shorter one holds is not read
						warn("session %s is in two places that differ: reading %s, the longer, and the subagents of both (%s is %d bytes shorter)", s.ID, newer.Path, older.Path, newer.Size-older.Size)
					default:
						f.Report.Note("session %s is in two places; reading %s, and the subagents of both", s.ID, newer.Path)
					}
					newer.Copies = append(append(newer.Copies, older), older.Copies...)
					older.Copies = nil
					byID[key] = newer
					continue
				}
				byID[key] = s
			}
		}
		if found == 0 && len(dirs) > 0 {
			if hint := deeperSessions(root.ProjectsDir); hint != "" {
				warn("%s: no session here; %s", root.ProjectsDir, hint)
			}
		}
	}
	out := make([]*Session, 0, len(byID))
	for _, s := range byID {
		out = append(out, s)
	}
	SortNewestFirst(out)
	return out
}

// sayOrphans warns, once per Finder, about the sessions of a listing whose
// main transcript is gone, empty or unreadable: those it lists (ls leaves
// out an orphan without conversation, unless --empty).
func (f *Finder) sayOrphans(ss []*Session) {
	var deleted, emptied, unreadable []*Session
	for _, s := range ss {
		switch {
		case !s.Orphan:
		case s.mainErr != nil:
			unreadable = append(unreadable, s)
		case s.Emptied != "":
			emptied = append(emptied, s)
		default:
			deleted = append(deleted, s)
		}
	}
	if len(deleted)+len(emptied)+len(unreadable) == 0 {
		return
	}
	f.orphans.Do(func() {
		if len(deleted) > 0 {
			f.Report.Warn("%d session(s) have subagent transcripts but no main transcript (Claude Code deletes <id>.jsonl after cleanupPeriodDays and leaves %s): "+
				"they are listed as \"main transcript deleted\" and their subagents counted under the folder's session id; `cctx archive` keeps a copy of every transcript", len(deleted), leftBehind(deleted))
		}
		if len(emptied) > 0 {
			f.Report.Warn("%d session(s) have subagent transcripts but an empty main transcript (<id>.jsonl of 0 bytes, or of no user or assistant line: emptied, truncated): "+
				"they are listed as \"main transcript empty\" and their subagents counted under the session's id", len(emptied))
		}
		for _, s := range unreadable {
			f.Report.FileWarn("%s: %s: not readable by this user (ls -l shows its owner and mode); session %s is listed as \"main transcript unreadable\" and its subagent transcripts counted under its id",
				s.Emptied, diag.FileErrorText(s.Emptied, s.mainErr), s.ID)
		}
	})
}

// leftBehind says what the cleanup left of deleted sessions: the
// subagents/ folder of a session of Claude Code 2.0.x or later, the flat
// agent files 2.0.x wrote beside the main transcript.
func leftBehind(ss []*Session) string {
	flat := 0
	for _, s := range ss {
		if s.noFolder && len(s.flat) > 0 {
			flat++
		}
	}
	switch flat {
	case 0:
		return "<id>/subagents/"
	case len(ss):
		return "the agent-<agent-id>.jsonl files Claude Code 2.0.x wrote beside it"
	}
	return "<id>/subagents/, or the agent-<agent-id>.jsonl files Claude Code 2.0.x wrote beside it"
}

// preferred reports whether session a is read rather than b, both copies
// of one id: one with a main transcript before one without, a live one
// before the archive's copy (unless the live one changed since it was
// archived and now holds no conversation: emptied or truncated, with no
// subagent to make it an Orphan), else the longer (a transcript only
// grows: a copy taken before is shorter, however recently it was
// written), else the most recently written.
func preferred(a, b *Session) bool {
	switch {
	case a.Orphan != b.Orphan:
		return !a.Orphan
	case a.Archived != b.Archived:
		live, kept := a, b
		if a.Archived {
			live, kept = b, a
		}
		if live.Size != kept.Size && noConversation(live.Path, live.Size) {
			return a == kept
		}
		return !a.Archived
	case a.Size != b.Size:
		return a.Size > b.Size
	}
	return !b.ModTime.After(a.ModTime)
}

// noConversation reports whether a main transcript of size bytes of text
// holds no conversation: it is at most noConversationMax bytes (a longer
// one is taken to hold one, and not read) and has no user or assistant
// line (conversationInText): what emptying it (0 bytes), truncating it (a
// newline), a crash (NUL bytes), a tool that rewrote it (metadata lines
// only) or damage (lines that are no entry) leaves. A file that cannot be
// read is not said to hold none: its reading says why.
func noConversation(path string, size int64) bool {
	if size == 0 {
		return true
	}
	if size > noConversationMax {
		return false
	}
	head, tail, err := readHeadTail(path, noConversationMax)
	if err != nil || tail != nil {
		return false
	}
	talks, _ := conversationInText(head)
	return !talks
}

// headBytes is how much of a small main transcript beside subagents the
// listing reads to find it holds a conversation: one read of the bytes the
// cache's check reads too, where its first line nearly always is.
const headBytes = 4 << 10

// headBufs are headTalks' buffers: one a file was 3 MB of fresh memory
// (and its page faults) over 5,000 sessions.
var headBufs = sync.Pool{New: func() any { return new([headBytes]byte) }}

// headTalks reports whether the first headBytes of the open file fh, of
// size bytes, hold a whole user or assistant line (talks; false: not found
// there, the file may still hold one further on), and, when they are the
// whole file (whole), whether a line of it is no entry (broken), as
// conversationInText says.
func headTalks(fh *rawfile.File, size int64) (talks, whole, broken bool) {
	bp := headBufs.Get().(*[headBytes]byte)
	defer headBufs.Put(bp)
	b := bp[:min(size, headBytes)]
	if n, _ := fh.ReadAt(b, 0); n != len(b) {
		return false, false, false
	}
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}) // as readHeadTail: the reader takes a BOM
	if size <= headBytes {
		talks, broken = conversationInText(b) // UTF-16 too: no main to read again
		return talks, true, broken
	}
	if reader.IsUTF16(b) {
		return true, false, false // its reading says what it is
	}
	for _, l := range completeLines(b, true, false) {
		if reader.TalksAt(l) {
			return true, false, false
		}
	}
	return false, false, false
}

// noConversationMax is the longest main transcript noConversation reads
// (the head a listing reads): the truncated files it is for are small,
// and a listing does not read every file whole to find them.
const noConversationMax = liteBytes

// SortNewestFirst orders sessions by file modification time, newest first,
// then by id so the order is stable.
func SortNewestFirst(ss []*Session) {
	slices.SortFunc(ss, func(a, b *Session) int {
		if c := b.ModTime.Compare(a.ModTime); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

// deeperSessions says where the sessions are when a root has folders but
// no session: a --dir one level too high (a folder of copied config
// folders, or of projects dirs), or a Codex CLI folder. "" when it cannot
// tell. It is looked for only when a root holds no session.
func deeperSessions(dir string) string {
	if m, _ := filepath.Glob(filepath.Join(dir, "*", "projects")); len(m) > 0 {
		return fmt.Sprintf("it holds config folders with a projects/ folder: pass one of them, e.g. --dir %s", m[0])
	}
	for _, pat := range []string{"*/*/*.jsonl", "*/*/*.jsonl.zst"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, p := range m {
			if IDOfPath(p) != "" {
				return fmt.Sprintf("sessions lie one level further down: pass the folder that holds the project folders, e.g. --dir %s", filepath.Dir(filepath.Dir(p)))
			}
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "*", "*", "rollout-*.jsonl")); len(m) > 0 || strings.HasSuffix(filepath.Clean(dir), ".codex") {
		return "this looks like a Codex CLI folder (~/.codex); cctx reads Claude Code's transcripts (~/.claude/projects)"
	}
	return ""
}

// projectDirs lists the project folders of a root. A root that directly
// holds session files (a project folder given as --dir) is its own project.
func (f *Finder) projectDirs(root Root, warn func(string, ...any)) []string {
	ents, err := os.ReadDir(root.ProjectsDir)
	if err != nil {
		warn("%s: %v", root.ProjectsDir, err)
		return nil
	}
	var dirs []string
	self := false
	for _, e := range ents {
		p := filepath.Join(root.ProjectsDir, e.Name())
		switch {
		case e.IsDir():
			if !IsSessionID(e.Name()) { // <id>/ folders hold a session's subagents
				dirs = append(dirs, p)
			} else if hasSubagents(p) { // an orphan's: this is a project folder
				self = true
			}
		case e.Type()&fs.ModeSymlink != 0:
			if isDir(p) {
				dirs = append(dirs, p)
			}
		case isSessionName(e.Name()):
			self = true
		}
	}
	if self {
		dirs = append([]string{root.ProjectsDir}, dirs...)
	}
	if len(dirs) == 0 && !root.Added {
		warn("%s: no project folders or sessions here (a projects dir holds <project>/<session-id>.jsonl)", root.ProjectsDir)
	}
	return dirs
}

// dirListing is what listDir finds in a project folder.
type dirListing struct {
	err      error
	names    []string        // session files
	paths    []string        // of each of names
	stats    []fileStat      // of each of names
	sessions []*Session      // of each of names that is a regular file
	folders  []string        // session folders
	entries  map[string]bool // names that may be a session's folder
	agents   []string        // flat agent files
}

type fileStat struct {
	st  rawfile.Info
	err error
}

// listDir reads a project folder of root, stats its session files (in
// parallel when there are thousands) and makes the sessions of the
// regular ones (in the listing's workers, not one after the other once
// every folder is listed). It says nothing: sessionsFrom warns, in order,
// about what it found.
func listDir(root Root, dir string, found func(*Session, *rawfile.File)) (l dirListing) {
	d, err := rawfile.OpenDir(dir)
	if err != nil {
		l.err = err
		return l
	}
	defer d.Close()
	ents, err := d.ReadDir()
	if err != nil {
		l.err = err
		return l
	}
	l.entries = map[string]bool{}
	regular := map[string]bool{} // as the folder says: a link is stat'ed, followed
	for _, e := range ents {
		name := e.Name()
		if IsSessionID(name) {
			l.entries[name] = true
		}
		if e.Type().IsRegular() {
			regular[name] = true
		}
		if !e.IsDir() && isAgentName(name) {
			l.agents = append(l.agents, name)
		}
		if e.IsDir() && IsSessionID(name) {
			l.folders = append(l.folders, name)
			continue
		}
		if isSessionName(name) {
			l.names = append(l.names, name)
		}
	}
	l.stats = make([]fileStat, len(l.names))
	l.paths = make([]string, len(l.names))
	l.sessions = make([]*Session, len(l.names))
	all := make([]Session, len(l.names))
	parallel(len(l.names), func(i int) {
		name := l.names[i]
		p := d.Join(name)
		l.paths[i] = p
		var fh *rawfile.File
		if found != nil && regular[name] && !strings.HasSuffix(name, ".zst") {
			fh = openListed(d, name)
		}
		var st rawfile.Info
		var err error
		if fh != nil {
			defer fh.Close()
			st, err = fh.Stat()
		} else {
			st, err = rawfile.Stat(p) // follows a symlinked file; loops fail here
		}
		l.stats[i] = fileStat{st: st, err: err}
		if err != nil || !st.Regular {
			return
		}
		size := st.Size
		if strings.HasSuffix(name, ".zst") {
			size = reader.TextSize(p, st.Size)
		}
		id, _ := TranscriptStem(name)
		all[i] = Session{ID: id, Path: p, ProjectDir: dir, Root: root, ModTime: st.Mod(), Size: size, Archived: root.Archive,
			noFolder: !l.entries[id], listedStat: st, statKnown: true}
		if fh != nil && size > 0 && size <= noConversationMax && (l.entries[id] || len(l.agents) > 0) {
			all[i].headTalks, all[i].headWhole, all[i].headBroken = headTalks(fh, size) // else emptiedMain reads it, each run
		}
		l.sessions[i] = &all[i]
		// An empty file may be no main transcript at all, decided once
		// the folder is listed (emptiedMain): no cached row of it is
		// taken for the session.
		if found != nil && size > 0 {
			found(l.sessions[i], fh)
		}
	})
	return l
}

// openListed opens a file a listing of d found, for its status and its
// reader's first reads; nil when it cannot be opened, whose stat by path
// then says why, as for any file.
func openListed(d *rawfile.Dir, name string) *rawfile.File {
	fh, err := d.OpenNow(name)
	if err != nil {
		return nil
	}
	return fh
}

// sessionsFrom makes the sessions of a project folder listed by listDir.
func (f *Finder) sessionsFrom(root Root, dir string, l dirListing, warn func(string, ...any), flat bool, look func(id string) bool) []*Session {
	if l.err != nil {
		warn("%s: %v", dir, l.err)
		return nil
	}
	var out []*Session
	mains := map[string]bool{}
	f.mu.Lock()
	if _, indexed := f.flat[dir]; !indexed {
		if f.listedAgents == nil {
			f.listedAgents = map[string][]string{}
		}
		f.listedAgents[dir] = l.agents
	}
	f.mu.Unlock()
	for i := range l.names {
		p := l.paths[i]
		st, err := l.stats[i].st, l.stats[i].err
		if err != nil {
			if pe, ok := err.(*fs.PathError); ok {
				err = pe.Err // the path is said once, first
			}
			warn("%s: %v, skipped", p, err)
			continue
		}
		if !st.Regular {
			warn("%s: not a regular file, skipped", p)
			continue
		}
		s := l.sessions[i]
		if len(l.folders) > 0 {
			mains[s.ID] = true
		}
		// A main transcript that may hold no conversation, or may not be
		// readable, beside subagent transcripts: looked into.
		// cctx's archive never makes a copy without conversation current
		// over one with (archive's kept): only an empty one is looked into
		// there, not decompressed each run.
		if (!s.noFolder || len(l.agents) > 0) && (s.Size <= noConversationMax && !s.headTalks || st.MayBeUnreadable()) &&
			(!root.Archive || s.Size == 0) && (look == nil || look(s.ID)) {
			f.emptiedMain(s)
		}
		out = append(out, s)
	}
	// A session folder without its main transcript: what Claude Code's
	// cleanup leaves. Its subagent transcripts are the session.
	for _, id := range l.folders {
		if mains[id] {
			continue
		}
		s := &Session{ID: id, ProjectDir: dir, Root: root, Orphan: true, Archived: root.Archive}
		for _, a := range f.agentsOf(s, false) {
			if a.Flat {
				s.flat = append(s.flat, a.Path) // its row is read from them too
			}
			if a.ModTime.After(s.ModTime) {
				s.ModTime = a.ModTime
			}
		}
		if !s.ModTime.IsZero() { // at least one agent transcript
			out = append(out, s)
		}
	}
	// A 2.0.x session whose main transcript is gone: its flat agent
	// files (each records its session) are the session, as a folder's
	// subagents are. Indexed once a folder, as its sessions' agents are.
	if flat && len(l.agents) > 0 {
		have := make(map[string]bool, len(out))
		for _, s := range out {
			have[s.ID] = true
		}
		for sid, agents := range f.flatAgents(dir) {
			if !IsSessionID(sid) {
				for _, a := range agents {
					warn("%s: its sessionId %q is not a session id: not read as a session's", a.Path, sid)
				}
				continue
			}
			if have[sid] {
				continue
			}
			s := &Session{ID: sid, ProjectDir: dir, Root: root, Orphan: true, Archived: root.Archive, noFolder: !l.entries[sid]}
			for _, a := range agents {
				s.flat = append(s.flat, a.Path)
				if a.ModTime.After(s.ModTime) {
					s.ModTime = a.ModTime
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// emptiedMain makes s the Orphan its subagent transcripts are when its
// main transcript holds no conversation (noConversation: emptied with
// `: > <id>.jsonl`, truncated to a newline, a crash's NUL bytes, a tool
// that left metadata lines only) or cannot be read (permission denied),
// while they hold one (not only a 2.0.x warm-up): the session is read,
// listed and counted as one whose main transcript was deleted. A main
// transcript with no such agent (none, empty ones, a warm-up that Claude
// Code 2.0.x runs at start in a session never used) stays as it is: a
// file without conversation, or one said unreadable.
func (f *Finder) emptiedMain(s *Session) {
	if s.headTalks {
		return // the listing opened it and found a conversation
	}
	if s.Size > 0 && s.Size <= noConversationMax && !s.headWhole && !strings.HasSuffix(s.Path, ".zst") {
		// Not listed with the file open (a lookup by id, a completion):
		// its first 4 KiB, one read, most often say it.
		if fh, err := rawfile.Open(s.Path); err == nil {
			s.headTalks, s.headWhole, s.headBroken = headTalks(fh, s.Size)
			fh.Close()
			if s.headTalks {
				return
			}
		}
	}
	var err error
	switch {
	case s.Size == 0:
	case s.Size <= noConversationMax && s.headWhole: // read all by headTalks
		if s.headBroken {
			return
		}
	case s.Size <= noConversationMax:
		head, tail, rerr := readHeadTail(s.Path, noConversationMax)
		if rerr != nil && !errors.Is(rerr, fs.ErrPermission) || rerr == nil && tail != nil {
			return
		}
		// A line that is no entry is damage a reading of the file says:
		// it is read as it is.
		if talks, broken := conversationInText(head); rerr == nil && (talks || broken) {
			return
		}
		err = rerr
	default: // only its right to read it is in doubt
		fh, oerr := rawfile.Open(s.Path)
		if oerr == nil {
			fh.Close()
			return
		}
		if !errors.Is(oerr, fs.ErrPermission) {
			return
		}
		err = oerr
	}
	agents := f.agentsOf(s, false)
	talks := false
	for _, a := range agents {
		if a.Size > 0 && agentTalks(a.Path) {
			talks = true
			break
		}
	}
	if !talks {
		return
	}
	// As a deleted one's: its time is its subagents' latest, not when the
	// file was emptied, and its size 0.
	s.Emptied, s.emptiedSize, s.mainErr = s.Path, s.Size, err
	s.Path, s.Size, s.Orphan, s.statKnown, s.ModTime = "", 0, true, false, time.Time{}
	for _, a := range agents {
		if a.Flat {
			s.flat = append(s.flat, a.Path) // its row is read from them too
		}
		if a.ModTime.After(s.ModTime) {
			s.ModTime = a.ModTime
		}
	}
}

// conversationInText reports whether the text of a small file (whole)
// holds a user or assistant line, as reader.HoldsConversation reads one
// (a crash's NUL run split off); true for UTF-16, which is said as such
// when read, not taken for a file without conversation. broken: a line
// of it is no entry at all (not JSON, cut), what a reading warns about.
func conversationInText(b []byte) (talks, broken bool) {
	if reader.IsUTF16(b) {
		return true, false
	}
	for _, l := range completeLines(b, true, true) {
		_, rest := reader.SplitCrashResidue(l)
		if len(rest) == 0 {
			continue // NUL bytes alone: what a crash leaves
		}
		e, ok := reader.ParseLine(rest)
		switch {
		case !ok:
			broken = true
		case e.IsConversation():
			return true, broken
		}
	}
	return false, broken
}

// parallel runs fn(0) … fn(n-1) on GOMAXPROCS goroutines (inline when n
// is small).
func parallel(n int, fn func(i int)) { spread(n, min(runtime.GOMAXPROCS(0), n/64), fn) }

// isSessionName recognises <session-id>.jsonl and <session-id>.jsonl.zst.
func isSessionName(name string) bool {
	id, ok := TranscriptStem(name)
	return ok && IsSessionID(id)
}

// hasSubagents reports whether a session folder holds a subagents/ folder
// with something in it.
func hasSubagents(dir string) bool {
	ents, err := os.ReadDir(filepath.Join(dir, "subagents"))
	return err == nil && len(ents) > 0
}

// Agents lists the subagent transcripts of a session in both layouts:
// <session-id>/subagents/**/agent-<id>.jsonl (walked without following
// symlinks, so a link loop cannot trap it) and the older flat
// agent-<id>.jsonl files in the project folder whose sessionId matches.
// Agents are sorted by path.
func (f *Finder) Agents(s *Session) []Agent { return f.agents(s, false) }

// AgentPaths is Agents with each agent's id and path only, found as a
// listing of sessions counts them (see agents): no stat of each agent
// file or of its .meta.json, no look for a subagents/ folder a listed
// session had none of. What a count of tokens reads (a warm tokens over
// 5,000 sessions spent a fifth of its time in those stats).
func (f *Finder) AgentPaths(s *Session) []Agent { return f.agents(s, true) }

// agents is Agents; listed is for a listing's count of them: it trusts
// the listing of the project folder (a session without a folder there has
// no subagents/ folder), which a session that is followed must not
// (AgentsNow), and its agents in subagents/ have their id and path only
// (no stat of each file and its .meta.json).
func (f *Finder) agents(s *Session, listed bool) []Agent {
	out := f.agentsOf(s, listed)
	if len(s.Copies) > 0 {
		seen := map[string]bool{}
		for _, a := range out {
			seen[a.ID] = true
		}
		for _, c := range s.Copies {
			for _, a := range f.agentsOf(c, listed) {
				if !seen[a.ID] {
					seen[a.ID] = true
					out = append(out, a)
				}
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	}
	return out
}

// AgentsNow is Agents as the folders are now: the flat agent files of a
// project folder are indexed once per Finder, and a session that is
// followed (show -f) must see one that appears meanwhile.
func (f *Finder) AgentsNow(s *Session) []Agent {
	f.mu.Lock()
	delete(f.flat, s.ProjectDir)
	delete(f.listedAgents, s.ProjectDir)
	for _, c := range s.Copies {
		delete(f.flat, c.ProjectDir)
		delete(f.listedAgents, c.ProjectDir)
	}
	f.mu.Unlock()
	return f.Agents(s)
}

// nestedAgents lists <session-id>/subagents/**/agent-<id>.jsonl (listed:
// see agents).
func (f *Finder) nestedAgents(s *Session, listed bool) []Agent {
	var out []Agent
	sub := filepath.Join(s.Folder(), "subagents")
	if st, err := os.Lstat(sub); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		f.warnOnce(sub, "%s: a symlink, not followed (agent transcripts are read inside the session's folder only)", sub)
	} else if err == nil && st.IsDir() {
		out = f.walkAgents(out, sub, listed, 0)
	}
	return out
}

// agentsOf lists the subagent transcripts beside one session file
// (listed: see agents).
func (f *Finder) agentsOf(s *Session, listed bool) []Agent {
	var out []Agent
	// A listed session with no <id> entry in its project folder has no
	// subagents/ folder to look at.
	if !listed || !s.noFolder {
		out = f.nestedAgents(s, listed)
	}
	for _, a := range f.flatAgents(s.ProjectDir)[s.ID] {
		if a.Path != s.Path { // an agent file read as the session is not its own agent
			out = append(out, a)
		}
	}
	if len(out) > 1 {
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	}
	return out
}

// walkAgents appends the agent transcripts under dir (a folder, not a
// link) to out, in the order filepath.WalkDir visits them, saying what it
// skips as it does: each folder read with rawfile.ReadDir (one open, the
// reads and one close), not os.ReadDir, and dir not stat'ed again (a
// warm listing spent a tenth of its time walking subagents/ folders).
func (f *Finder) walkAgents(out []Agent, dir string, listed bool, depth int) []Agent {
	if depth > maxAgentDepth {
		// Real nests are two or three deep; this is a crafted or broken
		// tree, not walked to the length a path can reach.
		f.warnOnce(dir, "%s: folders nested more than %d deep under subagents/, not read further", shortPath(dir), maxAgentDepth)
		return out
	}
	ents, err := rawfile.ReadDir(dir)
	if err != nil {
		f.warnOnce(dir, "%s: %v", dir, err)
	}
	for _, d := range ents {
		p := filepath.Join(dir, d.Name())
		switch {
		case d.IsDir():
			out = f.walkAgents(out, p, listed, depth+1)
		case d.Type()&fs.ModeSymlink != 0:
			// Not followed, so that a loop cannot trap the walk and a
			// link cannot bring in a file from elsewhere; said, so that a
			// missing transcript is not a mystery.
			if isAgentName(d.Name()) || strings.HasSuffix(d.Name(), ".meta.json") || isDir(p) {
				f.warnOnce(p, "%s: a symlink, not followed (agent transcripts are read inside the session's folder only)", p)
			}
		case !isAgentName(d.Name()):
		case !d.Type().IsRegular():
			f.warnOnce(p, "%s: not a regular file, skipped", p)
		case listed:
			out = append(out, Agent{ID: agentID(d.Name()), Path: p})
		default:
			if a, ok := agentFile(p); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// isAgentName recognises the name agent-<id>.jsonl (or .jsonl.zst,
// compressed in an archive). An older version an archive keeps beside a
// file (agent-<id>@1.jsonl.zst) is not an agent.
func isAgentName(name string) bool {
	id := agentID(name)
	return id != "" && !strings.Contains(id, "@")
}

// AgentFileID is the agent id of a path whose file is an agent's
// transcript (agent-<id>.jsonl), or "".
func AgentFileID(path string) string {
	if name := filepath.Base(path); isAgentName(name) {
		return agentID(name)
	}
	return ""
}

// agentID is the <id> of agent-<id>.jsonl[.zst], or "".
func agentID(name string) string {
	stem, ok := TranscriptStem(name)
	if !ok || !strings.HasPrefix(stem, "agent-") {
		return ""
	}
	return strings.TrimPrefix(stem, "agent-")
}

// agentFile recognises agent-<id>.jsonl and finds its .meta.json sidecar.
func agentFile(p string) (Agent, bool) {
	name := filepath.Base(p)
	if !isAgentName(name) {
		return Agent{}, false
	}
	id := agentID(name)
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return Agent{}, false
	}
	a := Agent{ID: id, Path: p, Size: st.Size(), ModTime: st.ModTime()}
	if strings.HasSuffix(name, ".zst") {
		a.Size = reader.TextSize(p, a.Size)
	}
	stem, _ := TranscriptStem(p)
	// The sidecar only as a file of the folder itself: a link is not
	// followed, as an agent transcript that is one is not (walkAgents
	// says so).
	if meta := stem + ".meta.json"; regularNoFollow(meta) {
		a.MetaPath = meta
	}
	return a, true
}

// AgentElsewhere finds the transcript of agent id among the other sessions
// of s's project folder, or "". A resumed session replays the earlier
// session's lines, Agent/Task results included, while the agents'
// transcripts stay in the earlier session's folder. Each folder is
// indexed once.
func (f *Finder) AgentElsewhere(s *Session, id string) string {
	if s == nil || s.ProjectDir == "" || !SafeAgentID(id) {
		return ""
	}
	f.mu.Lock()
	idx, ok := f.byAgent[s.ProjectDir]
	f.mu.Unlock()
	if !ok {
		idx = map[string][]agentCopy{}
		ents, _ := os.ReadDir(s.ProjectDir)
		for _, e := range ents {
			if !e.IsDir() || !IsSessionID(e.Name()) {
				continue
			}
			filepath.WalkDir(filepath.Join(s.ProjectDir, e.Name(), "subagents"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && isAgentName(d.Name()) {
					aid := agentID(d.Name())
					idx[aid] = append(idx[aid], agentCopy{path: p, session: e.Name()})
				}
				return nil
			})
		}
		// 2.0.x: flat agent-<id>.jsonl files beside the sessions, each of
		// the session its lines record (one that records none, or cannot
		// be read, belongs to no session: it proves nothing).
		for sid, as := range f.flatAgents(s.ProjectDir) {
			for _, a := range as {
				idx[a.ID] = append(idx[a.ID], agentCopy{path: a.Path, session: sid})
			}
		}
		f.mu.Lock()
		if f.byAgent == nil {
			f.byAgent = map[string]map[string][]agentCopy{}
		}
		f.byAgent[s.ProjectDir] = idx
		f.mu.Unlock()
	}
	for _, c := range idx[id] {
		if c.session != s.ID { // this session's own copy would have been linked
			return c.path
		}
	}
	return ""
}

// agentCopy is an agent transcript in a project folder and the session it
// belongs to (AgentElsewhere).
type agentCopy struct{ path, session string }

// flatAgents indexes the flat agent files of a project folder by the
// sessionId they record. Each folder is read once, by the first to ask;
// the others wait for that folder only (the listing's workers ask for
// hundreds of folders at once).
func (f *Finder) flatAgents(dir string) map[string][]Agent {
	f.mu.Lock()
	fl, ok := f.flat[dir]
	var names []string
	listed := false
	if !ok {
		if f.flat == nil {
			f.flat = map[string]*flatIndex{}
			f.flatSID = map[string]string{}
		}
		fl = &flatIndex{}
		f.flat[dir] = fl
		if names, listed = f.listedAgents[dir]; listed {
			delete(f.listedAgents, dir) // AgentsNow lists the folder again
		}
	}
	f.mu.Unlock()
	fl.once.Do(func() { fl.idx = f.indexFlat(dir, names, listed) })
	return fl.idx
}

// flatIndex is the flat agents of a project folder, by session id.
type flatIndex struct {
	once sync.Once
	idx  map[string][]Agent
}

// indexFlat reads the flat agent files of a project folder (names, when
// listed; else the folder is listed).
func (f *Finder) indexFlat(dir string, names []string, listed bool) map[string][]Agent {
	idx := map[string][]Agent{}
	if !listed {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return idx
		}
		for _, e := range ents {
			if !e.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	for _, name := range names {
		a, ok := agentFile(filepath.Join(dir, name))
		if !ok {
			continue
		}
		a.Flat = true
		// A file's session is read once (its head does not change); one
		// that records none yet (just created) is looked at again.
		f.mu.Lock()
		sid, known := f.flatSID[a.Path]
		f.mu.Unlock()
		if !known {
			if sid = headSessionID(a.Path); sid != "" {
				f.mu.Lock()
				f.flatSID[a.Path] = sid
				f.mu.Unlock()
			}
		}
		if sid == "" {
			f.mu.Lock()
			seen := f.warned[a.Path]
			if f.warned == nil {
				f.warned = map[string]bool{}
			}
			f.warned[a.Path] = true
			f.mu.Unlock()
			if !seen {
				f.Report.Note("%s: no sessionId in its first lines; not linked to a session", a.Path)
			}
			continue
		}
		idx[sid] = append(idx[sid], a)
	}
	return idx
}

// FlatAgentSession is the session a 2.0.x flat agent file
// (<project>/agent-<id>.jsonl) belongs to, as a listing groups it: the
// sessionId its first lines record; "" when they record none.
func FlatAgentSession(path string) string { return headSessionID(path) }

var sessionIDField = regexp.MustCompile(`"sessionId"\s*:\s*"([0-9a-fA-F-]{36})"`)

// headSessionID reads the sessionId recorded near the start of a file.
func headSessionID(path string) string {
	// Most first lines are short: the first 8 KiB first. A line found
	// whole there is the one the whole head would give.
	if head, ok := readHead8(path); ok {
		for _, line := range completeLines(head, true, false) {
			if e, ok := reader.ParseLine(line); ok && e.SessionID != "" {
				return e.SessionID
			}
		}
	}
	head, _, err := readHeadTail(path, liteBytes)
	if err != nil {
		return ""
	}
	for _, line := range completeLines(head, true, false) {
		if e, ok := reader.ParseLine(line); ok && e.SessionID != "" {
			return e.SessionID
		}
	}
	// The first line may be longer than the head: fall back to a scan.
	if m := sessionIDField.FindSubmatch(head); m != nil {
		return string(m[1])
	}
	return ""
}

// readHead8 is the head readHeadTail(path, 8 KiB) reads (none of its tail),
// read with one open and one read; false when the file is not plain JSONL
// (readHeadTail reads it then).
func readHead8(path string) ([]byte, bool) {
	fh, err := rawfile.Open(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.Regular {
		return nil, false
	}
	head := make([]byte, min(8<<10, st.Size))
	n, err := fh.ReadAt(head, 0)
	if err == io.EOF {
		clear(head[n:])
	} else if err != nil {
		return nil, false
	}
	if len(head) > 0 && !textStart(head[0]) {
		head2, _, err := readHeadTail(path, 8<<10)
		return head2, err == nil
	}
	return bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), true
}

// completeLines splits a chunk of a file into lines, dropping a line cut
// at the start (for a tail) or at the end (for a head).
func completeLines(b []byte, atFileStart, atFileEnd bool) [][]byte {
	return appendLines(nil, b, atFileStart, atFileEnd)
}

// appendLines is completeLines appending to out. The lines are found
// going forward: the last newline of a head cut in a long line, looked
// for backwards, was a byte at a time (bytes.LastIndexByte).
func appendLines(out [][]byte, b []byte, atFileStart, atFileEnd bool) [][]byte {
	if !atFileStart {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return out
		}
		b = b[i+1:]
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		var line []byte
		if i < 0 {
			if !atFileEnd {
				break // cut at the read's edge
			}
			line, b = b, nil
		} else {
			line, b = b[:i], b[i+1:]
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			out = append(out, line)
		}
	}
	return out
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// regularNoFollow reports whether p is a regular file, not a link to one.
func regularNoFollow(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode().IsRegular()
}

// maxAgentDepth bounds the folders walked under a session's subagents/
// (the archive walks as deep).
const maxAgentDepth = 16

// shortPath is a path for a warning, its middle cut when it is very
// long (a deep nest made an 8 KB line), at rune boundaries.
func shortPath(p string) string {
	if len(p) <= 300 {
		return p
	}
	a, b := 150, len(p)-150
	for a > 0 && !utf8.RuneStart(p[a]) {
		a--
	}
	for b < len(p) && !utf8.RuneStart(p[b]) {
		b++
	}
	return p[:a] + "…" + p[b:]
}
