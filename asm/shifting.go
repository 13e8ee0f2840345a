package asm

import (
	"math/bits"

	"github.com/filterengine/filterengine/engine"
)

// Shifting Bloom filter (ShBF_M) batch test. The probe sequence is the
// shifting package's: a_0 = h, b_0 = rotl(h, 32), a_{j+1} = a_j + b_j,
// b_{j+1} = b_j + φ; pair j reads bits pos_j and pos_j + o with
// pos_j = Reduce(a_j, m) for j < pairs and o = Reduce(a_pairs, w̄-1) + 1.
// The constants are the one definition the shifting package and the
// kernel generator (gen/shifting) take too.
const (
	// ShiftingPhi is φ, 2^64 divided by the golden ratio: the quadratic
	// step of the probe sequence.
	ShiftingPhi = 0x9e3779b97f4a7c15
	// ShiftingWBar is w̄ = 64 - 7: an 8-byte load at byte pos/8 shifted
	// right by pos mod 8 holds bits pos .. pos+56, so offsets up to
	// w̄ - 1 come from one load.
	ShiftingWBar = 57

	shiftingOffMod = ShiftingWBar - 1
)

// ShiftingTestHashes sets out[i] to whether hash hs[i] has both bits of all
// pairs probe pairs set in the ShBF_M array words of m positions, and
// returns the number of hits. words must hold the padding the unaligned
// loads need: len(words) >= (m-1)/64 + 2. out must be at least as long as
// hs. It panics on violated preconditions rather than read out of bounds.
func ShiftingTestHashes(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	if m == 0 || m > engine.MaxBits || pairs == 0 || uint64(len(words)) < (m-1)/64+2 {
		panic("asm: ShiftingTestHashes with an array too small for m or no pairs")
	}
	if len(out) < len(hs) {
		panic("asm: ShiftingTestHashes out shorter than hashes")
	}
	return shiftingTestHashes(words, m, pairs, hs, out[:len(hs)])
}

// ShiftingTestHash reports whether hash h has both bits of all pairs
// probe pairs set in the ShBF_M array words of m positions (with the
// padding ShiftingTestHashes asks for): the single-key test, and the
// specification of ShiftingTestHashes, which runs it key after key. It reads
// every pair's window without an early exit, so the loads of a key issue
// together and an absent key costs no mispredicted branch.
func ShiftingTestHash(words []uint64, m uint64, pairs uint32, h uint64) bool {
	a, b, acc := h, bits.RotateLeft64(h, 32), ^uint64(0)
	for range pairs {
		i, _ := bits.Mul64(a, m)
		acc &= ShiftingWindow(words, i)
		a, b = a+b, b+ShiftingPhi
	}
	o, _ := bits.Mul64(a, shiftingOffMod)
	return ^acc&(1|2<<o) == 0
}

// shiftingTestHashesGeneric is the specification of ShiftingTestHashes.
func shiftingTestHashesGeneric(words []uint64, m uint64, pairs uint32, hs []uint64, out []bool) int {
	hits := 0
	out = out[:len(hs)]
	for i, h := range hs {
		ok := ShiftingTestHash(words, m, pairs, h)
		out[i] = ok
		if ok {
			hits++
		}
	}
	return hits
}

// shiftingWindowAligned is ShiftingWindow from the two aligned words that
// hold the bits: the portable form, built everywhere so its test compares
// it with the unaligned load on amd64 and arm64.
func shiftingWindowAligned(words []uint64, pos uint64) uint64 {
	i, s := pos>>6, pos&63
	return words[i]>>s | words[i+1]<<(64-s)
}
