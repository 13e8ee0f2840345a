//go:build linux

package store

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePageSize = 2 << 20

// canMap says that NewStorage maps large arrays here.
const canMap = true

// mapAnon maps nbytes of anonymous memory starting on a 2 MiB boundary.
// With huge it advises the kernel to back the whole 2 MiB pages with
// transparent huge pages; the tail after the last whole one stays in 4
// KiB pages, so a filter never holds more memory than its array rounded
// up to 4 KiB. The kernel may ignore the advice (THP "never"); the memory
// is correct either way. Without huge it advises against huge pages, so
// HugePagesNever holds even where THP is "always". advised reports huge.
// The mapping is charged against the commit limit like any private
// writable memory: one larger than the system can back fails here with
// ENOMEM (or at an address-space limit), as an error.
// Raw mmap/munmap are used because the array is trimmed to an aligned
// window, which unix.Munmap's bookkeeping of whole mappings refuses.
func mapAnon(nbytes int, huge bool) (m []byte, advised bool, err error) {
	page := uintptr(unix.Getpagesize())
	size := (uintptr(nbytes) + page - 1) &^ (page - 1)
	raw, _, errno := unix.Syscall6(sysMmap, 0, size+hugePageSize,
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS, ^uintptr(0), 0)
	if errno != 0 {
		return nil, false, errno
	}
	start := alignTrim(raw, size)
	// The mapping is outside the Go heap, so the address may become a pointer.
	m = unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&start))), size)
	if !huge {
		_ = unix.Madvise(m, unix.MADV_NOHUGEPAGE)
	} else if whole := uintptr(nbytes) &^ (hugePageSize - 1); whole > 0 {
		_ = unix.Madvise(m[:whole], unix.MADV_HUGEPAGE)
	}
	return m[:nbytes:size], huge, nil
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
