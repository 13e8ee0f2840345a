package clickhouse

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// The second seed of BloomFilter.Add is seedGenA*seed + seedGenB, in
// wrapping 64-bit arithmetic (ClickHouse's Interpreters/BloomFilter.cpp).
const (
	seedGenA = 845897321
	seedGenB = 217728422
)

// MaxFilterBytes is the largest size_bytes ClickHouse accepts in the TYPE
// clause of tokenbf_v1 and ngrambf_v1 (1 GiB).
const MaxFilterBytes = 1 << 30

// BloomFilter is ClickHouse's BloomFilter (Interpreters/BloomFilter.cpp):
// sizeBytes bytes of bits, stored as 64-bit words and serialized as exactly
// sizeBytes little-endian bytes, so bit p is byte p>>3, mask 1<<(p&7).
//
// Add sets, for i < hashes, bit (h1 + i·h2 + i²) mod 8·sizeBytes in wrapping
// 64-bit arithmetic, where h1 = CityHash64WithSeed(data, seed) and h2 =
// CityHash64WithSeed(data, 845897321·seed + 217728422). AddHashWithSeed sets
// the single bit Hash128to64(hash, seed) mod 8·sizeBytes; the bloom_filter
// index sets k such bits per value.
//
// A BloomFilter is not safe for concurrent use when one of the goroutines
// adds; concurrent Contains calls are safe.
type BloomFilter struct {
	size   int // bytes
	hashes uint64
	seed   uint64
	seed2  uint64
	words  []uint64
	mod    divisor // 8·size
	gen    uint64  // counts the times bits were cleared (Reset, setBytes)
}

// NewBloomFilter returns an empty filter of sizeBytes bytes that sets hashes
// bits per Add, seeded by seed: the filter of tokenbf_v1(sizeBytes, hashes,
// seed). It returns an error for the parameters ClickHouse refuses: a zero
// size or hash count, or a size over MaxFilterBytes.
func NewBloomFilter(sizeBytes int, hashes uint64, seed uint64) (*BloomFilter, error) {
	if sizeBytes <= 0 {
		return nil, fmt.Errorf("clickhouse: the size of bloom filter cannot be zero (got %d)", sizeBytes)
	}
	if hashes == 0 {
		return nil, fmt.Errorf("clickhouse: the number of hash functions for bloom filter cannot be zero")
	}
	if sizeBytes > MaxFilterBytes {
		return nil, fmt.Errorf("clickhouse: the size of bloom filter cannot be more than %d (got %d)", MaxFilterBytes, sizeBytes)
	}
	return newFilter(sizeBytes, hashes, seed), nil
}

func newFilter(sizeBytes int, hashes, seed uint64) *BloomFilter {
	return &BloomFilter{
		size:   sizeBytes,
		hashes: hashes,
		seed:   seed,
		seed2:  seedGenA*seed + seedGenB,
		words:  make([]uint64, (sizeBytes+7)/8),
		mod:    newDivisor(8 * uint64(sizeBytes)),
	}
}

// SizeBytes is the serialized size of the filter in bytes.
func (f *BloomFilter) SizeBytes() int { return f.size }

// Hashes is the number of bits Add sets per item.
func (f *BloomFilter) Hashes() uint64 { return f.hashes }

// Seed is the seed of the filter's first hash.
func (f *BloomFilter) Seed() uint64 { return f.seed }

// Add adds data (a token or n-gram in the text indexes) to the filter.
func (f *BloomFilter) Add(data []byte) {
	c := CityHash64(data) - k2
	f.addPair(Hash128to64(c, f.seed), Hash128to64(c, f.seed2))
}

func (f *BloomFilter) addPair(h1, h2 uint64) {
	w := f.words
	// Probe i is h1 + i·h2 + i², stepped: x(i+1) = x(i) + h2 + 2i + 1.
	x, step := h1, h2+1
	for i := uint64(0); i < f.hashes; i++ {
		p := f.mod.mod(x)
		w[p>>6] |= 1 << (p & 63)
		x += step
		step += 2
	}
}

// addHashed adds tokens by c = CityHash64(token) - k2, many per call. Two
// tokens go through each iteration, their probes interleaved: the loop has
// no data-dependent branch but the probe count, and the two chains of
// multiplications overlap.
func (f *BloomFilter) addHashed(cs []uint64) {
	w := f.words
	seed, seed2, k := f.seed, f.seed2, f.hashes
	d, m := f.mod.d, f.mod.m
	if d&(d-1) == 0 {
		f.addHashedPow2(cs)
		return
	}
	i := 0
	for ; i+1 < len(cs); i += 2 {
		xa, xb := Hash128to64(cs[i], seed), Hash128to64(cs[i+1], seed)
		sa, sb := Hash128to64(cs[i], seed2)+1, Hash128to64(cs[i+1], seed2)+1
		for j := k; j != 0; j-- {
			qa, _ := bits.Mul64(xa, m)
			qb, _ := bits.Mul64(xb, m)
			pa, ba := bits.Sub64(xa-qa*d, d, 0)
			pb, bb := bits.Sub64(xb-qb*d, d, 0)
			pa += d & -ba // the estimate is below 2d: add d back if below d
			pb += d & -bb
			w[pa>>6] |= 1 << (pa & 63)
			w[pb>>6] |= 1 << (pb & 63)
			xa, xb = xa+sa, xb+sb
			sa, sb = sa+2, sb+2
		}
	}
	if i < len(cs) {
		c := cs[i]
		f.addPair(Hash128to64(c, seed), Hash128to64(c, seed2))
	}
}

