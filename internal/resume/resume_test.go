package resume

import (
	"strings"
	"testing"
)

func TestEnvSetsTheConfigDirOnce(t *testing.T) {
	environ := []string{"HOME=/h", "CLAUDE_CONFIG_DIR=/a,/b", "PATH=/bin"}
	if got := (Target{}).Env(environ); strings.Join(got, " ") != strings.Join(environ, " ") {
		t.Errorf("no config dir: %q", got)
	}
	got := Target{ConfigDir: "/backup/.claude"}.Env(environ)
	if strings.Join(got, " ") != "HOME=/h PATH=/bin CLAUDE_CONFIG_DIR=/backup/.claude" {
		t.Errorf("%q", got)
	}
	if a := (Target{SessionID: "x"}).Args(); strings.Join(a, " ") != "claude --resume x" {
		t.Errorf("%q", a)
	}
}

func TestSameDir(t *testing.T) {
	dir := t.TempDir()
	if !sameDir(dir, dir+"/.") || sameDir(dir, dir+"/..") || sameDir("", dir) {
		t.Error("sameDir")
	}
}
