package blocked

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// SBBF is Parquet's split-block Bloom filter, bit for bit as
// parquet-format specifies it (BloomFilter.md in
// github.com/apache/parquet-format) and as Spark, Trino, DuckDB, arrow,
// parquet-java (parquet-mr) and parquet-rs write and read it in a column
// chunk's bloom filter.
//
// Layout. The bitset is numBytes bytes, a power of two from 32 B to
// 128 MiB: numBytes/32 blocks of eight little-endian 32-bit words. A value
// is hashed with XXH64, seed 0, of its plain-encoded bytes (a string's
// bytes without the length prefix; an INT64 its 8 little-endian bytes) to
// h; its block is ((h >> 32) * numBlocks) >> 32, and word i of the block
// gets bit (uint32(h) * salt[i]) >> 27 for the spec's eight odd salts
// (asm.SBBFSalt). So every value sets eight bits, one per word, in one
// 32-byte block: one cache line at most.
//
// False-positive model: block loads are Poisson with mean
// lambda = n / numBlocks, and a block holding i values answers a foreign
// value yes with chance (1 - (31/32)^i)^8 (ModelFPR). SBBFNumBytes sizes a
// filter as arrow does, from the spec's formula for bits per value at a
// target rate; at fpp = 1% that is 9.68 bits per value before the
// rounding up to a power of two.
//
// Serialized form. MarshalBinary and WriteTo write what a Parquet file
// stores at a column chunk's bloom_filter_offset: the Thrift compact
// BloomFilterHeader (numBytes; algorithm BLOCK; hash XXHASH; compression
// UNCOMPRESSED) and then the bitset. ReadSBBF and UnmarshalBinary read
// it (DecodeSBBF and ReadSBBF are its Decode and Read), and MarshalText
// is that form in base64. SBBFFromBitset and Bitset deal in the bare
// bitset. This is not the envelope of Filter: an SBBF's bytes are the
// ones other engines read. K is always 8.
//
// A zero SBBF holds no value: its reads answer absent, its writes panic
// naming NewSBBF, and it has no encoding.
//
// Concurrency: reads (Test*) are safe from many goroutines; a writer needs
// exclusive use.
type SBBF struct {
	// words is numBlocks*4 words on the Go heap (64-byte aligned); 32-bit
	// word i of block b is half i&1 of words[4b+i/2]. Heap memory, unlike
	// blocked.Filter's huge-page mappings, stays alive through the slice,
	// so the single-key methods need no KeepAlive and no frame.
	words  []uint64
	blocks uint64
}

// SBBF size bounds, the ones parquet-java, parquet-rs and arrow enforce.
const (
	SBBFMinBytes   = 32
	SBBFMaxBytes   = 128 << 20
	SBBFBlockBytes = 32
)

func checkSBBFBytes(numBytes int64) error {
	if numBytes < SBBFMinBytes || numBytes > SBBFMaxBytes || numBytes&(numBytes-1) != 0 {
		return errs.ParamErrorf("SBBF size %d bytes is not a power of two in [%d, %d]", numBytes, SBBFMinBytes, SBBFMaxBytes)
	}
	return nil
}

// NewSBBF returns an empty SBBF of numBytes bytes, a power of two from 32
// B to 128 MiB; anything else is an error wrapping engine.ErrParam.
func NewSBBF(numBytes int) (*SBBF, error) {
	if err := checkSBBFBytes(int64(numBytes)); err != nil {
		return nil, err
	}
	// On the heap (at most 128 MiB): the methods keep no Storage alive.
	return &SBBF{words: store.HeapWords(numBytes / 8), blocks: uint64(numBytes) / SBBFBlockBytes}, nil
}

