// Command counting generates the counting filter's batch test kernels,
// asm.countingTestAVX2 and asm.countingTestAVX512, twins of
// asm.countingTestHashesGeneric.
//
// Per key, branch-free: the line is Reduce(h, lines) by MULX; the line's
// 64 bytes are loaded as vectors and turned into two 64-bit masks of zero
// cells, zlo (low nibbles, or whole bytes for 8-bit counters) and zhi
// (high nibbles), by VPCMPEQB/VPMOVMSKB (AVX2) or VPTESTNMB (AVX-512); then
// each of the k cells c ORs bit c&63 of zlo or zhi (c&64 chooses) into a
// miss flag. Cells come from the murmur3 finalizer of h + round*golden in
// 7-bit chunks, exactly as asm.CountingProbes. While more than prefetchAhead
// keys remain, the line of the key that far ahead is prefetched, so cache
// misses overlap across keys.
package main

//go:generate go run . -out ../../asm/counting_amd64.s -stubs ../../asm/counting_stub_amd64.go -pkg asm

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// prefetchAhead is how many keys ahead the kernels prefetch lines.
const prefetchAhead = 12

var (
	c1, c2, golden Mem
)

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	c1 = constant("countingMix1", 0xff51afd7ed558ccd)
	c2 = constant("countingMix2", 0xc4ceb9fe1a85ec53)
	golden = constant("countingGolden", 0x9e3779b97f4a7c15)
	kernel("AVX2", avx2ZeroMasks, avx2Setup)
	kernel("AVX512", avx512ZeroMasks, avx512Setup)
	Generate()
}

func constant(name string, v uint64) Mem {
	m := GLOBL(name, RODATA|NOPTR)
	DATA(0, U64(v))
	return m
}

// zeroMasker loads the line at ptr and sets zlo and zhi to its zero cells.
type zeroMasker func(v vectors, ptr, zlo, zhi, tmp reg.GPVirtual)

// vectors are the per-kernel vector registers set up once per call.
type vectors struct {
	lo, zero reg.VecVirtual // low-cell byte mask broadcast; zero (AVX2)
	a, b     reg.VecVirtual // scratch
}

type setup func(nibbles reg.GPVirtual) vectors

func avx2Setup(nibbles reg.GPVirtual) vectors {
	v := vectors{lo: YMM(), zero: YMM(), a: YMM(), b: YMM()}
	MOVQ(nibbles, v.lo.AsX())
	VPBROADCASTQ(v.lo.AsX(), v.lo)
	VPXOR(v.zero, v.zero, v.zero)
	return v
}

func avx2ZeroMasks(v vectors, ptr, zlo, zhi, tmp reg.GPVirtual) {
	half := func(mask func(src Op, dst reg.VecVirtual), out reg.GPVirtual) {
		mask(Mem{Base: ptr}, v.a)
		mask(Mem{Base: ptr, Disp: 32}, v.b)
		VPCMPEQB(v.zero, v.a, v.a)
		VPCMPEQB(v.zero, v.b, v.b)
		VPMOVMSKB(v.a, out.As32())
		VPMOVMSKB(v.b, tmp.As32())
		SHLQ(U8(32), tmp)
		ORQ(tmp, out)
	}
	half(func(src Op, dst reg.VecVirtual) { VPAND(src, v.lo, dst) }, zlo)
	half(func(src Op, dst reg.VecVirtual) { VPANDN(src, v.lo, dst) }, zhi)
}

func avx512Setup(nibbles reg.GPVirtual) vectors {
	v := vectors{lo: ZMM(), a: ZMM(), b: ZMM()}
	VPBROADCASTQ(nibbles, v.lo)
	VPTERNLOGQ(U8(0x55), v.lo, v.lo, v.b) // b = ^lo: the high-cell mask
	return v
}

func avx512ZeroMasks(v vectors, ptr, zlo, zhi, tmp reg.GPVirtual) {
	VMOVDQU64(Mem{Base: ptr}, v.a)
	VPTESTNMB(v.lo, v.a, reg.K1)
	VPTESTNMB(v.b, v.a, reg.K2)
	KMOVQ(reg.K1, zlo)
	KMOVQ(reg.K2, zhi)
}

