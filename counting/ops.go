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

// line is one 64-byte line of counters.
type line = [asm.CountingLineWords]uint64

// cells returns h's line, per word of it the lowest bit of every counter
// of h in that word (asm.CountingProbes explains the choice), and the
// words touched as a bit set. Callers loop over the set bits rather than
// testing all eight words: a data-dependent branch per word mispredicts
// about half the time, which cost more than the CASes themselves.
func (f *Filter) cells(h uint64) (*line, [asm.CountingLineWords]uint64, uint) {
	ln := (*line)(f.words[engine.Reduce(h, f.lines)*asm.CountingLineWords:])
	var mask [asm.CountingLineWords]uint64
	touched := uint(0)
	x, round := asm.CountingProbes(h, 0), uint64(0)
	for j := range f.k {
		if j%asm.CountingChunksPerWord == 0 && j > 0 {
			round++
			x = asm.CountingProbes(h, round)
		}
		c := x & f.cellMask
		x >>= asm.CountingChunkBits
		mask[c>>3&7] |= 1 << asm.CountingShift(c)
		touched |= 1 << (c >> 3 & 7)
	}
	return ln, mask, touched
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

// AddHash inserts a key by its hash: one increment of each of its cells
// (a cell chosen twice counts once), one CAS per touched word.
func (f *Filter) AddHash(h uint64) {
	ln, mask, touched := f.cells(h)
	for ; touched != 0; touched &= touched - 1 {
		w := bits.TrailingZeros(touched) & 7
		f.increment(&ln[w], mask[w])
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
	ln, mask, touched := f.cells(h)
	present := true
	for ; touched != 0; touched &= touched - 1 {
		w := bits.TrailingZeros(touched) & 7
		present = f.increment(&ln[w], mask[w]) && present
	}
	runtime.KeepAlive(f.storage)
	return present
}

// Test reports whether key may be in the filter: false means it certainly
// is not (unless it was removed, or a key never added was removed).
func (f *Filter) Test(key []byte) bool { return f.TestHash(engine.HashSeed(key, f.seed)) }

// TestHash is Test of a hash: all of its counters are nonzero. It stops
// at the first zero counter; measured here, that beats a branch-free loop
// over all k cells by 1.5x, in cache and out.
func (f *Filter) TestHash(h uint64) bool {
	ln := (*line)(f.words[engine.Reduce(h, f.lines)*asm.CountingLineWords:])
	x, round := asm.CountingProbes(h, 0), uint64(0)
	for j := range f.k {
		if j%asm.CountingChunksPerWord == 0 && j > 0 {
			round++
			x = asm.CountingProbes(h, round)
		}
		c := x & f.cellMask
		x >>= asm.CountingChunkBits
		if load(&ln[c>>3&7])>>asm.CountingShift(c)&f.counter == 0 {
			runtime.KeepAlive(f.storage)
			return false
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
	ln, mask, touched := f.cells(h)
	var missing uint64
	for w, m := range mask {
		missing |= m &^ f.nonzero(load(&ln[w]))
	}
	if missing != 0 {
		runtime.KeepAlive(f.storage)
		return false
	}
	for ; touched != 0; touched &= touched - 1 {
		w := bits.TrailingZeros(touched) & 7
		f.decrement(&ln[w], mask[w])
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
	ln := (*line)(f.words[engine.Reduce(h, f.lines)*asm.CountingLineWords:])
	least := f.counter
	x, round := asm.CountingProbes(h, 0), uint64(0)
	for j := range f.k {
		if j%asm.CountingChunksPerWord == 0 && j > 0 {
			round++
			x = asm.CountingProbes(h, round)
		}
		c := x & f.cellMask
		x >>= asm.CountingChunkBits
		least = min(least, load(&ln[c>>3&7])>>asm.CountingShift(c)&f.counter)
	}
	runtime.KeepAlive(f.storage)
	return uint32(least)
}
