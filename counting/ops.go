package counting

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
)

func load(p *uint64) uint64 { return atomic.LoadUint64(p) }

// hash is engine.HashSeed(key, f.seed) (engine.HashKeyed).
func (f *Filter) hash(key []byte) uint64 { return engine.HashKeyed(key, f.seed, f.key) }

func popcount(x uint64) int { return bits.OnesCount64(x) }

// A key's counters are the k positions of asm.NarrowPositions in its line
// (asm.CountingLine): g = h*asm.BlockedMul, probe q is the top 7 (4-bit)
// or 6 (8-bit) bits of g, then g shifts left by as many, a new round of
// the multiplier every 9 or 10 probes. The walkers below take one round:
// two constant shifts a probe, the counter's word by a constant shift of
// q, its bit offset by a mask; a probe touches one word of the line.

// increment adds one to the counter at bit offset sh of *p unless it is
// at its maximum max (sticky saturation), and returns a word whose top
// bit is set when the counter was zero before: as a mask, not a bool, so
// callers OR it without a branch.
func increment(p *uint64, sh, max uint64) (wasZero uint64) {
	for {
		old := load(p)
		c := old >> sh & max
		if c == max {
			return 0
		}
		if atomic.CompareAndSwapUint64(p, old, old+1<<sh) {
			return c - 1
		}
	}
}

// decrement subtracts one from the counter at bit offset sh of *p unless
// it is zero or saturated. Skipping zero keeps a racing misuse (removing
// keys never added) from borrowing from a neighbour.
func decrement(p *uint64, sh, max uint64) {
	for {
		old := load(p)
		if c := old >> sh & max; c == 0 || c == max {
			return
		}
		if atomic.CompareAndSwapUint64(p, old, old-1<<sh) {
			return
		}
	}
}

// The round walkers below take one multiplier round of n <= 9 (4-bit)
// or n <= 10 (8-bit) probes as asm.CountingRound4 does: straight code,
// probe j at the top bits of g << 7j (6j): the counter's word is the
// top 3 bits, its bit offset the next 4 (3) times 4 (8), constant shifts
// all.

// add4 increments the n 4-bit counters of the round g and returns
// increment's zero marks ORed.
func add4(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) (wasZero uint64) {
	_ = &ln[0]
	switch n {
	case 9:
		wasZero |= increment(&ln[(g<<56)>>61], (g<<56)>>55&60, 0xf)
		fallthrough
	case 8:
		wasZero |= increment(&ln[(g<<49)>>61], (g<<49)>>55&60, 0xf)
		fallthrough
	case 7:
		wasZero |= increment(&ln[(g<<42)>>61], (g<<42)>>55&60, 0xf)
		fallthrough
	case 6:
		wasZero |= increment(&ln[(g<<35)>>61], (g<<35)>>55&60, 0xf)
		fallthrough
	case 5:
		wasZero |= increment(&ln[(g<<28)>>61], (g<<28)>>55&60, 0xf)
		fallthrough
	case 4:
		wasZero |= increment(&ln[(g<<21)>>61], (g<<21)>>55&60, 0xf)
		fallthrough
	case 3:
		wasZero |= increment(&ln[(g<<14)>>61], (g<<14)>>55&60, 0xf)
		fallthrough
	case 2:
		wasZero |= increment(&ln[(g<<7)>>61], (g<<7)>>55&60, 0xf)
		fallthrough
	case 1:
		wasZero |= increment(&ln[g>>61], g>>55&60, 0xf)
	}
	return wasZero
}

// add8 is add4 for 8-bit counters.
func add8(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) (wasZero uint64) {
	_ = &ln[0]
	switch n {
	case 10:
		wasZero |= increment(&ln[(g<<54)>>61], (g<<54)>>55&56, 0xff)
		fallthrough
	case 9:
		wasZero |= increment(&ln[(g<<48)>>61], (g<<48)>>55&56, 0xff)
		fallthrough
	case 8:
		wasZero |= increment(&ln[(g<<42)>>61], (g<<42)>>55&56, 0xff)
		fallthrough
	case 7:
		wasZero |= increment(&ln[(g<<36)>>61], (g<<36)>>55&56, 0xff)
		fallthrough
	case 6:
		wasZero |= increment(&ln[(g<<30)>>61], (g<<30)>>55&56, 0xff)
		fallthrough
	case 5:
		wasZero |= increment(&ln[(g<<24)>>61], (g<<24)>>55&56, 0xff)
		fallthrough
	case 4:
		wasZero |= increment(&ln[(g<<18)>>61], (g<<18)>>55&56, 0xff)
		fallthrough
	case 3:
		wasZero |= increment(&ln[(g<<12)>>61], (g<<12)>>55&56, 0xff)
		fallthrough
	case 2:
		wasZero |= increment(&ln[(g<<6)>>61], (g<<6)>>55&56, 0xff)
		fallthrough
	case 1:
		wasZero |= increment(&ln[g>>61], g>>55&56, 0xff)
	}
	return wasZero
}

