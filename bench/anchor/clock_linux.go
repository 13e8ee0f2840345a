package main

import (
	"syscall"
	"unsafe"
)

// threadNanos is the CPU time of the calling thread, as the C++ side
// reads it (CLOCK_THREAD_CPUTIME_ID): on a shared machine the time the
// thread waits for a core is left out on both sides.
func threadNanos() int64 {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return ts.Nano()
}
