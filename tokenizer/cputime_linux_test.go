package tokenizer

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (the caller
// locks itself to its thread). On a machine shared with other jobs it
// measures the work done, where wall time also counts the waiting.
func threadCPU() (time.Duration, bool) { return rusage(1) } // RUSAGE_THREAD

// processCPU returns the CPU time of the whole process (all threads,
// garbage collector included).
func processCPU() (time.Duration, bool) { return rusage(syscall.RUSAGE_SELF) }

func rusage(who int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
