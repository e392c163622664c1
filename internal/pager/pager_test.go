package pager

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		env      map[string]string
		fallback bool
		want     string
	}{
		{nil, true, "less -FRX"},
		{nil, false, ""},
		{map[string]string{"PAGER": "more"}, false, "more"},
		{map[string]string{"CCTX_PAGER": "bat -p", "PAGER": "more"}, false, "bat -p"},
		{map[string]string{"PAGER": " cat "}, true, ""},
		{map[string]string{"CCTX_PAGER": "cat", "PAGER": "more"}, true, ""},
		{map[string]string{"PAGER": "  "}, true, ""},
		{map[string]string{"PAGER": " most "}, true, " most "},
	} {
		if got := Command(func(k string) string { return tc.env[k] }, tc.fallback); got != tc.want {
			t.Errorf("Command(%v, %v) = %q, want %q", tc.env, tc.fallback, got, tc.want)
		}
	}
}

// Only a pager named plainly is looked up before it runs; what the shell
// must expand is left to it.
func TestPlainWord(t *testing.T) {
	for w, want := range map[string]bool{
		"less": true, "/usr/bin/less": true, "no-such-pager": true,
		"$HOME/bin/p": false, `"/path/p"`: false, "exec": false, "LESS=R": false, "~/bin/p": false,
	} {
		if got := PlainWord(w); got != want {
			t.Errorf("PlainWord(%q) = %v, want %v", w, got, want)
		}
	}
}

func TestStart(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the pager runs with sh")
	}
	noenv := func(string) string { return "" }
	for _, tc := range []struct {
		cmdline, in string
		started     bool
		out, warn   string
	}{
		{cmdline: "sed s/^/P:/", in: "a\nb\n", started: true, out: "P:a\nP:b\n"},
		{cmdline: `printf "%s %s" "$LESS" "$LV"; cat >/dev/null`, in: "x\n", started: true, out: "FRX -c"},
		{cmdline: "head -1", in: strings.Repeat("line\n", 100000), started: true, out: "line\n"},
		{cmdline: "no-such-pager-cctx -R", warn: `pager "no-such-pager-cctx" not found; printing directly`},
	} {
		var out, errOut bytes.Buffer
		var warns []string
		p := Start(tc.cmdline, noenv, &out, &errOut, func(f string, a ...any) { warns = append(warns, fmt.Sprintf(f, a...)) })
		if (p != nil) != tc.started || tc.warn != "" && (len(warns) != 1 || warns[0] != tc.warn) {
			t.Errorf("%s: started %v, warnings %q", tc.cmdline, p != nil, warns)
			continue
		}
		if p == nil {
			continue
		}
		_, err := io.WriteString(p.In, tc.in)
		if err != nil && !IsClosed(err) {
			t.Errorf("%s: write: %v", tc.cmdline, err)
		}
		if err := p.Wait(); err != nil || out.String() != tc.out {
			t.Errorf("%s: Wait() = %v, shown %q, want %q", tc.cmdline, err, out.String(), tc.out)
		}
	}
}

func TestIsClosed(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("disk full"), false},
		{syscall.EPIPE, true},
		{&os.PathError{Op: "write", Path: "|1", Err: syscall.EPIPE}, true},
		{os.ErrClosed, true},
		{fmt.Errorf("render: %w", io.ErrClosedPipe), true},
	} {
		if got := IsClosed(tc.err); got != tc.want {
			t.Errorf("IsClosed(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
