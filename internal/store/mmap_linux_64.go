//go:build linux && !(386 || arm || mips || mipsle)

package store

import "golang.org/x/sys/unix"

// sysMmap is the mmap system call that takes its arguments in registers:
// mmap on 64-bit kernels.
const sysMmap = unix.SYS_MMAP
