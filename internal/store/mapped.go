package store

import (
	"encoding/binary"
	"io"
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
)

// MapTail is the number of zero bytes a mapped file's payload is followed
// by, so a family whose kernels read a few bytes past their last word
// (shifting's pair loads, spatial's 4-byte cells) may use the payload in
// place.
const MapTail = 64

// Source hands an envelope's payload to a family's decoder. The decoder
// checks the payload's bytes (Bytes) and asks Storage for its words: a
// copy in new storage for Decode and Read, the payload's own memory for
// Open and View where the alignment and the bytes after it allow. A
// family writes its decoder once, against a Source.
type Source struct {
	payload []byte
	owner   *Mapped // nil: every Storage is a copy
}

// CopySource is the Source of a payload that is copied into the filter
// (Decode, Read, UnmarshalBinary).
func CopySource(payload []byte) Source { return Source{payload: payload} }

// Bytes returns the payload. A decoder must not keep it beyond the call.
func (s Source) Bytes() []byte { return s.payload }

// InPlace reports whether the payload is used where it lies (Open, View).
func (s Source) InPlace() bool { return s.owner != nil }

// Storage returns nwords words whose first nbytes bytes are payload bytes
// [off, off+nbytes); nbytes <= 8*nwords and off+nbytes <= len(Bytes()).
// The words after nbytes are zero in a copy and, in place, whatever
// follows in the payload or the mapping's zero tail: a family reads them
// only as padding. In place is chosen when the source allows it, the host
// is little-endian, payload byte off is 8-byte aligned and the nwords
// words lie inside the payload and its tail; the first in-place Storage
// takes the mapping over (its Close unmaps the file). Otherwise the
// words are copied into storage placed by mode.
func (s Source) Storage(off, nbytes, nwords uint64, mode config.HugePageMode) (*Storage, error) {
	if nbytes > 8*nwords || off > uint64(len(s.payload)) || nbytes > uint64(len(s.payload))-off {
		panic("engine: Source.Storage outside the payload")
	}
	if m := s.owner; m != nil && littleEndian && !m.file.taken.Load() && nwords > 0 {
		start := unsafe.Pointer(unsafe.SliceData(s.payload[off:]))
		if uintptr(start)%8 == 0 && off+8*nwords <= uint64(len(s.payload)+m.tail) {
			m.file.taken.Store(true)
			// Words into a read buffer or the caller's heap bytes keep
			// them reachable; a file mapping is unmapped by the Storage.
			st := &Storage{words: unsafe.Slice((*uint64)(start), nwords)}
			if m.file.mapping != nil {
				st.mapping, st.file = m.file.mapping, !m.file.anon
				st.cleanup = runtime.AddCleanup(st, unmap, m.file.mapping)
			}
			return st, nil
		}
	}
	st, err := NewStorage(nwords, mode)
	if err != nil {
		return nil, err
	}
	w := st.Words()
	full := nbytes / 8
	CopyWords(w[:full], s.payload[off:off+8*full])
	if rest := nbytes % 8; rest != 0 {
		var last [8]byte
		copy(last[:], s.payload[off+8*full:off+nbytes])
		w[full] = binary.LittleEndian.Uint64(last[:])
	}
	return st, nil
}

// Mapped is a validated envelope whose payload lies in a mapped file
// (OpenEnvelope) or in bytes the caller holds (ViewEnvelope).
type Mapped struct {
	Header  Header
	payload []byte
	tail    int // readable bytes after the payload's end
	// file is the file mapping and whether a Storage took it over; its
	// own object, so that the cleanup that unmaps an untaken mapping
	// when the Mapped becomes garbage can read it.
	file    *mappedFile
	cleanup runtime.Cleanup
}

// mappedFile is a Mapped's file mapping, nil for a view or a file read
// into memory.
type mappedFile struct {
	mapping []byte
	anon    bool // mapping is anonymous memory the file was read into
	taken   atomic.Bool
}

// release unmaps the file unless a Storage took the mapping over.
func (f *mappedFile) release() {
	if !f.taken.Load() && f.mapping != nil {
		unmap(f.mapping)
	}
	f.mapping = nil
}

