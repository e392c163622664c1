package reader

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// envelope is the fields ParseEnvelopeOnly reads.
type envelope struct {
	Type, Subtype, UUID, ParentUUID, LogicalParentUUID, SessionID, AgentID, CWD, GitBranch, Version, RequestID string
	Timestamp                                                                                                  time.Time
	Sidechain, Meta, CompactSummary                                                                            bool
	Size                                                                                                       int
}

func envelopeFields(e Entry) envelope {
	return envelope{Type: e.Type, Subtype: e.Subtype, UUID: e.UUID, ParentUUID: e.ParentUUID, LogicalParentUUID: e.LogicalParentUUID,
		SessionID: e.SessionID, AgentID: e.AgentID, CWD: e.CWD, GitBranch: e.GitBranch, Version: e.Version,
		RequestID: e.RequestID, Timestamp: e.Timestamp, Sidechain: e.Sidechain, Meta: e.Meta,
		CompactSummary: e.CompactSummary, Size: e.Size}
}

// ParseEnvelopeOnly takes the same lines as ParseLine (well-formed or
// not) and reads the same envelope from them, on every line of the
// repository's transcripts and on those lines cut short or with a byte
// changed.
func TestParseEnvelopeOnlyIsParseLinesEnvelope(t *testing.T) {
	lines := testdataLines(t)
	r := rand.New(rand.NewPCG(7, 8))
	n := len(lines)
	for i := range n {
		l := lines[i]
		if len(l) < 2 {
			continue
		}
		cut := bytes.Clone(l[:r.IntN(len(l))])
		flip := bytes.Clone(l)
		const odd = "{}[]\",:\\x0 \x00"
		flip[r.IntN(len(flip))] = odd[r.IntN(len(odd))]
		lines = append(lines, cut, flip)
	}
	bad := 0
	for _, l := range lines {
		full, fok := ParseLine(l)
		env, eok := ParseEnvelopeOnly(l)
		if !fok {
			bad++
		}
		if fok != eok || envelopeFields(full) != envelopeFields(env) {
			t.Fatalf("line %.200q:\nParseLine         %v %+v\nParseEnvelopeOnly %v %+v", l, fok, envelopeFields(full), eok, envelopeFields(env))
		}
	}
	if bad == 0 || bad == len(lines) {
		t.Fatalf("%d of %d lines malformed: the test shows nothing", bad, len(lines))
	}
}

// testdataLines is every line of the repository's transcripts (at least
// a thousand), for tests that compare two readings of real lines.
func testdataLines(t *testing.T) [][]byte {
	t.Helper()
	var lines [][]byte
	filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		return nil
	})
	if len(lines) < 1000 {
		t.Fatalf("only %d lines found under testdata", len(lines))
	}
	return lines
}
