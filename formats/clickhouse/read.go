package clickhouse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// ErrCorrupt is wrapped by every error about the bytes of an .idx file or a
// compressed block: a wrong checksum, an unknown method, a size past the
// end or over the limits, a payload that does not decompress to its size.
var ErrCorrupt = errors.New("clickhouse: corrupt index data")

// Compression methods of a ClickHouse compressed block (the byte after the
// checksum; CompressionMethodByte in Compression/CompressionInfo.h).
const (
	MethodNone = 0x02
	MethodLZ4  = 0x82
	MethodZSTD = 0x90
)

const (
	blockHeader = 9 // method, compressed size, uncompressed size
	// MaxBlockBytes bounds a block's compressed and uncompressed sizes, as
	// ClickHouse bounds compressed blocks (1 GiB).
	MaxBlockBytes = 1 << 30
	// A ZSTD block may declare at most zstdSlack + zstdRatio·payload bytes:
	// ClickHouse cuts blocks at max_compress_block_size (1 MiB by default),
	// so real blocks are far inside it, and a few hostile bytes cannot make
	// the reader allocate gigabytes.
	zstdSlack = 8 << 20
	zstdRatio = 1 << 10
)

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, a...))
}

// BlockReader reads the uncompressed stream of a file of ClickHouse
// compressed blocks (skp_idx_*.idx, and the .bin column files): each block
// is a 16-byte CityHash128 checksum of the rest of the block, a method
// byte, the compressed size (UInt32 little-endian, the 9-byte header
// included), the uncompressed size (UInt32 little-endian) and the payload.
// Every block's checksum is checked before it is decompressed.
type BlockReader struct {
	r   io.Reader
	buf []byte
	off int
	err error
}

// NewBlockReader returns a reader of the uncompressed stream of r.
func NewBlockReader(r io.Reader) *BlockReader { return &BlockReader{r: r} }

// Read implements io.Reader.
func (b *BlockReader) Read(p []byte) (int, error) {
	for b.off >= len(b.buf) {
		if b.err != nil {
			return 0, b.err
		}
		b.buf, b.off = nil, 0
		b.buf, b.err = b.next()
		if b.err == io.EOF && len(b.buf) != 0 {
			b.err = io.ErrUnexpectedEOF
		}
	}
	n := copy(p, b.buf[b.off:])
	b.off += n
	return n, nil
}

// next reads and decompresses one block; io.EOF at a clean end.
func (b *BlockReader) next() ([]byte, error) {
	var head [16 + blockHeader]byte
	n, err := io.ReadFull(b.r, head[:])
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, corrupt("block header cut after %d of %d bytes", n, len(head))
	}
	method := head[16]
	csize := binary.LittleEndian.Uint32(head[17:])
	usize := binary.LittleEndian.Uint32(head[21:])
	if csize < blockHeader {
		return nil, corrupt("compressed size %d is less than the %d-byte header", csize, blockHeader)
	}
	if csize > MaxBlockBytes || usize > MaxBlockBytes {
		return nil, corrupt("block sizes %d/%d exceed %d", csize, usize, MaxBlockBytes)
	}
	plen := int64(csize) - blockHeader
	switch method {
	case MethodNone:
		if uint64(usize) != uint64(plen) {
			return nil, corrupt("uncompressed block of %d payload bytes declares %d", plen, usize)
		}
	case MethodLZ4:
		// An LZ4 sequence expands by at most 255 bytes per input byte.
		if uint64(usize) > 255*uint64(plen)+16 {
			return nil, corrupt("LZ4 block of %d bytes cannot hold %d", plen, usize)
		}
	case MethodZSTD:
		if uint64(usize) > zstdSlack+zstdRatio*uint64(plen) {
			return nil, corrupt("ZSTD block of %d bytes declares %d, over this reader's limit", plen, usize)
		}
	default:
		return nil, corrupt("unknown compression method 0x%02x", method)
	}
	// Read the payload through a growing buffer: a declared size past the
	// end of the input costs no more memory than the input has.
	var pb bytes.Buffer
	pb.Write(head[16:])
	if got, err := io.CopyN(&pb, b.r, plen); err != nil {
		if err == io.EOF {
			return nil, corrupt("block payload cut at %d of %d bytes", got, plen)
		}
		return nil, err
	}
	block := pb.Bytes()
	lo, hi := CityHash128(block)
	if binary.LittleEndian.Uint64(head[0:]) != lo || binary.LittleEndian.Uint64(head[8:]) != hi {
		return nil, corrupt("block checksum mismatch")
	}
	payload := block[blockHeader:]
	switch method {
	case MethodNone:
		return payload, nil
	case MethodLZ4:
		out := make([]byte, usize)
		n, err := lz4.UncompressBlock(payload, out)
		if err != nil || n != int(usize) {
			return nil, corrupt("LZ4 block does not decompress to its %d bytes", usize)
		}
		return out, nil
	default:
		// The window a block needs never exceeds its content, so a frame
		// that asks for more is refused before anything is allocated.
		win := uint64(1 << 10)
		for win < uint64(usize) {
			win <<= 1
		}
		d, err := zstd.NewReader(bytes.NewReader(payload), zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(win), zstd.WithDecoderMaxMemory(win))
		if err != nil {
			return nil, corrupt("ZSTD block: %v", err)
		}
		defer d.Close()
		// Stream into a buffer that grows with real output, capped one
		// byte past the declared size to detect a longer payload.
		var out bytes.Buffer
		n, err := io.Copy(&out, io.LimitReader(d, int64(usize)+1))
		if err != nil || n != int64(usize) {
			return nil, corrupt("ZSTD block does not decompress to its %d bytes", usize)
		}
		return out.Bytes(), nil
	}
}

