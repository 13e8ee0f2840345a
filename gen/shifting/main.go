// Command shifting generates the ShBF_M batch test kernels
// asm/shifting_amd64.s and their stubs: per vector of hashes (4 on AVX2, 8
// on AVX-512) the k/2 probe positions by multiply-high reduction, one
// gather of unaligned 8-byte words per probe pair, a variable shift by
// pos mod 8, and a compare of the AND of the windows with the pair mask.
package main

//go:generate go run -tags purego . -out ../../asm/shifting_amd64.s -stubs ../../asm/shifting_stub_amd64.go -pkg asm

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/internal/genutil"
)

// The probe constants are the library's own (asm.ShiftingPhi,
// asm.ShiftingWBar), not retyped here.
const (
	phi    = asm.ShiftingPhi
	offMod = asm.ShiftingWBar - 1
)

// signature is every stub's, in asm's order (array, hs, out, parameters):
// slices, n = len(hs) = len(out).
const signature = "func(words []uint64, hs []uint64, out []bool, m uint64, pairs uint64) int"

func main() {
	ConstraintExpr("amd64,gc,!purego") // avo v0.5.0 parses the "+build" syntax; it writes "//go:build amd64 && gc && !purego"
	kernel("shiftingTestHashesAVX2", 4)
	kernel("shiftingTestHashesAVX512", 8)
	keyKernels()
	Generate()
}

// vec names the width-dependent parts of a kernel.
type vec struct {
	lanes int
	new   func() VecVirtual
}

// kernel emits one kernel of the given lane count. Both widths share the
// instruction sequence; only the register class, the gather mask (a vector
// on AVX2, an opmask on AVX-512), the bitwise ops (VPAND vs VPANDQ) and the
// compare differ.
func kernel(name string, lanes int) {
	TEXT(name, NOSPLIT, signature)
	Pragma("noescape")
	Doc(name+" tests the hashes hs (a multiple of "+strconv.Itoa(lanes)+") against the ShBF_M",
		"array words of m positions and pairs probe pairs, writes out[i] (len(out) =",
		"len(hs)) and returns the number of hits. It is shiftingTestHashesGeneric, bit",
		"for bit.")
	v := vec{lanes: lanes, new: func() VecVirtual { return YMM() }}
	if lanes == 8 {
		v.new = func() VecVirtual { return ZMM() }
	}
	words := GP64()
	Load(Param("words").Base(), words)
	m := GP64()
	Load(Param("m"), m)
	pairs := GP64()
	Load(Param("pairs"), pairs)
	hs := GP64()
	Load(Param("hs").Base(), hs)
	out := GP64()
	Load(Param("out").Base(), out)
	n := GP64()
	Load(Param("hs").Len(), n)

	Comment("Broadcast the constants: m split in 32-bit halves for the multiply-high.")
	mlo, mhi, vphi, c56 := v.new(), v.new(), v.new(), v.new()
	t := GP64()
	MOVL(m.As32(), t.As32())
	broadcast(v, t, mlo)
	mhiGP := GP64()
	MOVQ(m, mhiGP)
	SHRQ(U8(32), mhiGP)
	broadcast(v, mhiGP, mhi)
	MOVQ(U64(phi), t)
	broadcast(v, t, vphi)
	MOVQ(U64(offMod), t)
	broadcast(v, t, c56)
	pdepMask := GP64()
	MOVQ(U64(0x0101010101010101), pdepMask)

	hits := GP64()
	XORQ(hits, hits)
	i := GP64()
	XORQ(i, i)

	Label(name + "_keys")
	CMPQ(i, n)
	JAE(LabelRef(name + "_done"))

	a, b, acc := v.new(), v.new(), v.new()
	load(v, Mem{Base: hs, Index: i, Scale: 8}, a)
	Comment("b = rotl(h, 32): swap the 32-bit halves of every lane.")
	VPSHUFD(U8(0xb1), a, b)
	allOnes(v, acc)

	j := GP64()
	MOVQ(pairs, j)
	ah, tv, u, w := v.new(), v.new(), v.new(), v.new()
	Comment("m below 2^32 (512 MiB) needs two of the four products.")
	TESTQ(mhiGP, mhiGP)
	JZ(LabelRef(name + "_pairs32"))

	Label(name + "_pairs")
	Comment("pos = Reduce(a, m) = high 64 bits of a·m from four 32x32 products.")
	mulhi(a, mlo, mhi, ah, tv, u, w)
	probePair(v, name+"_pairs", words, a, b, acc, vphi, j, ah, tv, u, w)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_pairs32")
	Comment("pos = Reduce(a, m) for m < 2^32: (ah·m + (al·m >> 32)) >> 32.")
	VPSRLQ(U8(32), a, ah)
	VPMULUDQ(mlo, ah, ah)
	VPMULUDQ(mlo, a, tv)
	VPSRLQ(U8(32), tv, tv)
	VPADDQ(tv, ah, ah)
	VPSRLQ(U8(32), ah, ah)
	probePair(v, name+"_pairs32", words, a, b, acc, vphi, j, ah, tv, u, w)

	Label(name + "_tail")
	Comment("o = Reduce(a, 56) + 1; want = 1 | 1<<o; hit where acc & want == want.")
	genutil.ReduceLanes(c56, a, ah, tv)
	one := u
	allOnes(v, one)
	VPSRLQ(U8(63), one, one)
	VPADDQ(one, ah, ah)
	VPSLLVQ(ah, one, w)
	or(v, one, w, w)
	and(v, w, acc, acc)
	bitsOut := GP64()
	compareMask(v, acc, w, bitsOut)

	cnt := GP64()
	POPCNTQ(bitsOut, cnt)
	ADDQ(cnt, hits)
	Comment("Spread the lane bits into one byte per lane (0 or 1) and store them.")
	PDEPQ(pdepMask, bitsOut, cnt)
	if lanes == 8 {
		MOVQ(cnt, Mem{Base: out, Index: i, Scale: 1})
	} else {
		MOVL(cnt.As32(), Mem{Base: out, Index: i, Scale: 1})
	}
	ADDQ(U8(lanes), i)
	JMP(LabelRef(name + "_keys"))

	Label(name + "_done")
	VZEROUPPER()
	Store(hits, ReturnIndex(0))
	RET()
}

