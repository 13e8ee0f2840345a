//go:build linux

package engine

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapFile maps the size bytes of f copy-on-write (MAP_PRIVATE, readable
// and writable: a write copies its page privately and never reaches the
// file, and never faults), followed by at least MapTail zero bytes of
// anonymous memory, so a kernel's padded load past the payload stays
// inside the mapping. populate pre-faults the file's pages in one call,
// for a checksum that reads them all anyway; without it pages come in as
// keys touch them. The mapping is advised for random access (no
// read-ahead around a probe) and for huge pages where the file system
// offers them. ok is false where the file cannot be mapped (a pipe, a
// special file): the caller then reads it.
func mapFile(f *os.File, size int, populate bool) (m []byte, ok bool, err error) {
	page := os.Getpagesize()
	fileLen := (size + page - 1) &^ (page - 1)
	total := uintptr(fileLen + (MapTail+page-1)&^(page-1))
	raw, _, errno := unix.Syscall6(unix.SYS_MMAP, 0, total,
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		return nil, false, errno
	}
	flags := uintptr(unix.MAP_PRIVATE | unix.MAP_FIXED)
	if populate {
		flags |= unix.MAP_POPULATE
	}
	if _, _, errno := unix.Syscall6(unix.SYS_MMAP, raw, uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, flags, f.Fd(), 0); errno != 0 {
		_ = munmap(raw, total)
		return nil, false, nil
	}
	// The mapping is outside the Go heap, so the address may become a pointer.
	all := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&raw))), total)
	_ = unix.Madvise(all[:size], unix.MADV_RANDOM)
	_ = unix.Madvise(all[:size], unix.MADV_HUGEPAGE)
	return all[:size:total], true, nil
}
