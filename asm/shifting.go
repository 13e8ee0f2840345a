package asm

import (
	"math/bits"

	"github.com/filterengine/filterengine/engine"
)

// Shifting Bloom filter (ShBF_M) batch test. The probe sequence is the
// shifting package's: a_0 = h, b_0 = rotl(h, 32), a_{j+1} = a_j + b_j,
// b_{j+1} = b_j + φ; pair j reads bits pos_j and pos_j + o with
// pos_j = Reduce(a_j, m) for j < pairs and o = Reduce(a_pairs, 56) + 1.
const (
	shiftingPhi    = 0x9e3779b97f4a7c15
	shiftingOffMod = 56 // w̄ - 1 for w̄ = 57
)

// ShiftingTest sets out[i] to whether hash hs[i] has both bits of all
// pairs probe pairs set in the ShBF_M array words of m positions, and
// returns the number of hits. words must hold the padding the unaligned
// loads need: len(words) >= (m-1)/64 + 2. out must be at least as long as
// hs. It panics on violated preconditions rather than read out of bounds.
func ShiftingTest(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	if m == 0 || m > engine.MaxBits || pairs == 0 || uint64(len(words)) < (m-1)/64+2 {
		panic("asm: ShiftingTest with an array too small for m or no pairs")
	}
	if len(out) < len(hs) {
		panic("asm: ShiftingTest out shorter than hashes")
	}
	return shiftingTest(words, m, pairs, hs, out[:len(hs)])
}

// shiftingWindow returns bits pos .. pos+63 of words in bits 0 .. 63; the
// kernels' unaligned load at byte pos/8 shifted by pos mod 8 agrees with it
// on bits 0 .. 56, the only ones a test consults.
func shiftingWindow(words []uint64, pos uint64) uint64 {
	i, s := pos>>6, pos&63
	return words[i]>>s | words[i+1]<<(64-s)
}

// shiftingTestGeneric is the specification of ShiftingTest.
func shiftingTestGeneric(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	hits := 0
	for i, h := range hs {
		a, b := h, bits.RotateLeft64(h, 32)
		acc := ^uint64(0)
		for range pairs {
			acc &= shiftingWindow(words, engine.Reduce(a, m))
			a += b
			b += shiftingPhi
		}
		want := 1 | uint64(1)<<(engine.Reduce(a, shiftingOffMod)+1)
		ok := acc&want == want
		out[i] = ok
		if ok {
			hits++
		}
	}
	return hits
}
