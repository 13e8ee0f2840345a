package shifting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

// MaxK is the largest number of bits per key a membership filter takes
// (MaxK/2 probe pairs).
const MaxK = engine.MaxK

// Filter is ShBF_M, the shifting Bloom filter for membership queries:
// m bits (plus padding) where every key sets k/2 pairs of bits h_i and
// h_i + o, tested with one memory access per pair.
//
// Plain reads (Test and its forms) are safe from many goroutines; a
// writer needs exclusive use, or the *Concurrent forms (AddConcurrent,
// AddHashConcurrent, AddHashesConcurrent, AddUint64sConcurrent,
// TestConcurrent, TestHashConcurrent, and TestAndAdd, TestAndAddHash:
// atomic ORs and loads, lock-free), which run together and beside plain
// reads.
//
// The zero Filter has no bits: M, K, SizeBytes and String answer for an
// empty filter, every other method panics with a message naming New.
type Filter struct {
	st    *engine.Storage
	m     uint64 // positions h_i are in [0, m)
	m2    uint64 // bits of the second array, 0 without WithSecondArray
	base2 uint64 // first word of the second array
	k     uint32
	seed  uint64
}

// New returns a membership filter sized for n keys at false-positive rate
// p by the paper's model (FPR, or FPRSecondArray with WithSecondArray):
// the smallest m over even k. At p = 1% that is m = 9.69 n bits and k = 6
// (the classic Bloom filter needs 9.59 n with k = 7).
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	_, second, err := membershipConfig(opts)
	if err != nil {
		return nil, err
	}
	m, k, err := Size(n, p, second)
	if err != nil {
		return nil, err
	}
	return NewMK(m, k, opts...)
}

// NewMK returns a membership filter of exactly m bits (plus 64 to 128
// padding bits) setting k bits per key, k even. With WithSecondArray the
// second array has m bits too.
func NewMK(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	cfg, second, err := membershipConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := engine.CheckMK(m, k, MaxK); err != nil {
		return nil, err
	}
	if k%2 != 0 {
		return nil, paramErrorf("k = %d bits per key is odd; ShBF_M sets k/2 pairs", k)
	}
	f := &Filter{m: m, k: k, seed: cfg.Seed, base2: padWords(m)}
	if second {
		f.m2 = m
	}
	st, err := engine.NewStorage(f.words(), cfg.HugePages)
	if err != nil {
		return nil, err
	}
	f.st = st
	return f, nil
}

// words is the length of the storage: the padded first array, then the
// second.
func (f *Filter) words() uint64 { return f.base2 + (f.m2+63)/64 }

// M returns the number of positions of the first array (its bits without
// padding).
func (f *Filter) M() uint64 { return f.m }

// K returns the number of bits a key sets in the first array (twice the
// number of probe pairs).
func (f *Filter) K() uint32 { return f.k }

// SecondArrayBits returns the size of the second array, 0 without
// WithSecondArray.
func (f *Filter) SecondArrayBits() uint64 { return f.m2 }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.seed }

// SizeBytes returns the bytes of both arrays with their padding.
func (f *Filter) SizeBytes() uint64 { return 8 * f.words() }

// HugePages reports whether the bits live in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.st != nil && f.st.HugePages() }

// Close returns huge-page memory at once instead of at garbage collection.
// The filter must not be used afterwards.
func (f *Filter) Close() error {
	if f.st == nil {
		return nil
	}
	return f.st.Close()
}

// ModelFPR returns the model's false-positive rate after n distinct keys.
func (f *Filter) ModelFPR(n uint64) float64 {
	if f.m2 != 0 {
		return FPRSecondArray(f.m, f.m2, n, f.k)
	}
	return FPR(f.m, n, f.k)
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.AddHash(engine.HashSeed(key, f.seed)) }

// Test reports whether key may be in the set; false means certainly not.
func (f *Filter) Test(key []byte) bool { return f.TestHash(engine.HashSeed(key, f.seed)) }

// AddHash inserts a key by its hash (engine.HashSeed with this filter's
// seed): bits h_i and h_i + o for i < k/2, and with a second array its bit.
func (f *Filter) AddHash(h uint64) {
	w := f.bits()
	o := membershipOffset(h, f.k/2)
	pa, pb := probeStart(h)
	for range f.k / 2 {
		pos := engine.Reduce(pa, f.m)
		setBit(w, pos)
		setBit(w, pos+o)
		pa, pb = pa+pb, pb+phi
	}
	if f.m2 != 0 {
		pa += pb // a_{k/2} gave the offset
		setBit(w[f.base2:], engine.Reduce(pa, f.m2))
	}
	runtime.KeepAlive(f.st)
}

// TestHash reports whether a key with hash h may be in the set. Each pair
// is one unaligned load (asm.ShiftingTestHash, the batch kernels'
// specification); the second array, if any, is read only for a key the
// first passes.
func (f *Filter) TestHash(h uint64) bool {
	w := f.bits()
	ok := asm.ShiftingTestHash(w, f.m, f.k/2, h) && (f.m2 == 0 || f.secondHas(w, h))
	runtime.KeepAlive(f.st)
	return ok
}

// AddUint64 inserts the 8 little-endian bytes of k, hashed without
// building them (engine.HashUint64Seed).
func (f *Filter) AddUint64(k uint64) { f.AddHash(engine.HashUint64Seed(k, f.seed)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool { return f.TestHash(engine.HashUint64Seed(k, f.seed)) }

// AddString inserts the bytes of s without copying them (no allocation
// for any length).
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.seed)) }

// TestString is Test of the bytes of s, without copying them.
func (f *Filter) TestString(s string) bool { return f.TestHash(engine.HashStringSeed(s, f.seed)) }

// secondHas reports whether the second array has the bit of hash h; the
// batch tests apply it to the hits of the first array.
func (f *Filter) secondHas(w []uint64, h uint64) bool {
	q := engine.Reduce(rawAt(h, uint64(f.k/2)+1), f.m2)
	return w[f.base2+q>>6]&(1<<(q&63)) != 0
}
