package counting

import (
	"math/bits"
	"runtime"
	"sync/atomic"

	"github.com/filterengine/filterengine/asm"
)

// The default geometry (4-bit counters, k = 6, p = 1%) updates a word at
// a time: a key's six probes touch 4.4 of its line's 8 words on average,
// and each touched word changes in one compare-and-swap carrying all of
// the key's increments (or decrements) in it, where the general path
// swaps once per probe. A locked instruction costs about 6 ns on the
// machines measured and no later load passes it, so the swaps, not the
// arithmetic, bound a single-key Add. The probes are straight code:
// counts3 twice builds the per-word counts, no call.

// nibbleCarries has the lowest bit of every 4-bit counter but the
// lowest: where a carry (or borrow) out of a counter lands.
const nibbleCarries = 0x1111111111111110

// counts3 adds the three 4-bit probes of g, g << 7 and g << 14 to the
// per-word counts d (probe q adds 1 << 4(q&15) to d[q>>4], so a counter
// probed twice counts 2) and returns the words they touch, bit w for
// word w. Small enough to inline.
func counts3(d *[asm.CountingLineWords]uint64, g uint64) (touched uint64) {
	d[g>>61] += 1 << (g >> 55 & 60)
	d[g<<7>>61] += 1 << (g << 7 >> 55 & 60)
	d[g<<14>>61] += 1 << (g << 14 >> 55 & 60)
	return 1<<(g>>61) | 1<<(g<<7>>61) | 1<<(g<<14>>61)
}

// add6 increments the six counters of the round g in line ln, a CAS per
// touched word. If zeros, it returns a word whose top bit is set when a
// probed counter was zero just before its word's swap, else 0. A
// counter stops at 15 and stays there.
func (f *Filter) add6(ln *[asm.CountingLineWords]uint64, g uint64, zeros bool) (wasZero uint64) {
	var d [asm.CountingLineWords]uint64
	touched := counts3(&d, g) | counts3(&d, g<<21)
	for touched != 0 {
		w := bits.TrailingZeros64(touched) & (asm.CountingLineWords - 1)
		touched &= touched - 1
		p, dw := &ln[w], d[w]
		var old uint64
		for {
			old = load(p)
			s := old + dw
			if (old^dw^s)&nibbleCarries != 0 || s < old {
				// A counter passing 15 carries into the next one (or out
				// of the word): the rare case, out of line.
				old = f.addSaturating(p, dw)
				break
			}
			if atomic.CompareAndSwapUint64(p, old, s) {
				break
			}
		}
		if zeros { // the negated marks of the zero counters: top bit set if any
			wasZero |= -(f.nonzero(dw) &^ f.nonzero(old))
		}
	}
	runtime.KeepAlive(f)
	return wasZero
}

// sub6 decrements the six counters of the round g in line ln, a CAS per
// touched word. A decrement skips a counter at 0 (so a racing misuse,
// removing keys never added, cannot borrow from a neighbour) or at 15
// (sticky saturation).
func (f *Filter) sub6(ln *[asm.CountingLineWords]uint64, g uint64) {
	var d [asm.CountingLineWords]uint64
	touched := counts3(&d, g) | counts3(&d, g<<21)
	for touched != 0 {
		w := bits.TrailingZeros64(touched) & (asm.CountingLineWords - 1)
		touched &= touched - 1
		p, dw := &ln[w], d[w]
		one := f.nonzero(dw) // the lowest bit of every probed counter
		for {
			old := load(p)
			s, u := old-dw, old+one
			if ((old^dw^s)|(old^one^u))&nibbleCarries != 0 || s > old || u < old {
				// A count above its counter (a borrow) or a counter at
				// 15 (old+one carries): the rare case, out of line.
				f.subSaturating(p, dw)
				break
			}
			if atomic.CompareAndSwapUint64(p, old, s) {
				break
			}
		}
	}
	runtime.KeepAlive(f)
}

// addSaturating adds the per-counter counts d to *p when a counter
// reaches its maximum: each count as that many single increments, which
// stop at the maximum. A word whose probed counters are all saturated is
// left as it is. It returns the word just before the swap.
//
//go:noinline
func (l *lanes) addSaturating(p *uint64, d uint64) (old uint64) {
	for {
		old = load(p)
		s := l.stepCounters(old, d, true)
		if s == old || atomic.CompareAndSwapUint64(p, old, s) {
			return old
		}
	}
}

// subSaturating subtracts the per-counter counts d from *p when a
// counter is saturated or below its count: each count as that many
// single decrements, which skip a counter at zero or at its maximum.
//
//go:noinline
func (l *lanes) subSaturating(p *uint64, d uint64) {
	for {
		old := load(p)
		s := l.stepCounters(old, d, false)
		if s == old || atomic.CompareAndSwapUint64(p, old, s) {
			return
		}
	}
}

// stepCounters applies the per-counter counts d to the counters of x one
// counter at a time, as that many single increments (add) or decrements
// would: an increment stops at the maximum, a decrement at zero, and a
// counter at the maximum stays there.
func (l *lanes) stepCounters(x, d uint64, add bool) uint64 {
	width := l.topShift + 1
	for sh := uint64(0); sh < 64; sh += width {
		n, c := d>>sh&l.counter, x>>sh&l.counter
		switch {
		case n == 0 || !add && c == l.counter:
			continue
		case add:
			c = min(c+n, l.counter)
		default:
			c -= min(c, n)
		}
		x = x&^(l.counter<<sh) | c<<sh
	}
	return x
}
