package blocked

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// Narrow is a blocked Bloom filter of 128-bit or 64-bit blocks (the
// narrow-block scheme of asm.NarrowPositions): a key's k bits lie in one
// block of two words or one word, at positions drawn independently (two
// probes may share a bit). It is the exact bit twin of a counting filter
// whose key counters share one 64-byte line (counting's ToBloom returns
// one), and costs more bits per key than 512-bit lines for the same p
// (NarrowBitsPerKeyAndK). Its batch forms run in Go at every kernel
// level. Its methods are not safe for concurrent use, except that many
// goroutines may call the Test forms at once.
type Narrow struct {
	storage   *store.Storage
	words     []uint64
	blocks    uint64
	k         uint32
	logBits   uint // 6 (64-bit blocks) or 7 (128-bit)
	blockWord uint // log2 of the words per block: 0 or 1
	seed      uint64
	key       uint64 // hashing.Uint64Key(seed)
}

// NewNarrow returns a narrow filter of blockBits-bit blocks (64 or 128)
// sized for n keys at false-positive rate p: k and the bits per key from
// NarrowBitsPerKeyAndK, rounded up to whole blocks. Options:
// engine.WithSeed, engine.WithHugePages.
func NewNarrow(n uint64, p float64, blockBits int, opts ...engine.Option) (*Narrow, error) {
	if err := errs.CheckNP(n, p); err != nil {
		return nil, err
	}
	bpk, k, err := NarrowBitsPerKeyAndK(p, blockBits)
	if err != nil {
		return nil, err
	}
	m := math.Ceil(float64(n)*bpk/float64(blockBits)) * float64(blockBits)
	if m > engine.MaxBits {
		return nil, errs.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(engine.MaxBits))
	}
	return NewNarrowMK(uint64(m), k, blockBits, opts...)
}

// NewNarrowMK returns a narrow filter of at least m bits in blockBits-bit
// blocks (64 or 128) with k probes per key.
func NewNarrowMK(m uint64, k uint32, blockBits int, opts ...engine.Option) (*Narrow, error) {
	logBits, err := narrowLogBits(blockBits)
	if err != nil {
		return nil, err
	}
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	c, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	blocks := (m + uint64(blockBits) - 1) / uint64(blockBits)
	s, err := store.NewStorage(blocks<<(logBits-6), c.HugePages)
	if err != nil {
		return nil, err
	}
	return newNarrow(s, blocks, k, logBits, c.Seed), nil
}

// NarrowFromWords returns a narrow filter over a copy of words, a whole
// number of blockBits-bit blocks laid out as asm.NarrowPositions says
// (bit q of a block is bit q&63 of its word q>>6), with k probes.
func NarrowFromWords(words []uint64, blockBits int, k uint32, opts ...engine.Option) (*Narrow, error) {
	logBits, err := narrowLogBits(blockBits)
	if err != nil {
		return nil, err
	}
	per := 1 << (logBits - 6)
	if len(words) == 0 || len(words)%per != 0 {
		return nil, errs.ParamErrorf("%d words are not a whole number of %d-bit blocks", len(words), blockBits)
	}
	f, err := NewNarrowMK(uint64(len(words))*64, k, blockBits, opts...)
	if err != nil {
		return nil, err
	}
	copy(f.words, words)
	return f, nil
}

func newNarrow(s *store.Storage, blocks uint64, k uint32, logBits uint, seed uint64) *Narrow {
	return &Narrow{storage: s, words: s.Words(), blocks: blocks, k: k, logBits: logBits,
		blockWord: logBits - 6, seed: seed, key: hashing.Uint64Key(seed)}
}

// M returns the number of bits, blocks times the block size.
func (f *Narrow) M() uint64 { return f.blocks << f.logBits }

// K returns the number of probes per key.
func (f *Narrow) K() uint32 { return f.k }

// BlockBits returns the block size, 64 or 128.
func (f *Narrow) BlockBits() int { return 1 << f.logBits }

// Blocks returns the number of blocks.
func (f *Narrow) Blocks() uint64 { return f.blocks }

