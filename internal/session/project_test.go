package session

import "testing"

// A recorded cwd is compared by the rules of the system that wrote it,
// whatever system cctx runs on.
func TestInProject(t *testing.T) {
	for _, tc := range []struct {
		cwd, project string
		want         bool
	}{
		{"/home/me/src/app", "/home/me/src", true},
		{"/home/me/src/app", "/home/me/src/app", true},
		{"/home/me/src/app", "/home/me/src/app/", true},
		{"/home/me/src/application", "/home/me/src/app", false},
		{"/home/me/src/App", "/home/me/src/app", false}, // POSIX paths keep their case
		{`C:\Users\empad\Desktop\Development`, `C:\Users\empad`, true},
		{`C:\Users\empad\Desktop\Development`, `c:/users/EMPAD/desktop`, true},
		{`C:\Users\empad\Desktop\Development`, `C:\Users\empad\`, true},
		{`C:\Users\empad`, `C:\Users\empad`, true},
		{`C:\Users\empadx`, `C:\Users\empad`, false},
		{`D:\Users\empad`, `C:\Users\empad`, false},
		{`\\server\share\repo`, `\\SERVER\share`, true},
		{"", "/home", false},
	} {
		if got := InProject(tc.cwd, tc.project); got != tc.want {
			t.Errorf("InProject(%q, %q) = %v, want %v", tc.cwd, tc.project, got, tc.want)
		}
	}
}

// A --project value written the Windows way is taken as it is: made
// absolute on Linux it would name a folder no session ran in.
func TestProjectPath(t *testing.T) {
	for _, p := range []string{`C:\Users\empad`, `c:/users/empad`, `\\server\share`} {
		if got := ProjectPath(p, "/home/me"); got != p {
			t.Errorf("ProjectPath(%q) = %q", p, got)
		}
	}
	if got := ProjectPath("~/src", "/home/me"); got != "/home/me/src" {
		t.Errorf("ProjectPath(~/src) = %q", got)
	}
}
