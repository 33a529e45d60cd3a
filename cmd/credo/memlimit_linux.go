package main

import (
	"os"
	"runtime/debug"
	"syscall"
)

// limitMemory sets the Go runtime's soft memory limit to half the machine's
// RAM unless GOMEMLIMIT says otherwise. Training holds a few large,
// short-lived activation buffers (attention scores grow with the square of
// the sequence length); with the default GOGC alone the heap may grow to
// twice its live size before a collection, which on long prompts ran a
// process out of memory. Near the limit the collector runs more often
// instead. It returns the limit set, or 0.
func limitMemory() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil || si.Totalram == 0 {
		return 0
	}
	limit := int64(uint64(si.Totalram) * uint64(si.Unit) / 2)
	debug.SetMemoryLimit(limit)
	return limit
}
