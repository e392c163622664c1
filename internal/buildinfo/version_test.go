package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFrom(t *testing.T) {
	bi := func(v string, settings ...debug.BuildSetting) *debug.BuildInfo {
		b := &debug.BuildInfo{Settings: settings}
		b.Main.Version = v
		return b
	}
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "0123456789abcdef0123"}
	dirty := debug.BuildSetting{Key: "vcs.modified", Value: "true"}
	for _, tc := range []struct {
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"v1.2.0-3-gabc", bi("v9.9.9"), "v1.2.0-3-gabc"}, // make build / make install
		{"", bi("v1.2.0"), "v1.2.0"},                     // go install github.com/cctx-dev/cctx@v1.2.0
		{"", bi("v0.0.0-20261122120000-0123456789ab"), "v0.0.0-20261122120000-0123456789ab"},
		{"", bi("(devel)", rev), "dev (0123456789ab)"}, // go build without a version
		{"", bi("(devel)", rev, dirty), "dev (0123456789ab, modified)"},
		{"", bi("(devel)"), "dev"},
		{"", nil, "dev"},
	} {
		if got := From(tc.stamped, tc.bi, tc.bi != nil); got != tc.want {
			t.Errorf("From(%q, %v) = %q, want %q", tc.stamped, tc.bi, got, tc.want)
		}
	}
	if got := Version("v7"); got != "v7" {
		t.Errorf("Version(v7) = %q", got)
	}
}
