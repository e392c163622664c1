package render

import "testing"

func TestColorOn(t *testing.T) {
	for _, tc := range []struct {
		flag    string
		env     map[string]string
		tty     bool
		want    bool
		wantErr bool
	}{
		{flag: "", tty: true, want: true},
		{flag: "auto", tty: false, want: false},
		{flag: "auto", tty: true, env: map[string]string{"TERM": "dumb"}, want: false},
		{flag: "auto", tty: true, env: map[string]string{"NO_COLOR": "1"}, want: false},
		{flag: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, want: true},
		{flag: "auto", tty: true, env: map[string]string{"CLICOLOR_FORCE": "0"}, want: true},
		{flag: "auto", tty: false, env: map[string]string{"CLICOLOR_FORCE": "0"}, want: false},
		{flag: "always", tty: false, env: map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, want: true},
		{flag: "never", tty: true, env: map[string]string{"CLICOLOR_FORCE": "1"}, want: false},
		{flag: "yes", wantErr: true},
		{flag: "Always", wantErr: true},
	} {
		got, err := ColorOn(tc.flag, func(k string) string { return tc.env[k] }, tc.tty)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ColorOn(%q, %v, tty %v) = %v, %v; want %v (error %v)", tc.flag, tc.env, tc.tty, got, err, tc.want, tc.wantErr)
		}
	}
	if _, err := ColorOn("yes", func(string) string { return "" }, true); err == nil || err.Error() != `--color must be auto, always or never, not "yes"` {
		t.Errorf("error = %v", err)
	}
}
