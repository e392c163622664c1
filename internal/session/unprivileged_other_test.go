//go:build !unix

package session

import "testing"

// runUnprivileged: on Windows permission bits are not what denies a read;
// the test runs as it is.
func runUnprivileged(t *testing.T) bool { return false }