// addHashedPow2 is addHashed for a filter of a power-of-two bit count,
// where the remainder is a mask.
func (f *BloomFilter) addHashedPow2(cs []uint64) {
	w := f.words
	seed, seed2, k := f.seed, f.seed2, f.hashes
	mask := f.mod.d - 1
	for _, c := range cs {
		x, step := Hash128to64(c, seed), Hash128to64(c, seed2)+1
		for j := k; j != 0; j-- {
			p := x & mask
			w[p>>6] |= 1 << (p & 63)
			x += step
			step += 2
		}
	}
}

// Contains reports whether every bit Add would set for data is set: false
// means data was never added.
func (f *BloomFilter) Contains(data []byte) bool {
	c := CityHash64(data) - k2
	return f.containsPair(Hash128to64(c, f.seed), Hash128to64(c, f.seed2))
}

func (f *BloomFilter) containsPair(h1, h2 uint64) bool {
	w := f.words
	x, step := h1, h2+1
	for i := uint64(0); i < f.hashes; i++ {
		p := f.mod.mod(x)
		if w[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
		x += step
		step += 2
	}
	return true
}

// AddHashWithSeed sets bit Hash128to64(hash, seed) mod 8·SizeBytes.
func (f *BloomFilter) AddHashWithSeed(hash, seed uint64) {
	p := f.mod.mod(Hash128to64(hash, seed))
	f.words[p>>6] |= 1 << (p & 63)
}

// ContainsHashWithSeed reports whether the bit AddHashWithSeed(hash, seed)
// sets is set.
func (f *BloomFilter) ContainsHashWithSeed(hash, seed uint64) bool {
	p := f.mod.mod(Hash128to64(hash, seed))
	return f.words[p>>6]&(1<<(p&63)) != 0
}

// ContainsFilter reports whether every bit set in q is set in f, ClickHouse's
// BloomFilter::contains: how the text indexes test a query's filter against
// a granule's. The two filters must have the same size; if not, it reports
// false.
func (f *BloomFilter) ContainsFilter(q *BloomFilter) bool {
	if len(f.words) != len(q.words) {
		return false
	}
	for i, w := range q.words {
		if f.words[i]&w != w {
			return false
		}
	}
	return true
}

// Bytes returns the filter as ClickHouse writes it: SizeBytes little-endian
// bytes. The result is a copy.
func (f *BloomFilter) Bytes() []byte {
	return f.appendBytes(make([]byte, 0, f.size))
}

func (f *BloomFilter) appendBytes(dst []byte) []byte {
	full := f.size / 8
	for _, w := range f.words[:full] {
		dst = binary.LittleEndian.AppendUint64(dst, w)
	}
	if r := f.size % 8; r != 0 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], f.words[full])
		dst = append(dst, b[:r]...)
	}
	return dst
}

// setBytes loads len(b) == f.size serialized bytes.
func (f *BloomFilter) setBytes(b []byte) {
	f.gen++
	full := f.size / 8
	for i := range full {
		f.words[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	if r := f.size % 8; r != 0 {
		var t [8]byte
		copy(t[:], b[8*full:])
		f.words[full] = binary.LittleEndian.Uint64(t[:])
	}
}

// Reset clears every bit.
func (f *BloomFilter) Reset() {
	clear(f.words)
	f.gen++
}

// divisor computes x mod d for a fixed d > 0 without a division
// instruction. With m = floor((2^64 - 1)/d), so that 2^64 - d <= m·d <
// 2^64, the estimate q = floor(x·m / 2^64) (the high half of a 128-bit
// product) satisfies x - 2d < q·d <= x: the remainder x - q·d is below 2d
// and one conditional subtraction makes it exact, for every 64-bit x.
type divisor struct {
	d uint64
	m uint64
}

func newDivisor(d uint64) divisor {
	d = max(d, 1) // no filter has 0 bytes
	return divisor{d: d, m: math.MaxUint64 / d}
}

func (v divisor) mod(x uint64) uint64 {
	q, _ := bits.Mul64(x, v.m)
	r, borrow := bits.Sub64(x-q*v.d, v.d, 0)
	return r + v.d&-borrow // r < d was right before the subtraction
}
