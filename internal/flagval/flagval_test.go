package flagval

import (
	"testing"

	"github.com/spf13/pflag"
)

// An empty or blank value is refused with what the flag accepts; any
// other is kept as typed, for what reads it to check.
func TestNonEmpty(t *testing.T) {
	for _, tc := range []struct {
		name, in, wantErr, want string
	}{
		{"empty", "", "empty: give a folder (a session's cwd, or a folder above it)", "before"},
		{"blank", " \t", "empty: give a folder", "before"},
		{"kept as typed", " ~/src ", "", " ~/src "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := "before"
			err := New(&s, Folder).Set(tc.in)
			if tc.wantErr != "" && (err == nil || err.Error()[:len(tc.wantErr)] != tc.wantErr) || tc.wantErr == "" && err != nil {
				t.Errorf("Set(%q) = %v, want %q", tc.in, err, tc.wantErr)
			}
			if s != tc.want {
				t.Errorf("kept %q, want %q", s, tc.want)
			}
		})
	}
	var by string
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Var(OneOf(&by, "session, model"), "by", "group by `KIND`")
	if err := fs.Parse([]string{"--by", ""}); err == nil || err.Error() != `invalid argument "" for "--by" flag: empty: give one of session, model` {
		t.Errorf("--by '': %v", err)
	}
	if err := fs.Parse([]string{"--by=model"}); err != nil || by != "model" {
		t.Errorf("--by=model: %v, kept %q", err, by)
	}
}
