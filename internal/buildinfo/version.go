// Package buildinfo says which build of cctx is running (--version).
package buildinfo

import "runtime/debug"

// Version is what --version prints for this binary, given the version
// stamped at link time ("" when none was).
func Version(stamped string) string {
	bi, ok := debug.ReadBuildInfo()
	return From(stamped, bi, ok)
}

// From is the version: the one stamped at link time (make build, make
// install), else the module version Go records in the binary (go install
// github.com/cctx-dev/cctx@v1.2.0 records v1.2.0; a build in a git
// checkout, a pseudo-version of its commit), else "dev", with the commit
// when the build recorded one.
func From(stamped string, bi *debug.BuildInfo, ok bool) string {
	if stamped != "" {
		return stamped
	}
	if !ok || bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += ", modified"
	}
	return "dev (" + rev + ")"
}
