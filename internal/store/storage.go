package store

import (
	"math"
	"runtime"
	"unsafe"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// Storage owns a filter's array of 64-bit words. The first word of an
// array NewStorage allocates is 64-byte aligned, so a 512-bit line never
// straddles two cache lines; an array used in place from a file or
// caller's bytes (Source.Storage) is only 8-byte aligned, and the kernels
// use unaligned vector loads for both. Arrays of at least config.HugePageThreshold bytes (or
// any size with config.HugePagesAlways) live on Linux in anonymous memory advised
// for transparent huge pages; that memory goes back to the system on Close
// or when the Storage becomes garbage.
//
// A family keeps the *Storage reachable for as long as it reads Words:
// mapped memory is not the Go heap, so a words slice alone does not keep
// it alive. Methods that loop over Words end with runtime.KeepAlive.
type Storage struct {
	words   []uint64
	mapping []byte // memory Close unmaps: huge-page memory or a mapped file
	file    bool   // words are a mapped file's pages, copy-on-write
	cleanup runtime.Cleanup
}

// NewStorage returns nwords zeroed words placed according to mode.
func NewStorage(nwords uint64, mode config.HugePageMode) (*Storage, error) {
	if nwords > math.MaxInt/8-8 || nwords > errs.MaxBits/64+64 {
		return nil, errs.ParamErrorf("%d words do not fit in memory", nwords)
	}
	nbytes := int(nwords) * 8
	s := &Storage{}
	if nwords > 0 && (mode == config.HugePagesAlways || mode == config.HugePagesAuto && nbytes >= config.HugePageThreshold) {
		if m, err := mapHuge(nbytes); err == nil && m != nil {
			s.mapping = m
			s.words = unsafe.Slice((*uint64)(unsafe.Pointer(&m[0])), nwords)
			s.cleanup = runtime.AddCleanup(s, unmap, m)
			return s, nil
		}
		// A failed mapping (no mmap, address space limits) falls back to
		// the heap: the filter is correct either way, only slower.
	}
	s.words = alignedWords(int(nwords))
	return s, nil
}

// alignedWords allocates n words from the heap with the first 64-byte
// aligned.
func alignedWords(n int) []uint64 {
	if n == 0 {
		return []uint64{}
	}
	buf := make([]uint64, n+7)
	off := int(uintptr(unsafe.Pointer(&buf[0]))&63) / 8
	if off != 0 {
		off = 8 - off
	}
	return buf[off : off+n : off+n]
}

// Words returns the array. It is nil after Close.
func (s *Storage) Words() []uint64 { return s.words }

// HugePages reports whether the array lives in huge-page-advised mapped
// memory rather than on the Go heap.
func (s *Storage) HugePages() bool { return s.mapping != nil && !s.file }

// Mapped reports whether the array is a mapped file used in place (see
// OpenEnvelope): its pages are private copies once written.
func (s *Storage) Mapped() bool { return s.file }

// Close returns mapped memory to the system at once instead of waiting for
// the garbage collector. Words is nil afterwards; Close is idempotent. The
// caller must ensure no other goroutine is using the storage.
func (s *Storage) Close() error {
	if s.mapping == nil {
		s.words = nil
		return nil
	}
	s.cleanup.Stop()
	m := s.mapping
	s.mapping, s.words = nil, nil
	return unmapErr(m)
}

func unmap(m []byte) { _ = unmapErr(m) }

// KeepMode is the mode of storage that replaces s when a filter is
// decoded into an existing one (UnmarshalBinary, ReadFrom): huge pages
// if s has them, else config.HugePagesAuto. s may be nil (a zero filter).
func (s *Storage) KeepMode() config.HugePageMode {
	if s != nil && s.HugePages() {
		return config.HugePagesAlways
	}
	return config.HugePagesAuto
}