// Seed returns the hash seed.
func (f *Narrow) Seed() uint64 { return f.seed }

// SizeBytes returns the size of the bit array.
func (f *Narrow) SizeBytes() uint64 { return f.M() / 8 }

// HugePages reports whether the array lives in huge-page-advised memory.
func (f *Narrow) HugePages() bool { return f.storage != nil && f.storage.HugePages() }

// Words returns the bit array. It aliases the filter and is invalid
// after Close.
func (f *Narrow) Words() []uint64 { return f.words }

// Close releases a huge-page array at once. The filter must not be used
// afterwards.
func (f *Narrow) Close() error {
	f.words, f.blocks = nil, 0
	if f.storage == nil {
		return nil
	}
	return f.storage.Close()
}

// ModelFPR is NarrowFPR of this filter after n keys.
func (f *Narrow) ModelFPR(n uint64) float64 {
	if len(f.words) == 0 {
		return 0 // a zero Narrow holds no key
	}
	return NarrowFPR(f.M(), n, f.k, f.BlockBits())
}

// EstimatedCount estimates the keys added from the set bits
// (engine.EstimateCount).
func (f *Narrow) EstimatedCount() float64 {
	if len(f.words) == 0 {
		return 0 // a zero Narrow holds no key
	}
	var set uint64
	for _, w := range f.words {
		set += uint64(bits.OnesCount64(w))
	}
	runtime.KeepAlive(f.storage)
	return engine.EstimateCount(f.M(), f.k, set)
}

// String describes the filter in one line.
func (f *Narrow) String() string {
	return fmt.Sprintf("blocked.Narrow{m: %d, k: %d, block: %d bits, %d bytes}", f.M(), f.k, f.BlockBits(), f.SizeBytes())
}

// Clone returns a deep copy, in huge-page memory if f is and the system
// gives it, else on the heap. A zero Narrow clones to a zero Narrow.
func (f *Narrow) Clone() *Narrow {
	if len(f.words) == 0 {
		return &Narrow{}
	}
	mode := engine.HugePagesNever
	if f.HugePages() {
		mode = engine.HugePagesAlways
	}
	s, err := store.NewStorage(uint64(len(f.words)), mode)
	if err != nil && mode != engine.HugePagesNever {
		s, err = store.NewStorage(uint64(len(f.words)), engine.HugePagesNever)
	}
	if err != nil {
		panic(fmt.Errorf("blocked: Clone of %d bytes: %w", f.SizeBytes(), err))
	}
	g := newNarrow(s, f.blocks, f.k, f.logBits, f.seed)
	copy(g.words, f.words)
	runtime.KeepAlive(f.storage)
	return g
}

// mask returns the bits of hash h in its block, asm.NarrowPositions
// walked inline with constant shifts: the block's two words (64-bit
// blocks use only the first).
func (f *Narrow) mask(h uint64) (m [2]uint64) {
	gr := h * asm.BlockedMul
	if f.logBits == 7 {
		for k := f.k; ; k -= 9 {
			g := gr
			for range min(k, 9) {
				q := g >> 57
				m[q>>6&1] |= 1 << (q & 63)
				g <<= 7
			}
			if k <= 9 {
				return m
			}
			gr *= asm.BlockedMul
		}
	}
	for k := f.k; ; k -= 10 {
		g := gr
		for range min(k, 10) {
			m[0] |= 1 << (g >> 58)
			g <<= 6
		}
		if k <= 10 {
			return m
		}
		gr *= asm.BlockedMul
	}
}

// block returns the words of h's block (two; for 64-bit blocks only the
// first is h's).
func (f *Narrow) block(h uint64) []uint64 {
	return f.words[asm.NarrowBlock(h, f.blocks)<<f.blockWord:]
}

// zeroNarrow is the panic of a write to a Narrow without blocks (the
// zero value, or after Close); reads of one answer as an empty filter.
func zeroNarrow() { batch.Zero("blocked.Narrow", "blocked.NewNarrow") }

