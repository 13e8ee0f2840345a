//go:build linux

package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePageSize = 2 << 20

// mapHuge maps nbytes of anonymous memory starting on a 2 MiB boundary and
// advises the kernel to back its whole 2 MiB pages with transparent huge
// pages; the tail after the last whole one stays in 4 KiB pages, so a
// filter never holds more memory than its array rounded up to 4 KiB. The
// kernel may ignore the advice (THP "never"); the memory is correct either
// way.
// Raw mmap/munmap are used because the array is trimmed to an aligned
// window, which unix.Munmap's bookkeeping of whole mappings refuses.
func mapHuge(nbytes int) ([]byte, error) {
	page := uintptr(unix.Getpagesize())
	size := (uintptr(nbytes) + page - 1) &^ (page - 1)
	raw, _, errno := unix.Syscall6(sysMmap, 0, size+hugePageSize,
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		return nil, errno
	}
	start := alignTrim(raw, size)
	// The mapping is outside the Go heap, so the address may become a pointer.
	m := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&start))), size)
	if whole := uintptr(nbytes) &^ (hugePageSize - 1); whole > 0 {
		_ = unix.Madvise(m[:whole], unix.MADV_HUGEPAGE)
	}
	return m[:nbytes:size], nil
}

// alignTrim takes the first 2 MiB boundary in the mapping of
// size+hugePageSize bytes at raw and unmaps the bytes before it and after
// its size bytes.
func alignTrim(raw, size uintptr) uintptr {
	start := (raw + hugePageSize - 1) &^ (hugePageSize - 1)
	if head := start - raw; head > 0 {
		_ = munmap(raw, head)
	}
	if tail := raw + size + hugePageSize - (start + size); tail > 0 {
		_ = munmap(start+size, tail)
	}
	return start
}

func munmap(addr, length uintptr) error {
	if _, _, errno := unix.Syscall(unix.SYS_MUNMAP, addr, length, 0); errno != 0 {
		return errno
	}
	return nil
}

func unmapErr(m []byte) error { return munmap(uintptrOf(m), uintptr(cap(m))) }
