package parquet

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/poisson"
	"github.com/filterengine/filterengine/internal/store"
)

// Filter is Parquet's split-block Bloom filter over a bitset of
// NumBytes() bytes (see the package doc for the layout, the hash and the
// serialized form). K is always 8.
//
// A zero Filter holds no value: its reads answer absent, its writes panic
// naming New, and it has no encoding.
//
// Concurrency: reads (Test*) are safe from many goroutines; a writer needs
// exclusive use.
type Filter struct {
	// words is numBlocks*4 words of storage (64-byte aligned); 32-bit
	// word i of block b is half i&1 of words[4b+i/2]. A large array is
	// mapped memory, which the words slice alone does not keep alive:
	// every method that hands words to a kernel ends with
	// runtime.KeepAlive(f.storage).
	words   []uint64
	blocks  uint64
	storage *store.Storage
}

// Bitset size bounds, the ones parquet-java, parquet-rs and arrow enforce.
const (
	MinBytes   = 32
	MaxBytes   = 128 << 20
	BlockBytes = 32
)

func checkBytes(numBytes int64) error {
	if numBytes < MinBytes || numBytes > MaxBytes || numBytes&(numBytes-1) != 0 {
		return errs.ParamErrorf("parquet bloom filter size %d bytes is not a power of two in [%d, %d]", numBytes, MinBytes, MaxBytes)
	}
	return nil
}

// New returns an empty Filter of numBytes bytes, a power of two from 32
// B to 128 MiB; anything else is an error wrapping engine.ErrParam.
func New(numBytes int) (*Filter, error) {
	if err := checkBytes(int64(numBytes)); err != nil {
		return nil, err
	}
	s, err := store.NewStorage(uint64(numBytes)/8, engine.HugePagesNever)
	if err != nil {
		return nil, err
	}
	return &Filter{words: s.Words(), blocks: uint64(numBytes) / BlockBytes, storage: s}, nil
}

// OptimalNumBytes returns the bitset size for ndv distinct values at
// false-positive rate fpp as arrow (arrow-go's and arrow C++'s
// OptimalNumOfBytes) computes it: m = -8 ndv / ln(1 - fpp^(1/8)) bits,
// truncated, clamped to [256 bits, 128 MiB], rounded up to a power of two,
// in bytes. It returns 0, which New rejects, for fpp outside (0, 1).
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
func OptimalNumBytes(ndv uint64, fpp float64) int {
	if !(fpp > 0 && fpp < 1) {
		return 0
	}
	m := -8 * float64(ndv) / math.Log(1-math.Pow(fpp, 1.0/8))
	var nbits uint64
	if m < 0 || m > MaxBytes*8 {
		nbits = MaxBytes * 8
	} else {
		nbits = uint64(m)
	}
	nbits = max(nbits, MinBytes*8)
	if nbits&(nbits-1) != 0 {
		nbits = 1 << bits.Len64(nbits)
	}
	return int(nbits / 8)
}

// FromBitset returns a Filter over a copy of bitset, the bare bytes of
// a Parquet bloom filter (without header). Its length must be a power of
// two from 32 B to 128 MiB.
func FromBitset(bitset []byte) (*Filter, error) {
	if err := checkBytes(int64(len(bitset))); err != nil {
		return nil, err
	}
	f, err := New(len(bitset))
	if err != nil {
		return nil, err
	}
	store.CopyWords(f.words, bitset)
	return f, nil
}

// Bitset returns the filter's bytes as Parquet stores them after the
// header. On little-endian hosts it is a view that aliases the filter
// (writes to either show in both) and is valid only while the filter is
// reachable: a large filter's array is mapped memory, which the view
// alone does not keep alive. Elsewhere it is a copy.
func (f *Filter) Bitset() []byte { return store.WordsBytes(f.words) }

// NumBytes returns the size of the bitset in bytes.
func (f *Filter) NumBytes() int { return int(f.blocks * BlockBytes) }

// SizeBytes returns the size of the bitset in bytes.
func (f *Filter) SizeBytes() uint64 { return f.blocks * BlockBytes }

// M returns the number of bits.
func (f *Filter) M() uint64 { return f.blocks * 256 }

// K returns the bits every value sets: 8.
func (f *Filter) K() uint32 { return 8 }

// Blocks returns the number of 256-bit blocks.
func (f *Filter) Blocks() uint64 { return f.blocks }

// String describes the filter in one line.
func (f *Filter) String() string {
	return fmt.Sprintf("parquet.Filter{bytes: %d, blocks: %d, fill: %.4f}", f.NumBytes(), f.blocks, f.FillRatio())
}

// Hash returns the hash Parquet gives a value whose plain encoding is
// b: XXH64 with seed 0.
func Hash(b []byte) uint64 { return hashing.XXH64(b, 0) }

// errZero is the panic of a write to a Filter not built by a
// constructor; reads of one answer as an empty filter. It is the message
// of batch.Zero("parquet.Filter", "parquet.New"), written out so that
// AddHash stays inlinable (the tests hold the two equal).
const errZero = "parquet.Filter: zero value, use parquet.New"

// AddHash adds a value given its hash Hash(value).
func (f *Filter) AddHash(h uint64) {
	if f.blocks == 0 {
		panic(errZero)
	}
	asm.SBBFAddHash(f.words, h)
	runtime.KeepAlive(f.storage)
}

// TestHash reports whether the value with hash h may have been added.
func (f *Filter) TestHash(h uint64) bool {
	hit := asm.SBBFTestHash(f.words, h)
	runtime.KeepAlive(f.storage)
	return hit
}

// TestAndAddHash adds h and reports whether it tested present before.
func (f *Filter) TestAndAddHash(h uint64) bool {
	hit := f.TestHash(h)
	if !hit {
		f.AddHash(h)
	}
	return hit
}

