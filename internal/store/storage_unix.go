//go:build unix && !linux

package store

import "golang.org/x/sys/unix"

// canMap says that NewStorage maps large arrays here.
const canMap = true

// mapAnon maps nbytes of anonymous memory (page-aligned, so 64-byte
// aligned) without huge-page advice, which is wired up on Linux only: a
// mapping the system refuses is an errno here instead of the Go
// runtime's fatal out-of-memory.
func mapAnon(nbytes int, _ bool) ([]byte, bool, error) {
	m, err := unix.Mmap(-1, 0, nbytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, false, err
	}
	return m, false, nil
}

func unmapErr(m []byte) error { return unix.Munmap(m[:cap(m)]) }
