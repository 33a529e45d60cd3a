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
//
// Unless GOGC says otherwise, a collection also starts when the heap has
// grown by a quarter (not the default's doubling): the heap is mostly the
// backend's pointer-free float buffers, which a collection does not scan, so
// collecting more often costs little CPU, while the default let a
// SmolLM2-135M training step (4.4 GB live at its peak) grow toward twice
// that (docs/performance.md, "The RL step at 135M").
func limitMemory() int64 {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
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
