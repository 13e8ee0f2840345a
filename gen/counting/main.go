// Command counting generates the counting filter's batch test kernels,
// asm.countingTestHashes{4,8}{AVX2,AVX512}, twins of
// asm.countingTestHashesGeneric for 4-bit and 8-bit counters, and the
// prefetch of batch updates, asm.countingPrefetchHashesAVX2 (the layout is
// documented in asm/counting.go: a line of 8 words, one 64-byte block of
// the narrow-block scheme, 128 4-bit or 64 8-bit counters).
//
// Per key: the line is Reduce(h, lines) by MULX; the line becomes the
// masks of its zero counters in a 2-word frame. 4-bit: word 0 has bit b
// set when the low nibble of byte b (counter 2b) is zero, word 1 when
// the high nibble (counter 2b+1) is: AVX-512 VPTESTNMBs the ZMM against
// 0x0f and 0xf0, AVX2 ANDs each YMM half with 0x0f (ANDNs for the high
// nibbles) and VPCMPEQB/VPMOVMSKBs it. 8-bit: word 0 bit b for byte b,
// one VPTESTNMB or two VPCMPEQB/VPMOVMSKB. Then g = h*BlockedMul, as
// asm.NarrowPositions: probe q = g >> (64-logBits), g <<= logBits, a new
// round g_(r+1) = g_r*BlockedMul after 9 (4-bit) or 10 (8-bit) probes;
// a 4-bit probe reads bit q>>1 of frame word q&1 (SHRX), an 8-bit probe
// bit q of word 0, and ORs it into the key's miss bit. While more than
// dist keys remain (dist > 0, the kernels' last argument), the line of
// the key dist places ahead is prefetched.
//
// The generator takes the layout's constants from package asm, built
// with -tags purego so that it never depends on the files it writes.
package main

//go:generate go run -tags purego . -out ../../asm/counting_amd64.s -stubs ../../asm/counting_stub_amd64.go -pkg asm

import (
	"fmt"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// lineBytes is the bytes of one counting line.
const lineBytes = 8 * asm.CountingLineWords

var (
	mul, nibbleHalves Mem
	paramAddr         = genutil.ParamAddr
)

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	mul = GLOBL("countingBlockedMul", RODATA|NOPTR)
	DATA(0, U64(asm.BlockedMul))
	nibbleHalves = GLOBL("countingNibbleHalves", RODATA|NOPTR)
	for i := range 8 {
		v := uint64(0x0f0f0f0f0f0f0f0f)
		if i >= 4 {
			v = 0xf0f0f0f0f0f0f0f0
		}
		DATA(8*i, U64(v))
	}
	for _, wide := range []bool{false, true} {
		kernel(avx2{wide})
		kernel(avx512{wide})
	}
	prefetch()
	keyKernels()
	Generate()
}

// isa emits the vector part of a kernel: the zero masks of a line.
type isa interface {
	name() string
	wide() bool
	setup()
	// zeroMasks stores the zero-counter masks of the line at p in the
	// frame zm (one word for 8-bit counters, two for 4-bit).
	zeroMasks(p reg.GPVirtual, zm Mem)
}

func widthName(wide bool) int { return map[bool]int{false: 4, true: 8}[wide] }

type avx2 struct{ w bool }

var lo, zero, va, vb, vc reg.VecVirtual

func (a avx2) name() string { return fmt.Sprintf("countingTestHashes%dAVX2", widthName(a.w)) }
func (a avx2) wide() bool   { return a.w }
func (a avx2) setup() {
	lo, zero, va, vb, vc = YMM(), YMM(), YMM(), YMM(), YMM()
	VMOVDQU(nibbleHalves, lo) // 0x0f in every byte of the low 32 bytes
	VPXOR(zero, zero, zero)
}
func (a avx2) zeroMasks(p reg.GPVirtual, zm Mem) {
	t, u := GP64(), GP64()
	if a.w {
		VPCMPEQB(Mem{Base: p}, zero, va)
		VPCMPEQB(Mem{Base: p, Disp: 32}, zero, vb)
		VPMOVMSKB(va, t.As32())
		VPMOVMSKB(vb, u.As32())
		SHLQ(U8(32), u)
		ORQ(u, t)
		MOVQ(t, zm)
		return
	}
	// mask of the halves' nibbles: low nibbles to zm[0], high to zm[1]
	for half := range 2 {
		VMOVDQU(Mem{Base: p, Disp: 32 * half}, vc)
		VPAND(vc, lo, va)
		VPANDN(vc, lo, vb)
		VPCMPEQB(zero, va, va)
		VPCMPEQB(zero, vb, vb)
		if half == 0 {
			VPMOVMSKB(va, t.As32())
			VPMOVMSKB(vb, u.As32())
			MOVQ(t, zm)
			MOVQ(u, zm.Offset(8))
			continue
		}
		VPMOVMSKB(va, t.As32())
		VPMOVMSKB(vb, u.As32())
		SHLQ(U8(32), t)
		SHLQ(U8(32), u)
		ORQ(t, zm)
		ORQ(u, zm.Offset(8))
	}
}

type avx512 struct{ w bool }

var vz, vh reg.VecVirtual

