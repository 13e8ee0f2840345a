package asm

import (
	"sync/atomic"
)

// CountingOp is what CountingUpdate does to each of a key's counters.
type CountingOp uint8

const (
	CountingAdd          CountingOp = iota // one more, plain: the writer has the filter to itself
	CountingAddAtomic                      // one more by CAS, for concurrent writers
	CountingRemove                         // one less, plain
	CountingRemoveAtomic                   // one less by CAS
	CountingLeast                          // no change: the smallest counter (Count)
)

// countingIncrement adds one to the counter at bit offset sh of *p unless
// it is at its maximum max (sticky saturation), by CAS, and returns c-1
// for the counter c it found (0 when saturated): its top bit is set when
// the counter was zero, a mask callers OR without a branch.
func countingIncrement(p *uint64, sh, max uint64) (wasZero uint64) {
	for {
		old := atomic.LoadUint64(p)
		c := old >> sh & max
		if c == max {
			return 0
		}
		if atomic.CompareAndSwapUint64(p, old, old+1<<sh) {
			return c - 1
		}
	}
}

// countingDecrement subtracts one from the counter at bit offset sh of
// *p by CAS unless it is zero or saturated. Skipping zero keeps a racing
// misuse (removing keys never added) from borrowing from a neighbour.
func countingDecrement(p *uint64, sh, max uint64) {
	for {
		old := atomic.LoadUint64(p)
		if c := old >> sh & max; c == 0 || c == max {
			return
		}
		if atomic.CompareAndSwapUint64(p, old, old-1<<sh) {
			return
		}
	}
}

// CountingUpdate applies o to each of the k counters of hash h in its
// line ln (8-bit counters if wide) and returns, for CountingAdd and
// CountingAddAtomic, a word whose top bit is set when one of them was
// zero before its increment, and for CountingLeast the smallest of them.
// Counters walk as NarrowPositions: g = h*BlockedMul, probe q the top 7
// (4-bit) or 6 (8-bit) bits of g, then g shifts left by as many, a new
// round every 9 or 10 probes; counter q's word is the top 3 bits of the
// probe's g and its bit offset the next 4 (3) bits times 4 (8). Two
// probes on one counter change it twice; a counter at its maximum never
// changes (sticky saturation), and a remove skips counters at zero. The
// plain operations are one load and one store a counter: no lock, so a
// key's cache miss overlaps the next key's work as a test's does, where
// a locked CAS waits for every earlier load. CountingRemove changes
// counters unconditionally: test the key first.
func CountingUpdate(ln *[CountingLineWords]uint64, h uint64, k uint32, wide bool, o CountingOp) (acc uint64) {
	step, off, max, per := uint64(7), uint64(60), uint64(0xf), uint32(9)
	if wide {
		step, off, max, per = 6, 56, 0xff, 10
	}
	if o == CountingLeast {
		acc = max
	}
	r := h * BlockedMul
	for ; k > 0; r *= BlockedMul {
		g := r
		for range min(k, per) {
			p, sh := &ln[g>>61], g>>55&off
			switch o {
			case CountingAdd:
				c := *p >> sh & max
				acc |= c - 1
				if c != max {
					*p += 1 << sh
				}
			case CountingAddAtomic:
				acc |= countingIncrement(p, sh, max)
			case CountingRemove:
				if c := *p >> sh & max; c != 0 && c != max {
					*p -= 1 << sh
				}
			case CountingRemoveAtomic:
				countingDecrement(p, sh, max)
			case CountingLeast:
				acc = min(acc, atomic.LoadUint64(p)>>sh&max)
			}
			g <<= step
		}
		k -= min(k, per)
	}
	return acc
}

// countingBump4 is CountingUpdate's CountingAdd of the n <= 9 4-bit
// counters of the round g, with constant shifts.
func countingBump4(ln *[CountingLineWords]uint64, g uint64, n uint32) (wasZero uint64) {
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

// countingDrop4 is CountingUpdate's CountingRemove of the n <= 9 4-bit
// counters of the round g, with constant shifts.
func countingDrop4(ln *[CountingLineWords]uint64, g uint64, n uint32) {
	for ; n > 0; n-- {
		p, sh := &ln[g>>61], g>>55&60
		if c := *p >> sh & 0xf; c != 0 && c != 0xf {
			*p -= 1 << sh
		}
		g <<= 7
	}
}
