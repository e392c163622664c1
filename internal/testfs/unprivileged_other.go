//go:build !unix

package testfs

import "testing"

// RunUnprivileged: on Windows permission bits are not what denies a read;
// the test runs as it is.
func RunUnprivileged(t *testing.T) bool { return false }
