package blocked

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// Filter is a cache-line-blocked Bloom filter. Plain reads (Test and its
// forms) are safe from many goroutines; a writer needs exclusive use, or
// the *Concurrent forms (see AddHashConcurrent).
//
// A zero Filter holds no key: its reads answer absent, and its writes
// panic with a message naming New.
type Filter struct {
	// p holds the bit array (storage.Words(), p.Lines*8 words), k, the
	// seed and what the single-key kernels precompute from them. It is
	// the first field, so a single-key call hands the kernel f itself.
	p       asm.BlockedProbe
	storage *store.Storage
}

var _ engine.Filter = (*Filter)(nil)

func applyOptions(opts []engine.Option) (config.Config, error) {
	c := config.Apply(opts)
	for _, v := range c.Family() {
		return c, config.UnknownOption("blocked", v)
	}
	return c, nil
}

// New returns a filter sized for n keys at false-positive rate p: k and
// the bits per key come from BitsPerKeyAndK(p), the array is rounded up to
// whole lines.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	if err := errs.CheckNP(n, p); err != nil {
		return nil, err
	}
	bpk, k, err := BitsPerKeyAndK(p)
	if err != nil {
		return nil, err
	}
	m := math.Ceil(float64(n)*bpk/LineBits) * LineBits
	if m > engine.MaxBits {
		return nil, errs.ParamErrorf("n = %d, p = %v needs %.3g bits, above the maximum %d", n, p, m, uint64(engine.MaxBits))
	}
	return NewMK(uint64(m), k, opts...)
}

// NewMK returns a filter of m bits rounded up to whole 512-bit lines with
// k probes per key, for experiments with a fixed array.
func NewMK(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	c, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	lines := (m + LineBits - 1) / LineBits
	s, err := store.NewStorage(lines*8, c.HugePages)
	if err != nil {
		return nil, err
	}
	return newFilter(s, lines, k, c.Seed), nil
}

func newFilter(s *store.Storage, lines uint64, k uint32, seed uint64) *Filter {
	return &Filter{storage: s, p: asm.NewBlockedProbe(s.Words(), lines, k, seed)}
}

// M returns the number of bits, a multiple of 512.
func (f *Filter) M() uint64 { return f.p.Lines * LineBits }

// K returns the number of probes per key.
func (f *Filter) K() uint32 { return f.p.K }

// Lines returns the number of 64-byte lines.
func (f *Filter) Lines() uint64 { return f.p.Lines }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.p.Seed }

// SizeBytes returns the size of the bit array.
func (f *Filter) SizeBytes() uint64 { return f.p.Lines * 64 }

// HugePages reports whether the array lives in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.storage != nil && f.storage.HugePages() }

// Close releases a huge-page array at once instead of at garbage
// collection. The filter must not be used afterwards; it then answers as
// a zero Filter.
func (f *Filter) Close() error {
	f.p.Words, f.p.Lines, f.p.Take, f.p.Rows = nil, 0, nil, nil
	if f.storage == nil {
		return nil
	}
	return f.storage.Close()
}

// String describes the filter in one line: its parameters, never its bits.
func (f *Filter) String() string {
	return fmt.Sprintf("blocked.Filter{m: %d, k: %d, lines: %d, seed: %#x, %s}", f.M(), f.p.K, f.p.Lines, f.p.Seed, f.storage.Placement())
}

// ModelFPR is the false-positive rate the model (FPR) predicts for this
// filter after n distinct keys; 0 for a zero Filter, which holds no key.
func (f *Filter) ModelFPR(n uint64) float64 {
	if f.p.Lines == 0 {
		return 0
	}
	return FPR(f.M(), n, f.p.K)
}

// hash is engine.HashSeed(key, f.Seed()).
func (f *Filter) hash(key []byte) uint64 { return f.p.Hash(key) }

// The single-key methods stay within the compiler's inlining budget (cost
// 80) so that a caller's loop pays one call per key, the probe's: a zero
// Filter is caught inside that probe and inside the batch entry points
// (asm answers false for words without a line and panics on a write with
// the message of zeroFilter), not here.

