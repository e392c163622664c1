package show

import (
	"strings"
	"testing"

	"github.com/cctx-dev/cctx/internal/reader"
	"github.com/cctx-dev/cctx/internal/render"
)

func TestClean(t *testing.T) {
	cases := map[string]string{
		"a\tb":            "a   b",
		"crlf\r":          "crlf",
		"\x1b[31mred":     `\x1b[31mred`,
		"bell\a":          `bell\x07`,
		"c1 \u009b2J":     `c1 \x9b2J`,
		"ok — ünïcode 日本": "ok — ünïcode 日本",
	}
	for in, want := range cases {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrapText("the quick brown fox jumps over the lazy dog", 10)
	want := []string{"the quick", "brown fox", "jumps over", "the lazy", "dog"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q", got)
	}
	long := wrapText(strings.Repeat("x", 25), 10)
	if len(long) != 3 || long[0] != strings.Repeat("x", 10) {
		t.Errorf("a long word must be split: %q", long)
	}
	if w := width("日本語"); w != 6 {
		t.Errorf("wide runes: %d", w)
	}
	if got := cutWidth("abcdefghij", 5); got != "abcd…" {
		t.Errorf("cut: %q", got)
	}
}

func TestMarkdown(t *testing.T) {
	text := "# Title\n\nSome `code` and **bold** text.\n- item one that is long enough to wrap around\n```go\nfunc main() { very long line that must not be wrapped at all }\n```\n"
	plain := strings.Join(markdown(text, 30, render.NewTheme(false)), "\n")
	want := "# Title\n\nSome `code` and **bold** text.\n- item one that is long enough\n  to wrap around\n```go\n│ func main() { very long line that must not be wrapped at all }\n```"
	if plain != want {
		t.Errorf("plain:\n%s\nwant:\n%s", plain, want)
	}
	col := strings.Join(markdown(text, 30, render.NewTheme(true)), "\n")
	if strings.Contains(col, "**") || strings.Contains(col, "`code`") || !strings.Contains(col, "\x1b[") {
		t.Errorf("colour must style the markers away:\n%q", col)
	}
	if got := markdown("evil \x1b]0;title\x07 text", 0, render.NewTheme(true)); strings.Contains(got[0], "\x1b]") {
		t.Errorf("escape reached the output: %q", got)
	}
}

func TestLineDiff(t *testing.T) {
	got := lineDiff("a\nb\nc\n", "a\nB\nc\nd\n")
	var b strings.Builder
	for _, d := range got {
		b.WriteString(string(d.op) + d.text + "|")
	}
	if b.String() != " a|-b|+B| c|+d|" {
		t.Errorf("%s", b.String())
	}
}

func TestToolSummary(t *testing.T) {
	cases := []struct{ name, input, want string }{
		{"Bash", `{"command":"ls -la\necho hi"}`, "ls -la … (+1 line)"},
		{"Read", `{"file_path":"/a.go","offset":10,"limit":5}`, "/a.go (lines 10–14)"},
		{"Grep", `{"pattern":"foo","path":"src"}`, `"foo" in src`},
		{"Task", `{"subagent_type":"Explore","description":"find it","prompt":"x"}`, "Explore: find it"},
		{"mcp__x__search", `{"limit":3,"query":"q"}`, "query: q"},
		{"Weird", `{}`, ""},
	}
	for _, c := range cases {
		if got := toolSummary(c.name, c.input, reader.ParseToolInput(c.input)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
