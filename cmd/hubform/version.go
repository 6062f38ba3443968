package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

const versionHelp = `
Usage: hubform version (or hubform --version)

Prints hubform's version: the module version it was built as, "(devel)"
when built from a checkout without one, and the commit it was built from
when the build recorded it.
`

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", versionHelp, "", stderr)
	rest, status, ok := fs.parse(args, stdout)
	if !ok {
		return status
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "hubform version: unexpected argument %q\n", rest[0])
		return 2
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, version(info))
	return 0
}

// version describes the build info: "hubform VERSION", then the VCS
// revision and whether the tree had changes, when the build recorded them.
// A nil info, from a binary built without module support, gives
// "hubform (unknown)".
func version(info *debug.BuildInfo) string {
	if info == nil {
		return "hubform (unknown)"
	}
	v := "hubform " + cmp.Or(info.Main.Version, "(devel)")
	var revision, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if revision != "" {
		v += " (revision " + revision
		if modified == "true" {
			v += ", modified"
		}
		v += ")"
	}
	return v
}
