package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/cctx-dev/cctx/internal/follow"
	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/render"
	"github.com/cctx-dev/cctx/internal/render/show"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// ShowOptions are the flags of cctx show.
type ShowOptions struct {
	F       *Factory
	Session string

	Final        bool
	Tail         int
	Grep         string
	Leaf         string
	SinceCompact bool
	leafSet      bool // --leaf was given (even empty)
	All          bool
	Thinking     bool
	Full         bool
	Agents       bool
	Raw          bool
	NoPager      bool
	Redact       bool
	Follow       bool

	// Context ends --follow; nil: Ctrl-C does. PollInterval is --follow's
	// polling period (tests shorten it).
	Context      context.Context
	PollInterval time.Duration
}

// NewCmdShow builds `cctx show`.
func NewCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	o := &ShowOptions{F: f}
	c := &cobra.Command{
		Use:   "show <session>",
		Short: "Read a session's conversation: prompts, replies, tool calls with their results",
		Long: `Show the conversation a session ends on (its active path), across compactions.

Streaming lines of one API response are shown as one message, with the
response's usage (counted once, as cctx tokens counts it). Tool calls are
shown with a one-line summary and their result beneath (a few lines unless
--full), Edit calls as a diff, errors in red, images as placeholders.
Thinking is hidden (with its length) unless --thinking; meta, hook, system,
attachment and progress lines unless --all. A compaction is a divider with
the summary collapsed. Subagents are a one-line link under their call, or
with --agents their whole conversation indented under it.

On a terminal the output goes through a pager (CCTX_PAGER, PAGER, else
less -FRX; --no-pager turns it off). Control characters and escape
sequences from the transcript are shown visibly, never sent raw.

--json prints {"schema_version","session","messages"} with every message's
content blocks, deduplicated usage and the original entry (raw); --raw
prints the original JSONL lines of the shown entries, byte for byte. Both
honour --tail, --grep, --leaf, --since-compact, --all and --agents.`,
		Example: `  cctx show latest
  cctx show 3f2a --tail 3 --thinking
  cctx show 3f2a --grep 'migration' --full
  cctx show 3f2a --final                 # the last reply's text, for scripts
  cctx show 3f2a --json | jq '.messages[] | select(.type=="assistant") | .usage'
  cctx show 3f2a --raw --since-compact > context.jsonl
  cctx show latest -f                    # follow a running session`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Session = args[0]
			o.leafSet = c.Flags().Changed("leaf")
			if runF != nil {
				return runF(o)
			}
			return showRun(o)
		},
	}
	fl := c.Flags()
	fl.BoolVar(&o.Final, "final", false, "print only the text of the last real API response")
	fl.IntVar(&o.Tail, "tail", 0, "show only the last `N` turns (a turn starts at a prompt or a compaction; 0: all)")
	fl.StringVar(&o.Grep, "grep", "", "show only turns whose text matches `REGEXP` (case-insensitive unless it has capitals)")
	fl.StringVar(&o.Leaf, "leaf", "", "show the branch ending at `UUID` (or a unique prefix) instead of the active one")
	fl.BoolVar(&o.SinceCompact, "since-compact", false, "show only what follows the last compaction")
	fl.BoolVar(&o.All, "all", false, "also show meta, hook, system, attachment and progress lines")
	fl.BoolVar(&o.Thinking, "thinking", false, "show thinking text")
	fl.BoolVar(&o.Full, "full", false, "show whole tool results, diffs and compaction summaries")
	fl.BoolVar(&o.Agents, "agents", false, "show subagent conversations inline under their call")
	fl.BoolVar(&o.Raw, "raw", false, "print the original JSONL lines of the shown entries")
	fl.BoolVar(&o.NoPager, "no-pager", false, "do not use a pager")
	fl.BoolVar(&o.Redact, "redact", false, "mask API keys, tokens, private keys and your home path")
	fl.BoolVarP(&o.Follow, "follow", "f", false, "keep printing as the session grows (Ctrl-C stops)")
	return c
}