// probePair gathers the window at pos (in pos), ANDs it into acc, steps
// the probe sequence and loops to label while j counts down; tv, u and w
// are scratch.
func probePair(v vec, label string, words GPVirtual, a, b, acc, vphi VecVirtual, j GPVirtual, pos, tv, u, w VecVirtual) {
	Comment("Gather the 8 bytes at words + pos/8 and shift each lane by pos mod 8.")
	VPSRLQ(U8(3), pos, u)
	VPSLLQ(U8(61), pos, w)
	VPSRLQ(U8(61), w, w)
	gather(v, words, u, pos, tv)
	VPSRLVQ(w, pos, pos)
	and(v, pos, acc, acc)
	VPADDQ(b, a, a)
	VPADDQ(vphi, b, b)
	DECQ(j)
	JNZ(LabelRef(label))
}

// mulhi sets hi to the high 64 bits of a·m per lane, with m split into
// 32-bit halves mlo and mhi; tv, u and w are scratch.
func mulhi(a, mlo, mhi, hi, tv, u, w VecVirtual) {
	VPSRLQ(U8(32), a, hi)  // ah
	VPMULUDQ(mlo, a, tv)   // al·ml
	VPSRLQ(U8(32), tv, tv) // carry into the middle
	VPMULUDQ(mlo, hi, u)   // ah·ml
	VPADDQ(tv, u, u)       // u = ah·ml + (al·ml >> 32), fits in 64 bits
	VPMULUDQ(mhi, a, w)    // al·mh
	VPSLLQ(U8(32), u, tv)
	VPSRLQ(U8(32), tv, tv)
	VPADDQ(tv, w, w)      // w = al·mh + low32(u), fits in 64 bits
	VPMULUDQ(mhi, hi, hi) // ah·mh
	VPSRLQ(U8(32), u, u)
	VPSRLQ(U8(32), w, w)
	VPADDQ(u, hi, hi)
	VPADDQ(w, hi, hi)
}

func broadcast(v vec, r GPVirtual, dst VecVirtual) {
	if v.lanes == 8 {
		VPBROADCASTQ(r, dst)
		return
	}
	x := XMM()
	MOVQ(r, x)
	VPBROADCASTQ(x, dst)
}

func allOnes(v vec, dst VecVirtual) {
	if v.lanes == 8 {
		VPTERNLOGQ(U8(0xff), dst, dst, dst)
		return
	}
	VPCMPEQQ(dst, dst, dst)
}

func load(v vec, src Mem, dst VecVirtual) {
	if v.lanes == 8 {
		VMOVDQU64(src, dst)
		return
	}
	VMOVDQU(src, dst)
}

func and(v vec, x, y, dst VecVirtual) {
	if v.lanes == 8 {
		VPANDQ(x, y, dst)
		return
	}
	VPAND(x, y, dst)
}

func or(v vec, x, y, dst VecVirtual) {
	if v.lanes == 8 {
		VPORQ(x, y, dst)
		return
	}
	VPOR(x, y, dst)
}

// gather loads the 8 bytes at base + idx (scale 1) per lane into dst; mask
// is scratch (AVX2 clears it, so it is set before every gather).
func gather(v vec, base GPVirtual, idx, dst, mask VecVirtual) {
	mem := Mem{Base: base, Index: idx, Scale: 1}
	if v.lanes == 8 {
		k := K()
		KXNORB(k, k, k)
		VPGATHERQQ(mem, k, dst)
		return
	}
	allOnes(v, mask)
	VPGATHERQQ(mask, mem, dst)
}

// compareMask sets r to the lane mask of x == y (bit i for lane i).
func compareMask(v vec, x, y VecVirtual, r GPVirtual) {
	if v.lanes == 8 {
		k := K()
		VPCMPEQQ(x, y, k)
		KMOVB(k, r.As32())
		return
	}
	VPCMPEQQ(x, y, x)
	VMOVMSKPD(x, r.As32())
}