// AddHash adds a key by its hash engine.HashSeed(key, f.Seed()).
func (f *Narrow) AddHash(h uint64) {
	b, m := f.block(h), f.mask(h)
	if len(b) == 0 {
		zeroNarrow()
	}
	b[0] |= m[0]
	if f.blockWord == 1 {
		b[1] |= m[1]
	}
	runtime.KeepAlive(f.storage)
}

// TestHash reports whether the key with hash h may have been added.
func (f *Narrow) TestHash(h uint64) bool {
	b, m := f.block(h), f.mask(h)
	if len(b) == 0 {
		return false
	}
	miss := m[0] &^ b[0]
	if f.blockWord == 1 {
		miss |= m[1] &^ b[1]
	}
	runtime.KeepAlive(f.storage)
	return miss == 0
}

// TestAndAddHash adds the key with hash h and reports whether TestHash
// would have answered true just before.
func (f *Narrow) TestAndAddHash(h uint64) bool {
	b, m := f.block(h), f.mask(h)
	if len(b) == 0 {
		zeroNarrow()
	}
	miss := m[0] &^ b[0]
	b[0] |= m[0]
	if f.blockWord == 1 {
		miss |= m[1] &^ b[1]
		b[1] |= m[1]
	}
	runtime.KeepAlive(f.storage)
	return miss == 0
}

func (f *Narrow) hash(key []byte) uint64 { return engine.HashSeed(key, f.seed) }

// Add adds key.
func (f *Narrow) Add(key []byte) { f.AddHash(f.hash(key)) }

// Test reports whether key may have been added; false is certain.
func (f *Narrow) Test(key []byte) bool { return f.TestHash(f.hash(key)) }

// TestAndAdd adds key and reports whether Test would have answered true.
func (f *Narrow) TestAndAdd(key []byte) bool { return f.TestAndAddHash(f.hash(key)) }

// AddUint64 adds the 8 little-endian bytes of k.
func (f *Narrow) AddUint64(k uint64) { f.AddHash(hashing.HashUint64Keyed(k, f.key)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Narrow) TestUint64(k uint64) bool { return f.TestHash(hashing.HashUint64Keyed(k, f.key)) }

// AddString adds the bytes of s without copying them.
func (f *Narrow) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.seed)) }

// TestString is Test of the bytes of s, without copying them.
func (f *Narrow) TestString(s string) bool { return f.TestHash(engine.HashStringSeed(s, f.seed)) }

// AddHashes adds every hash of hs.
func (f *Narrow) AddHashes(hs []uint64) {
	for _, h := range hs {
		f.AddHash(h)
	}
}

// TestHashes sets out[i] = TestHash(hs[i]) and returns the number of
// hits; out must be at least as long as hs. It runs in Go at every
// kernel level.
func (f *Narrow) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("blocked.Narrow", out, len(hs))
	n := 0
	for i, h := range hs {
		out[i] = f.TestHash(h)
		n += int(b2u(out[i]))
	}
	return n
}

// AddUint64s adds the 8 little-endian bytes of every key, hashed in batch.
func (f *Narrow) AddUint64s(ks []uint64) {
	keyBatch{n: f}.add(ks, nil, len(ks))
}

// AddKeys adds every key.
func (f *Narrow) AddKeys(keys [][]byte) {
	keyBatch{n: f}.add(nil, keys, len(keys))
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits; the keys are hashed once, in batch.
func (f *Narrow) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{n: f}.test(ks, nil, len(ks), out)
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
func (f *Narrow) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{n: f}.test(nil, keys, len(keys), out)
}

// Serialized form: the engine envelope of the blocked family, version 2
// (version 1 is the 512-bit-line Filter, which Decode reads), parameters
// [bits, k, block bits] and the words in little-endian order.
const narrowFormatVersion = 2

func (f *Narrow) header() store.Header {
	return store.Header{Family: store.FamilyBlocked, Version: narrowFormatVersion, Seed: f.seed,
		Params: []uint64{f.M(), uint64(f.k), uint64(f.BlockBits())}}
}

