//go:build !linux

package main

import (
	"os"
	"runtime/debug"
)

// limitMemory only sets the collector's pace where the machine's RAM is
// not read (see memlimit_linux.go); set GOMEMLIMIT by hand there.
func limitMemory() int64 {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
	return 0
}