// SBBFNumBytes returns the bitset size for ndv distinct values at
// false-positive rate fpp as arrow (arrow-go's and arrow C++'s
// OptimalNumOfBytes) computes it: m = -8 ndv / ln(1 - fpp^(1/8)) bits,
// truncated, clamped to [256 bits, 128 MiB], rounded up to a power of two,
// in bytes. It returns 0, which NewSBBF rejects, for fpp outside (0, 1).
//
// parquet-java (BlockSplitBloomFilter.optimalNumOfBits, whose result its
// writer divides by 8 and whose constructor rounds up to a power of two)
// starts from the same m but rounds differently: it adds 255 bits and
// clears bit 8 (meant as a rounding to whole 256-bit blocks, it yields
// m + 255 or m - 1), then truncates to bytes before taking the power of
// two. Its filter is therefore twice arrow's when m lies within 255 bits
// below a power of two (ndv = 30, fpp = 1%: m = 290 bits, arrow 64 B,
// parquet-java 128 B) and half of it when m lies a few bits above one
// (ndv = 106: m = 1026 bits, arrow 256 B, parquet-java 128 B); elsewhere
// they agree. Those windows are a large share of the range for small
// filters and a sliver for large ones. Readers take any power of two, so
// both interoperate; only the size chosen for a given ndv differs.
func SBBFNumBytes(ndv uint64, fpp float64) int {
	if !(fpp > 0 && fpp < 1) {
		return 0
	}
	m := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	var nbits uint64
	if m < 0 || m > SBBFMaxBytes*8 {
		nbits = SBBFMaxBytes * 8
	} else {
		nbits = uint64(m)
	}
	nbits = max(nbits, SBBFMinBytes*8)
	if nbits&(nbits-1) != 0 {
		nbits = 1 << bits.Len64(nbits)
	}
	return int(nbits / 8)
}

// SBBFFromBitset returns an SBBF over a copy of bitset, the bare bytes of
// a Parquet bloom filter (without header). Its length must be a power of
// two from 32 B to 128 MiB.
func SBBFFromBitset(bitset []byte) (*SBBF, error) {
	if err := checkSBBFBytes(int64(len(bitset))); err != nil {
		return nil, err
	}
	f, err := NewSBBF(len(bitset))
	if err != nil {
		return nil, err
	}
	store.CopyWords(f.words, bitset)
	return f, nil
}

// Bitset returns the filter's bytes as Parquet stores them after the
// header. On little-endian hosts it is a view that aliases the filter
// (writes to either show in both); elsewhere a copy.
func (f *SBBF) Bitset() []byte { return store.WordsBytes(f.words) }

// NumBytes returns the size of the bitset in bytes.
func (f *SBBF) NumBytes() int { return int(f.blocks * SBBFBlockBytes) }

// SizeBytes returns the size of the bitset in bytes.
func (f *SBBF) SizeBytes() uint64 { return f.blocks * SBBFBlockBytes }

// M returns the number of bits.
func (f *SBBF) M() uint64 { return f.blocks * 256 }

// K returns the bits every value sets: 8.
func (f *SBBF) K() uint32 { return 8 }

// Blocks returns the number of 256-bit blocks.
func (f *SBBF) Blocks() uint64 { return f.blocks }

// String describes the filter in one line.
func (f *SBBF) String() string {
	return fmt.Sprintf("blocked.SBBF{bytes: %d, blocks: %d, fill: %.4f}", f.NumBytes(), f.blocks, f.FillRatio())
}

// SBBFHash returns the hash Parquet gives a value whose plain encoding is
// b: XXH64 with seed 0.
func SBBFHash(b []byte) uint64 { return hashing.XXH64(b, 0) }

// errZeroSBBF is the panic of a write to an SBBF not built by a
// constructor; reads of one answer as an empty filter. It is the message
// of batch.Zero("blocked.SBBF", "blocked.NewSBBF"), written out so that
// AddHash stays inlinable (the tests hold the two equal).
const errZeroSBBF = "blocked.SBBF: zero value, use blocked.NewSBBF"

// AddHash adds a value given its hash SBBFHash(value).
func (f *SBBF) AddHash(h uint64) {
	if f.blocks == 0 {
		panic(errZeroSBBF)
	}
	asm.SBBFAddHash(f.words, h)
}

// TestHash reports whether the value with hash h may have been added.
func (f *SBBF) TestHash(h uint64) bool { return asm.SBBFTestHash(f.words, h) }

// TestAndAddHash adds h and reports whether it tested present before.
func (f *SBBF) TestAndAddHash(h uint64) bool {
	hit := f.TestHash(h)
	if !hit {
		f.AddHash(h)
	}
	return hit
}

// Add adds the value whose plain-encoded bytes are v.
func (f *SBBF) Add(v []byte) { f.AddHash(hashing.XXH64(v, 0)) }

// Test reports whether the value whose plain-encoded bytes are v may have
// been added; false is certain.
func (f *SBBF) Test(v []byte) bool { return f.TestHash(hashing.XXH64(v, 0)) }

// TestAndAdd adds v and reports whether it tested present before.
func (f *SBBF) TestAndAdd(v []byte) bool { return f.TestAndAddHash(hashing.XXH64(v, 0)) }