func (o *ShowOptions) validate() error {
	j := o.F.Globals.JSON
	switch {
	case o.Final && (j || o.Raw || o.Follow):
		return usageErrorf("--final prints text only: it cannot be combined with --json, --raw or --follow")
	case j && o.Raw:
		return usageErrorf("--json and --raw are two different outputs: choose one")
	case o.Follow && j:
		return usageErrorf("--follow cannot print one JSON document; use --raw --follow for a stream of JSONL lines")
	case o.Follow && o.Session == session.StdinPath:
		return usageErrorf("--follow needs a file: standard input cannot grow")
	case o.Final && (o.Grep != "" || o.Tail > 0 || o.SinceCompact):
		return usageErrorf("--final prints the last reply only: --grep, --tail and --since-compact do not apply to it")
	case o.Tail < 0:
		return usageErrorf("--tail must be 0 or more, not %d", o.Tail)
	case o.leafSet && o.Leaf == "":
		return usageErrorf("--leaf needs a uuid or a prefix of one (cctx tree lists the leaves)")
	}
	return nil
}

// grepPattern compiles --grep: case-insensitive unless the pattern has a
// capital letter (smart case, as in less and ripgrep).
func grepPattern(p string) (*regexp.Regexp, error) {
	if p == "" {
		return nil, nil
	}
	expr := p
	if !hasCapital(p) {
		expr = "(?i)" + p
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		// The error quotes the compiled expression: quote the user's.
		shown := "`" + p + "`" // as typed: %q would double its backslashes
		if strings.ContainsAny(p, "`") || !utf8.ValidString(p) || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
			shown = strconv.Quote(p) // escapes control characters too
		}
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, usageErrorf("--grep %s: %s (a regular expression; escape ( [ * + ? with \\)", shown, se.Code)
		}
		return nil, usageErrorf("--grep %s: %v", shown, err)
	}
	return re, nil
}

// hasCapital reports whether a regular expression has a capital letter
// that it matches: the letters of escapes (\S, \W, \B, \PL, \p{Greek},
// \x{1F600}) and of group names ((?P<Name>...)) do not count, the letters
// of a quoted run (\Q...\E) do.
func hasCapital(p string) bool {
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRuneInString(p[i:])
		switch {
		case r == '\\' && i+1 < len(p):
			rest := p[i+2:]
			switch p[i+1] {
			case 'Q': // a quoted run: its letters are matched as they are
				quoted, after, found := strings.Cut(rest, `\E`)
				if strings.ContainsFunc(quoted, unicode.IsUpper) {
					return true
				}
				if !found {
					return false
				}
				i = len(p) - len(after)
				continue
			case 'p', 'P', 'x':
				if strings.HasPrefix(rest, "{") {
					end := strings.IndexByte(rest, '}')
					if end < 0 {
						return false // unterminated: the pattern does not compile
					}
					i += 2 + end + 1
					continue
				}
				n := 1 // a one-letter class: \pL
				if p[i+1] == 'x' {
					n = 2 // two hex digits: \x4A
				}
				i += 2 + min(n, len(rest))
				continue
			}
			_, esize := utf8.DecodeRuneInString(p[i+1:])
			i += 1 + esize
			continue
		case r == '(' && (strings.HasPrefix(p[i:], "(?P<") || strings.HasPrefix(p[i:], "(?<")):
			end := strings.IndexByte(p[i:], '>')
			if end < 0 {
				return false
			}
			i += end + 1
			continue
		case unicode.IsUpper(r):
			return true
		}
		i += size
	}
	return false
}

// loaded is a session read for show.
type loaded struct {
	sess    *session.Session
	tree    *tree.Tree
	src     *show.Source
	tokPath string // the path the token counter reads the main file at
	cleanup func()
}

