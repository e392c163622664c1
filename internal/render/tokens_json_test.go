package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/session"
	"github.com/cctx-dev/cctx/internal/termsafe"
	"github.com/cctx-dev/cctx/internal/testcorpus"
	"github.com/cctx-dev/cctx/internal/tokens"
)

// plainTokensJSON is TokensJSON without its streamJSON: what encoding/json
// makes of it.
type plainTokensJSON TokensJSON

// The plain report, written by hand, is what encoding/json writes, byte
// for byte, compact and indented; a report with more in it is written by
// encoding/json.
func TestTokensJSONByHand(t *testing.T) {
	odd := "a\x00\x1f\"\\<>&\u2028\u2029\xff\xe2\x80 é 😀\b\f\n\r\t\x7f\u202e\u009b\x1b[31m"
	f := session.NewFinder([]session.Root{{ProjectsDir: testcorpus.Samples()}}, nil)
	inputs, err := tokens.Inputs(f, tokens.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	rep := tokens.BuildTotals(inputs, tokens.DefaultPrices(), tokens.Window{}, tokens.ReadOptions{})
	sample := NewTokensJSON(rep, "", false)
	if len(sample.Sessions) < 3 {
		t.Fatalf("%d sessions", len(sample.Sessions))
	}
	crafted := sample
	crafted.Pricing = PricingJSON{Date: odd, UnpricedModels: []string{odd, ""}, EstimatedModels: []EstimatedModelJSON{{odd, "x"}}}
	crafted.GroupBy = odd
	crafted.Sessions = []SessionTokens{
		{SessionID: odd, Project: odd, Path: odd, StartedAt: odd, Total: &rep.Total, Agents: []AgentJSON{{odd, &rep.Total}, {odd, nil}}, Models: []ModelJSON{{odd, &rep.Total}},
			MissingAgentTranscripts: []string{odd, ""}},
		{Agents: nil, Models: []ModelJSON{}, MissingAgentTranscripts: nil},
		{MissingAgentTranscripts: []string{}},
	}
	empty := TokensJSON{}
	many := sample
	many.Sessions = nil
	for len(many.Sessions) < 3000 {
		many.Sessions = append(many.Sessions, sample.Sessions...)
	}
	withGroups := sample
	withGroups.Groups = []GroupJSON{{Key: "k", Total: rep.Total}}
	tests := []struct {
		name   string
		doc    TokensJSON
		byHand bool
	}{
		{"the samples", sample, true},
		{"odd strings, nil and empty lists", crafted, true},
		{"empty", empty, true},
		{"many sessions: written in pieces", many, true},
		{"with groups", withGroups, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pieces := 0
			if ok, _ := tt.doc.streamJSON(func([]byte) error { pieces++; return nil }); ok != tt.byHand {
				t.Errorf("by hand: %v, want %v", ok, tt.byHand)
			}
			if want := len(tt.doc.Sessions) > 1000; tt.byHand && (pieces > 1) != want {
				t.Errorf("%d pieces", pieces)
			}
			for _, tty := range []bool{false, true} {
				var got, want bytes.Buffer
				if err := JSON(&got, tt.doc, Options{TTY: tty}); err != nil {
					t.Fatal(err)
				}
				if err := JSON(&want, plainTokensJSON(tt.doc), Options{TTY: tty}); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("tty %v:\n%.3000s\nwant\n%.3000s", tty, got.String(), want.String())
				}
				if !json.Valid(got.Bytes()) {
					t.Error("not valid JSON")
				}
			}
		})
	}
}

// appendJSONString quotes as encoding/json does (without HTML escapes),
// then as termsafe.JSON leaves it, whatever stands where in a string: its
// plain-text skip stops at each byte it must look at.
func TestAppendJSONStringAsEncodingJSON(t *testing.T) {
	pad := "/home/dev/.claude/projects/x-y_z"
	for _, x := range []string{"\"", "\\", "\x00", "\x1f", "\n", "\x7f", "é", "\xff", "\xff\xfe", "\u2028", "\u2029", "\xe2\x80", "😀", "<&>", "\u009b", "\u202e", "\x1b[31m"} {
		for left := range 20 {
			for _, right := range []int{0, 1, 8, 9} {
				s := pad[:left] + x + pad[:right]
				if got, want := string(appendJSONString(nil, s)), quoteSafe(s); got != want {
					t.Fatalf("%q: %s, want %s", s, got, want)
				}
			}
		}
	}
}

// quoteSafe is what encoding/json and termsafe.JSON make of s.
func quoteSafe(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(string(termsafe.JSON(buf.Bytes())), "\n")
}

func FuzzAppendJSONString(f *testing.F) {
	f.Add("/home/dev/src/api3")
	f.Add("a\x00\x1f\"\\<>&\u2028\u2029\xff\xe2\x80 é 😀\b\f\n\r\t\x7f\u009b\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendJSONString([]byte("x"), s)), "x"+quoteSafe(s); got != want {
			t.Fatalf("%q: %s, want %s", s, got, want)
		}
	})
}
