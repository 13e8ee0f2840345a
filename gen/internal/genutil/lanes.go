package genutil

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// ReduceLanes sets dst to the high word of h*m in every 64-bit lane, the
// range reduction of hashing.Reduce, for m < 2^32 in every lane (YMM or
// ZMM registers, m a register or memory operand): with m's high half
// zero, hi(h*m) = (hh*m + (hl*m >> 32)) >> 32 from two VPMULUDQ, and
// the sum cannot overflow. t is scratch; h is left as it was.
func ReduceLanes(m Op, h, dst, t reg.VecVirtual) {
	VPMULUDQ(m, h, t)
	VPSRLQ(U8(32), t, t)
	VPSRLQ(U8(32), h, dst)
	VPMULUDQ(m, dst, dst)
	VPADDQ(t, dst, dst)
	VPSRLQ(U8(32), dst, dst)
}

// MulLanes sets h = h*c in every 64-bit lane, for AVX2, which has no
// 64-bit multiply: lo(h)*lo(c) + (hi(h)*lo(c) + lo(h)*hi(c)) << 32. lo
// holds c in every lane (VPMULUDQ reads its low half) and sw c with its
// halves swapped (bits.RotateLeft64(c, 32)), registers or memory. One
// VPMULLD of h and sw gives both cross products as dwords, lo(h)*hi(c)
// below hi(h)*lo(c); the low one shifted up (a zero below it) and added
// dword-wise puts their sum in the high half, and a blend takes the low
// half from the shifted copy's zero. t1 and t2 are scratch.
func MulLanes(lo, sw Op, h, t1, t2 reg.VecVirtual) {
	VPMULLD(sw, h, t1)
	VPSLLQ(U8(32), t1, t2)
	VPADDD(t2, t1, t1)
	VPBLENDD(U8(0x55), t2, t1, t1)
	VPMULUDQ(lo, h, h)
	VPADDQ(t1, h, h)
}
