package shifting

import (
	"github.com/filterengine/filterengine/internal/hashing"
)

// The baselines below are minimal structures written for the benchmarks
// only (families never import each other): they use the same hash, the
// same probe sequence and Reduce as this package, so a comparison measures
// the layout and nothing else. The real classic package is compared in
// the bench module.

// baselineBloom is a standard Bloom filter: k probes over m bits, one
// memory access per probe, first zero bit ends a test.
type baselineBloom struct {
	w []uint64
	m uint64
	k uint32
}

func newBaselineBloom(m uint64, k uint32) *baselineBloom {
	return &baselineBloom{w: make([]uint64, (m+63)/64), m: m, k: k}
}

func (f *baselineBloom) addHash(h uint64) {
	pa, pb := probeStart(h)
	for range f.k {
		i := hashing.Reduce(pa, f.m)
		f.w[i>>6] |= 1 << (i & 63)
		pa, pb = pa+pb, pb+phi
	}
}

func (f *baselineBloom) testHash(h uint64) bool {
	pa, pb := probeStart(h)
	for range f.k {
		i := hashing.Reduce(pa, f.m)
		if f.w[i>>6]&(1<<(i&63)) == 0 {
			return false
		}
		pa, pb = pa+pb, pb+phi
	}
	return true
}

// baselineCounting is the multiplicity baseline: a counting Bloom filter
// of 8-bit counters (the spectral Bloom filter's minimum selection): a key
// of count c adds c to its k counters; a query returns the smallest.
type baselineCounting struct {
	c []uint8
	m uint64
	k uint32
}

func newBaselineCounting(m uint64, k uint32) *baselineCounting {
	return &baselineCounting{c: make([]uint8, m), m: m, k: k}
}

func (f *baselineCounting) addHash(h uint64, count uint32) {
	pa, pb := probeStart(h)
	for range f.k {
		i := hashing.Reduce(pa, f.m)
		f.c[i] = uint8(min(uint32(f.c[i])+count, 255))
		pa, pb = pa+pb, pb+phi
	}
}

func (f *baselineCounting) countHash(h uint64) uint32 {
	pa, pb := probeStart(h)
	least := uint8(255)
	for range f.k {
		least = min(least, f.c[hashing.Reduce(pa, f.m)])
		if least == 0 {
			break
		}
		pa, pb = pa+pb, pb+phi
	}
	return uint32(least)
}
