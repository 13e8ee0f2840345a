package filters

import (
	"fmt"
	"math"

	"github.com/FastFilter/xorfilter"
	bloom "github.com/bits-and-blooms/bloom/v3"
	boom "github.com/tylertreat/BoomFilters"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/errs"
)

// Peers are driven key by key through their own []byte calls: none has a
// batch API.
func peers() []Entry {
	return []Entry{
		{
			Name:  "bloom/v3",
			Kind:  Peer,
			About: "github.com/bits-and-blooms/bloom/v3 v3.7.1: NewWithEstimates / New(m, k), Add and Test per key",
			NewNP: func(n uint64, p float64) (Filter, error) {
				if err := errs.CheckNP(n, p); err != nil {
					return nil, err
				}
				return bitsAndBloomsFilter(bloom.NewWithEstimates(uint(n), p)), nil
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				return bitsAndBloomsFilter(bloom.New(uint(m), uint(k))), nil
			},
		},
		{
			Name:  "boom/classic",
			Kind:  Peer,
			About: "github.com/tylertreat/BoomFilters BloomFilter (FNV-64), per key; (m, k) reached through (n, p = 2^-k)",
			NewNP: func(n uint64, p float64) (Filter, error) {
				if err := errs.CheckNP(n, p); err != nil {
					return nil, err
				}
				return boomClassicFilter(boom.NewBloomFilter(uint(n), p)), nil
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				n, p := boomNP(m, k)
				return boomClassicFilter(boom.NewBloomFilter(n, p)), nil
			},
		},
		{
			Name:  "boom/counting",
			Kind:  Peer,
			About: "github.com/tylertreat/BoomFilters CountingBloomFilter, 4-bit buckets, per key; (m, k) through (n, p = 2^-k)",
			NewNP: func(n uint64, p float64) (Filter, error) {
				if err := errs.CheckNP(n, p); err != nil {
					return nil, err
				}
				return boomCountingFilter(boom.NewCountingBloomFilter(uint(n), 4, p)), nil
			},
			NewMK: func(m uint64, k uint32) (Filter, error) {
				n, p := boomNP(m, k)
				return boomCountingFilter(boom.NewCountingBloomFilter(n, 4, p)), nil
			},
		},
		{
			Name:  "boom/scalable",
			Kind:  Peer,
			About: "github.com/tylertreat/BoomFilters ScalableBloomFilter(hint n, p, r = 0.8), per key; grows, so it has no (m, k) form",
			NewNP: func(n uint64, p float64) (Filter, error) {
				if err := errs.CheckNP(n, p); err != nil {
					return nil, err
				}
				return boomScalableFilter(boom.NewScalableBloomFilter(uint(n), p, 0.8)), nil
			},
		},
		{
			Name:  "xor/binaryfuse8",
			Kind:  Peer,
			About: "github.com/FastFilter/xorfilter BinaryFuse8: static, built once from the XXH3 hashes of all keys' bytes; queried with XXH3 + Contains per key (integer keys hashed by engine.HashUint64, the same XXH3 of their 8 bytes); a reference point, not a Bloom filter",
			Build: func(keys Batch) (Filter, error) {
				hs := make([]uint64, max(len(keys.Ints), keys.Len()))
				if keys.Ints != nil {
					for i, k := range keys.Ints {
						hs[i] = engine.HashUint64(k)
					}
				} else {
					for i, k := range keys.Keys {
						hs[i] = engine.Hash(k)
					}
				}
				f, err := xorfilter.PopulateBinaryFuse8(hs)
				if err != nil {
					return nil, fmt.Errorf("binaryfuse8: %w", err)
				}
				return &binaryFuse8{f}, nil
			},
		},
	}
}

// boomNP picks BoomFilters' (n, p) so that its sizing rules, m =
// ceil(n |ln p| / (ln 2)^2) and k = ceil(log2(1/p)), land on k exactly and
// on m within a few bits: p = 2^-k, n = m ln 2 / k.
func boomNP(m uint64, k uint32) (uint, float64) {
	n := uint(math.Floor(float64(m) * math.Ln2 / float64(k)))
	return max(n, 1), math.Ldexp(1, -int(k))
}

// perKey drives a peer through its single-key calls, held as function
// values because the peers' Add methods return different types. The
// indirect call costs a nanosecond or two against their 60-600 ns per key.
type perKey struct {
	add  func([]byte)
	test func([]byte) bool
	// reset empties the filter in place (the modeled peers: Resetter).
	reset func()
	// size reports the table's cells, bits per cell and probes now (a
	// scalable filter grows).
	size func() (cells uint64, cellBits uint64, k uint32)
}

