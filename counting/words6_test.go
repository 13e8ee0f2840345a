package counting

import (
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/asm"
)

// refStep applies one key's probes to a copy of line one counter at a
// time, as the general path does: an increment stops at 15, a decrement
// skips a counter at 0 or 15. It returns the new line and whether a probed
// counter was zero before its own increment (add only).
func refStep(line [asm.CountingLineWords]uint64, h uint64, add bool) ([asm.CountingLineWords]uint64, bool) {
	zero := false
	pos := asm.NarrowPositions(h, 6, asm.CountingLogBits(false))
	for _, q := range pos[:6] {
		word, shift := place(uint64(q), false)
		c := line[word] >> shift & 0xf
		switch {
		case add && c == 0:
			zero = true
			c++
		case add && c < 15:
			c++
		case !add && c != 0 && c != 15:
			c--
		}
		line[word] = line[word]&^(0xf<<shift) | c<<shift
	}
	return line, zero
}

// randomLine draws counters from values where the word path's rare cases
// live: 0, 1, 2 (a key probing one counter twice), 13, 14, 15 and any.
func randomLine(r *rand.Rand) (line [asm.CountingLineWords]uint64) {
	vals := []uint64{0, 1, 2, 13, 14, 15}
	for w := range line {
		for sh := uint64(0); sh < 64; sh += 4 {
			v := uint64(r.IntN(16))
			if r.IntN(2) == 0 {
				v = vals[r.IntN(len(vals))]
			}
			line[w] |= v << sh
		}
	}
	return line
}

// The default geometry's word-at-a-time Add, TestAndAdd and Remove leave
// every counter exactly as the per-counter steps would, saturated,
// zero and twice-probed counters included.
func TestWordPathMatchesCounterSteps(t *testing.T) {
	f := mustNew(t, 1000, 0.01)
	if !f.k6 {
		t.Fatalf("New(1000, 0.01) is not the k = 6, 4-bit geometry (k %d, %d-bit)", f.k, f.CounterBits())
	}
	f.lines = 1 // every hash in line 0
	r := rand.New(rand.NewPCG(21, 22))
	for i := range 200000 {
		h := r.Uint64()
		start := randomLine(r)
		ln := (*[asm.CountingLineWords]uint64)(f.words[:8])

		*ln = start
		want, zero := refStep(start, h, true)
		if i%2 == 0 {
			if got := f.TestAndAddHash(h); got == zero {
				t.Fatalf("hash %#x line %x: TestAndAdd %v, a probed counter zero %v", h, start, got, zero)
			}
		} else {
			f.AddHash(h)
		}
		if *ln != want {
			t.Fatalf("hash %#x line %x: Add gave %x, per counter %x", h, start, *ln, want)
		}

		*ln = start
		want, _ = refStep(start, h, false)
		present := f.TestHash(h)
		if got := f.RemoveHash(h); got != present {
			t.Fatalf("hash %#x: Remove %v, Test %v", h, got, present)
		}
		if !present {
			want = start
		}
		if *ln != want {
			t.Fatalf("hash %#x line %x: Remove gave %x, per counter %x", h, start, *ln, want)
		}
	}
}

// stepCounters, the rare case of both widths, is single steps counter by
// counter.
func TestStepCounters(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, wide := range []bool{false, true} {
		l := lanesOf(wide)
		width := l.topShift + 1
		for range 100000 {
			x, d := r.Uint64(), r.Uint64()&(l.one*7) // counts 0..7
			for _, add := range []bool{true, false} {
				got := l.stepCounters(x, d, add)
				for sh := uint64(0); sh < 64; sh += width {
					c, n := x>>sh&l.counter, d>>sh&l.counter
					for range n {
						switch {
						case add && c < l.counter:
							c++
						case !add && c != 0 && c != l.counter:
							c--
						}
					}
					if g := got >> sh & l.counter; g != c {
						t.Fatalf("wide %v add %v x %#x d %#x: counter at %d is %d, want %d", wide, add, x, d, sh, g, c)
					}
				}
			}
		}
	}
}
