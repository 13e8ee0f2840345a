// Command counting generates the counting filter's batch test kernels,
// asm.countingTest{4,8}{AVX2,AVX512}, twins of
// asm.countingTestHashesGeneric for 4-bit and 8-bit counters, and the
// prefetch of batch updates, asm.countingPrefetch{4,8}BMI2 (the layout
// is documented in asm/counting.go: a line of 8 chunks, chunk w holding
// the 64 counters of blocked mask word w).
//
// Per key, branch-free inside a round: the line is Reduce(h, lines) by
// MULX; each chunk becomes the 64-bit mask of its zero counters, bit b for
// counter b, stored in an 8-word frame. 4-bit chunks: AVX2 ANDs the 32
// bytes with 0x0f (low nibbles) and ANDNs them (high nibbles),
// VPCMPEQB/VPMOVMSKB each half; AVX-512 broadcasts the 32 bytes to both
// halves of a ZMM and VPTESTNMBs them against 0x0f / 0xf0 at once. 8-bit
// chunks: VPCMPEQB/VPMOVMSKB of two YMM halves, or one VPTESTNMB. Then
// g = h*BlockedMul, as asm.BlockedMask: per round and word w, bit
// (g >> (58-6w)) & 63 of the zero mask (SHRX masks the count) goes to bit
// w of an 8-bit miss set; the last partial round keeps only the words
// (w - s) & 7 < k%8, rotl8(2^(k%8)-1, s). While more than prefetchAhead
// keys remain, the line of the key that far ahead is prefetched (4 or 8
// cache lines).
package main

//go:generate go run . -out ../../asm/counting_amd64.s -stubs ../../asm/counting_stub_amd64.go -pkg asm

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// prefetchAhead is how many keys ahead the kernels prefetch lines.
const prefetchAhead = 8

var mul, nibbleHalves Mem

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	mul = GLOBL("countingBlockedMul", RODATA|NOPTR)
	DATA(0, U64(0x9e3779b97f4a7c15))
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
	for _, wide := range []bool{false, true} {
		prefetch(wide)
	}
	Generate()
}

// isa emits the vector part of a kernel: the zero masks of the chunks.
type isa interface {
	name() string
	wide() bool
	setup()
	// zeroMask sets t to the zero-counter mask of chunk w of the line at p.
	zeroMask(p reg.GPVirtual, w int, t, u reg.GPVirtual)
}

type avx2 struct{ w bool }

var lo, zero, va, vb reg.VecVirtual

func (a avx2) name() string {
	return fmt.Sprintf("countingTest%dAVX2", map[bool]int{false: 4, true: 8}[a.w])
}
func (a avx2) wide() bool { return a.w }
func (a avx2) setup() {
	lo, zero, va, vb = YMM(), YMM(), YMM(), YMM()
	VMOVDQU(nibbleHalves, lo) // 0x0f in every byte of the low 32 bytes
	VPXOR(zero, zero, zero)
}
func (a avx2) zeroMask(p reg.GPVirtual, w int, t, u reg.GPVirtual) {
	if a.w {
		VPCMPEQB(Mem{Base: p, Disp: 64 * w}, zero, va)
		VPCMPEQB(Mem{Base: p, Disp: 64*w + 32}, zero, vb)
	} else {
		VPAND(Mem{Base: p, Disp: 32 * w}, lo, va)
		VPANDN(Mem{Base: p, Disp: 32 * w}, lo, vb)
		VPCMPEQB(zero, va, va)
		VPCMPEQB(zero, vb, vb)
	}
	VPMOVMSKB(va, t.As32())
	VPMOVMSKB(vb, u.As32())
	SHLQ(U8(32), u)
	ORQ(u, t)
}

type avx512 struct{ w bool }

var vz reg.VecVirtual

func (a avx512) name() string {
	return fmt.Sprintf("countingTest%dAVX512", map[bool]int{false: 4, true: 8}[a.w])
}
func (a avx512) wide() bool { return a.w }
func (a avx512) setup() {
	vz, va = ZMM(), ZMM()
	if a.w {
		VPTERNLOGD(U8(0xff), vz, vz, vz) // all ones
	} else {
		VMOVDQU64(nibbleHalves, vz) // 0x0f in the low 32 bytes, 0xf0 in the high
	}
}
func (a avx512) zeroMask(p reg.GPVirtual, w int, t, _ reg.GPVirtual) {
	if a.w {
		VPTESTNMB(Mem{Base: p, Disp: 64 * w}, vz, reg.K1)
	} else {
		VBROADCASTI64X4(Mem{Base: p, Disp: 32 * w}, va)
		VPTESTNMB(vz, va, reg.K1)
	}
	KMOVQ(reg.K1, t)
}

