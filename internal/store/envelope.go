package store

import (
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"

	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/zeebo/xxh3"
)

// Family identifies the filter family in an envelope.
type Family uint16

// Families known to this module. Values are part of the format.
const (
	FamilyClassic      Family = 1
	FamilyBlocked      Family = 2
	FamilyCounting     Family = 3
	FamilyShifting     Family = 4
	FamilyAssociation  Family = 5
	FamilyMultiplicity Family = 6
	FamilySpatial      Family = 7
	FamilyDynamic      Family = 10 // classic.Dynamic
	FamilyRetouched    Family = 11 // classic.Retouched
	FamilyScalable     Family = 12 // blocked.Scalable
	FamilyWindow       Family = 13 // blocked.Window
)

func (f Family) String() string {
	switch f {
	case FamilyClassic:
		return "classic"
	case FamilyBlocked:
		return "blocked"
	case FamilyCounting:
		return "counting"
	case FamilyShifting:
		return "shifting"
	case FamilyAssociation:
		return "association"
	case FamilyMultiplicity:
		return "multiplicity"
	case FamilySpatial:
		return "spatial"
	case FamilyDynamic:
		return "dynamic"
	case FamilyRetouched:
		return "retouched"
	case FamilyScalable:
		return "blocked.Scalable"
	case FamilyWindow:
		return "blocked.Window"
	}
	return fmt.Sprintf("family(%d)", uint16(f))
}

// Envelope layout, little-endian, shared by every family:
//
//	0   8  magic "\x89FLTENG\n"
//	8   2  format version of the family's payload
//	10  2  family
//	12  2  number of parameters (at most MaxParams)
//	14  2  zero
//	16  8  hash seed
//	24  8  payload length in bytes
//	32 64  parameters, unused slots zero
//	96  8  XXH3-64 of the payload
//	104 16 zero
//	120 8  XXH3-64 of bytes 0..120
//	128    payload
//
// The payload starts at a 64-byte offset so a reader may map a file and
// use its words in place. Both checksums make any corrupted byte an error.
const (
	HeaderSize = 128
	MaxParams  = 8
)

var magic = [8]byte{0x89, 'F', 'L', 'T', 'E', 'N', 'G', '\n'}

// Header is the decoded envelope header.
type Header struct {
	Family  Family
	Version uint16
	Seed    uint64
	Params  []uint64
	// PayloadLen is set by the decoders; the encoders compute it.
	PayloadLen uint64
}

func payloadChecksum(parts [][]byte) (uint64, uint64) {
	h := xxh3.New()
	var n uint64
	for _, p := range parts {
		_, _ = h.Write(p)
		n += uint64(len(p))
	}
	return h.Sum64(), n
}

func encodeHeader(h Header, parts [][]byte) ([HeaderSize]byte, error) {
	sum, n := payloadChecksum(parts)
	return encodeHeaderSum(h, sum, n)
}

// encodeHeaderSum encodes h for a payload of n bytes with checksum sum.
func encodeHeaderSum(h Header, sum, n uint64) ([HeaderSize]byte, error) {
	var b [HeaderSize]byte
	if len(h.Params) > MaxParams {
		return b, fmt.Errorf("filterengine: %d envelope parameters, at most %d", len(h.Params), MaxParams)
	}
	copy(b[0:8], magic[:])
	binary.LittleEndian.PutUint16(b[8:], h.Version)
	binary.LittleEndian.PutUint16(b[10:], uint16(h.Family))
	binary.LittleEndian.PutUint16(b[12:], uint16(len(h.Params)))
	binary.LittleEndian.PutUint64(b[16:], h.Seed)
	binary.LittleEndian.PutUint64(b[24:], n)
	for i, p := range h.Params {
		binary.LittleEndian.PutUint64(b[32+8*i:], p)
	}
	binary.LittleEndian.PutUint64(b[96:], sum)
	binary.LittleEndian.PutUint64(b[120:], xxh3.Hash(b[:120]))
	return b, nil
}

// AppendEnvelope appends the header and the payload parts to dst.
func AppendEnvelope(dst []byte, h Header, parts ...[]byte) ([]byte, error) {
	hdr, err := encodeHeader(h, parts)
	if err != nil {
		return dst, err
	}
	dst = append(dst, hdr[:]...)
	for _, p := range parts {
		dst = append(dst, p...)
	}
	return dst, nil
}