// ReadGranules reads every granule of a skp_idx_<name>.idx file written for
// this index over columns columns: the compressed blocks are checksummed
// and decompressed, and the granules are cut from the stream in order.
// Bytes that are not such a file give an error wrapping ErrCorrupt, never a
// panic, and allocations stay within a small multiple of the input.
func (ix *Index) ReadGranules(r io.Reader, columns int) ([]*Granule, error) {
	if columns < 1 {
		return nil, fmt.Errorf("clickhouse: columns must be at least 1, got %d", columns)
	}
	br := NewBlockReader(r)
	var stream bytes.Buffer
	if _, err := stream.ReadFrom(br); err != nil {
		return nil, err
	}
	return ix.ParseGranules(stream.Bytes(), columns)
}

// ReadGranulesFile is ReadGranules of the file at path.
func (ix *Index) ReadGranulesFile(path string, columns int) ([]*Granule, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ix.ReadGranules(f, columns)
}

// ParseGranules cuts granules from an uncompressed index stream (what
// MarshalBinary returns, granule after granule). The granules keep no
// reference to data.
func (ix *Index) ParseGranules(data []byte, columns int) ([]*Granule, error) {
	if columns < 1 {
		return nil, fmt.Errorf("clickhouse: columns must be at least 1, got %d", columns)
	}
	var out []*Granule
	for len(data) > 0 {
		g := &Granule{ix: ix, filters: make([]*BloomFilter, columns), rows: make([]int, columns), added: true}
		size := ix.sizeBytes
		if ix.kind == BloomFilterIndex {
			total, n := binary.Uvarint(data)
			if n <= 0 || n > 9 {
				return nil, corrupt("granule %d: bad VarUInt", len(out))
			}
			data = data[n:]
			// total bits per column must fit what is left.
			if total == 0 || total > uint64(len(data))*8/uint64(ix.bitsRow)+1 {
				return nil, corrupt("granule %d: total %d does not fit the %d bytes left", len(out), total, len(data))
			}
			g.total = total
			size = int((uint64(ix.bitsRow)*total + 7) / 8)
		}
		if size <= 0 || len(data)/size < columns {
			return nil, corrupt("granule %d: %d bytes left, need %d columns of %d", len(out), len(data), columns, size)
		}
		hashes := ix.hashes
		if ix.kind == BloomFilterIndex {
			hashes = uint64(ix.k)
		}
		for c := range g.filters {
			f := newFilter(size, hashes, ix.seed)
			f.setBytes(data[:size])
			data = data[size:]
			g.filters[c] = f
		}
		out = append(out, g)
	}
	return out, nil
}
