package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bashCompletion is where bash-completion keeps the functions cobra's
// script needs (make testdeps installs it).
const bashCompletion = "/usr/share/bash-completion/bash_completion"

// In bash, the first TAB on --project inserts what the folders share:
// a path with a space must come escaped, or it becomes two words (cobra
// gives several completions unescaped, spf13/cobra#1740). The TAB that
// lists them gives them as they are read.
func TestBashCompletesPathsWithSpaces(t *testing.T) {
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Fatalf("bash-completion is missing (%v): make testdeps installs it (apt-get install -y bash-completion)", err)
	}
	home := t.TempDir()
	for i, id := range []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"} {
		dir := string(rune('a' + i))
		writeFile(t, filepath.Join(home, ".claude", "projects", dir), id+".jsonl",
			`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"`+id+`","timestamp":"2026-11-22T10:00:00Z","cwd":"/Users/me/Library/Mobile Documents/`+dir+`proj","message":{"role":"user","content":"hello"}}`+"\n")
	}
	script := `source ` + bashCompletion + `
source <(cctx completion bash)
COMP_WORDS=(cctx ls --project /Users/me/Library/Mo)
COMP_CWORD=3
COMP_LINE="cctx ls --project /Users/me/Library/Mo"
COMP_POINT=${#COMP_LINE}
COMP_TYPE=$1
__start_cctx cctx /Users/me/Library/Mo --project 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}" | sort
`
	for _, tc := range []struct {
		compType, want string
	}{
		{"9", `/Users/me/Library/Mobile\ Documents/aproj` + "\n" + `/Users/me/Library/Mobile\ Documents/bproj`},
		{"33", `/Users/me/Library/Mobile\ Documents/aproj` + "\n" + `/Users/me/Library/Mobile\ Documents/bproj`}, // show-all-if-ambiguous
		{"37", `/Users/me/Library/Mobile\ Documents/aproj` + "\n" + `/Users/me/Library/Mobile\ Documents/bproj`}, // menu-complete
		{"63", "/Users/me/Library/Mobile Documents/aproj\n/Users/me/Library/Mobile Documents/bproj"},
	} {
		cmd := exec.Command("bash", "-c", script, "bash", tc.compType)
		cmd.Env = append(os.Environ(), "HOME="+home, "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"), "CCTX_CACHE_DIR="+t.TempDir(), "CLAUDE_CONFIG_DIR=")
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != tc.want {
			t.Errorf("COMP_TYPE=%s: %v\n%s\nwant\n%s", tc.compType, err, got, tc.want)
		}
	}
}