// AddHash adds a key given its hash engine.HashSeed(key, f.Seed()).
func (f *Filter) AddHash(h uint64) {
	asm.BlockedAddHash(f.p.Words, h, f.p.K)
	runtime.KeepAlive(f.storage)
}

// TestHash reports whether the key with hash h may have been added.
func (f *Filter) TestHash(h uint64) bool {
	ok := asm.BlockedTestHash(f.p.Words, h, f.p.K)
	runtime.KeepAlive(f.storage)
	return ok
}

// TestAndAddHash adds the key with hash h and reports whether it tested
// present before: the one call a deduplicating stream needs.
func (f *Filter) TestAndAddHash(h uint64) bool {
	ok := asm.BlockedTestAndAddHash(f.p.Words, h, f.p.K)
	runtime.KeepAlive(f.storage)
	return ok
}

// The key-taking single-key methods below are each one call to asm's
// single-key kernel (asm.BlockedTestKey and its siblings), which inlines
// into the caller's loop: on amd64 from avx2 up, a filter with k <= 8
// hashes and probes an 8-byte key (or a uint64) in one AVX2 body (one
// AVX-512 body at avx512); other
// keys, filters and builds run the same probe in Go. The kernel reads the
// filter through &f.p, which keeps f, and so its storage, alive.

// Add adds key.
func (f *Filter) Add(key []byte) { asm.BlockedAddKey(&f.p, key) }

// Test reports whether key may have been added; false is certain.
func (f *Filter) Test(key []byte) bool { return asm.BlockedTestKey(&f.p, key) }

// TestAndAdd adds key and reports whether it tested present before.
func (f *Filter) TestAndAdd(key []byte) bool { return asm.BlockedTestAndAddKey(&f.p, key) }

// AddUint64 adds the 8 little-endian bytes of k (hashed without building
// them, engine.HashUint64Seed).
func (f *Filter) AddUint64(k uint64) { asm.BlockedAddUint64(&f.p, k) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool { return asm.BlockedTestUint64(&f.p, k) }

// TestAndAddUint64 is TestAndAdd of the 8 little-endian bytes of k, the
// dedup call on integer IDs (as Window and Scalable have it).
func (f *Filter) TestAndAddUint64(k uint64) bool { return asm.BlockedTestAndAddUint64(&f.p, k) }

// AddString adds the bytes of s without copying them (no allocation for
// any length).
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.p.Seed)) }

// TestString is Test of the bytes of s, without copying them.
func (f *Filter) TestString(s string) bool { return f.TestHash(engine.HashStringSeed(s, f.p.Seed)) }

// zeroFilter panics with the message of a write to a Filter without lines
// (the zero value, or after Close).
func zeroFilter() { batch.Zero("blocked.Filter", "blocked.New") }

// AddHashes adds every hash in hs with the batch kernel.
func (f *Filter) AddHashes(hs []uint64) {
	asm.BlockedAddHashes(f.p.Words, f.p.K, hs)
	runtime.KeepAlive(f.storage)
}

// TestHashes sets out[i] = TestHash(hs[i]) with the batch kernel and
// returns the number of hits. out must be at least as long as hs.
func (f *Filter) TestHashes(hs []uint64, out []bool) int {
	out = batch.Out("blocked.Filter", out, len(hs))
	n := asm.BlockedTestHashes(f.p.Words, f.p.K, hs, out)
	runtime.KeepAlive(f.storage)
	return n
}

// AddUint64s adds the 8 little-endian bytes of every key, hashed in batch.
func (f *Filter) AddUint64s(ks []uint64) {
	keyBatch{f: f}.add(ks, nil, len(ks))
}

// TestUint64s sets out[i] to Test of the 8 little-endian bytes of ks[i]
// and returns the number of hits. out must be at least as long as ks.
func (f *Filter) TestUint64s(ks []uint64, out []bool) int {
	return keyBatch{f: f}.test(ks, nil, len(ks), out)
}

