package shifting

import (
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

// Filter is ShBF_M, the shifting Bloom filter for membership queries:
// m bits (plus padding) where every key sets k/2 pairs of bits h_i and
// h_i + o, tested with one memory access per pair.
//
// Plain reads (Test and its forms) are safe from many goroutines; a
// writer needs exclusive use, or the *Concurrent forms (AddConcurrent,
// AddHashConcurrent, AddHashesConcurrent, AddUint64sConcurrent,
// TestConcurrent, TestHashConcurrent, and TestAndAdd, TestAndAddHash:
// atomic ORs and loads, lock-free), which run together; beside them,
// reads must be TestConcurrent or TestHashConcurrent (a plain Test's
// loads are not atomic: a data race under the race detector).
//
// The zero Filter has no bits: M, K, SizeBytes and String answer for an
// empty filter, every other method panics with a message naming New.
type Filter struct {
	st *store.Storage
	// p holds m (positions h_i are in [0, m)), the second array's bits
	// m2 (0 without WithSecondArray) and first word base2, k, the seed
	// and the storage's words (setStorage), for the single-key kernels.
	p asm.ShiftingProbe
}

// New returns a membership filter sized for n keys at false-positive rate
// p by the paper's model (Yang et al. 2016, section 3.3; ModelFPR gives it):
// the smallest m over even k. At p = 1% that is m = 9.69 n bits and k = 6
// (the classic Bloom filter needs 9.59 n with k = 7).
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	_, second, err := membershipConfig(opts)
	if err != nil {
		return nil, err
	}
	m, k, err := sizeFor(n, p, second)
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
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	if k%2 != 0 {
		return nil, paramErrorf("k = %d bits per key is odd; ShBF_M sets k/2 pairs", k)
	}
	f := &Filter{p: asm.ShiftingProbe{M: m, K: k, Seed: cfg.Seed, Key: hashing.Uint64Key(cfg.Seed), Base2: padWords(m)}}
	if second {
		f.p.M2 = m
	}
	st, err := store.NewStorage(f.words(), cfg.HugePages)
	if err != nil {
		return nil, err
	}
	f.setStorage(st)
	return f, nil
}

// words is the length of the storage: the padded first array, then the
// second.
func (f *Filter) words() uint64 { return f.p.Base2 + (f.p.M2+63)/64 }

// M returns the number of positions of the first array (its bits without
// padding).
func (f *Filter) M() uint64 { return f.p.M }

// K returns the number of bits a key sets in the first array (twice the
// number of probe pairs).
func (f *Filter) K() uint32 { return f.p.K }

// SecondArrayBits returns the size of the second array, 0 without
// WithSecondArray.
func (f *Filter) SecondArrayBits() uint64 { return f.p.M2 }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.p.Seed }

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
	st := f.st
	f.setStorage(nil)
	return st.Close()
}

// setStorage makes st the filter's storage, and its words the probe's.
func (f *Filter) setStorage(st *store.Storage) {
	f.st, f.p.Words = st, nil
	if st != nil {
		f.p.Words = st.Words()
	}
}

// ModelFPR returns the model's false-positive rate after n distinct keys.
func (f *Filter) ModelFPR(n uint64) float64 {
	if f.p.M2 != 0 {
		return fprSecondArray(f.p.M, f.p.M2, n, f.p.K)
	}
	return fpr(f.p.M, n, f.p.K)
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.AddHash(engine.HashSeed(key, f.p.Seed)) }

// Test reports whether key may be in the set; false means certainly not.
// It is one call, inlined into the caller, to asm's single-key kernel
// (asm.ShiftingTestKey), which reads the filter through &f.p and so keeps
// f and its storage alive.
func (f *Filter) Test(key []byte) bool { return asm.ShiftingTestKey(&f.p, key) }

// AddHash inserts a key by its hash (engine.HashSeed with this filter's
// seed): bits h_i and h_i + o for i < k/2, and with a second array its bit.
func (f *Filter) AddHash(h uint64) {
	w := f.bits()
	o := membershipOffset(h, f.p.K/2)
	pa, pb := probeStart(h)
	for range f.p.K / 2 {
		pos := hashing.Reduce(pa, f.p.M)
		setBit(w, pos)
		setBit(w, pos+o)
		pa, pb = pa+pb, pb+phi
	}
	if f.p.M2 != 0 {
		pa += pb // a_{k/2} gave the offset
		setBit(w[f.p.Base2:], hashing.Reduce(pa, f.p.M2))
	}
	runtime.KeepAlive(f.st)
}

// TestHash reports whether a key with hash h may be in the set. Each pair
// is one unaligned load (asm.ShiftingTestHash, the batch kernels'
// specification); the second array, if any, is read only for a key the
// first passes.
func (f *Filter) TestHash(h uint64) bool {
	w := f.bits()
	ok := asm.ShiftingTestHash(w, f.p.M, f.p.K/2, h) && (f.p.M2 == 0 || f.p.SecondHas(h))
	runtime.KeepAlive(f.st)
	return ok
}

// AddUint64 inserts the 8 little-endian bytes of k, hashed without
// building them (engine.HashUint64Seed).
func (f *Filter) AddUint64(k uint64) { f.AddHash(engine.HashUint64Seed(k, f.p.Seed)) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool { return asm.ShiftingTestUint64(&f.p, k) }

// AddString inserts the bytes of s without copying them (no allocation
// for any length).
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.p.Seed)) }

// TestString is Test of the bytes of s, without copying them.
func (f *Filter) TestString(s string) bool { return f.TestHash(engine.HashStringSeed(s, f.p.Seed)) }