func (a avx512) name() string { return fmt.Sprintf("countingTestHashes%dAVX512", widthName(a.w)) }
func (a avx512) wide() bool   { return a.w }
func (a avx512) setup() {
	vz, vh, va = ZMM(), ZMM(), ZMM()
	if a.w {
		VPTERNLOGD(U8(0xff), vz, vz, vz) // all ones
		return
	}
	VPBROADCASTQ(nibbleHalves, vz)            // 0x0f in every byte
	VPBROADCASTQ(nibbleHalves.Offset(32), vh) // 0xf0 in every byte
}
func (a avx512) zeroMasks(p reg.GPVirtual, zm Mem) {
	t := GP64()
	if a.w {
		VPTESTNMB(Mem{Base: p}, vz, reg.K1)
		KMOVQ(reg.K1, t)
		MOVQ(t, zm)
		return
	}
	VMOVDQU64(Mem{Base: p}, va)
	VPTESTNMB(vz, va, reg.K1)
	VPTESTNMB(vh, va, reg.K2)
	KMOVQ(reg.K1, t)
	MOVQ(t, zm)
	KMOVQ(reg.K2, t)
	MOVQ(t, zm.Offset(8))
}

func kernel(v isa) {
	name := v.name()
	TEXT(name, NOSPLIT, "func(words []uint64, hs []uint64, out []bool, lines, k uint64, dist int) int")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is countingTestHashesGeneric for %d-bit counters; len(out) >= len(hs); dist > 0 prefetches the line of the key dist places ahead.", name, widthName(v.wide())))
	zm := AllocLocal(16)
	hsPtr, n, outPtr, dist := GP64(), GP64(), GP64(), GP64()
	Load(Param("hs").Base(), hsPtr)
	Load(Param("hs").Len(), n)
	Load(Param("out").Base(), outPtr)
	Load(Param("dist"), dist)
	v.setup()
	hits := GP64()
	XORQ(hits, hits)
	TESTQ(dist, dist)
	JLE(LabelRef(name + "_tail"))

	Label(name + "_ahead")
	CMPQ(n, dist)
	JBE(LabelRef(name + "_tail"))
	PREFETCHT0(Mem{Base: linePtr(Mem{Base: hsPtr, Index: dist, Scale: 8})})
	key(name+"_a", v, zm, hsPtr, outPtr, hits)
	ADDQ(U8(8), hsPtr)
	INCQ(outPtr)
	DECQ(n)
	JMP(LabelRef(name + "_ahead"))

	Label(name + "_tail")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	key(name+"_t", v, zm, hsPtr, outPtr, hits)
	ADDQ(U8(8), hsPtr)
	INCQ(outPtr)
	DECQ(n)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_done")
	Store(hits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// prefetch emits countingPrefetchHashesAVX2, the amd64 twin of
// countingPrefetchHashesGeneric: PREFETCHT0 of each hash's line, with no
// other effect. Scalar code (the AVX2 level's BMI2 MULX for the line), so
// both vector levels run it.
func prefetch() {
	name := "countingPrefetchHashesAVX2"
	TEXT(name, NOSPLIT, "func(words []uint64, hs []uint64, lines uint64)")
	Pragma("noescape")
	Doc(name + " is countingPrefetchHashesGeneric issuing PREFETCHT0 instead of loads.")
	hsPtr, n := GP64(), GP64()
	Load(Param("hs").Base(), hsPtr)
	Load(Param("hs").Len(), n)
	Label(name + "_loop")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	PREFETCHT0(Mem{Base: linePtr(Mem{Base: hsPtr})})
	ADDQ(U8(8), hsPtr)
	DECQ(n)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	RET()
}

// linePtr returns the address of the line of the hash at h.
func linePtr(h Mem) reg.GPVirtual {
	MOVQ(h, reg.RDX)
	low, ptr := GP64(), GP64()
	MULXQ(paramAddr("lines"), low, ptr)
	SHLQ(U8(log2(lineBytes)), ptr)
	ADDQ(genutil.BaseAddr("words"), ptr)
	return ptr
}

// key tests the hash at hsPtr, writes out[0] and adds the answer to hits.
func key(label string, v isa, zm Mem, hsPtr, outPtr, hits reg.GPVirtual) {
	v.zeroMasks(linePtr(Mem{Base: hsPtr}), zm)

	logBits := int(asm.CountingLogBits(v.wide()))
	per := int(asm.NarrowPer(uint(logBits)))
	g, gr, left, j, miss, t, u := GP64(), GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hsPtr}, gr)
	IMULQ(mul, gr)
	MOVQ(gr, g)
	MOVQ(paramAddr("k"), left)
	MOVQ(U32(per), j)
	XORQ(miss, miss)

	Label(label + "_probe")
	MOVQ(g, t)
	SHRQ(U8(64-logBits), t)
	if v.wide() {
		SHRXQ(t, zm, t)
	} else {
		MOVQ(t, u)
		ANDQ(U8(1), u)
		SHRQ(U8(1), t)
		SHRXQ(t, Mem{Base: zm.Base, Disp: zm.Disp, Index: u, Scale: 8}, t)
	}
	ANDQ(U8(1), t)
	ORQ(t, miss)
	SHLQ(U8(logBits), g)
	DECQ(left)
	JZ(LabelRef(label + "_answer"))
	DECQ(j)
	JNZ(LabelRef(label + "_probe"))
	IMULQ(mul, gr)
	MOVQ(gr, g)
	MOVQ(U32(per), j)
	JMP(LabelRef(label + "_probe"))

	Label(label + "_answer")
	XORQ(t, t)
	TESTQ(miss, miss)
	SETEQ(t.As8())
	MOVB(t.As8(), Mem{Base: outPtr})
	ADDQ(t, hits)
}

// log2 returns the exponent of a power of two.
func log2(x int) int {
	n := 0
	for ; x > 1; x >>= 1 {
		n++
	}
	return n
}
