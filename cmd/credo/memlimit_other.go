//go:build !linux

package main

// limitMemory is a no-op where the machine's RAM is not read; set
// GOMEMLIMIT by hand there.
func limitMemory() int64 { return 0 }