// WriteEnvelope writes the header and the payload parts to w.
func WriteEnvelope(w io.Writer, h Header, parts ...[]byte) (int64, error) {
	hdr, err := encodeHeader(h, parts)
	if err != nil {
		return 0, err
	}
	n, err := w.Write(hdr[:])
	total := int64(n)
	for _, p := range parts {
		if err != nil {
			break
		}
		n, err = w.Write(p)
		total += int64(n)
	}
	return total, err
}

func decodeHeader(b []byte) (Header, error) {
	var h Header
	if len(b) < HeaderSize {
		return h, errs.FormatErrorf("%d bytes, shorter than the %d-byte header", len(b), HeaderSize)
	}
	if [8]byte(b[0:8]) != magic {
		return h, errs.FormatErrorf("bad magic")
	}
	if sum := binary.LittleEndian.Uint64(b[120:]); sum != xxh3.Hash(b[:120]) {
		return h, errs.FormatErrorf("header checksum mismatch")
	}
	h.Version = binary.LittleEndian.Uint16(b[8:])
	h.Family = Family(binary.LittleEndian.Uint16(b[10:]))
	np := int(binary.LittleEndian.Uint16(b[12:]))
	if np > MaxParams {
		return h, errs.FormatErrorf("%d parameters, at most %d", np, MaxParams)
	}
	if binary.LittleEndian.Uint16(b[14:]) != 0 {
		return h, errs.FormatErrorf("reserved header bytes not zero")
	}
	for _, z := range b[104:120] {
		if z != 0 {
			return h, errs.FormatErrorf("reserved header bytes not zero")
		}
	}
	h.Seed = binary.LittleEndian.Uint64(b[16:])
	h.PayloadLen = binary.LittleEndian.Uint64(b[24:])
	h.Params = make([]uint64, np)
	for i := range MaxParams {
		v := binary.LittleEndian.Uint64(b[32+8*i:])
		if i < np {
			h.Params[i] = v
		} else if v != 0 {
			return h, errs.FormatErrorf("unused parameter slot %d not zero", i)
		}
	}
	return h, nil
}

// DecodeEnvelope validates data and returns its header and payload, which
// aliases data. It allocates only the header's parameter slice.
func DecodeEnvelope(data []byte) (Header, []byte, error) {
	h, err := decodeHeader(data)
	if err != nil {
		return h, nil, err
	}
	payload := data[HeaderSize:]
	if h.PayloadLen != uint64(len(payload)) {
		return h, nil, errs.FormatErrorf("payload length %d, but %d bytes follow the header", h.PayloadLen, len(payload))
	}
	if sum, _ := payloadChecksum([][]byte{payload}); sum != binary.LittleEndian.Uint64(data[96:]) {
		return h, nil, errs.FormatErrorf("payload checksum mismatch")
	}
	return h, payload, nil
}

// readChunk bounds how far ReadEnvelope allocates ahead of the bytes it has
// actually received, so a hostile length costs at most this much.
const readChunk = 1 << 20

// readPayload reads want bytes from r into a buffer that grows, doubling
// from readChunk, only as they arrive; it returns them, the function that
// frees them once they are no longer used, and how many bytes it read.
// The buffer is placed as NewStorage places an array, so a payload larger
// than the memory the process may have is an error wrapping ErrMemory.
func readPayload(r io.Reader, want uint64) (payload []byte, release func(), read int64, err error) {
	if want > errs.MaxBits {
		return nil, nil, 0, errs.FormatErrorf("payload length %d too large", want)
	}
	var buf readBuffer
	if err := buf.grow(min(want, readChunk)); err != nil {
		return nil, nil, 0, err
	}
	for uint64(len(buf.b)) < want {
		if len(buf.b) == cap(buf.b) {
			if err := buf.grow(min(want, uint64(2*cap(buf.b)))); err != nil {
				buf.release()
				return nil, nil, read, err
			}
		}
		n, err := io.ReadFull(r, buf.b[len(buf.b):cap(buf.b)])
		buf.b = buf.b[:len(buf.b)+n]
		read += int64(n)
		if err != nil {
			buf.release()
			return nil, nil, read, errs.FormatErrorf("payload truncated after %d of %d bytes: %v", len(buf.b), want, err)
		}
	}
	return buf.b, buf.release, read, nil
}

