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
// use unaligned vector loads for both.
//
// Where it lives: an array of at least config.HugePageThreshold bytes (any
// size with config.HugePagesAlways) is anonymous memory of its own, mapped
// by the system (Linux and the other Unix systems), so that memory the
// system refuses is an error wrapping errs.ErrMemory and never the Go
// runtime's fatal out-of-memory, which no recover catches. On Linux that
// memory is advised for transparent huge pages, or against them with
// config.HugePagesNever. Smaller arrays, and every array on systems
// without mmap, live on the Go heap. Mapped memory goes back to the system
// on Close or when the Storage becomes garbage.
//
// A family keeps the *Storage reachable for as long as it reads Words:
// mapped memory is not the Go heap, so a words slice alone does not keep
// it alive. Methods that loop over Words end with runtime.KeepAlive.
type Storage struct {
	words   []uint64
	mapping []byte // memory Close unmaps: anonymous memory or a mapped file
	file    bool   // words are a mapped file's pages, copy-on-write
	huge    bool   // mapping is anonymous memory advised for huge pages
	cleanup runtime.Cleanup
}

// NewStorage returns nwords zeroed words placed according to mode (see
// Storage). A count whose bytes overflow is an error wrapping ErrParam;
// mapped memory the system refuses (mmap's ENOMEM, an address-space
// limit) is an error wrapping ErrMemory.
func NewStorage(nwords uint64, mode config.HugePageMode) (*Storage, error) {
	if nwords > math.MaxInt/8-8 || nwords > errs.MaxBits/64+64 {
		return nil, errs.ParamErrorf("%d words do not fit in memory", nwords)
	}
	nbytes := int(nwords) * 8
	s := &Storage{}
	if nwords > 0 && canMap && (mode == config.HugePagesAlways || nbytes >= config.HugePageThreshold) {
		m, huge, err := mapAnon(nbytes, mode != config.HugePagesNever)
		if err != nil {
			return nil, errs.MemoryErrorf(err, "mapping %d bytes", nbytes)
		}
		s.mapping, s.huge = m, huge
		s.words = unsafe.Slice((*uint64)(unsafe.Pointer(&m[0])), nwords)
		s.cleanup = runtime.AddCleanup(s, unmap, m)
		return s, nil
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

// HugePages reports whether the array lives in anonymous memory advised
// for huge pages.
func (s *Storage) HugePages() bool { return s.huge }

// Placement names where the array lives, for a filter's String: "huge
// pages" (anonymous memory advised for them), "mapped" (anonymous memory
// without them), "file" (a mapped file used in place), "heap" (the Go
// heap) or "none" (a nil or closed Storage, which holds no array).
func (s *Storage) Placement() string {
	switch {
	case s == nil || s.words == nil:
		return "none"
	case s.mapping == nil:
		return "heap"
	case s.file:
		return "file"
	case s.huge:
		return "huge pages"
	}
	return "mapped"
}

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
	s.mapping, s.words, s.huge = nil, nil, false
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