// load builds the tree. Standard input is copied to a temporary file while
// the tree reads it: the tree keeps envelopes only, and show re-reads
// content by offset, which a pipe cannot do.
func (o *ShowOptions) load(finder *session.Finder, s *session.Session) (*loaded, error) {
	f := o.F
	l := &loaded{sess: s, src: &show.Source{}, tokPath: s.Path, cleanup: func() {}}
	if s.Path != session.StdinPath {
		if o.Follow {
			f.Report().Following() // the last line, if cut, is followed to its end
		}
		t, err := tree.Load(finder, s, f.Report())
		if err != nil {
			return nil, err
		}
		l.tree = t
		return l, nil
	}
	tmp, err := os.CreateTemp("", "cctx-stdin-*.jsonl")
	if err != nil {
		return nil, err
	}
	l.cleanup = func() { tmp.Close(); os.Remove(tmp.Name()) }
	t, err := tree.Read(io.TeeReader(f.IO.In, tmp), "<stdin>", f.Report())
	if err != nil {
		l.cleanup()
		return nil, err
	}
	l.tree = t
	l.tokPath = tmp.Name()
	l.src.Paths = map[*tree.File]string{t.Main: tmp.Name()}
	return l, nil
}

// count totals the session's usage exactly as cctx tokens does for one
// session (the same dedup rule, files in the same order, responses in time
// order), so the header's totals equal its report. It feeds the counter the
// envelopes the tree already holds (its nodes and the lines it dropped)
// instead of reading every file a second time.
func (l *loaded) count(prices *tokens.Prices) (tokens.Total, []tokens.Response) {
	t := l.tree
	id := l.sess.ID
	if l.sess.Path == session.StdinPath {
		id = t.SessionID
	}
	c := tokens.NewCounter()
	n := 0 // at most one response an assistant line
	for _, nd := range t.Nodes {
		if nd.Type == "assistant" {
			n++
		}
	}
	for _, fl := range t.Files {
		n += len(fl.Dropped)
	}
	c.Grow(n)
	var cur *tree.File
	var cf *tokens.File
	t.Entries(func(fl *tree.File, e *reader.Entry) {
		if fl != cur {
			src := tokens.Source{SessionID: id, Path: fl.Path}
			if fl == t.Main {
				src.Path = l.tokPath
			}
			if fl.Agent != nil {
				src.AgentID = fl.Agent.ID
			}
			cur, cf = fl, c.File(src)
		}
		cf.Add(e)
	})
	rs := c.Responses()
	// cctx tokens lists a session's responses as a timeline.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Time.Before(rs[j].Time) })
	return tokens.Sum(rs, prices), rs
}

func showRun(o *ShowOptions) error {
	f := o.F
	if err := o.validate(); err != nil {
		return err
	}
	re, err := grepPattern(o.Grep)
	if err != nil {
		return err
	}
	finder, err := f.Finder()
	if err != nil {
		return err
	}
	s, err := finder.Resolve(o.Session)
	if err != nil {
		return err
	}
	l, err := o.load(finder, s)
	if err != nil {
		return err
	}
	if o.Follow {
		// A cut last line held back for following is reported if show ends
		// before it follows (the pager closed, an error); after following,
		// this finds nothing left.
		defer f.Report().FollowEnded(false, nil)
	}
	defer l.cleanup()
	defer l.src.Close()
	t := l.tree

	var red *redact.Redactor
	if o.Redact {
		red = redact.New(f.Env.Home)
		l.src.Redact = red.Bytes
	}
	leaf, err := findLeaf(t, o.Leaf)
	if err != nil {
		return err
	}
	if o.Final {
		return showFinal(o, l, leaf)
	}

	prices := tokens.DefaultPrices()
	// The usage is counted on the other core while the entries to show are
	// picked: a large session prints its first line sooner.
	var total tokens.Total
	var responses []tokens.Response
	counted := make(chan struct{})
	go func() {
		defer close(counted)
		total, responses = l.count(prices)
	}()
	defer func() { <-counted }()
	tokPath := l.tokPath
	report := func() show.Report {
		<-counted
		return show.Report{
			Total: total, Responses: responses, Models: show.ModelsByTokens(responses),
			FileKey: func(fl *tree.File) string {
				if fl == t.Main {
					return tokPath
				}
				return fl.Path
			},
		}
	}
	doc, err := show.Build(t, report, prices, l.src, show.Options{
		Leaf: leaf, SinceCompact: o.SinceCompact, All: o.All, Agents: o.Agents, Tail: o.Tail, Grep: re,
	})
	if err != nil {
		return err
	}
	if doc.Header.SessionID == "" {
		doc.Header.SessionID = s.ID // a main file without entries still names its session
	}
	if doc.NoCompaction {
		fmt.Fprintln(f.IO.ErrOut, "cctx: no compaction on this branch: --since-compact shows all of it")
	}
	if s.Path == session.StdinPath {
		doc.Header.Path = session.StdinPath
	}
	if red != nil {
		doc.Header.Path = red.String(doc.Header.Path)
		doc.Header.Project = red.String(doc.Header.Project)
	}

	ro := f.Render()
	out, done := o.output(ro.TTY)
	err = o.render(out, doc, l, ro)
	if ferr := done(); err == nil {
		err = ferr
	}
	if isClosedPipe(err) {
		return nil // the pager was closed: not an error
	}
	if err != nil {
		return err
	}
	if o.Follow {
		if err := o.follow(out, doc, l, ro, finder); err != nil {
			return err
		}
	}
	return unreadableFiles(f)
}

