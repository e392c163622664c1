package cmd

import (
	"io"
	"os"

	"github.com/cctx-dev/cctx/internal/pager"
)

// pager returns where a long output goes: a pager on a terminal (unless
// off: --no-pager, --follow), else stdout; guarded as Out (or OutJSON,
// for JSON text) is. done waits for the pager.
func (f *Factory) pager(off, json bool) (io.Writer, func() error) {
	direct := func() error { return nil }
	stdout := f.Out()
	if json {
		stdout = f.OutJSON() // --raw
	}
	if !f.IO.IsStdoutTTY() || off {
		return stdout, direct
	}
	// The default pager only for the real terminal: tests and embedders
	// that hand in their own writer get their output directly.
	fh, ok := f.IO.Out.(*os.File)
	cmdline := pager.Command(f.Env.Getenv, ok && fh == os.Stdout)
	if cmdline == "" {
		return stdout, direct
	}
	p := pager.Start(cmdline, f.Env.Getenv, f.IO.Out, f.IO.ErrOut, f.Report().Warn)
	if p == nil {
		return stdout, direct
	}
	paged := f.guarded(p.In)
	writer := paged.Text
	if json {
		writer = paged.JSON
	}
	return writer(), func() error {
		paged.Flush()
		return p.Wait()
	}
}
