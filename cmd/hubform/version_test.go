package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	t.Parallel()
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "83899f6c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6"}, {Key: "vcs.time", Value: "2026-11-23T06:00:00Z"}}
	for _, tt := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "hubform (unknown)"},
		{"go install at a version", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "hubform v1.2.3"},
		{"checkout without VCS", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "hubform (devel)"},
		{"empty version", &debug.BuildInfo{}, "hubform (devel)"},
		{"checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "false"})},
			"hubform (devel) (revision 83899f6c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6)"},
		{"changed checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123060000-83899f6c0d1e+dirty"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"hubform v0.0.0-20261123060000-83899f6c0d1e+dirty (revision 83899f6c0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6, modified)"},
	} {
		if got := version(tt.info); got != tt.want {
			t.Errorf("%s: version = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	info, _ := debug.ReadBuildInfo()
	want := version(info) + "\n"
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		status, stdout, stderr := hubform(t, args...)
		if status != 0 || stdout != want || stderr != "" {
			t.Errorf("hubform %s: status %d, stdout %q, stderr %q; want 0 and %q", args[0], status, stdout, stderr, want)
		}
	}
	if status, _, stderr := hubform(t, "version", "extra"); status != 2 || !strings.Contains(stderr, `unexpected argument "extra"`) {
		t.Errorf("hubform version extra: status %d, stderr %q", status, stderr)
	}
	if _, stdout, _ := hubform(t, "--help"); !strings.Contains(stdout, "hubform --version") || !strings.Contains(stdout, "  version ") {
		t.Errorf("hubform --help does not mention the version:\n%s", stdout)
	}
}
