package clickhouse

import "math/bits"

// hashSet is a set of 64-bit value hashes, the distinct values a
// bloom_filter granule counts: open addressing with linear probing in a
// table at most half full. A slot holds a hash or 0 for empty; the hash 0
// itself is kept aside. Slots are picked by Fibonacci hashing (the top bits
// of h·2^64/φ), so hashes that differ only in their low bits spread too.
type hashSet struct {
	slots []uint64
	shift uint8 // 64 - log2(len(slots))
	n     int   // nonzero hashes held
	zero  bool  // 0 is in the set
}

const fib = 0x9e3779b97f4a7c15 // 2^64 / golden ratio

// len is the number of distinct hashes in the set.
func (s *hashSet) len() int {
	if s.zero {
		return s.n + 1
	}
	return s.n
}

// reserve makes room for n more hashes without regrowing.
func (s *hashSet) reserve(n int) {
	need := 2 * (s.n + n)
	if need <= len(s.slots) {
		return
	}
	size := 1 << max(4, bits.Len(uint(need-1)))
	old := s.slots
	s.slots, s.shift, s.n = make([]uint64, size), uint8(64-bits.TrailingZeros(uint(size))), 0
	for _, h := range old {
		if h != 0 {
			s.insert(h)
		}
	}
}

func (s *hashSet) add(h uint64) {
	if h == 0 {
		s.zero = true
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		s.reserve(max(1, s.n))
	}
	s.insert(h)
}

// insert adds a nonzero h to a table with a free slot.
func (s *hashSet) insert(h uint64) {
	mask := uint64(len(s.slots) - 1)
	for i := h * fib >> s.shift; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			s.n++
			return
		case h:
			return
		}
	}
}

// setBits sets, for every hash h in the set, the bits Hash128to64(h,
// seed) mod 8·size of f for each of seeds, as BloomFilter.AddHashWithSeed.
func (s *hashSet) setBits(f *BloomFilter, seeds []uint64) {
	if s.zero {
		for _, sd := range seeds {
			f.AddHashWithSeed(0, sd)
		}
	}
	w, d, m := f.words, f.mod.d, f.mod.m
	for _, h := range s.slots {
		if h == 0 {
			continue
		}
		for _, sd := range seeds {
			x := Hash128to64(h, sd)
			q, _ := bits.Mul64(x, m)
			p, borrow := bits.Sub64(x-q*d, d, 0)
			p += d & -borrow
			w[p>>6] |= 1 << (p & 63)
		}
	}
}
