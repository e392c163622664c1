// Command cctx inspects Claude Code session transcripts.
package main

import (
	"os"

	"github.com/cctx-dev/cctx/cmd"
)

func main() { os.Exit(cmd.Execute()) }
