package shifting

import (
	"math/bits"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/hashing"
)

// wBar is w̄ = w - 7 for w = 64-bit loads: a load of 8 bytes at byte
// pos/8, shifted right by pos mod 8, holds bits pos .. pos+56 of the array
// whatever pos is, so every bit a probe needs at offsets 0 .. wBar-1 comes
// from one memory access (Yang et al. 2016, section 3.1: w̄ <= w + 1 - j
// for all 1 <= j <= 8).
const wBar = asm.ShiftingWBar

// padWords returns how many words an array of m probe positions needs so
// that the 8-byte load at byte (m-1)/8 and the bit (m-1)+wBar-1 stay in
// bounds: the words up to and including word (m-1)/64 + 1. A zero value
// (m = 0) has none.
func padWords(m uint64) uint64 {
	if m == 0 {
		return 0
	}
	return (m-1)/64 + 2
}

// phi is 2^64 divided by the golden ratio, the quadratic step of the probe
// sequence (asm.ShiftingPhi, the kernels' constant).
const phi = asm.ShiftingPhi

// probeStart begins a key's sequence of raw 64-bit probe values, double
// hashing with a quadratic term: a_0 = h, b_0 = rotl(h, 32), then
// a_{j+1} = a_j + b_j and b_{j+1} = b_j + φ (all mod 2^64), which callers
// step inline as "pa, pb = pa+pb, pb+phi" so both stay in registers.
// Position j is Reduce(a_j, m); the quadratic term keeps keys with a small
// b_0 from probing a run of nearby positions. asm.ShiftingTestHashes computes
// the same sequence.
func probeStart(h uint64) (a, b uint64) { return h, bits.RotateLeft64(h, 32) }

// membershipOffset is ShBF_M's o(e) = h_{k/2+1}(e) mod (w̄-1) + 1 in
// [1, wBar-1], taken from the probe value after the k/2 positions.
func membershipOffset(h uint64, pairs uint32) uint64 {
	return hashing.Reduce(asm.ShiftingRawAt(h, uint64(pairs)), wBar-1) + 1
}