func kernel(level string, zeroMasks zeroMasker, set setup) {
	name := "countingTest" + level
	TEXT(name, NOSPLIT, "func(words *uint64, lines, k, cellMask, nibbles uint64, hs []uint64, out []bool) int")
	Pragma("noescape")
	Doc(name+" is countingTestHashesGeneric with cellMask 127 (4-bit counters,",
		"nibbles 0x0f in every byte) or 63 (8-bit, nibbles all ones); len(out) >= len(hs).")
	hsPtr, n, outPtr, nibbles := GP64(), GP64(), GP64(), GP64()
	Load(Param("hs").Base(), hsPtr)
	Load(Param("hs").Len(), n)
	Load(Param("out").Base(), outPtr)
	Load(Param("nibbles"), nibbles)
	v := set(nibbles)
	hits := GP64()
	XORQ(hits, hits)

	// Keys with a prefetch of the line prefetchAhead keys on, then the rest.
	Label(name + "_ahead")
	CMPQ(n, U8(prefetchAhead))
	JBE(LabelRef(name + "_tail"))
	{
		ptr := linePtr(Mem{Base: hsPtr, Disp: 8 * prefetchAhead})
		PREFETCHT0(Mem{Base: ptr})
	}
	key(name+"_a", v, zeroMasks, hsPtr, outPtr, hits)
	ADDQ(U8(8), hsPtr)
	INCQ(outPtr)
	DECQ(n)
	JMP(LabelRef(name + "_ahead"))

	Label(name + "_tail")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	key(name+"_t", v, zeroMasks, hsPtr, outPtr, hits)
	ADDQ(U8(8), hsPtr)
	INCQ(outPtr)
	DECQ(n)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_done")
	Store(hits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// linePtr returns the address of the line of the hash at h.
func linePtr(h Mem) reg.GPVirtual {
	MOVQ(h, reg.RDX)
	lo, ptr := GP64(), GP64()
	MULXQ(paramAddr("lines"), lo, ptr)
	SHLQ(U8(6), ptr)
	ADDQ(paramAddr("words"), ptr)
	return ptr
}

// key tests the hash at hsPtr, writes out[0] and adds the answer to hits.
func key(label string, v vectors, zeroMasks zeroMasker, hsPtr, outPtr, hits reg.GPVirtual) {
	zlo, zhi, tmp := GP64(), GP64(), GP64()
	zeroMasks(v, linePtr(Mem{Base: hsPtr}), zlo, zhi, tmp)

	h, x, rem, cnt, miss, c := GP64(), GP64(), GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: hsPtr}, h)
	MOVQ(paramAddr("k"), rem)
	XORQ(miss, miss)

	Label(label + "_round")
	// x = fmix64(h); the next round adds golden to h first.
	MOVQ(h, x)
	MOVQ(x, tmp)
	SHRQ(U8(33), tmp)
	XORQ(tmp, x)
	IMULQ(c1, x)
	MOVQ(x, tmp)
	SHRQ(U8(33), tmp)
	XORQ(tmp, x)
	IMULQ(c2, x)
	MOVQ(x, tmp)
	SHRQ(U8(33), tmp)
	XORQ(tmp, x)
	MOVQ(U32(9), cnt)

	Label(label + "_cell")
	MOVQ(x, c)
	ANDQ(paramAddr("cellMask"), c)
	SHRQ(U8(7), x)
	MOVQ(zlo, tmp)
	BTQ(U8(6), c)
	CMOVQCS(zhi, tmp)
	SHRXQ(c, tmp, tmp)
	ORQ(tmp, miss)
	DECQ(rem)
	JZ(LabelRef(label + "_answer"))
	DECQ(cnt)
	JNZ(LabelRef(label + "_cell"))
	ADDQ(golden, h)
	JMP(LabelRef(label + "_round"))

	Label(label + "_answer")
	ANDQ(U8(1), miss)
	XORQ(U8(1), miss)
	MOVB(miss.As8(), Mem{Base: outPtr})
	ADDQ(miss, hits)
}

// paramAddr is the stack address of a scalar argument.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
