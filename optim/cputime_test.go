package optim

import "syscall"

// cpuSeconds is the process's user plus system CPU time: a benchmark's CPU
// seconds per step are steadier than wall time when other work shares the
// machine.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
