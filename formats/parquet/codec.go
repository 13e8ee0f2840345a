package parquet

import (
	"bytes"
	"io"

	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// readChunk is the first read of a bitset; each further read is as large
// as all before it, so memory follows the bytes the stream delivers.
const readChunk = 64 << 10

// Read reads a Parquet bloom filter as a file stores it at a column
// chunk's bloom_filter_offset: the Thrift compact BloomFilterHeader, then
// numBytes bytes of bitset. It accepts any valid compact encoding of the
// header (fields in any order, unknown fields of any type skipped) and
// rejects headers whose algorithm is not BLOCK, hash not XXHASH,
// compression not UNCOMPRESSED, or numBytes not a power of two in
// [32 B, 128 MiB], with an error wrapping engine.ErrFormat.
//
// It consumes exactly the header and the bitset: if r is not an
// io.ByteReader the header is read a byte at a time, so r is left at the
// byte after the bitset. The bitset is read in growing chunks, so a
// header that claims more bytes than the stream holds is an error after
// at most 64 KiB or twice the delivered bytes, whichever is more, were
// allocated, never numBytes; a whole filter costs twice its bitset.
func Read(r io.Reader) (*Filter, error) {
	f, _, err := read(r)
	return f, err
}

func read(r io.Reader) (*Filter, int64, error) {
	numBytes, n, err := readHeader(r)
	if err != nil {
		return nil, n, err
	}
	f, got, err := readBitset(r, numBytes)
	return f, n + int64(got), err
}

// readHeader reads and checks the BloomFilterHeader and returns the
// bitset size it declares (a valid one) and the bytes it spans.
func readHeader(r io.Reader) (numBytes int, n int64, err error) {
	t := newThriftReader(r)
	h, err := t.header()
	if err != nil {
		return 0, t.n, headerErr(err, "BloomFilterHeader")
	}
	switch {
	case !h.hasNumBytes:
		return 0, t.n, errs.FormatErrorf("parquet bloom filter header: numBytes missing")
	case h.algorithm != 1:
		return 0, t.n, errs.FormatErrorf("parquet bloom filter header: algorithm missing or not BLOCK")
	case h.hash != 1:
		return 0, t.n, errs.FormatErrorf("parquet bloom filter header: hash missing or not XXHASH")
	case h.compression != 1:
		return 0, t.n, errs.FormatErrorf("parquet bloom filter header: compression missing or not UNCOMPRESSED")
	}
	if err := checkBytes(int64(h.numBytes)); err != nil {
		return 0, t.n, errs.FormatErrorf("parquet bloom filter header: numBytes = %d is not a power of two in [%d, %d]", h.numBytes, MinBytes, MaxBytes)
	}
	return int(h.numBytes), t.n, nil
}

// readBitset reads a bitset of total bytes (a valid size) into a new
// Filter. The bytes arrive in chunks, each as large as all the chunks
// before it (the first readChunk), and are copied into the filter's words
// once all have arrived: a stream that ends early has cost at most
// readChunk or twice what it delivered, and a whole bitset twice its size.
// A buffer that doubled and copied itself would cost four times the
// delivered bytes (its last doubling plus all the buffers before it).
func readBitset(r io.Reader, total int) (*Filter, int, error) {
	var chunks [][]byte
	got := 0
	for got < total {
		c := make([]byte, min(total-got, max(readChunk, got)))
		n, err := io.ReadFull(r, c)
		got += n
		if err != nil {
			return nil, got, errs.FormatErrorf("parquet bloom filter: bitset truncated at %d of %d bytes", got, total)
		}
		chunks = append(chunks, c)
	}
	f, err := New(total)
	if err != nil {
		return nil, got, err
	}
	off := 0
	for _, c := range chunks {
		store.CopyWords(f.words[off/8:(off+len(c))/8], c)
		off += len(c)
	}
	return f, got, nil
}

// WriteTo writes the canonical BloomFilterHeader and the bitset, the bytes
// a Parquet writer places at bloom_filter_offset (bloom_filter_length is
// their total).
func (f *Filter) WriteTo(w io.Writer) (int64, error) {
	if f.blocks == 0 {
		return 0, errZeroEncode
	}
	hdr := appendHeader(make([]byte, 0, 16), int32(f.NumBytes()))
	n, err := w.Write(hdr)
	if err != nil {
		return int64(n), err
	}
	m, err := w.Write(f.Bitset())
	return int64(n + m), err
}

// errZeroEncode is the error of encoding a Filter without a bitset:
// Parquet's readers (and Read) reject an empty one.
var errZeroEncode = errs.ParamErrorf("zero parquet.Filter has no encoding: use parquet.New")

// MarshalBinary returns what WriteTo writes: the Parquet form. A zero
// Filter has none (an error wrapping engine.ErrParam).
func (f *Filter) MarshalBinary() ([]byte, error) {
	if f.blocks == 0 {
		return nil, errZeroEncode
	}
	out := appendHeader(make([]byte, 0, 16+f.NumBytes()), int32(f.NumBytes()))
	return append(out, f.Bitset()...), nil
}

// MarshalText is MarshalBinary in standard base64, so that encoding/json
// and other text formats carry the filter.
func (f *Filter) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText decodes MarshalText's form into f.
func (f *Filter) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// UnmarshalBinary replaces f by the filter in data, the Parquet form,
// which must end with the bitset. It copies the bitset once, into the
// filter's words.
func (f *Filter) UnmarshalBinary(data []byte) error {
	numBytes, n, err := readHeader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	switch bitset := data[n:]; {
	case len(bitset) < numBytes:
		return errs.FormatErrorf("parquet bloom filter: bitset truncated at %d of %d bytes", len(bitset), numBytes)
	case len(bitset) > numBytes:
		return errs.FormatErrorf("parquet bloom filter: %d bytes after the bitset", len(bitset)-numBytes)
	}
	g, err := FromBitset(data[n:])
	if err != nil {
		return err
	}
	*f = *g
	return nil
}

// ReadFrom replaces f by the filter Read reads from r.
func (f *Filter) ReadFrom(r io.Reader) (int64, error) {
	g, n, err := read(r)
	if err != nil {
		return n, err
	}
	*f = *g
	return n, nil
}

// Decode is Read over a byte slice holding exactly one filter.
func Decode(data []byte) (*Filter, error) {
	f := new(Filter)
	if err := f.UnmarshalBinary(data); err != nil {
		return nil, err
	}
	return f, nil
}
