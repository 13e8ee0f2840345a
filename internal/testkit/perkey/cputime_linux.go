//go:build linux

package perkey

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadCPU is the CPU time of the calling thread, from
// CLOCK_THREAD_CPUTIME_ID (nanoseconds; getrusage's RUSAGE_THREAD moves
// in scheduler ticks of 4 ms, longer than a turn of a paired
// benchmark). On a shared machine it leaves out the time a benchmark
// waited for a core. Callers lock their goroutine to its thread.
func ThreadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return time.Since(epoch)
	}
	return time.Duration(ts.Nano())
}
