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

// increment adds one to every counter of *p marked in m that is below its
// maximum, in one CAS, and reports whether all of them were nonzero
// before.
func (f *Filter) increment(p *uint64, m uint64) bool {
	for {
		old := load(p)
		inc := m &^ f.saturated(old)
		if inc == 0 || atomic.CompareAndSwapUint64(p, old, old+inc) {
			return m&^f.nonzero(old) == 0
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
// word.
func (f *Filter) AddHash(h uint64) {
	var s cellSet
	ln := f.cells(h, &s)
	for i := range s.n {
		f.increment(&ln[s.idx[i]], s.m[i])
	}
	runtime.KeepAlive(f.storage)
}

// TestAndAdd inserts key and reports whether all its counters were
// nonzero just before its own increments, that is whether Test would have
// answered true. Under concurrency each word is judged at the moment of
// its CAS.
func (f *Filter) TestAndAdd(key []byte) bool { return f.TestAndAddHash(engine.HashSeed(key, f.seed)) }

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool {
	var s cellSet
	ln := f.cells(h, &s)
	present := true
	for i := range s.n {
		present = f.increment(&ln[s.idx[i]], s.m[i]) && present
	}
	runtime.KeepAlive(f.storage)
	return present
}

// Test reports whether key may be in the filter: false means it certainly
// is not (unless it was removed, or a key never added was removed).
func (f *Filter) Test(key []byte) bool { return f.TestHash(engine.HashSeed(key, f.seed)) }

// TestHash is Test of a hash: all of its counters are nonzero. It stops
// at the first zero counter.
func (f *Filter) TestHash(h uint64) bool {
	ln := f.line(h)
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
	for w, m := range asm.BlockedMask(h, f.k) {
		for ; m != 0; m &= m - 1 {
			word, shift := asm.CountingPlace(uint64(bits.TrailingZeros64(m)), f.wide)
			least = min(least, load(&ln[uint64(w)*f.chunkWords+word])>>shift&f.counter)
		}
	}
	runtime.KeepAlive(f.storage)
	return uint32(least)
}