// render prints doc in the chosen format.
func (o *ShowOptions) render(w io.Writer, doc *show.Doc, l *loaded, ro render.Options) error {
	f := o.F
	switch {
	case f.Globals.JSON || o.Raw:
		if ro.TTY {
			sw := &show.SafeWriter{W: w}
			defer sw.Flush()
			w = sw
		}
		if o.Raw {
			return show.RenderRaw(w, doc, l.src)
		}
		return show.RenderJSON(w, doc, l.src, ro.TTY)
	}
	return show.RenderTerminal(w, doc, l.src, o.termOptions(ro))
}

func (o *ShowOptions) termOptions(ro render.Options) show.TermOptions {
	to := show.TermOptions{Theme: ro.Theme, Thinking: o.Thinking, Full: o.Full}
	if ro.TTY {
		to.Width = ro.Width
	}
	return to
}

// findLeaf resolves --leaf: a uuid or a unique prefix of one, in the main
// transcript.
func findLeaf(t *tree.Tree, arg string) (*tree.Node, error) {
	if arg == "" {
		return nil, nil
	}
	if n := t.Node(arg); n != nil {
		return n, nil
	}
	var matches []*tree.Node
	for _, n := range t.Nodes {
		if n.Agent != nil || !strings.HasPrefix(n.UUID, strings.ToLower(arg)) {
			continue
		}
		if len(matches) == 0 || matches[len(matches)-1] != n {
			matches = append(matches, n)
		}
	}
	if len(matches) > 1 {
		var ids []string
		for _, n := range matches[:min(len(matches), 8)] {
			ids = append(ids, n.UUID)
		}
		more := ""
		if len(matches) > 8 {
			more = fmt.Sprintf(", and %d more", len(matches)-8)
		}
		return nil, usageErrorf("--leaf %s: ambiguous prefix, %d entries match: %s%s", arg, len(matches), strings.Join(ids, ", "), more)
	}
	var match *tree.Node
	if len(matches) == 1 {
		match = matches[0]
	}
	if match == nil {
		var ls []string
		for _, lf := range t.Leaves() {
			ls = append(ls, lf.Short())
		}
		return nil, usageErrorf("--leaf %s: no entry with that uuid in the session (its leaves: %s; cctx tree shows the branches)", arg, strings.Join(ls, ", "))
	}
	return match, nil
}

// showFinal prints the text of the last real API response on the path:
// every text block of it, without client-side placeholders.
func showFinal(o *ShowOptions, l *loaded, leaf *tree.Node) error {
	f := o.F
	t := l.tree
	path := t.ActivePath()
	if leaf != nil {
		path = t.PathTo(leaf)
	}
	var last *tree.Node
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.Type == "assistant" && n.Agent == nil && !n.Synthetic() && !n.APIError {
			last = n
			break
		}
	}
	if last == nil {
		return errors.New("no API response in this session")
	}
	var texts []string
	for _, n := range path {
		if n != last && (n.Type != "assistant" || n.Agent != nil || n.MessageID == "" || n.MessageID != last.MessageID) {
			continue
		}
		raw, err := l.src.Line(n)
		if err != nil {
			return err
		}
		for _, b := range reader.Blocks(raw) {
			if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
				texts = append(texts, b.Text)
			}
		}
	}
	if len(texts) == 0 {
		return fmt.Errorf("the last API response (%s) has no text: it ended with a tool call or thinking", last.Short())
	}
	text := strings.Join(texts, "\n\n")
	if f.IO.IsStdoutTTY() {
		// On a terminal nothing from the transcript is sent raw.
		ls := strings.Split(text, "\n")
		for i, s := range ls {
			ls[i] = render.Safe(strings.TrimSuffix(s, "\r"))
		}
		text = strings.Join(ls, "\n")
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, err := io.WriteString(f.IO.Out, text)
	return err
}

