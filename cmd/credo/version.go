package main

import (
	"runtime/debug"
	"strings"

	"github.com/credo-rl/credo/model"
)

// version is `credo --version`: the commit the binary was built from (the
// go command records it when building inside the repository), whether the
// tree had uncommitted changes, the Go that built it, and the compute
// backends compiled in (go; xla with -tags xla). The Makefile
// builds with -buildvcs=auto, since a machine may set -buildvcs=false.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "credo (no build information)"
	}
	parts := []string{"credo"}
	if v := bi.Main.Version; v != "" && v != "(devel)" && !strings.HasPrefix(v, "v0.0.0-") { // a tag, not a pseudo-version
		parts = append(parts, v)
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	switch {
	case rev == "":
		parts = append(parts, "(commit unknown: built outside a git checkout)")
	case modified == "true":
		parts = append(parts, "commit "+rev+" with uncommitted changes")
	default:
		parts = append(parts, "commit "+rev)
	}
	parts = append(parts, bi.GoVersion, "backends: "+strings.Join(model.CompiledBackends(), ", "))
	return strings.Join(parts, " ")
}