// sub4 decrements the n 4-bit counters of the round g.
func sub4(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) {
	_ = &ln[0]
	switch n {
	case 9:
		decrement(&ln[(g<<56)>>61], (g<<56)>>55&60, 0xf)
		fallthrough
	case 8:
		decrement(&ln[(g<<49)>>61], (g<<49)>>55&60, 0xf)
		fallthrough
	case 7:
		decrement(&ln[(g<<42)>>61], (g<<42)>>55&60, 0xf)
		fallthrough
	case 6:
		decrement(&ln[(g<<35)>>61], (g<<35)>>55&60, 0xf)
		fallthrough
	case 5:
		decrement(&ln[(g<<28)>>61], (g<<28)>>55&60, 0xf)
		fallthrough
	case 4:
		decrement(&ln[(g<<21)>>61], (g<<21)>>55&60, 0xf)
		fallthrough
	case 3:
		decrement(&ln[(g<<14)>>61], (g<<14)>>55&60, 0xf)
		fallthrough
	case 2:
		decrement(&ln[(g<<7)>>61], (g<<7)>>55&60, 0xf)
		fallthrough
	case 1:
		decrement(&ln[g>>61], g>>55&60, 0xf)
	}
}

// sub8 is sub4 for 8-bit counters.
func sub8(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) {
	_ = &ln[0]
	switch n {
	case 10:
		decrement(&ln[(g<<54)>>61], (g<<54)>>55&56, 0xff)
		fallthrough
	case 9:
		decrement(&ln[(g<<48)>>61], (g<<48)>>55&56, 0xff)
		fallthrough
	case 8:
		decrement(&ln[(g<<42)>>61], (g<<42)>>55&56, 0xff)
		fallthrough
	case 7:
		decrement(&ln[(g<<36)>>61], (g<<36)>>55&56, 0xff)
		fallthrough
	case 6:
		decrement(&ln[(g<<30)>>61], (g<<30)>>55&56, 0xff)
		fallthrough
	case 5:
		decrement(&ln[(g<<24)>>61], (g<<24)>>55&56, 0xff)
		fallthrough
	case 4:
		decrement(&ln[(g<<18)>>61], (g<<18)>>55&56, 0xff)
		fallthrough
	case 3:
		decrement(&ln[(g<<12)>>61], (g<<12)>>55&56, 0xff)
		fallthrough
	case 2:
		decrement(&ln[(g<<6)>>61], (g<<6)>>55&56, 0xff)
		fallthrough
	case 1:
		decrement(&ln[g>>61], g>>55&56, 0xff)
	}
}

// least4 returns the smallest of the n 4-bit counters of the round g and
// of c.
func least4(ln *[asm.CountingLineWords]uint64, g uint64, n uint32, c uint64) uint64 {
	for range n {
		c = min(c, load(&ln[g>>61])>>(g>>55&60)&0xf)
		g <<= 7
	}
	return c
}

// least8 is least4 for 8-bit counters.
func least8(ln *[asm.CountingLineWords]uint64, g uint64, n uint32, c uint64) uint64 {
	for range n {
		c = min(c, load(&ln[g>>61])>>(g>>55&56)&0xff)
		g <<= 6
	}
	return c
}

// mustHaveLines panics with the family's zero-value message on the zero
// Filter, which has no counters: one compare inline, the panic out of
// line.
func (f *Filter) mustHaveLines() {
	if f.lines == 0 {
		zeroFilter()
	}
}

//go:noinline
func zeroFilter() { batch.Zero("counting.Filter", "counting.New") }

// addHash increments h's counters and returns the zero marks (top bit
// set when one was zero before).
func (f *Filter) addHash(h uint64) (wasZero uint64) {
	if f.v1 {
		if f.v1TestAndAdd(h) {
			return 0
		}
		return 1 << 63
	}
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	g := h * asm.BlockedMul
	k := f.k
	if f.wide {
		for ; k > 10; k -= 10 {
			wasZero |= add8(ln, g, 10)
			g *= asm.BlockedMul
		}
		wasZero |= add8(ln, g, k)
	} else {
		for ; k > 9; k -= 9 {
			wasZero |= add4(ln, g, 9)
			g *= asm.BlockedMul
		}
		wasZero |= add4(ln, g, k)
	}
	runtime.KeepAlive(f)
	return wasZero
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.addHash(f.hash(key)) }

