package reader

import (
	"os"

	"github.com/cctx-dev/cctx/internal/rawfile"
)

// openRead opens a transcript to read: as os.Open does, in fewer system
// calls, and leaving its access time alone (rawfile.OpenOS).
func openRead(path string) (*os.File, error) { return rawfile.OpenOS(path) }
