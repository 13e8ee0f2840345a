package counting

import (
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
)

func load(p *uint64) uint64 { return atomic.LoadUint64(p) }

func popcount(x uint64) int { return bits.OnesCount64(x) }

// cellSet is a key's counters grouped by word: for i < n, word idx[i] of
// the key's line holds the counters marked by the lowest bit in m[i].
// Counters of one blocked word share a chunk, so only entries of the same
// chunk can share a word.
type cellSet struct {
	n   int
	idx [asm.BlockedMaxK]uint32
	m   [asm.BlockedMaxK]uint64
}

// line returns the counters of h's line: the line blocked gives h.
func (f *Filter) line(h uint64) []uint64 {
	return f.words[asm.BlockedLine(h, f.lines)*f.lineWords:][:f.lineWords]
}

// cells fills s with h's counters (the set bits of asm.BlockedMask) and
// returns h's line.
func (f *Filter) cells(h uint64, s *cellSet) []uint64 {
	mask := asm.BlockedMask(h, f.k)
	s.n = 0
	for w, m := range mask {
		first := s.n
		for ; m != 0; m &= m - 1 {
			word, shift := asm.CountingPlace(uint64(bits.TrailingZeros64(m)), f.wide)
			i := uint32(uint64(w)*f.chunkWords + word)
			j := first
			for j < s.n && s.idx[j] != i {
				j++
			}
			if j == s.n {
				s.idx[j], s.m[j] = i, 0
				s.n++
			}
			s.m[j] |= 1 << shift
		}
	}
	return f.line(h)
}

// fastK is the largest k of the probe loop: the first two rounds of
// asm.BlockedMask. Larger k walk the mask (cells).
const fastK = 16

// rounds holds the multiplier chain of asm.BlockedMask's first two
// rounds for a hash h: g0 = h * asm.BlockedMul and g1 = g0 *
// asm.BlockedMul.
type rounds [2]uint64

func roundsOf(h uint64) rounds {
	g0 := h * asm.BlockedMul
	return rounds{g0, g0 * asm.BlockedMul}
}

// probe returns where counter i < k <= fastK of a key lives: its word in
// the key's line and its bit offset there. Probe i sets, in word w =
// (s+i) & 7 with s = (g0 >> 13) & 7, bit (g >> (58 - 6w)) & 63 with g =
// g0 for i < 8 and g1 above: asm.BlockedMask's rounds, whose full round
// covers all eight words and whose last round the k%8 words from s on.
// Probe i >= 8 repeats probe i-8's counter when both rounds pick the same
// bit of w (blocked sets that bit once, so it counts once: see repeat);
// counters of one round sit in different chunks, so in different words.
//
// A fixed trip count instead of walking the mask's set bits: the walk's
// exits depend on s and mispredicted about twice a key, and its 800-byte
// cellSet was zeroed on every call. Add went from 94 to 31 ns/key with
// the filter in L1 (k = 6, AMD EPYC Zen 3).
func (f *Filter) probe(r rounds, i uint32) (word, shift uint64) {
	w := (r[0]>>13 + uint64(i)) & 7
	word, shift = asm.CountingPlace(r[i>>3&1]>>(58-6*w)&63, f.wide)
	return w*f.chunkWords + word, shift
}

// repeat reports whether probe i is the counter of probe i-8: both rounds
// picked the same bit of the word.
func repeat(r rounds, i uint32) bool {
	at := 58 - 6*((r[0]>>13+uint64(i))&7)
	return i >= 8 && (r[0]^r[1])>>at&63 == 0
}

// allNonzero reports whether every counter of the key with rounds r
// (k <= fastK) in its line ln is nonzero, loading all of them without a
// branch: (c + max) >> width is 1 for a nonzero counter c.
func (f *Filter) allNonzero(ln []uint64, r rounds) bool {
	present := uint64(1)
	for i := range f.k {
		w, sh := f.probe(r, i)
		present &= (load(&ln[w])>>sh&f.counter + f.counter) >> (f.topShift + 1)
	}
	return present != 0
}

// increment adds one to every counter of *p marked in m that is below its
// maximum, in one CAS, and returns the marks of those that were zero
// before (a mask, not a bool, so callers OR it without a branch: whether
// a fresh key's counter was zero is a coin toss the predictor loses).
func (f *Filter) increment(p *uint64, m uint64) (wasZero uint64) {
	for {
		old := load(p)
		inc := m &^ f.saturated(old)
		if inc == 0 || atomic.CompareAndSwapUint64(p, old, old+inc) {
			return m &^ f.nonzero(old)
		}
	}
}

// decrement subtracts one from every counter of *p marked in m that is
// neither saturated nor zero, in one CAS. Skipping zero counters keeps a
// racing misuse (removing keys never added) from borrowing into a
// neighbour.
func (f *Filter) decrement(p *uint64, m uint64) {
	for {
		old := load(p)
		dec := m &^ f.saturated(old) & f.nonzero(old)
		if dec == 0 || atomic.CompareAndSwapUint64(p, old, old-dec) {
			return
		}
	}
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.AddHash(engine.HashSeed(key, f.seed)) }

