package cmd

import "runtime/debug"

// Version is set at link time (-ldflags "-X github.com/cctx-dev/cctx/cmd.Version=…").
var Version = ""

func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionFrom(Version, bi, ok)
}

// versionFrom is what --version prints: the version stamped at link time
// (make build, make install), else the module version Go records in the
// binary (go install github.com/cctx-dev/cctx@v1.2.0 records v1.2.0; a
// build in a git checkout, a pseudo-version of its commit), else "dev",
// with the commit when the build recorded one.
func versionFrom(stamped string, bi *debug.BuildInfo, ok bool) string {
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