// readBuffer is readPayload's growing buffer: its bytes b lie in st.
type readBuffer struct {
	st *Storage
	b  []byte
}

// grow moves the bytes into new storage of capacity n and frees the old.
func (g *readBuffer) grow(n uint64) error {
	st, err := NewStorage((n+7)/8, config.HugePagesAuto)
	if err != nil {
		return err
	}
	w := st.Words()
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))[:len(g.b):n]
	copy(b, g.b)
	g.release()
	g.st, g.b = st, b
	return nil
}

func (g *readBuffer) release() {
	if g.st != nil {
		_ = g.st.Close()
		g.st, g.b = nil, nil
	}
}

// ReadEnvelope reads one envelope from r. Whatever length the header
// claims, it allocates as the bytes arrive: a buffer that doubles from 1
// MiB, at most about four times the bytes r delivered plus 1 MiB in all.
// It reads nothing past the envelope. release frees the payload's memory
// (which may be mapped, not the Go heap): call it once the payload is no
// longer used.
func ReadEnvelope(r io.Reader) (h Header, payload []byte, release func(), read int64, err error) {
	var hb [HeaderSize]byte
	n, err := io.ReadFull(r, hb[:])
	read = int64(n)
	if err != nil {
		return Header{}, nil, nil, read, errs.FormatErrorf("reading header: %v", err)
	}
	h, err = decodeHeader(hb[:])
	if err != nil {
		return h, nil, nil, read, err
	}
	payload, release, n64, err := readPayload(r, h.PayloadLen)
	read += n64
	if err != nil {
		return h, nil, nil, read, err
	}
	if sum, _ := payloadChecksum([][]byte{payload}); sum != binary.LittleEndian.Uint64(hb[96:]) {
		release()
		return h, nil, nil, read, errs.FormatErrorf("payload checksum mismatch")
	}
	return h, payload, release, read, nil
}

// Expect checks that h is the given family at the given version with
// nparams parameters.
func (h Header) Expect(f Family, version uint16, nparams int) error {
	if h.Family != f {
		return errs.FormatErrorf("family %v, want %v", h.Family, f)
	}
	if h.Version != version {
		return errs.FormatErrorf("%v format version %d, this reader knows %d", f, h.Version, version)
	}
	if len(h.Params) != nparams {
		return errs.FormatErrorf("%v with %d parameters, want %d", f, len(h.Params), nparams)
	}
	return nil
}

// Unmarshal validates data as exactly one envelope and hands its header
// and payload to decode: every family's UnmarshalBinary.
func Unmarshal(data []byte, decode func(Header, []byte) error) error {
	h, payload, err := DecodeEnvelope(data)
	if err != nil {
		return err
	}
	return decode(h, payload)
}

// ReadFrom reads one envelope from r and hands its header and payload to
// decode: every family's io.ReaderFrom. It returns the bytes read.
func ReadFrom(r io.Reader, decode func(Header, []byte) error) (int64, error) {
	h, payload, release, n, err := ReadEnvelope(r)
	if err != nil {
		return n, err
	}
	defer release()
	return n, decode(h, payload)
}

// Decode returns a new *T built from the single envelope in data by
// decode, a family's decoder method given the options: the body of every
// family's Decode function.
func Decode[T any](data []byte, opts []config.Option, decode func(*T, Header, []byte, []config.Option) error) (*T, error) {
	f := new(T)
	if err := Unmarshal(data, func(h Header, payload []byte) error { return decode(f, h, payload, opts) }); err != nil {
		return nil, err
	}
	return f, nil
}

// Read is Decode for one envelope read from r: the body of every
// family's Read function.
func Read[T any](r io.Reader, opts []config.Option, decode func(*T, Header, []byte, []config.Option) error) (*T, error) {
	f := new(T)
	if _, err := ReadFrom(r, func(h Header, payload []byte) error { return decode(f, h, payload, opts) }); err != nil {
		return nil, err
	}
	return f, nil
}