// Source returns the payload as a family decoder's source.
func (m *Mapped) Source() Source { return Source{payload: m.payload, owner: m} }

// Close unmaps the file at once unless a Storage took the mapping over
// (that Storage's Close unmaps it then); a Mapped that is not closed is
// unmapped when it becomes garbage. It returns nil, and does nothing the
// second time or for a view.
func (m *Mapped) Close() error {
	m.cleanup.Stop()
	m.file.release()
	return nil
}

// mapper is mapFile; tests replace it to take the read fallback that
// platforms without mmap use.
var mapper = mapFile

// OpenEnvelope maps the file at path copy-on-write and validates its
// envelope: the header, the payload length against the file's size, and
// (unless WithoutChecksum) the payload checksum, so a truncated,
// corrupted or foreign file is an error here and never a fault later.
// Where the file cannot be mapped (no mmap on the platform, a special
// file) it is read into memory instead, behind the same result.
//
// The copy-on-write mapping is not charged against the system's commit
// limit (MAP_NORESERVE; only pages a write copies are), so WithoutChecksum
// opens a file of any size, larger than memory and swap too, in a few
// system calls. Address space or memory the system refuses (a mapping
// over an address-space limit, a read fallback larger than memory) is an
// error wrapping ErrMemory.
//
// On Linux the mapping starts on a 2 MiB boundary and is advised for
// huge pages before its first fault, so a file kept in 2 MiB page-cache
// folios (WriteFile's files; any file read in through the mapping on a
// file system with large folios) is mapped with 2 MiB pages, and probes
// it as fast as a loaded filter; a file the page cache holds in smaller
// folios gets 4 KiB pages until it leaves the cache (the package doc's
// Saved filters). With the checksum the pages are faulted in up front
// (MADV_POPULATE_READ); without it a probe faults its page in.
//
// A file another process truncates while it is mapped is the one case
// that can fault: reading a page past the new end raises SIGBUS, as for
// every user of mmap. Replace saved filters by rename (WriteFile), never
// by rewriting them in place.
func OpenEnvelope(path string, opts ...config.Option) (*Mapped, error) {
	cfg := config.Apply(opts)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() {
		size = -1
	}
	if size >= 0 && size < HeaderSize {
		return nil, errs.FormatErrorf("%s: %d bytes, shorter than the %d-byte header", path, size, HeaderSize)
	}
	if size > HeaderSize+errs.MaxBits/8 {
		return nil, errs.FormatErrorf("%s: %d bytes, larger than any filter", path, size)
	}
	if size > 0 {
		mapping, ok, err := mapper(f, int(size), !cfg.SkipChecksum)
		if err != nil {
			return nil, err
		}
		if ok {
			m, err := validate(mapping, cap(mapping)-len(mapping), cfg)
			if err != nil {
				unmap(mapping)
				return nil, err
			}
			m.file.mapping = mapping
			m.cleanup = runtime.AddCleanup(m, (*mappedFile).release, m.file)
			return m, nil
		}
	}
	data, mapping, err := readPadded(f, size)
	if err != nil {
		return nil, err
	}
	m, err := validate(data, cap(data)-len(data), cfg)
	if err != nil {
		if mapping != nil {
			unmap(mapping)
		}
		return nil, err
	}
	if mapping != nil {
		m.file.mapping, m.file.anon = mapping, true
		m.cleanup = runtime.AddCleanup(m, (*mappedFile).release, m.file)
	}
	return m, nil
}