func (a *perKey) Add(b Batch) {
	for _, k := range b.Keys {
		a.add(k)
	}
}

func (a *perKey) Test(b Batch) int {
	hits := 0
	for _, k := range b.Keys {
		if a.test(k) {
			hits++
		}
	}
	return hits
}

// AddEach is Add: a peer's batch is already one call per key.
func (a *perKey) AddEach(b Batch) { a.Add(b) }

// TestEach is Test.
func (a *perKey) TestEach(b Batch) int { return a.Test(b) }

func (a *perKey) Bytes() uint64 {
	cells, bits, _ := a.size()
	return (cells*bits + 7) / 8
}

func (a *perKey) Params() (uint64, uint32) {
	cells, _, k := a.size()
	return cells, k
}

// modeledPerKey is a per-key peer that the standard model describes: a
// bit (or a 4-bit counter, until counters saturate) per cell.
type modeledPerKey struct{ perKey }

func (a *modeledPerKey) ModelFPR(n uint64) float64 { m, k := a.Params(); return engine.FPR(m, n, k) }

// Reset empties the peer's filter in place (Resetter).
func (a *modeledPerKey) Reset() { a.reset() }

// removingPerKey is a modeled per-key peer that deletes.
type removingPerKey struct {
	modeledPerKey
	remove func([]byte) bool
}

func (a *removingPerKey) Remove(b Batch) int {
	n := 0
	for _, k := range b.Keys {
		if a.remove(k) {
			n++
		}
	}
	return n
}

func bitsAndBloomsFilter(f *bloom.BloomFilter) Filter {
	return &modeledPerKey{perKey{
		add:   func(k []byte) { f.Add(k) },
		test:  f.Test,
		reset: func() { f.ClearAll() },
		size:  func() (uint64, uint64, uint32) { return uint64(f.Cap()), 1, uint32(f.K()) },
	}}
}

func boomClassicFilter(f *boom.BloomFilter) Filter {
	return &modeledPerKey{perKey{
		add:   func(k []byte) { f.Add(k) },
		test:  f.Test,
		reset: func() { f.Reset() },
		size:  func() (uint64, uint64, uint32) { return uint64(f.Capacity()), 1, uint32(f.K()) },
	}}
}

func boomCountingFilter(f *boom.CountingBloomFilter) Filter {
	return &removingPerKey{
		modeledPerKey: modeledPerKey{perKey{
			add:   func(k []byte) { f.Add(k) },
			test:  f.Test,
			reset: func() { f.Reset() },
			size:  func() (uint64, uint64, uint32) { return uint64(f.Capacity()), 4, uint32(f.K()) },
		}},
		remove: f.TestAndRemove,
	}
}

// boomScalableFilter has no model: it grows stages of its own.
func boomScalableFilter(f *boom.ScalableBloomFilter) Filter {
	return &perKey{
		add:  func(k []byte) { f.Add(k) },
		test: f.Test,
		size: func() (uint64, uint64, uint32) { return uint64(f.Capacity()), 1, uint32(f.K()) },
	}
}

type binaryFuse8 struct{ f *xorfilter.BinaryFuse8 }

func (a *binaryFuse8) Add(Batch) { panic("filters: binaryfuse8 is static; build it with Entry.Build") }

// Test hashes integer keys with engine.HashUint64 and byte keys with
// XXH3, then calls Contains, key by key.
func (a *binaryFuse8) Test(b Batch) int {
	if b.Ints == nil {
		return a.TestEach(b)
	}
	hits := 0
	for _, k := range b.Ints {
		if a.f.Contains(engine.HashUint64(k)) {
			hits++
		}
	}
	return hits
}

func (a *binaryFuse8) AddEach(Batch) { a.Add(Batch{}) }

// TestEach is XXH3 of each []byte key and Contains: the per-key query.
func (a *binaryFuse8) TestEach(b Batch) int {
	hits := 0
	for _, k := range b.Keys {
		if a.f.Contains(engine.Hash(k)) {
			hits++
		}
	}
	return hits
}

func (a *binaryFuse8) Bytes() uint64            { return uint64(len(a.f.Fingerprints)) }
func (a *binaryFuse8) Params() (uint64, uint32) { return 0, 0 }

// ModelFPR is 2^-8: a non-member matches an 8-bit fingerprint by chance.
func (a *binaryFuse8) ModelFPR(uint64) float64 { return 1.0 / 256 }
