package classic

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/config"
	"github.com/filterengine/filterengine/internal/errs"
	"github.com/filterengine/filterengine/internal/store"
)

// Filter is a standard Bloom filter of m bits and k probes per key.
//
// Plain reads (Test and its forms) are safe from many goroutines; a
// writer needs exclusive use, or the *Concurrent forms (AddConcurrent,
// AddHashConcurrent, AddHashesConcurrent, AddUint64sConcurrent,
// TestConcurrent, TestHashConcurrent: atomic ORs and atomic loads,
// lock-free), which may run together; beside them, reads must be
// TestConcurrent or TestHashConcurrent (a plain Test's loads are not
// atomic).
//
// The zero Filter has no bits: M, K, Seed, SizeBytes, HugePages, String
// and ModelFPR answer for an empty filter, Close does nothing, Union and
// Intersect with a real filter return an error wrapping engine.ErrParam,
// and every method that reads or writes bits panics with a message naming
// New.
type Filter struct {
	st   *store.Storage
	m    uint64
	k    uint32
	seed uint64
}

// New returns a filter sized for n keys at false-positive rate p:
// m = ceil(-n ln p / (ln 2)^2) bits and k = round((m/n) ln 2) probes.
func New(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
	m, err := engine.OptimalBits(n, p)
	if err != nil {
		return nil, err
	}
	return NewMK(m, engine.OptimalK(m, n), opts...)
}

// NewMK returns a filter of exactly m bits and k probes.
func NewMK(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
	if err := errs.CheckMK(m, k, engine.MaxK); err != nil {
		return nil, err
	}
	cfg := config.Apply(opts)
	for _, v := range cfg.Family() {
		return nil, config.UnknownOption("classic", v)
	}
	st, err := store.NewStorage(wordsFor(m), cfg.HugePages)
	if err != nil {
		return nil, err
	}
	return &Filter{st: st, m: m, k: k, seed: cfg.Seed}, nil
}

func wordsFor(m uint64) uint64 { return (m + 63) / 64 }

// M returns the number of bits.
func (f *Filter) M() uint64 { return f.m }

// K returns the number of probes per key.
func (f *Filter) K() uint32 { return f.k }

// Seed returns the hash seed.
func (f *Filter) Seed() uint64 { return f.seed }

// SizeBytes returns the bytes of the bit array.
func (f *Filter) SizeBytes() uint64 { return 8 * wordsFor(f.m) }

// HugePages reports whether the bits live in huge-page-advised memory.
func (f *Filter) HugePages() bool { return f.st != nil && f.st.HugePages() }

// Close returns huge-page memory at once instead of at garbage collection.
// The filter must not be used afterwards.
func (f *Filter) Close() error {
	if f.st == nil {
		return nil
	}
	// A closed filter is a zero one: every method that reads the array
	// panics naming New (array, words) instead of reading released memory.
	st := f.st
	f.st = nil
	return st.Close()
}

// words returns the bit array; on a zero Filter it panics naming New.
func (f *Filter) words() []uint64 {
	if f.st == nil {
		zeroFilter()
	}
	return f.st.Words()
}

// String describes f in one line: m, k, seed and the set bits' estimate
// of the keys added, never the bits themselves.
func (f *Filter) String() string {
	if f.st == nil {
		return "classic.Filter{zero, use classic.New}"
	}
	return fmt.Sprintf("classic.Filter{m: %d, k: %d, seed: %#x, bytes: %d, estimated keys: %.0f}",
		f.m, f.k, f.seed, f.SizeBytes(), f.EstimatedCount())
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.AddHash(engine.HashSeed(key, f.seed)) }

// Test reports whether key may be in the set; false means certainly not.
func (f *Filter) Test(key []byte) bool { return f.TestHash(engine.HashSeed(key, f.seed)) }

// TestAndAdd inserts key and reports whether it tested present before.
func (f *Filter) TestAndAdd(key []byte) bool {
	return f.TestAndAddHash(engine.HashSeed(key, f.seed))
}

// AddHash inserts a key by its hash (engine.HashSeed with this filter's
// seed).
func (f *Filter) AddHash(h uint64) {
	addHash(f.st, f.m, f.k, h)
}

// TestHash reports whether a key with hash h may be in the set.
func (f *Filter) TestHash(h uint64) bool {
	return testHash(f.st, f.m, f.k, h)
}

// TestAndAddHash inserts h and reports whether it tested present before.
func (f *Filter) TestAndAddHash(h uint64) bool {
	return testAndAddHash(f.st, f.m, f.k, h)
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

// AddConcurrent inserts key; safe to call from many goroutines at once and
// together with TestConcurrent. Each probe is one atomic OR.
func (f *Filter) AddConcurrent(key []byte) { f.AddHashConcurrent(engine.HashSeed(key, f.seed)) }

// AddHashConcurrent is AddHash made of atomic ORs, lock-free.
func (f *Filter) AddHashConcurrent(h uint64) {
	w := f.words()
	p := newProbe(h, f.m)
	for range f.k {
		i := p.next()
		atomic.OrUint64(&w[i/64], 1<<(i%64))
	}
	runtime.KeepAlive(f.st)
}

// TestConcurrent is Test with atomic loads, for use while other goroutines
// call AddConcurrent. A key whose AddConcurrent returned before the call
// tests true.
func (f *Filter) TestConcurrent(key []byte) bool {
	return f.TestHashConcurrent(engine.HashSeed(key, f.seed))
}

// TestHashConcurrent is TestHash with atomic loads, for use beside
// AddConcurrent and its forms.
func (f *Filter) TestHashConcurrent(h uint64) bool {
	w := f.words()
	p := newProbe(h, f.m)
	for range f.k {
		i := p.next()
		if atomic.LoadUint64(&w[i/64])&(1<<(i%64)) == 0 {
			runtime.KeepAlive(f.st)
			return false
		}
	}
	runtime.KeepAlive(f.st)
	return true
}

// PopCount returns the number of set bits.
func (f *Filter) PopCount() uint64 {
	var n int
	for _, x := range f.words() {
		n += bits.OnesCount64(x)
	}
	runtime.KeepAlive(f.st)
	return uint64(n)
}

// FillRatio returns the fraction of bits set.
func (f *Filter) FillRatio() float64 { return float64(f.PopCount()) / float64(f.m) }

// EstimatedFPR is the a-posteriori false-positive rate FillRatio^k: the
// probability that k independent probes all land on set bits.
func (f *Filter) EstimatedFPR() float64 { return engine.FPRFromFill(f.FillRatio(), f.k) }

// EstimatedCount estimates the distinct keys added from the set bits
// (Swamidass & Baldi): -(m/k) ln(1 - X/m). +Inf when every bit is set.
func (f *Filter) EstimatedCount() float64 { return engine.EstimateCount(f.m, f.k, f.PopCount()) }

// ModelFPR is the model's false-positive rate after n distinct keys,
// (1 - (1 - 1/m)^(kn))^k (engine.FPR).
func (f *Filter) ModelFPR(n uint64) float64 { return engine.FPR(f.m, n, f.k) }
