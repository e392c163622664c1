//go:build !linux

package reader

import "os"

// openRead is os.Open (see open_linux.go).
func openRead(path string) (*os.File, error) { return os.Open(path) }
