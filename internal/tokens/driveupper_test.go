package tokens

import "testing"

// --by project groups one Windows folder however its drive letter was
// written.
func TestDriveUpper(t *testing.T) {
	for in, want := range map[string]string{`c:\src\app`: `C:\src\app`, `C:\src`: `C:\src`, "c:/src": "C:/src", "/home/c:x": "/home/c:x", "c:": "c:", "": ""} {
		if got := driveUpper(in); got != want {
			t.Errorf("driveUpper(%q) = %q, want %q", in, got, want)
		}
	}
}