// errZeroNarrow is the error of encoding a Narrow without blocks.
var errZeroNarrow = errs.ParamErrorf("zero blocked.Narrow has no encoding: use blocked.NewNarrow")

// MarshalBinary encodes the filter in the engine envelope. A zero Narrow
// has no encoding (an error wrapping engine.ErrParam).
func (f *Narrow) MarshalBinary() ([]byte, error) {
	if f.blocks == 0 {
		return nil, errZeroNarrow
	}
	out, err := store.AppendEnvelope(make([]byte, 0, store.HeaderSize+f.SizeBytes()), f.header(), store.WordsBytes(f.words))
	runtime.KeepAlive(f.storage)
	return out, err
}

// WriteTo writes MarshalBinary's bytes to w.
func (f *Narrow) WriteTo(w io.Writer) (int64, error) {
	if f.blocks == 0 {
		return 0, errZeroNarrow
	}
	n, err := store.WriteEnvelope(w, f.header(), store.WordsBytes(f.words))
	runtime.KeepAlive(f.storage)
	return n, err
}

// MarshalText is MarshalBinary in standard base64.
func (f *Narrow) MarshalText() ([]byte, error) { return store.MarshalText(f.MarshalBinary()) }

// UnmarshalText decodes MarshalText's form into f.
func (f *Narrow) UnmarshalText(text []byte) error {
	return store.UnmarshalText(text, f.UnmarshalBinary)
}

// UnmarshalBinary replaces f by the narrow filter encoded in data;
// corrupted, truncated or foreign bytes give an error wrapping
// engine.ErrFormat and leave f unchanged.
func (f *Narrow) UnmarshalBinary(data []byte) error {
	return store.Unmarshal(data, f.decodeWith(nil))
}

// ReadFrom reads one envelope from r and replaces f by its filter.
func (f *Narrow) ReadFrom(r io.Reader) (int64, error) {
	return store.ReadFrom(r, f.decodeWith(nil))
}

// DecodeNarrow returns the narrow filter encoded in data; opts choose its
// storage.
func DecodeNarrow(data []byte, opts ...engine.Option) (*Narrow, error) {
	f := &Narrow{}
	if err := store.Unmarshal(data, f.decodeWith(opts)); err != nil {
		return nil, err
	}
	return f, nil
}

// ReadNarrow reads one narrow filter from r; opts choose its storage.
func ReadNarrow(r io.Reader, opts ...engine.Option) (*Narrow, error) {
	f := &Narrow{}
	if _, err := store.ReadFrom(r, f.decodeWith(opts)); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *Narrow) decodeWith(opts []engine.Option) func(store.Header, []byte) error {
	return func(h store.Header, payload []byte) error {
		if err := h.Expect(store.FamilyBlocked, narrowFormatVersion, 3); err != nil {
			return err
		}
		m, k, blockBits := h.Params[0], h.Params[1], h.Params[2]
		logBits, err := narrowLogBits(int(min(blockBits, 1<<10)))
		if err != nil {
			return errs.FormatErrorf("narrow blocked filter of %d-bit blocks", blockBits)
		}
		if m == 0 || m%blockBits != 0 || m > engine.MaxBits {
			return errs.FormatErrorf("narrow blocked filter of %d bits, not a positive multiple of %d up to %d", m, blockBits, uint64(engine.MaxBits))
		}
		if k == 0 || k > engine.MaxK {
			return errs.FormatErrorf("narrow blocked filter with k = %d, outside [1, %d]", k, engine.MaxK)
		}
		if uint64(len(payload)) != m/8 {
			return errs.FormatErrorf("narrow blocked payload of %d bytes, want %d for %d bits", len(payload), m/8, m)
		}
		c, err := applyOptions(opts)
		if err != nil {
			return err
		}
		s, err := store.NewStorage(m/64, c.HugePages)
		if err != nil {
			return err
		}
		store.CopyWords(s.Words(), payload)
		*f = *newNarrow(s, m>>logBits, uint32(k), logBits, h.Seed)
		return nil
	}
}
