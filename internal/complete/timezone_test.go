package complete

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spf13/cobra"
)

// --tz completes local, UTC and the zones of the zoneinfo folder, a
// folder at a time, and never the files beside the zones.
func TestTimeZones(t *testing.T) {
	zi := t.TempDir()
	for _, f := range []string{"UTC", "GMT", "Europe/Paris", "Europe/Prague", "America/Argentina/Salta", "zone.tab", "posixrules", "posix/Europe/Paris", "leap-seconds.list"} {
		p := filepath.Join(zi, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("TZif"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("Europe", filepath.Join(zi, "Linked")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		typed   string
		want    []string
		noSpace bool
	}{
		{"", []string{"local\tthis computer's time zone", "UTC", "America/", "Europe/", "GMT", "Linked/"}, true},
		{"U", []string{"UTC"}, false},
		{"Eu", []string{"Europe/"}, true},
		{"Europe/P", []string{"Europe/Paris", "Europe/Prague"}, false},
		{"Europe/Pa", []string{"Europe/Paris"}, false},
		{"America/", []string{"America/Argentina/"}, true},
		{"America/Argentina/", []string{"America/Argentina/Salta"}, false},
		{"po", nil, false},
		{"../", nil, false},
		{"/", nil, false},
		{"/Eu", nil, false},
		{"./", nil, false},
		{"Europe//", nil, false},
		{"posix/", nil, false},
		{"Linked/", []string{"Linked/Paris", "Linked/Prague"}, false},
		{"Li", []string{"Linked/"}, true},
		{"Nowhere/", nil, false},
	}
	for _, tt := range tests {
		got, d := timeZonesIn([]string{"", filepath.Join(zi, "missing"), zi}, tt.typed)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.typed, got, tt.want)
		}
		if noSpace := d&cobra.ShellCompDirectiveNoSpace != 0; noSpace != tt.noSpace || d&cobra.ShellCompDirectiveNoFileComp == 0 {
			t.Errorf("%q: directive %v", tt.typed, d)
		}
	}
}
