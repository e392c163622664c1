package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every relative link of the README, BENCHMARKS.md and docs/ names a file
// that exists and, with a #fragment, a heading of that file (GitHub's
// anchors: lower case, punctuation dropped, spaces as dashes).
func TestDocLinksResolve(t *testing.T) {
	root := filepath.Join("..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "BENCHMARKS.md"))
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, f := range files {
		text := readFile(t, f)
		for _, m := range link.FindAllStringSubmatch(stripCode(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.Contains(target, "…") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), path)
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s: link %s: no file %s", f, target, file)
				continue
			}
			checked++
			if frag != "" && strings.HasSuffix(file, ".md") && !anchors(readFile(t, file))[frag] {
				t.Errorf("%s: link %s: %s has no heading with the anchor #%s", f, target, file, frag)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d links checked: is the pattern still right?", checked)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stripCode drops fenced code blocks: their brackets are not links.
func stripCode(s string) string {
	var out []string
	in := false
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			in = !in
			continue
		}
		if !in {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// anchors are the GitHub anchors of a Markdown file's headings.
func anchors(s string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(stripCode(s), "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 0x7f && r != '—' && r != '–' && r != '…' && r != '→':
				b.WriteRune(r)
			}
		}
		out[b.String()] = true
	}
	return out
}
