package show

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/redact"
	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/tokens"
	"github.com/cctx-dev/cctx/internal/tree"
)

// New is Build with the session's usage: counted() when the tree was
// counted as it was opened (tokens.CountWhileOpening), or counted from
// the tree (tokens.CountTree) on the other core while the
// entries to show are picked, so a large session prints its first line
// sooner. With a redactor, every line src reads is redacted, and so are
// the header's path and project: nothing shown escapes it.
func New(t *tree.Tree, src *tree.Source, prices *tokens.Prices, o Options, red *redact.Redactor, counted func() tokens.TreeUsage) (*Doc, error) {
	if red != nil {
		src.Redact = red.Bytes
	}
	var usage tokens.TreeUsage
	done := make(chan struct{})
	go func() {
		defer close(done)
		if counted != nil {
			usage = counted()
		} else {
			usage = tokens.CountTree(t, "", "", prices)
		}
	}()
	defer func() { <-done }()
	report := func() Report {
		<-done
		return Report{Total: usage.Total, Responses: usage.All(), Models: usage.Models}
	}
	doc, err := Build(t, report, prices, src, o)
	if err != nil {
		return nil, err
	}
	if o.Agents && o.Warn != nil && t.Main != nil && t.Main.Path == session.StdinPath {
		for _, c := range t.Calls {
			if c.Agent == nil && c.ResultAgentID != "" && c.Result != nil {
				o.Warn("%s:%d: --agents: agent %s is not shown: its transcript is not read from standard input (name the session, not -, to show it)",
					t.Main.Name, c.Result.Line, c.ResultAgentID)
			}
		}
	}
	if red != nil {
		doc.Header.Path = red.String(doc.Header.Path)
		doc.Header.Project = red.String(doc.Header.Project)
		doc.Header.Branch = red.String(doc.Header.Branch) // a branch may be named by an email
		doc.redact = red.String
	}
	return doc, nil
}

// ErrNoText is the error of Final when the last response has no text.
var ErrNoText = errors.New("no text")

// Final prints the text of the session's last real API response (every
// text block of its lines, tree.FinalResponse), ending in a newline. Its
// lines end in \n alone (a CRLF is not content); w is stdout's guard,
// which shows any other control character as an escape.
func Final(w io.Writer, t *tree.Tree, leaf *tree.Node, src *tree.Source) error {
	nodes := t.FinalResponse(leaf)
	if len(nodes) == 0 {
		return errors.New("no API response in this session")
	}
	var texts []string
	for _, n := range nodes {
		raw, err := src.Line(n)
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
		return fmt.Errorf("the last API response (%s) has no text: it ended with a tool call or thinking", nodes[len(nodes)-1].Short())
	}
	text := strings.Join(texts, "\n\n")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, err := io.WriteString(w, text)
	return err
}
