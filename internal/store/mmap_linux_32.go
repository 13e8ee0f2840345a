//go:build linux && (386 || arm || mips || mipsle)

package store

import "golang.org/x/sys/unix"

// sysMmap is the mmap system call that takes its arguments in registers:
// on 32-bit kernels mmap2 (offset in pages; every call here maps from
// offset 0), since their old mmap takes a pointer to a struct.
const sysMmap = unix.SYS_MMAP2