// AddHash inserts a key by its hash: one increment of each of its
// counters (a bit blocked sets twice counts once), one CAS per touched
// word. It is TestAndAddHash without the answer; for k <= fastK its own
// loop drops the answer's work, 8% of batch Add (108 against 117 ns/key
// at n = 1e6, medians of 4, alternating binaries).
func (f *Filter) AddHash(h uint64) {
	if f.k <= fastK {
		ln, r := f.line(h), roundsOf(h)
		for i := range f.k {
			if !repeat(r, i) {
				w, sh := f.probe(r, i)
				f.increment(&ln[w], 1<<sh)
			}
		}
		runtime.KeepAlive(f.storage)
		return
	}
	f.TestAndAddHash(h)
}

// TestAndAdd inserts key and reports whether all its counters were
// nonzero just before its own increments, that is whether Test would have
// answered true. Under concurrency each word is judged at the moment of
// its CAS.
func (f *Filter) TestAndAdd(key []byte) bool { return f.TestAndAddHash(engine.HashSeed(key, f.seed)) }

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool {
	var missing uint64
	if f.k <= fastK {
		ln, r := f.line(h), roundsOf(h)
		for i := range f.k {
			if !repeat(r, i) {
				w, sh := f.probe(r, i)
				missing |= f.increment(&ln[w], 1<<sh)
			}
		}
		runtime.KeepAlive(f.storage)
		return missing == 0
	}
	var s cellSet
	ln := f.cells(h, &s)
	for i := range s.n {
		missing |= f.increment(&ln[s.idx[i]], s.m[i])
	}
	runtime.KeepAlive(f.storage)
	return missing == 0
}

// Test reports whether key may be in the filter: false means it certainly
// is not (unless it was removed, or a key never added was removed).
func (f *Filter) Test(key []byte) bool { return f.TestHash(engine.HashSeed(key, f.seed)) }

// TestHash is Test of a hash: all of its counters are nonzero. For k <=
// 16 it loads every counter without a branch; above, it stops at the
// first zero counter.
func (f *Filter) TestHash(h uint64) bool {
	ln := f.line(h)
	if f.k <= fastK {
		present := f.allNonzero(ln, roundsOf(h))
		runtime.KeepAlive(f.storage)
		return present
	}
	for w, m := range asm.BlockedMask(h, f.k) {
		for ; m != 0; m &= m - 1 {
			word, shift := asm.CountingPlace(uint64(bits.TrailingZeros64(m)), f.wide)
			if load(&ln[uint64(w)*f.chunkWords+word])>>shift&f.counter == 0 {
				runtime.KeepAlive(f.storage)
				return false
			}
		}
	}
	runtime.KeepAlive(f.storage)
	return true
}

// Remove deletes one insertion of key and reports true, or reports false
// and changes nothing when key tests absent. Saturated counters are never
// decremented, so overflow cannot cause a false negative. Removing a key
// that was never added but tests present (a false positive) decrements
// counters of other keys and can make them test absent: remove only keys
// you added.
func (f *Filter) Remove(key []byte) bool { return f.RemoveHash(engine.HashSeed(key, f.seed)) }

// RemoveHash is Remove of a hash.
func (f *Filter) RemoveHash(h uint64) bool {
	if f.k <= fastK {
		ln, r := f.line(h), roundsOf(h)
		present := f.allNonzero(ln, r)
		if present {
			for i := range f.k {
				if !repeat(r, i) {
					w, sh := f.probe(r, i)
					f.decrement(&ln[w], 1<<sh)
				}
			}
		}
		runtime.KeepAlive(f.storage)
		return present
	}
	var s cellSet
	ln := f.cells(h, &s)
	var missing uint64
	for i := range s.n {
		missing |= s.m[i] &^ f.nonzero(load(&ln[s.idx[i]]))
	}
	if missing != 0 {
		runtime.KeepAlive(f.storage)
		return false
	}
	for i := range s.n {
		f.decrement(&ln[s.idx[i]], s.m[i])
	}
	runtime.KeepAlive(f.storage)
	return true
}

// Count returns the smallest of key's counters: an upper bound on how many
// times key was added and not removed (0 means absent), capped at the
// counter maximum 15 or 255.
func (f *Filter) Count(key []byte) uint32 { return f.CountHash(engine.HashSeed(key, f.seed)) }

// CountHash is Count of a hash.
func (f *Filter) CountHash(h uint64) uint32 {
	ln := f.line(h)
	least := f.counter
	if f.k <= fastK {
		r := roundsOf(h)
		for i := range f.k {
			w, sh := f.probe(r, i)
			least = min(least, load(&ln[w])>>sh&f.counter)
		}
		runtime.KeepAlive(f.storage)
		return uint32(least)
	}
	for w, m := range asm.BlockedMask(h, f.k) {
		for ; m != 0; m &= m - 1 {
			word, shift := asm.CountingPlace(uint64(bits.TrailingZeros64(m)), f.wide)
			least = min(least, load(&ln[uint64(w)*f.chunkWords+word])>>shift&f.counter)
		}
	}
	runtime.KeepAlive(f.storage)
	return uint32(least)
}