// Add adds the value whose plain-encoded bytes are v.
func (f *Filter) Add(v []byte) { f.AddHash(hashing.XXH64(v, 0)) }

// Test reports whether the value whose plain-encoded bytes are v may have
// been added; false is certain.
func (f *Filter) Test(v []byte) bool { return f.TestHash(hashing.XXH64(v, 0)) }

// TestAndAdd adds v and reports whether it tested present before.
func (f *Filter) TestAndAdd(v []byte) bool { return f.TestAndAddHash(hashing.XXH64(v, 0)) }

// AddString adds a BYTE_ARRAY (string) value, hashing its bytes without
// copying them.
func (f *Filter) AddString(s string) { f.AddHash(hashing.XXH64String(s)) }

// TestString tests a BYTE_ARRAY (string) value.
func (f *Filter) TestString(s string) bool { return f.TestHash(hashing.XXH64String(s)) }

// AddUint64 adds an INT64 value (its 8 little-endian bytes).
func (f *Filter) AddUint64(k uint64) { f.AddHash(hashing.XXH64Uint64(k)) }

// TestUint64 tests an INT64 value.
func (f *Filter) TestUint64(k uint64) bool { return f.TestHash(hashing.XXH64Uint64(k)) }

// AddHashes adds every hash with the batch kernel.
func (f *Filter) AddHashes(hs []uint64) {
	if f.blocks == 0 {
		panic(errZero)
	}
	asm.SBBFAddHashes(f.words, hs)
	runtime.KeepAlive(f.storage)
}

// TestHashes sets out[i] = TestHash(hs[i]) with the batch kernel and
// returns the number of hits. out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("parquet.Filter", out, len(hs))
	if f.blocks == 0 {
		clear(out)
		return 0
	}
	hits := asm.SBBFTestHashes(f.words, hs, out)
	runtime.KeepAlive(f.storage)
	return hits
}

// AddUint64s adds INT64 values, hashed in batch.
func (f *Filter) AddUint64s(ks []uint64) {
	var b batch.Hashes
	for base := 0; base < len(ks); base += batch.Chunk {
		f.AddHashes(b.XXH64Uint64s(ks[base:]))
	}
}

// TestUint64s sets out[i] = TestUint64(ks[i]) and returns the number of
// hits. out must be at least as long as ks.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	out = batch.Out("parquet.Filter", out, len(ks))
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(ks); base += batch.Chunk {
		hits += f.TestHashes(b.XXH64Uint64s(ks[base:]), out[base:])
	}
	return hits
}

// AddKeys adds every value.
func (f *Filter) AddKeys(keys [][]byte) {
	var b batch.Hashes
	for base := 0; base < len(keys); base += batch.Chunk {
		f.AddHashes(b.XXH64Keys(keys[base:]))
	}
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
// out must be at least as long as keys.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	out = batch.Out("parquet.Filter", out, len(keys))
	var b batch.Hashes
	hits := 0
	for base := 0; base < len(keys); base += batch.Chunk {
		hits += f.TestHashes(b.XXH64Keys(keys[base:]), out[base:])
	}
	return hits
}

// Clone returns an independent copy.
func (f *Filter) Clone() *Filter {
	if f.blocks == 0 {
		return &Filter{}
	}
	g, err := New(f.NumBytes())
	if err != nil {
		panic(err) // memory refused: an error wrapping engine.ErrMemory
	}
	copy(g.words, f.words)
	runtime.KeepAlive(f.storage)
	return g
}

// Union ORs g into f; both must have the same size.
func (f *Filter) Union(g *Filter) error {
	if f.blocks != g.blocks {
		return errs.ParamErrorf("Filter sizes differ (%d and %d bytes)", f.NumBytes(), g.NumBytes())
	}
	for i, w := range g.words {
		f.words[i] |= w
	}
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(g.storage)
	return nil
}

// Equal reports whether f and g have the same bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.blocks != g.blocks {
		return false
	}
	eq := true
	for i, w := range g.words {
		if f.words[i] != w {
			eq = false
			break
		}
	}
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(g.storage)
	return eq
}

// Reset clears every bit.
func (f *Filter) Reset() {
	clear(f.words)
	runtime.KeepAlive(f.storage)
}

func (f *Filter) setBits() uint64 {
	var n uint64
	for _, w := range f.words {
		n += uint64(bits.OnesCount64(w))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// FillRatio returns the fraction of bits that are one (0 for the zero
// value, which has no bits).
func (f *Filter) FillRatio() float64 {
	if f.blocks == 0 {
		return 0
	}
	return float64(f.setBits()) / float64(f.M())
}

// ModelFPR is the false-positive rate the model of the package doc predicts
// after n distinct values.
func (f *Filter) ModelFPR(n uint64) float64 { return FPR(f.blocks, n) }

// FPR is the model false-positive rate of a Filter of blocks blocks
// holding n distinct values.
func FPR(blocks, n uint64) float64 {
	if blocks == 0 {
		return 1
	}
	miss := math.Log1p(-1.0 / 32)
	return poisson.Average(float64(n)/float64(blocks), func(i float64) float64 {
		return math.Pow(-math.Expm1(i*miss), 8)
	})
}

// EstimatedCount estimates the distinct values added from the set bits:
// a block's word receives one uniform bit from each of the n/blocks values
// of its block on average, so the expected fill is 1 - (31/32)^(n/blocks).
func (f *Filter) EstimatedCount() float64 {
	fill := f.FillRatio()
	if fill >= 1 {
		return math.Inf(1)
	}
	return float64(f.blocks) * math.Log1p(-fill) / math.Log1p(-1.0/32)
}
