package e2e

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cctx-dev/cctx/internal/cache"
)

// cctx tokens | head: the reader goes away while the report prints. The
// run still leaves the cache it made (written while the report printed),
// and ends with the code SIGPIPE gives (141), as a shell reports any
// command its pipe's reader left; show, which writes no cache behind its
// output, is ended by the signal itself.
func TestAReaderThatGoesAwayKeepsTheCache(t *testing.T) {
	cacheDir := t.TempDir()
	run := func(args ...string) (code int, signaled bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		defer cancel()
		c := exec.CommandContext(ctx, bin, args...)
		c.Env = append(baseEnv(t), "CCTX_CACHE_DIR="+cacheDir)
		out, err := c.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		// One read, then the reader is gone: the output (135 KB) is
		// more than the pipe holds, so cctx is still writing.
		if _, err := io.ReadFull(out, make([]byte, 100)); err != nil {
			t.Fatal(err)
		}
		out.Close()
		err = c.Wait()
		if ctx.Err() != nil {
			t.Fatalf("%v: did not finish", args)
		}
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%v: exit 0 (%v), though its reader went away", args, err)
		}
		return ee.ExitCode(), ee.ExitCode() < 0
	}
	if code, _ := run("tokens", "--json", "--by", "response", "--dir", samples); code != 141 {
		t.Errorf("tokens | head: exit %d, want 141", code)
	}
	folder := filepath.Join(samples, "-Users-user-project")
	if entries, _, err := cache.ReadFolder(cacheDir, folder); err != nil || len(entries) == 0 {
		t.Errorf("tokens | head left no cache of %s: %d entries, %v", folder, len(entries), err)
	}
	if _, signaled := run("show", "--json", "ef958aa1", "--dir", samples); !signaled {
		t.Error("show | head was not ended by SIGPIPE")
	}
}
