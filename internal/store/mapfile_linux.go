//go:build linux

package store

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/filterengine/filterengine/internal/errs"
)

// mapFile maps the size bytes of f copy-on-write (MAP_PRIVATE, readable
// and writable: a write copies its page privately and never reaches the
// file, and never faults; pages are charged against the commit limit as
// writes copy them, not up front), followed by at least MapTail zero bytes of
// anonymous memory, so a kernel's padded load past the payload stays
// inside the mapping. ok is false where the file cannot be mapped (a
// pipe, a special file): the caller then reads it.
//
// The pages a mapped filter gets decide its speed, so the order of the
// calls matters:
//   - The mapping starts on a 2 MiB boundary, so file offset 0 and every
//     2 MiB of the file fall on a huge-page boundary of the address space,
//     as the kernel requires to map a 2 MiB page-cache folio with one PMD.
//   - MADV_HUGEPAGE is set before the first fault: a fault on a page not
//     in the page cache then reads the file in 2 MiB folios (the kernel's
//     VM_HUGEPAGE read-ahead, on file systems with large folios: ext4
//     since Linux 6.16, XFS) and maps them whole; folios already in the
//     page cache are mapped at the size they have.
//   - populate (for a checksum that reads every page anyway) pre-faults
//     with MADV_POPULATE_READ after that advice. MAP_POPULATE would fault
//     before any advice, and on a writable private mapping it faults for
//     writing, copying the whole file into 4 KiB anonymous pages.
//   - MADV_RANDOM comes last, so populating a file the kernel will not
//     give huge pages still reads ahead; afterwards a probe reads no
//     pages around it.
func mapFile(f *os.File, size int, populate bool) (m []byte, ok bool, err error) {
	page := os.Getpagesize()
	fileLen := (size + page - 1) &^ (page - 1)
	total := uintptr(fileLen + (MapTail+page-1)&^(page-1))
	// The window is reserved inaccessible, which costs no commit charge;
	// only the tail is made writable memory of its own.
	raw, _, errno := unix.Syscall6(sysMmap, 0, total+hugePageSize,
		unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_NORESERVE, ^uintptr(0), 0)
	if errno != 0 {
		return nil, false, errs.MemoryErrorf(errno, "reserving %d bytes to map %s", total, f.Name())
	}
	start := alignTrim(raw, total)
	// MAP_NORESERVE: a private writable file mapping is otherwise charged
	// against the commit limit for its whole size, as if every page were
	// about to be copied, and a file larger than memory and swap could
	// not be opened at all. Pages are charged as writes copy them.
	if _, _, errno := unix.Syscall6(sysMmap, start, uintptr(size),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED|unix.MAP_NORESERVE, f.Fd(), 0); errno != 0 {
		_ = munmap(start, total)
		if errno == unix.ENOMEM {
			return nil, false, errs.MemoryErrorf(errno, "mapping %s (%d bytes)", f.Name(), size)
		}
		return nil, false, nil
	}
	if _, _, errno := unix.Syscall(unix.SYS_MPROTECT, start+uintptr(fileLen), total-uintptr(fileLen),
		unix.PROT_READ|unix.PROT_WRITE); errno != 0 {
		_ = munmap(start, total)
		return nil, false, errs.MemoryErrorf(errno, "mapping the tail of %s", f.Name())
	}
	// The mapping is outside the Go heap, so the address may become a pointer.
	all := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&start))), total)
	_ = unix.Madvise(all[:size], unix.MADV_HUGEPAGE)
	if populate {
		// EINVAL before Linux 5.14: the checksum then faults the pages.
		_ = unix.Madvise(all[:size], unix.MADV_POPULATE_READ)
	}
	_ = unix.Madvise(all[:size], unix.MADV_RANDOM)
	return all[:size:total], true, nil
}