// readPadded reads the whole file into 64-byte aligned memory followed by
// MapTail zero bytes. size < 0 means unknown (a pipe, a device): the
// header is read and checked first, then exactly the payload it claims,
// the buffer growing only as the bytes arrive, and nothing may follow;
// a stream that is no envelope (/dev/zero) is rejected at its header
// instead of read to an end it never reaches.
//
// A buffer of at least config.HugePageThreshold bytes is anonymous mapped
// memory (returned as mapping too, for the caller to unmap), so a file
// larger than memory is an error wrapping ErrMemory, not the runtime's
// fatal out-of-memory.
func readPadded(f *os.File, size int64) (data, mapping []byte, err error) {
	if size < 0 {
		var hb [HeaderSize]byte
		if _, err := io.ReadFull(f, hb[:]); err != nil {
			return nil, nil, errs.FormatErrorf("reading header: %v", err)
		}
		h, err := decodeHeader(hb[:])
		if err != nil {
			return nil, nil, err
		}
		payload, release, _, err := readPayload(f, h.PayloadLen)
		if err != nil {
			return nil, nil, err
		}
		defer release()
		var one [1]byte
		if n, _ := f.Read(one[:]); n != 0 {
			return nil, nil, errs.FormatErrorf("bytes after the envelope's %d", HeaderSize+len(payload))
		}
		buf, mapping, err := paddedBuffer(HeaderSize + len(payload))
		if err != nil {
			return nil, nil, err
		}
		copy(buf, hb[:])
		copy(buf[HeaderSize:], payload)
		return buf, mapping, nil
	}
	buf, mapping, err := paddedBuffer(int(size))
	if err != nil {
		return nil, nil, err
	}
	if _, err := io.ReadFull(f, buf); err != nil {
		if mapping != nil {
			unmap(mapping)
		}
		return nil, nil, errs.FormatErrorf("reading %d bytes: %v", size, err)
	}
	return buf, mapping, nil
}

// paddedBuffer returns n bytes, 64-byte aligned and followed by MapTail
// zero bytes, placed as NewStorage places an array; mapping is the memory
// to unmap, nil for the heap.
func paddedBuffer(n int) (buf, mapping []byte, err error) {
	st, err := NewStorage(uint64(n+MapTail+7)/8, config.HugePagesAuto)
	if err != nil {
		return nil, nil, err
	}
	w := st.Words()
	buf = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))[:n]
	if st.mapping == nil {
		return buf, nil, nil
	}
	st.cleanup.Stop() // the caller owns the mapping now
	return buf, st.mapping, nil
}

// ViewEnvelope validates data as one envelope whose payload a family may
// use in place: a filter built from it reads, and its writers write,
// data's own bytes, which must stay unchanged by others and, if the
// filter is written to, writable (Clone first for a private copy of read-
// only memory such as an embedded file). The payload is used in place when
// it is 8-byte aligned and the family reads nothing past its end;
// otherwise it is copied. The checksum is verified unless WithoutChecksum.
func ViewEnvelope(data []byte, opts ...config.Option) (*Mapped, error) {
	return validate(data, 0, config.Apply(opts))
}

func validate(data []byte, tail int, cfg config.Config) (*Mapped, error) {
	h, err := decodeHeader(data)
	if err != nil {
		return nil, err
	}
	payload := data[HeaderSize:]
	if h.PayloadLen != uint64(len(payload)) {
		return nil, errs.FormatErrorf("payload length %d, but %d bytes follow the header", h.PayloadLen, len(payload))
	}
	if !cfg.SkipChecksum {
		if sum, _ := payloadChecksum([][]byte{payload}); sum != binary.LittleEndian.Uint64(data[96:]) {
			return nil, errs.FormatErrorf("payload checksum mismatch")
		}
	}
	return &Mapped{Header: h, payload: payload, tail: tail, file: &mappedFile{}}, nil
}

// Open maps the file at path (OpenEnvelope) and builds a filter from it
// with decode, a family's decoder method, which validates its parameters
// and takes its words from the source: every family's Open is
// store.Open(path, opts, (*Filter).decodeSource).
func Open[T any](path string, opts []config.Option, decode func(*T, Header, Source) error) (*T, error) {
	m, err := OpenEnvelope(path, opts...)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	return build(m, decode)
}

// View builds a filter over data with decode (ViewEnvelope): every
// family's View.
func View[T any](data []byte, opts []config.Option, decode func(*T, Header, Source) error) (*T, error) {
	m, err := ViewEnvelope(data, opts...)
	if err != nil {
		return nil, err
	}
	return build(m, decode)
}

func build[T any](m *Mapped, decode func(*T, Header, Source) error) (*T, error) {
	f := new(T)
	if err := decode(f, m.Header, m.Source()); err != nil {
		return nil, err
	}
	return f, nil
}
