package export

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// pathological are texts on which Markdown parsing is slowest, each at the
// largest size rendered as Markdown (or nested past tooComplex's bounds).
var pathological = map[string]string{
	"lt":            rep("<a "),
	"ticks":         rep("`a "),
	"shifting-code": rep("<a title=\"`\"> `<b>` "),
	"brackets":      rep(strings.Repeat("[", 30) + strings.Repeat("]", 30)),
	"emphasis":      rep("*a _b "),
	"links":         rep("[a](b "),
	"quotes":        rep(strings.Repeat("> ", 16) + "x\n"),
	"lists":         rep(strings.Repeat("- ", 16) + "x\n"),
	"table":         "|a|b|\n|-|-|\n" + rep("|x|y|\n"),
	"autolinks":     rep("www.a.b "),
	"deep-list":     strings.Repeat("- ", 20000) + "x", // tooComplex: plain text
	"deep-brackets": strings.Repeat("[", 20000),        // tooComplex: plain text
}

func rep(s string) string { return strings.Repeat(s, (maxMarkdown-100)/len(s)) }

func TestTooComplex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"plain text", false},
		{strings.Repeat("- ", 16) + "x", false},
		{strings.Repeat("- ", 17) + "x", true},
		{strings.Repeat("> ", 17) + "x", true},
		{strings.Repeat("1. ", 17) + "x", true},
		{strings.Repeat("[", 32) + strings.Repeat("]", 32), false},
		{strings.Repeat("[", 33), true},
		{strings.Repeat("[INFO] ok\n", 1000), false},
		{strings.Repeat("x", maxMarkdown+1), true},
	} {
		if got := tooComplex(tc.in); got != tc.want {
			t.Errorf("tooComplex(%.40q…) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// BenchmarkMarkdownPathological: each case well under a second (on the
// 2-core machine: 150 ms at most for the page, 75 ms for the .md).
func BenchmarkMarkdownPathological(b *testing.B) {
	for name, s := range pathological {
		b.Run(name+"/html", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				markdownHTML(s)
			}
		})
		b.Run(name+"/md", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				safeMarkdown(s)
			}
		})
	}
}

// BenchmarkExport exports a session of 2,000 tool calls with 64 KiB
// results; -benchmem shows the allocation per export, which follows the
// number of entries and the caps, not the results' size.
func BenchmarkExport(b *testing.B) {
	lines := []string{`{"type":"user","uuid":"u0","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"go"}}`}
	big := strings.Repeat("x", 64<<10)
	prev := "u0"
	for i := 1; i <= 2000; i++ {
		n := fmt.Sprintf("%04d", i)
		lines = append(lines,
			`{"type":"assistant","uuid":"a`+n+`","parentUuid":"`+prev+`","sessionId":"s","message":{"id":"m`+n+`","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Let me **read** it: `+"`f`"+`"},{"type":"tool_use","id":"t`+n+`","name":"Read","input":{"file_path":"/f"}}]}}`,
			`{"type":"user","uuid":"u`+n+`","parentUuid":"a`+n+`","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t`+n+`","content":"`+big+`"}]}}`)
		prev = "u" + n
	}
	dir := b.TempDir()
	doc, src := writeSessionIn(b, dir, lines...)
	for _, f := range []Format{HTML, Markdown} {
		b.Run(string(f), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Render(io.Discard, doc, src, Options{Format: f}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
