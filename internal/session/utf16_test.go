package session

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cctx-dev/cctx/internal/cache"
	"github.com/cctx-dev/cctx/internal/diag"
)

// A session file saved as UTF-16 (with a BOM or without one) is said, not
// hidden as a file without conversation, and a listing it leaves empty
// says why: `ls` and `show latest` word it the same.
func TestUTF16FileLeftOutOfAListingIsCounted(t *testing.T) {
	line := userLine("hello", `"uuid":"u1","sessionId":"`+id1+`",`) + "\n"
	utf16 := func(bom string, big bool) string {
		b := []byte(bom)
		for _, c := range []byte(line) {
			if big {
				b = append(b, 0, c)
			} else {
				b = append(b, c, 0)
			}
		}
		return string(b)
	}
	tests := []struct {
		name          string
		files         map[string]string
		sessions      int
		unread, utf16 int
		none          string // Listing.NoneFound ("" when it lists one)
	}{
		{"UTF-16 LE with a BOM", map[string]string{"-p/" + id1 + ".jsonl": utf16("\xFF\xFE", false)}, 0, 1, 1, "no sessions found in ROOT (1 session file(s) skipped as UTF-16, said above)"},
		{"UTF-16 BE with a BOM", map[string]string{"-p/" + id1 + ".jsonl": utf16("\xFE\xFF", true)}, 0, 1, 1, "no sessions found in ROOT (1 session file(s) skipped as UTF-16, said above)"},
		{"UTF-16 LE without a BOM", map[string]string{"-p/" + id1 + ".jsonl": utf16("", false)}, 0, 1, 1, "no sessions found in ROOT (1 session file(s) skipped as UTF-16, said above)"},
		{"UTF-16 BE without a BOM", map[string]string{"-p/" + id1 + ".jsonl": utf16("", true)}, 0, 1, 1, "no sessions found in ROOT (1 session file(s) skipped as UTF-16, said above)"},
		{"beside a UTF-8 one", map[string]string{"-p/" + id1 + ".jsonl": utf16("", false), "-p/" + id2 + ".jsonl": line}, 1, 1, 1, ""},
		{"UTF-8", map[string]string{"-p/" + id1 + ".jsonl": line}, 1, 0, 0, ""},
		{"nothing", map[string]string{"-p/notes.txt": "x"}, 0, 0, 0, "no sessions found in ROOT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := write(t, tt.files)
			var stderr bytes.Buffer
			f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
			l := f.List(ListOptions{})
			if len(l.Sessions) != tt.sessions || l.Unread != tt.unread || l.UTF16 != tt.utf16 || len(l.Hidden) != 0 {
				t.Errorf("%d sessions, %d unread, %d UTF-16, %d hidden; stderr %s", len(l.Sessions), l.Unread, l.UTF16, len(l.Hidden), stderr.String())
			}
			if tt.utf16 > 0 && strings.Count(stderr.String(), "the file is UTF-16") != tt.utf16 {
				t.Errorf("stderr %q", stderr.String())
			}
			if tt.none == "" {
				return
			}
			want := strings.ReplaceAll(tt.none, "ROOT", root)
			if got := l.NoneFound(f.Where(), Filters{}); got != want {
				t.Errorf("NoneFound = %q, want %q", got, want)
			}
			if _, err := f.Resolve("latest"); err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Errorf("latest: %v, want %q", err, want)
			}
		})
	}
}

// What an empty listing says, by what left it empty.
func TestNoneFound(t *testing.T) {
	since := Filters{Since: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), Now: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), Zone: time.UTC}
	tests := []struct {
		l       Listing
		filters Filters
		want    string
	}{
		{Listing{}, Filters{}, "no sessions found in R"},
		{Listing{Found: 2}, since, "no session found in R that matches --since 2026-01-02 03:04"},
		{Listing{Found: 1}, Filters{}, "no sessions found in R"}, // a file without conversation, hidden
		{Listing{Found: 1, Unread: 1, UTF16: 1}, Filters{}, "no sessions found in R (1 session file(s) skipped as UTF-16, said above)"},
		{Listing{Found: 3, Unread: 2}, Filters{}, "no sessions found in R (2 session file(s) could not be read, said above)"},
		{Listing{Found: 3, Unread: 3, UTF16: 1}, Filters{}, "no sessions found in R (3 session file(s) could not be read, 1 of them UTF-16, said above)"},
		{Listing{Found: 3, Unread: 1, UTF16: 1}, since, "no session found in R that matches --since 2026-01-02 03:04 (1 session file(s) skipped as UTF-16, said above)"},
	}
	for _, tt := range tests {
		if got := tt.l.NoneFound(" in R", tt.filters); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.l, got, tt.want)
		}
	}
}

// A row kept in the ls cache by a build that did not tell a UTF-16 file
// without a BOM (lsCacheFormat 3: a file without conversation) is read
// again, and the file said.
func TestUTF16RowOfAnOlderBuildIsReadAgain(t *testing.T) {
	var data []byte
	for _, c := range []byte(userLine("hello", `"uuid":"u1",`) + "\n") {
		data = append(data, c, 0)
	}
	root := write(t, map[string]string{"-p/" + id1 + ".jsonl": string(data)})
	cacheDir := t.TempDir()
	// keep puts the row an older build kept for it, under format.
	keep := func(format byte) {
		f := NewFinder([]Root{{ProjectsDir: root}}, nil)
		f.Cache = cache.Open(cacheDir, nil)
		s := f.Sessions()[0]
		f.remember(&Info{Session: s, Empty: true, TitleSource: "none", UpdatedAt: s.ModTime})
		store, key := f.rows(s)
		e, st := store.Lookup(key, s.Path)
		if st != cache.Same || e.Data[0] != lsCacheFormat {
			t.Fatalf("row not kept: %v", st)
		}
		kept := *e
		kept.Data = append([]byte{format}, e.Data[1:]...)
		store.Put(key, &kept)
		store.Flush()
	}
	list := func() (Listing, string) {
		var stderr bytes.Buffer
		f := NewFinder([]Root{{ProjectsDir: root}}, diag.New(&stderr, false, false))
		f.Cache = cache.Open(cacheDir, nil)
		return f.List(ListOptions{}), stderr.String()
	}
	// The check that the test can fail: a row of this build's format is
	// taken from the cache as it is.
	keep(lsCacheFormat)
	if l, said := list(); len(l.Hidden) != 1 || l.UTF16 != 0 || said != "" {
		t.Fatalf("a row of the current format is not taken from the cache: %d hidden, %d UTF-16, %q", len(l.Hidden), l.UTF16, said)
	}
	keep(3)
	if l, said := list(); len(l.Hidden) != 0 || l.UTF16 != 1 || !strings.Contains(said, "the file is UTF-16") {
		t.Errorf("after an upgrade, a row kept under format 3: %d hidden, %d UTF-16, %q", len(l.Hidden), l.UTF16, said)
	}
}