// AddKeys adds every key.
func (f *Filter) AddKeys(keys [][]byte) {
	keyBatch{f: f}.add(nil, keys, len(keys))
}

// TestKeys sets out[i] = Test(keys[i]) and returns the number of hits.
// out must be at least as long as keys.
func (f *Filter) TestKeys(keys [][]byte, out []bool) int {
	return keyBatch{f: f}.test(nil, keys, len(keys), out)
}

// compatible reports why g cannot be combined with f, if it cannot.
func (f *Filter) compatible(g *Filter) error {
	if f.p.Lines != g.p.Lines || f.p.K != g.p.K || f.p.Seed != g.p.Seed {
		return errs.ParamErrorf("blocked filters differ (lines %d/%d, k %d/%d, seed %d/%d)", f.p.Lines, g.p.Lines, f.p.K, g.p.K, f.p.Seed, g.p.Seed)
	}
	return nil
}

// Union adds every key of g to f: a bitwise OR. Both must have the same
// size, k and seed.
func (f *Filter) Union(g *Filter) error {
	if err := f.compatible(g); err != nil {
		return err
	}
	for i, w := range g.p.Words {
		f.p.Words[i] |= w
	}
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(g.storage)
	return nil
}

// Equal reports whether f and g have the same parameters and bits.
func (f *Filter) Equal(g *Filter) bool {
	if f.compatible(g) != nil {
		return false
	}
	equal := true
	for i, w := range g.p.Words {
		if f.p.Words[i] != w {
			equal = false
			break
		}
	}
	runtime.KeepAlive(f.storage)
	runtime.KeepAlive(g.storage)
	return equal
}

// Clone returns an independent copy of f, in huge-page memory if f is
// and the system gives it, else on the heap. A zero Filter clones to a
// zero Filter.
func (f *Filter) Clone() *Filter {
	if len(f.p.Words) == 0 {
		return &Filter{}
	}
	mode := engine.HugePagesNever
	if f.HugePages() {
		mode = engine.HugePagesAlways
	}
	s, err := store.NewStorage(f.p.Lines*8, mode)
	if err != nil && mode != engine.HugePagesNever {
		s, err = store.NewStorage(f.p.Lines*8, engine.HugePagesNever)
	}
	if err != nil {
		panic(fmt.Errorf("blocked: Clone of %d bytes: %w", f.SizeBytes(), err))
	}
	g := newFilter(s, f.p.Lines, f.p.K, f.p.Seed)
	copy(g.p.Words, f.p.Words)
	runtime.KeepAlive(f.storage)
	return g
}

// Reset clears every bit.
func (f *Filter) Reset() {
	clear(f.p.Words)
	runtime.KeepAlive(f.storage)
}

// setBits counts the bits that are one.
func (f *Filter) setBits() uint64 {
	var n uint64
	for _, w := range f.p.Words {
		n += uint64(bits.OnesCount64(w))
	}
	runtime.KeepAlive(f.storage)
	return n
}

// FillRatio returns the fraction of bits that are one (0 for a zero
// Filter).
func (f *Filter) FillRatio() float64 {
	if f.p.Lines == 0 {
		return 0
	}
	return float64(f.setBits()) / float64(f.M())
}

// EstimatedCount estimates the number of distinct keys added from the
// number of set bits (Swamidass & Baldi): every key sets k bits spread
// uniformly over the array, as in a standard Bloom filter. A zero Filter
// holds none.
func (f *Filter) EstimatedCount() float64 {
	if f.p.Lines == 0 {
		return 0
	}
	return engine.EstimateCount(f.M(), f.p.K, f.setBits())
}

// EstimatedFPR is the model FPR at the estimated count.
func (f *Filter) EstimatedFPR() float64 {
	if f.p.Lines == 0 {
		return 0 // a zero or closed Filter holds no key, as ModelFPR says
	}
	n := f.EstimatedCount()
	if math.IsInf(n, 1) {
		return 1
	}
	return FPR(f.M(), uint64(math.Round(n)), f.p.K)
}
