//go:build unix

package credit

import (
	"syscall"
	"time"
)

// processCPU is the process's user and system CPU time: on a shared machine
// it measures the work, where wall time also measures the neighbours.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