// output returns where to write: a pager on a terminal (unless --no-pager
// or --follow), else stdout. done waits for the pager.
func (o *ShowOptions) output(tty bool) (io.Writer, func() error) {
	f := o.F
	direct := func() error { return nil }
	if !tty || o.NoPager || o.Follow {
		return f.IO.Out, direct
	}
	cmdline := f.Env.Getenv("CCTX_PAGER")
	if cmdline == "" {
		cmdline = f.Env.Getenv("PAGER")
	}
	if cmdline == "" {
		// The default pager only for the real terminal: tests and embedders
		// that hand in their own writer get their output directly.
		if fh, ok := f.IO.Out.(*os.File); !ok || fh != os.Stdout {
			return f.IO.Out, direct
		}
		cmdline = "less -FRX"
	}
	if strings.TrimSpace(cmdline) == "cat" || strings.TrimSpace(cmdline) == "" {
		return f.IO.Out, direct
	}
	// A pager that is not installed would take the output with it (sh
	// only says "not found"): then print directly. Only a plain program
	// name or path is looked up; anything the shell must expand first
	// (variables, quotes, an assignment, exec …) is left to the shell.
	if first := strings.Fields(cmdline)[0]; plainWord(first) {
		if _, err := exec.LookPath(first); err != nil {
			f.Report().Warn("pager %q not found; printing directly", first)
			return f.IO.Out, direct
		}
	}
	pc := exec.Command("sh", "-c", cmdline)
	pc.Stdout = f.IO.Out
	pc.Stderr = f.IO.ErrOut
	pc.Env = os.Environ()
	if f.Env.Getenv("LESS") == "" {
		pc.Env = append(pc.Env, "LESS=FRX")
	}
	if f.Env.Getenv("LV") == "" {
		pc.Env = append(pc.Env, "LV=-c")
	}
	in, err := pc.StdinPipe()
	if err != nil {
		return f.IO.Out, direct
	}
	if err := pc.Start(); err != nil {
		f.Report().Warn("pager %q did not start (%v); printing directly", cmdline, err)
		return f.IO.Out, direct
	}
	// Ctrl-C belongs to the pager while it runs (less uses it to stop a
	// search); cctx waits for it to exit.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	return in, func() error {
		in.Close()
		err := pc.Wait()
		signal.Stop(sig)
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil // the pager's own exit status is not ours
		}
		return err
	}
}

// plainWord reports whether a shell word is a program name or path as it
// is, not one the shell expands or a builtin that runs another.
func plainWord(w string) bool {
	switch w {
	case "exec", "command", "builtin", "eval", "env", "nice", "nohup", "time":
		return false
	}
	return !strings.ContainsAny(w, "$`'\"\\~*?=[{(")
}

// isClosedPipe reports a write to a pager (or pipe) that was closed.
func isClosedPipe(err error) bool {
	return err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, io.ErrClosedPipe))
}