func kernel(v isa) {
	name := v.name()
	TEXT(name, NOSPLIT, "func(words *uint64, lines, k uint64, hs []uint64, out []bool) int")
	Pragma("noescape")
	bits := map[bool]string{false: "4-bit", true: "8-bit"}[v.wide()]
	Doc(name + " is countingTestHashesGeneric for " + bits + " counters; len(out) >= len(hs).")
	zm := AllocLocal(64)
	hsPtr, n, outPtr := GP64(), GP64(), GP64()
	Load(Param("hs").Base(), hsPtr)
	Load(Param("hs").Len(), n)
	Load(Param("out").Base(), outPtr)
	v.setup()
	hits := GP64()
	XORQ(hits, hits)

	Label(name + "_ahead")
	CMPQ(n, U8(prefetchAhead))
	JBE(LabelRef(name + "_tail"))
	{
		ptr := linePtr(v.wide(), Mem{Base: hsPtr, Disp: 8 * prefetchAhead})
		for c := range lineBytes(v.wide()) / 64 {
			PREFETCHT0(Mem{Base: ptr, Disp: 64 * c})
		}
	}
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

// prefetch emits countingPrefetch{4,8}BMI2, the amd64 twin of
// countingPrefetchGeneric: PREFETCHT0 of every cache line of each hash's
// line, with no other effect. Scalar code (MULX for the line), so both
// vector levels run it.
func prefetch(wide bool) {
	name := map[bool]string{false: "countingPrefetch4BMI2", true: "countingPrefetch8BMI2"}[wide]
	TEXT(name, NOSPLIT, "func(words *uint64, lines uint64, hs []uint64)")
	Pragma("noescape")
	Doc(name + " is countingPrefetchGeneric issuing PREFETCHT0 instead of loads.")
	hsPtr, n := GP64(), GP64()
	Load(Param("hs").Base(), hsPtr)
	Load(Param("hs").Len(), n)
	Label(name + "_loop")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	ptr := linePtr(wide, Mem{Base: hsPtr})
	for c := range lineBytes(wide) / 64 {
		PREFETCHT0(Mem{Base: ptr, Disp: 64 * c})
	}
	ADDQ(U8(8), hsPtr)
	DECQ(n)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	RET()
}

func lineBytes(wide bool) int {
	if wide {
		return 512
	}
	return 256
}

// linePtr returns the address of the line of the hash at h.
func linePtr(wide bool, h Mem) reg.GPVirtual {
	MOVQ(h, reg.RDX)
	low, ptr := GP64(), GP64()
	MULXQ(paramAddr("lines"), low, ptr)
	shift := 8
	if wide {
		shift = 9
	}
	SHLQ(U8(shift), ptr)
	ADDQ(paramAddr("words"), ptr)
	return ptr
}

// key tests the hash at hsPtr, writes out[0] and adds the answer to hits.
func key(label string, v isa, zm Mem, hsPtr, outPtr, hits reg.GPVirtual) {
	ptr := linePtr(v.wide(), Mem{Base: hsPtr})
	t, u := GP64(), GP64()
	for w := range 8 {
		v.zeroMask(ptr, w, t, u)
		MOVQ(t, zm.Offset(8*w))
	}

	g, s, rounds, miss, acc := GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hsPtr}, g)
	IMULQ(mul, g)
	MOVQ(g, s)
	SHRQ(U8(13), s)
	ANDQ(U8(7), s)
	MOVQ(paramAddr("k"), rounds)
	SHRQ(U8(3), rounds)
	XORQ(miss, miss)

	// round sets acc to the 8-bit set of words whose probe of g hits a
	// zero counter.
	round := func() {
		XORQ(acc, acc)
		for w := range 8 {
			MOVQ(g, t)
			SHRQ(U8(58-6*w), t)
			SHRXQ(t, zm.Offset(8*w), t)
			ANDQ(U8(1), t)
			if w > 0 {
				SHLQ(U8(w), t)
			}
			ORQ(t, acc)
		}
	}

	Label(label + "_round")
	TESTQ(rounds, rounds)
	JZ(LabelRef(label + "_partial"))
	round()
	ORQ(acc, miss)
	IMULQ(mul, g)
	DECQ(rounds)
	JMP(LabelRef(label + "_round"))

	Label(label + "_partial")
	MOVQ(paramAddr("k"), u)
	ANDQ(U8(7), u)
	JZ(LabelRef(label + "_answer"))
	round()
	// sel = rotl8(2^(k%8) - 1, s) = ((2^(k%8) - 1) * 0x101) << s >> 8.
	MOVQ(U32(1), t)
	SHLXQ(u, t, t)
	DECQ(t)
	IMUL3Q(U32(0x101), t, t)
	SHLXQ(s, t, t)
	SHRQ(U8(8), t)
	ANDQ(t, acc)
	ORQ(acc, miss)

	Label(label + "_answer")
	XORQ(t, t)
	TESTQ(miss, miss)
	SETEQ(t.As8())
	MOVB(t.As8(), Mem{Base: outPtr})
	ADDQ(t, hits)
}

// paramAddr is the stack address of a scalar argument.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