// AddString adds a BYTE_ARRAY (string) value, hashing its bytes without
// copying them.
func (f *SBBF) AddString(s string) { f.AddHash(hashing.XXH64String(s)) }

// TestString tests a BYTE_ARRAY (string) value.
func (f *SBBF) TestString(s string) bool { return f.TestHash(hashing.XXH64String(s)) }

// AddUint64 adds an INT64 value (its 8 little-endian bytes).
func (f *SBBF) AddUint64(k uint64) { f.AddHash(hashing.XXH64Uint64(k)) }

// TestUint64 tests an INT64 value.
func (f *SBBF) TestUint64(k uint64) bool { return f.TestHash(hashing.XXH64Uint64(k)) }

// AddHashes adds every hash with the batch kernel.
func (f *SBBF) AddHashes(hs []uint64) {
	if f.blocks == 0 {
		panic(errZeroSBBF)
	}
	asm.SBBFAddHashes(f.words, hs)
}

// TestHashes sets out[i] = TestHash(hs[i]) with the batch kernel and
// returns the number of hits. out must be at least as long as hs.
func (f *SBBF) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("blocked.SBBF", out, len(hs))
	if f.blocks == 0 {
		clear(out)
		return 0
	}
	return asm.SBBFTestHashes(f.words, hs, out)
}

// AddUint64s adds INT64 values, hashed in batch.
func (f *SBBF) AddUint64s(ks []uint64) {
	keyBatch{p: f}.add(ks, nil, len(ks))
}

// TestUint64s sets out[i] = TestUint64(ks[i]) and returns the number of
// hits. out must be at least as long as ks.
func (f *SBBF) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{p: f}.test(ks, nil, len(ks), out)
}

// AddKeys adds every value.
func (f *SBBF) AddKeys(keys [][]byte) {
	keyBatch{p: f}.add(nil, keys, len(keys))
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
// out must be at least as long as keys.
func (f *SBBF) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{p: f}.test(nil, keys, len(keys), out)
}

// Clone returns an independent copy.
func (f *SBBF) Clone() *SBBF {
	if f.blocks == 0 {
		return &SBBF{}
	}
	g, err := NewSBBF(f.NumBytes())
	if err != nil {
		panic(err) // f's size was valid when f was built
	}
	copy(g.words, f.words)
	return g
}

// Union ORs g into f; both must have the same size.
func (f *SBBF) Union(g *SBBF) error {
	if f.blocks != g.blocks {
		return errs.ParamErrorf("SBBF sizes differ (%d and %d bytes)", f.NumBytes(), g.NumBytes())
	}
	for i, w := range g.words {
		f.words[i] |= w
	}
	return nil
}

// Equal reports whether f and g have the same bits.
func (f *SBBF) Equal(g *SBBF) bool {
	if f.blocks != g.blocks {
		return false
	}
	for i, w := range g.words {
		if f.words[i] != w {
			return false
		}
	}
	return true
}

// Reset clears every bit.
func (f *SBBF) Reset() {
	clear(f.words)
}

func (f *SBBF) setBits() uint64 {
	var n uint64
	for _, w := range f.words {
		n += uint64(bits.OnesCount64(w))
	}
	return n
}

// FillRatio returns the fraction of bits that are one (0 for the zero
// value, which has no bits).
func (f *SBBF) FillRatio() float64 {
	if f.blocks == 0 {
		return 0
	}
	return float64(f.setBits()) / float64(f.M())
}

// ModelFPR is the false-positive rate the model of the type doc predicts
// after n distinct values.
func (f *SBBF) ModelFPR(n uint64) float64 { return SBBFFPR(f.blocks, n) }

// SBBFFPR is the model false-positive rate of an SBBF of blocks blocks
// holding n distinct values.
func SBBFFPR(blocks, n uint64) float64 {
	if blocks == 0 {
		return 1
	}
	miss := math.Log1p(-1.0 / 32)
	return poissonAverage(float64(n)/float64(blocks), func(i float64) float64 {
		return math.Pow(-math.Expm1(i*miss), 8)
	})
}

// EstimatedCount estimates the distinct values added from the set bits:
// a block's word receives one uniform bit from each of the n/blocks values
// of its block on average, so the expected fill is 1 - (31/32)^(n/blocks).
func (f *SBBF) EstimatedCount() float64 {
	fill := f.FillRatio()
	if fill >= 1 {
		return math.Inf(1)
	}
	return float64(f.blocks) * math.Log1p(-fill) / math.Log1p(-1.0/32)
}
