package reader

import (
	"strings"
	"testing"
)

func TestLineAtReadsTheLineAgain(t *testing.T) {
	// The reader reports offset = line start and size = the trimmed
	// object: a BOM and leading blanks are skipped here too.
	obj := `{"a":1}`
	cases := []struct {
		name, file string
		offset     int64
	}{
		{"plain", obj + "\n", 0},
		{"bom", "\xef\xbb\xbf" + obj + "\n", 0},
		{"blanks", "        \t\t         " + obj + "\r\n", 0},
		{"second line", "{}\n" + obj + "\n", 3},
	}
	for _, c := range cases {
		got, err := LineAt(strings.NewReader(c.file), c.offset, len(obj))
		if err != nil || string(got) != obj {
			t.Errorf("%s: %q, %v", c.name, got, err)
		}
	}
	if _, err := LineAt(strings.NewReader(`{"a"`), 0, len(obj)); err == nil {
		t.Error("a file cut short must be an error")
	}
	if _, err := LineAt(strings.NewReader(`xxxxxxxxxx`), 0, len(obj)); err == nil {
		t.Error("a changed file must be an error")
	}
}