// follow keeps printing the lines appended to the session's files (and to
// subagent files that appear) until Ctrl-C. It starts right after the last
// entry each file's tree read, so nothing is shown twice or skipped; a
// half-written last line is waited for.
func (o *ShowOptions) follow(w io.Writer, doc *show.Doc, l *loaded, ro render.Options, finder *session.Finder) error {
	f := o.F
	ctx := o.Context
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	t := l.tree
	seen := map[string]bool{}
	for _, it := range doc.Items {
		seen[it.Node.UUID] = true
	}
	// Each file is followed from past its last line the tree read whole:
	// a line still being written then is read once it ends, and nothing
	// read is read again.
	fw := &follow.Follower{Interval: o.PollInterval,
		OnError: f.Report().FileError, OnReset: f.Report().Note}
	fw.Add(follow.File{Path: t.Main.Path, Offset: t.Main.Done, Line: t.Main.DoneLines})
	// The agent files the tree read, and only those: a second transcript
	// of the same agent (the tree reads one) would be replayed from its
	// start.
	read := map[string]string{} // agent id → the file read
	for _, a := range t.Agents {
		if a.Inline || a.File == nil {
			continue
		}
		read[a.ID] = a.File.Path
		fw.Add(follow.File{Path: a.File.Path, Offset: a.File.Done, Line: a.File.DoneLines, Tag: a.ID})
	}
	// An agent whose file could not be read was reported then; its other
	// copies, if any, are not followed either (they would replay it).
	failed := map[string]bool{}
	for _, p := range t.Unreadable {
		failed[p] = true
	}
	failedID := map[string]bool{}
	for _, a := range finder.Agents(l.sess) {
		if failed[a.Path] {
			failedID[a.ID] = true
		}
	}
	fw.Discover = func() []follow.File {
		var out []follow.File
		for _, a := range finder.Agents(l.sess) {
			if p, ok := read[a.ID]; ok && p != a.Path || failedID[a.ID] {
				continue
			}
			out = append(out, follow.File{Path: a.Path, Tag: a.ID})
		}
		return out
	}
	var term *show.Terminal
	if !o.Raw {
		term = show.NewTerminal(w, nil, o.termOptions(ro))
	}
	lastTag := ""
	// What is wrong with a followed line is said as the reader says it;
	// following starts past what the tree read, so nothing is said twice.
	fw.OnLong = func(path string, line int, size int64) {
		f.Report().Line(reader.Issue{File: path, Line: line, Kind: reader.TooLong, Size: int(min(size, math.MaxInt32)), Limit: follow.LineLimit})
	}
	err := fw.Run(ctx, func(fl follow.Line) error {
		tag, line := fl.Tag, fl.Text
		if cut, rest := reader.SplitCrashResidue(line); cut > 0 && (len(rest) == 0 || rest[0] == '{') {
			f.Report().Line(reader.Issue{File: fl.Path, Line: fl.N, Kind: reader.CrashResidue, Size: cut}) // the line after it is read
			if line = rest; len(line) == 0 {
				return nil
			}
		}
		e, ok := reader.ParseLine(line)
		if !ok {
			// Also the line a crash cut, with the next one appended to it.
			f.Report().Line(reader.Issue{File: fl.Path, Line: fl.N, Kind: reader.Malformed, Size: len(line)})
			return nil
		}
		if e.UUID == "" || seen[e.UUID] {
			return nil
		}
		seen[e.UUID] = true
		if !followVisible(&e, o.All) {
			return nil
		}
		if l.src.Redact != nil {
			line = l.src.Redact(line)
		}
		if o.Raw {
			_, err := w.Write(append(line, '\n'))
			return err
		}
		depth := 0
		if tag != "" {
			depth = 1
			if tag != lastTag {
				fmt.Fprintf(w, "%s\n", ro.Theme.Cyan("↳ agent "+render.Safe(tag)))
			}
		}
		lastTag = tag
		forID := ""
		if fa := reader.ExtractTreeFacts(line); len(fa.ToolResults) > 0 {
			forID = fa.ToolResults[0]
		}
		term.Item(e, nil, line, depth, forID)
		return term.Flush()
	})
	// A last line still cut when following ends was cut for good.
	var tails []reader.Issue
	for _, tl := range fw.Tails() {
		tails = append(tails, reader.Issue{File: tl.Path, Line: tl.Line, Kind: reader.TruncatedTail, Size: int(min(tl.Size, math.MaxInt32))})
	}
	f.Report().FollowEnded(true, tails)
	if isClosedPipe(err) {
		return nil
	}
	return err
}

// followVisible applies show's visibility rule to a followed line.
func followVisible(e *reader.Entry, all bool) bool {
	if all {
		return true
	}
	switch e.Type {
	case "user":
		return !e.Meta || e.Content&reader.HasToolResult != 0
	case "assistant":
		return true
	case "system":
		return e.Subtype == "compact_boundary"
	}
	return false
}
