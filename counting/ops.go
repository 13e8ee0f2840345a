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
// the multiplier every 9 or 10 probes. Counter q's word is the top 3 bits
// of the probe's g and its bit offset the next 4 (3) bits times 4 (8).
// update walks them with one of these operations.
type op uint8

const (
	opAdd          op = iota // one more, plain: the writer has the filter to itself
	opAddAtomic              // one more by CAS, for concurrent writers
	opRemove                 // one less, plain
	opRemoveAtomic           // one less by CAS
	opLeast                  // no change: the smallest counter (Count)
)

// increment adds one to the counter at bit offset sh of *p unless it is
// at its maximum max (sticky saturation), by CAS, and returns c-1 for the
// counter c it found (0 when saturated): its top bit is set when the
// counter was zero, a mask callers OR without a branch.
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

// decrement subtracts one from the counter at bit offset sh of *p by CAS
// unless it is zero or saturated. Skipping zero keeps a racing misuse
// (removing keys never added) from borrowing from a neighbour.
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

// update applies o to each of the k counters of hash h and returns, for
// opAdd and opAddAtomic, a word whose top bit is set when one of them was
// zero before its increment, and for opLeast the smallest of them and
// f.counter. Two probes on one counter change it twice. The plain
// operations are one load and one store a counter: no lock, so a key's
// cache miss overlaps the next key's work as a Test's does, where a
// locked CAS waits for every earlier load.
func (f *Filter) update(h uint64, o op) (acc uint64) {
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	step, off, max, per := uint64(7), uint64(60), uint64(0xf), uint32(9)
	if f.wide {
		step, off, max, per = 6, 56, 0xff, 10
	}
	if o == opLeast {
		acc = max
	}
	r := h * asm.BlockedMul
	for k := f.k; k > 0; r *= asm.BlockedMul {
		g := r
		for range min(k, per) {
			p, sh := &ln[g>>61], g>>55&off
			switch o {
			case opAdd:
				c := *p >> sh & max
				acc |= c - 1
				if c != max {
					*p += 1 << sh
				}
			case opAddAtomic:
				acc |= increment(p, sh, max)
			case opRemove:
				if c := *p >> sh & max; c != 0 && c != max {
					*p -= 1 << sh
				}
			case opRemoveAtomic:
				decrement(p, sh, max)
			case opLeast:
				acc = min(acc, load(p)>>sh&max)
			}
			g <<= step
		}
		k -= min(k, per)
	}
	runtime.KeepAlive(f)
	return acc
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

// addHash increments h's counters, plainly or by CAS, and returns the
// zero marks (top bit set when one was zero before).
func (f *Filter) addHash(h uint64, o op) (wasZero uint64) {
	if f.v1 {
		if f.v1TestAndAdd(h) {
			return 0
		}
		return 1 << 63
	}
	if f.round4 && o == opAdd { // the common case without update's switch
		f.mustHaveLines()
		wasZero = bump4(asm.CountingLine(f.words, h, f.lines), h*asm.BlockedMul, f.k)
		runtime.KeepAlive(f)
		return wasZero
	}
	return f.update(h, o)
}

// bump4 is update's opAdd of the n <= 9 4-bit counters of the round g,
// with constant shifts.
func bump4(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) (wasZero uint64) {
	for ; n > 0; n-- {
		p, sh := &ln[g>>61], g>>55&60
		c := *p >> sh & 0xf
		wasZero |= c - 1
		if c != 0xf {
			*p += 1 << sh
		}
		g <<= 7
	}
	return wasZero
}

// Add inserts key.
func (f *Filter) Add(key []byte) { f.addHash(f.hash(key), opAdd) }

// AddUint64 inserts the 8 little-endian bytes of k.
func (f *Filter) AddUint64(k uint64) { f.AddHash(engine.HashUint64Keyed(k, f.key)) }

// AddString inserts the bytes of s, without copying them.
func (f *Filter) AddString(s string) { f.AddHash(engine.HashStringSeed(s, f.seed)) }

// AddHash inserts a key by its hash: one increment of each of its k
// counters (two probes on one counter increment it twice).
func (f *Filter) AddHash(h uint64) { f.addHash(h, opAdd) }

// TestAndAdd inserts key and reports whether all its counters were
// nonzero just before its own increments, that is whether Test would have
// answered true.
func (f *Filter) TestAndAdd(key []byte) bool { return f.TestAndAddHash(f.hash(key)) }

// TestAndAddHash is TestAndAdd of a hash.
func (f *Filter) TestAndAddHash(h uint64) bool { return f.addHash(h, opAdd)>>63 == 0 }

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
func (f *Filter) RemoveHash(h uint64) bool { return f.removeHash(h, opRemove) }

// removeHash is RemoveHash by plain stores (opRemove) or by CAS
// (opRemoveAtomic).
func (f *Filter) removeHash(h uint64, o op) bool {
	if f.v1 {
		return f.v1Remove(h)
	}
	f.mustHaveLines()
	ln := asm.CountingLine(f.words, h, f.lines)
	if f.round4 && o == opRemove { // the common case without update's switch
		ok := asm.CountingRound4(ln, h*asm.BlockedMul, f.k)>>63 == 0
		if ok {
			drop4(ln, h*asm.BlockedMul, f.k)
		}
		runtime.KeepAlive(f)
		return ok
	}
	if !asm.CountingTest(ln, h, f.k, f.wide) {
		runtime.KeepAlive(f)
		return false
	}
	f.update(h, o)
	return true
}

// drop4 is update's opRemove of the n <= 9 4-bit counters of the round
// g, with constant shifts.
func drop4(ln *[asm.CountingLineWords]uint64, g uint64, n uint32) {
	for ; n > 0; n-- {
		p, sh := &ln[g>>61], g>>55&60
		if c := *p >> sh & 0xf; c != 0 && c != 0xf {
			*p -= 1 << sh
		}
		g <<= 7
	}
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
	return uint32(f.update(h, opLeast))
}
