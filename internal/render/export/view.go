package export

import "html/template"

// The views: what the walker hands a writer (HTML or Markdown) for each
// part of the conversation. Every string in them that came from the
// transcript is clean (visible escapes for control characters) and
// redacted; the writer escapes it for its format.

type headerView struct {
	Title      string
	SessionID  string
	Project    string
	Path       string
	Branch     string
	Models     string
	Time       string // "2026-01-02 10:00 UTC → 11:30 (1h30m)"
	StartISO   string
	Prompts    int
	PromptsOn  string // " (7 on this branch)" when the page shows fewer ("": all)
	APICalls   int64
	Subagents  int
	Tokens     string // "1.2M"
	TokenParts string // "input 12 · output 3.4k · cache read 1.1M · cache write 50k"
	Cost       string
	Branches   string
	Redacted   bool
	Generator  string
	TOC        []tocEntry
}

type tocEntry struct {
	ID   string
	N    int
	Text string
	Time string
}

type promptView struct {
	ID      string // anchor of a numbered prompt ("p3"); "" otherwise
	N       int
	Depth   int
	Label   string // "Prompt 3", "prompt" (in a subagent), "user (meta)"; " · queued" after it for a queued input
	Time    string
	TimeISO string
	Command string   // a slash command or a ! shell command, as typed
	Context []string // what Claude Code or an IDE added to the prompt
	Text    string
	Cut     string
	Images  []*imageView
}

type noteView struct {
	Depth  int
	Kind   string // "interrupt" or "output"
	Text   string
	Cut    string
	Output bool // Text is command output (a block), not a one-line note
}

type assistantView struct {
	Depth   int
	Time    string
	TimeISO string
	Model   string
	Usage   string
	Warn    bool // an API error or a client-side placeholder
}

type textView struct {
	Text string // the Markdown as written
	Cut  string
}

type thinkingView struct {
	Text     string
	Cut      string
	Chars    string
	Redacted bool // redacted_thinking: the API sent no text
}

type diffLine struct {
	Class string // "add", "del" or "ctx"
	Text  string // with its "+ " / "- " / "  " mark
}

type todoView struct {
	Mark   string
	Status string
	Text   string
}

type toolView struct {
	Depth    int
	Name     string
	Summary  string
	Kind     string // "code", "text", "diff", "todos", "json" or ""
	Lang     string // a fence language for Markdown ("bash", "diff", "json")
	Input    string
	InputCut string
	Diff     []diffLine
	Todos    []todoView
	Status   string // "error", "ok" or "none" (no result recorded)
	Lines    int    // lines of the result
	Orphan   bool   // a result whose call is not shown
}

type resultView struct {
	Text   string
	Cut    string
	Error  bool
	Lines  int
	Images []*imageView
	Extra  []string // text blocks of the result's line beside the result
}

type imageView struct {
	Kind      string // "image" or "document"
	MediaType string
	Data      string       // base64, "" when not embedded
	URL       template.URL // the data: URL of Data (a checked type, checked base64)
	Size      string
	Note      string // why it is not embedded
}

type agentView struct {
	Depth       int
	ID          string
	Type        string
	Description string
	ToolUses    int
	APICalls    int64
	Tokens      string
}

type compactionView struct {
	Depth int
	Label string
}

type summaryView struct {
	Depth int
	Text  string
	Cut   string
	Chars string
}

// sink writes the views in one format. Writes are buffered; err reports
// the first write error.
type sink interface {
	begin(h *headerView)
	prompt(p *promptView)
	note(n *noteView)
	openAssistant(a *assistantView)
	closeAssistant()
	text(t *textView)
	thinking(t *thinkingView)
	openTool(t *toolView)
	result(r *resultView)
	closeTool()
	openAgent(a *agentView)
	closeAgent()
	agentLink(a *agentView)
	compaction(c *compactionView)
	summary(s *summaryView)
	image(i *imageView)
	block(typ string)
	end(empty bool)
	err() error
}