// AddUint64 inserts the 8 little-endian bytes of k.
func (f *Filter) AddUint64(k uint64) { f.AddHash(engine.HashUint64Keyed(k, f.key)) }

// AddString inserts the bytes of s, without copying them.
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.seed)) }

// AddHash inserts a key by its hash: one increment of each of its k
// counters, one CAS each (two probes on one counter increment it twice).
func (f *Filter) AddHash(h uint64) { f.addHash(h) }

// TestAndAdd inserts key and reports whether all its counters were
// nonzero just before its own increments, that is whether Test would have
// answered true. Under concurrency each counter is judged at the moment
// of its CAS.
func (f *Filter) TestAndAdd(key []byte) bool { return f.TestAndAddHash(f.hash(key)) }

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool { return f.addHash(h)>>63 == 0 }

// Test reports whether key may be in the filter: false means it certainly
// is not (unless it was removed, or a key never added was removed). It is
// one call of the asm.CountingTestKey kernel, which hashes an 8-byte key
// and tests a round of 4-bit counters in registers (its Go twin for
// every other key and filter).
func (f *Filter) Test(key []byte) bool { return asm.CountingTestKey(&f.probe, key) }

// TestUint64 is Test of the 8 little-endian bytes of k.
func (f *Filter) TestUint64(k uint64) bool { return asm.CountingTestUint64(&f.probe, k) }

// TestString is Test of the bytes of s, without copying them (the
// kernel only reads them).
func (f *Filter) TestString(s string) bool { return f.Test(unsafe.Slice(unsafe.StringData(s), len(s))) }

// TestHash is Test of a hash: all of its counters are nonzero. It is one
// call of the asm.CountingTestHash kernel, as Test.
func (f *Filter) TestHash(h uint64) bool { return asm.CountingTestHash(&f.probe, h) }

// Remove deletes one insertion of key and reports true, or reports false
// and changes nothing when key tests absent. Saturated counters are never
// decremented, so overflow cannot cause a false negative. Removing a key
// that was never added but tests present (a false positive) decrements
// counters of other keys and can make them test absent: remove only keys
// you added.
func (f *Filter) Remove(key []byte) bool { return f.RemoveHash(f.hash(key)) }

// RemoveUint64 is Remove of the 8 little-endian bytes of k.
func (f *Filter) RemoveUint64(k uint64) bool {
	return f.RemoveHash(engine.HashUint64Keyed(k, f.key))
}

// RemoveString is Remove of the bytes of s, without copying them.
func (f *Filter) RemoveString(s string) bool { return f.RemoveHash(engine.HashStringSeed(s, f.seed)) }

// RemoveHash is Remove of a hash.
func (f *Filter) RemoveHash(h uint64) bool {
	if f.v1 {
		return f.v1Remove(h)
	}
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	if !asm.CountingTest(ln, h, f.k, f.wide) {
		runtime.KeepAlive(f)
		return false
	}
	g := h * asm.BlockedMul
	k := f.k
	if f.wide {
		for ; k > 10; k -= 10 {
			sub8(ln, g, 10)
			g *= asm.BlockedMul
		}
		sub8(ln, g, k)
	} else {
		for ; k > 9; k -= 9 {
			sub4(ln, g, 9)
			g *= asm.BlockedMul
		}
		sub4(ln, g, k)
	}
	runtime.KeepAlive(f)
	return true
}

// Count returns the smallest of key's counters: an upper bound on how many
// times key was added and not removed (0 means absent), capped at the
// counter maximum 15 or 255.
func (f *Filter) Count(key []byte) uint32 { return f.CountHash(f.hash(key)) }

// CountHash is Count of a hash.
func (f *Filter) CountHash(h uint64) uint32 {
	if f.v1 {
		return f.v1Count(h)
	}
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	g := h * asm.BlockedMul
	k, c := f.k, f.counter
	if f.wide {
		for ; k > 10; k -= 10 {
			c = least8(ln, g, 10, c)
			g *= asm.BlockedMul
		}
		c = least8(ln, g, k, c)
	} else {
		for ; k > 9; k -= 9 {
			c = least4(ln, g, 9, c)
			g *= asm.BlockedMul
		}
		c = least4(ln, g, k, c)
	}
	runtime.KeepAlive(f)
	return uint32(c)
}
