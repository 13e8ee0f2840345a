// Command sbbf generates the kernels of Parquet's split-block Bloom filter
// (SBBF) and the batch XXH64 of 8-byte values that feeds it:
// asm.sbbf{Test,Add}Hashes{AVX2,AVX512} and asm.xxh64Uint64s{AVX2,AVX512},
// twins of the *Generic functions in asm/sbbf.go (the scheme is documented
// there).
//
// SBBF. A block is 256 bits, eight 32-bit words: one YMM. Per key the
// block offset comes from scalar code (((h >> 32) * numBlocks) >> 32,
// times 32 bytes); the key's mask from the low 32 bits broadcast to eight
// lanes, VPMULLD by the salts, VPSRLD 27 and VPSLLVD of 1. The AVX2 test is
// one VPTEST of the mask against the block (CF: no mask bit is missing);
// the add an OR and a store. The AVX-512 kernels build two keys' masks in
// one ZMM (VPERMD spreads the two low dwords over the halves), gather the
// two blocks with VINSERTI64X4, and take both answers from one VPTESTMD
// mask register; an odd last key goes through the YMM body. Adds store
// the first block before loading the second, so two keys of one block
// both land. Over large filters the caller passes a prefetch distance:
// the kernel issues PREFETCHT0 for the block of the key that many places
// ahead.
//
// XXH64 of one 8-byte value is five 64-bit multiplies by constants. AVX-512
// DQ has VPMULLQ and VPROLQ, so eight values go through in one ZMM. AVX2
// has neither: the AVX2 kernel emulates each multiply by three VPMULUDQ
// partial products (lo*lo + (hi*lo + lo*hi) << 32) and each rotate by two
// shifts and an OR, four values per YMM, two YMM interleaved for the
// multiplier's latency: several times the scalar code's work per value,
// for four values at once. It is kept, not replaced by scalar code,
// because it leaves the scalar multiplier to the probe code around it
// and, on cores with two vector multiply ports, it outruns the scalar
// twin (BenchmarkXXH64Uint64s compares them).
package main

// purego: asm's Go half builds without the stubs this command rewrites.
//go:generate go run -tags purego . -out ../../asm/sbbf_amd64.s -stubs ../../asm/sbbf_stub_amd64.go -pkg asm

import (
	"fmt"
	"math/bits"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	"github.com/filterengine/filterengine/internal/hashconst"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The SBBF salts, from the library (parquet-format BloomFilter.md).
var salts = asm.SBBFSalt

// XXH64 primes, from the library.
const (
	p1 = hashconst.XXH64P1
	p2 = hashconst.XXH64P2
	p3 = hashconst.XXH64P3
	p4 = hashconst.XXH64P4
	p5 = hashconst.XXH64P5
)

var saltMem, spreadMem, oneMem Mem

func main() {
	// avo v0.5.0 parses the comma form; it writes "amd64 && gc && !purego".
	ConstraintExpr("amd64,gc,!purego")
	saltMem = GLOBL("sbbfSalts", RODATA|NOPTR)
	for i := range 16 {
		DATA(4*i, U32(salts[i%8]))
	}
	// VPERMD indices: dword 0 (low half of the first hash) to lanes 0-7,
	// dword 2 (low half of the second) to lanes 8-15.
	spreadMem = GLOBL("sbbfSpread", RODATA|NOPTR)
	for i := range 16 {
		DATA(4*i, U32(uint32(i/8*2)))
	}
	oneMem = GLOBL("sbbfOne", RODATA|NOPTR)
	DATA(0, U32(1))

	sbbf(false, true)
	sbbf(false, false)
	sbbf(true, true)
	sbbf(true, false)
	xxhAVX2()
	xxhAVX512()
	Generate()
}

// state is the scalar state of an SBBF kernel.
type state struct {
	words, nb, hp, outp, n, hits, dist reg.Register
	salts, one                         reg.VecVirtual // YMM forms
	salts16, spread, one16             reg.VecVirtual // ZMM forms
	name                               string
}

func sbbf(avx512, test bool) {
	op, isa := "Add", "AVX2"
	sig := "func(words []uint64, hs []uint64, dist int)"
	if test {
		op = "Test"
		sig = "func(words []uint64, hs []uint64, out []bool, dist int) int"
	}
	if avx512 {
		isa = "AVX512"
	}
	name := fmt.Sprintf("sbbf%sHashes%s", op, isa)
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(fmt.Sprintf("%s is sbbf%sHashesGeneric; dist > 0 prefetches the block of the key dist places ahead.", name, op))
	s := state{name: name}
	s.words = Load(Param("words").Base(), GP64())
	s.nb = Load(Param("words").Len(), GP64())
	SHRQ(U8(2), s.nb) // four words per block
	s.hp = Load(Param("hs").Base(), GP64())
	s.n = Load(Param("hs").Len(), GP64())
	if test {
		s.outp = Load(Param("out").Base(), GP64())
		s.hits = GP64()
		XORQ(s.hits, s.hits)
	}
	s.dist = Load(Param("dist"), GP64())
	s.salts, s.one = YMM(), YMM()
	VMOVDQU(saltMem, s.salts)
	VPBROADCASTD(oneMem, s.one)
	step := 1
	if avx512 {
		step = 2
		s.salts16, s.spread, s.one16 = ZMM(), ZMM(), ZMM()
		VMOVDQU32(saltMem, s.salts16)
		VMOVDQU32(spreadMem, s.spread)
		VPBROADCASTD(oneMem, s.one16)
	}

	// Prefetching loop while the key dist places ahead exists, then the
	// plain loop; with AVX-512 both take two keys at a time and the plain
	// loop ends with a one-key tail.
	TESTQ(s.dist, s.dist)
	JZ(LabelRef(name + "_plain"))
	Label(name + "_prefetch")
	lim := GP64()
	MOVQ(s.dist, lim)
	ADDQ(U8(step-1), lim)
	CMPQ(s.n, lim)
	JLE(LabelRef(name + "_plain"))
	for i := range step {
		prefetch(s, i)
	}
	body(s, avx512, test)
	JMP(LabelRef(name + "_prefetch"))

	Label(name + "_plain")
	CMPQ(s.n, U8(step))
	JB(LabelRef(name + "_tail"))
	body(s, avx512, test)
	JMP(LabelRef(name + "_plain"))

	Label(name + "_tail")
	if avx512 {
		TESTQ(s.n, s.n)
		JZ(LabelRef(name + "_done"))
		body(s, false, test)
	}
	Label(name + "_done")
	VZEROUPPER()
	if test {
		Store(s.hits, ReturnIndex(0))
	}
	RET()
}

// blockOffset returns in a new register the byte offset of the block of
// the hash at hp+8*i.
func blockOffset(s state, mem Mem) reg.Register {
	b := GP64()
	MOVL(mem.Offset(4), b.(reg.GPVirtual).As32()) // h >> 32
	IMULQ(s.nb, b)
	SHRQ(U8(32), b)
	SHLQ(U8(5), b)
	return b
}

func prefetch(s state, i int) {
	b := blockOffset(s, Mem{Base: s.hp, Index: s.dist, Scale: 8, Disp: 8 * i})
	PREFETCHT0(Mem{Base: s.words, Index: b, Scale: 1})
}

// body processes one key (YMM) or two (ZMM) at hp and advances hp, outp
// and n.
func body(s state, avx512, test bool) {
	if !avx512 {
		b := blockOffset(s, Mem{Base: s.hp})
		m := YMM()
		VPBROADCASTD(Mem{Base: s.hp}, m)
		VPMULLD(s.salts, m, m)
		VPSRLD(U8(27), m, m)
		VPSLLVD(m, s.one, m)
		if test {
			blk := YMM()
			VMOVDQU(Mem{Base: s.words, Index: b, Scale: 1}, blk)
			VPTEST(m, blk) // CF = (mask &^ block) == 0
			r := GP8()
			SETCS(r)
			MOVB(r, Mem{Base: s.outp})
			t := GP64()
			MOVBQZX(r, t)
			ADDQ(t, s.hits)
			INCQ(s.outp)
		} else {
			VPOR(Mem{Base: s.words, Index: b, Scale: 1}, m, m)
			VMOVDQU(m, Mem{Base: s.words, Index: b, Scale: 1})
		}
		ADDQ(U8(8), s.hp)
		DECQ(s.n)
		return
	}
	b0 := blockOffset(s, Mem{Base: s.hp})
	b1 := blockOffset(s, Mem{Base: s.hp, Disp: 8})
	x, m := ZMM(), ZMM()
	VMOVDQU(Mem{Base: s.hp}, x.AsX()) // a VEX load clears the upper lanes
	VPERMD(x, s.spread, m)
	VPMULLD(s.salts16, m, m)
	VPSRLD(U8(27), m, m)
	VPSLLVD(m, s.one16, m)
	if test {
		blk := ZMM()
		VMOVDQU(Mem{Base: s.words, Index: b0, Scale: 1}, blk.AsY())
		VINSERTI64X4(U8(1), Mem{Base: s.words, Index: b1, Scale: 1}, blk, blk)
		VPANDND(m, blk, blk) // ~block & mask
		k := K()
		VPTESTMD(blk, blk, k)
		r := GP32()
		KMOVW(k, r)
		// Key 0 hits when the low byte is 0, key 1 when the next is.
		h0, h1 := GP8(), GP8()
		TESTL(U32(0xff), r)
		SETEQ(h0)
		TESTL(U32(0xff00), r)
		SETEQ(h1)
		MOVB(h0, Mem{Base: s.outp})
		MOVB(h1, Mem{Base: s.outp, Disp: 1})
		t0, t1 := GP64(), GP64()
		MOVBQZX(h0, t0)
		MOVBQZX(h1, t1)
		ADDQ(t0, s.hits)
		ADDQ(t1, s.hits)
		ADDQ(U8(2), s.outp)
	} else {
		lo, hi := YMM(), YMM()
		VPOR(Mem{Base: s.words, Index: b0, Scale: 1}, m.AsY(), lo)
		VMOVDQU(lo, Mem{Base: s.words, Index: b0, Scale: 1})
		VEXTRACTI64X4(U8(1), m, hi)
		VPOR(Mem{Base: s.words, Index: b1, Scale: 1}, hi, hi)
		VMOVDQU(hi, Mem{Base: s.words, Index: b1, Scale: 1})
	}
	ADDQ(U8(16), s.hp)
	SUBQ(U8(2), s.n)
}

// ymmConst broadcasts a 64-bit constant to every lane of a new YMM.
func ymmConst(c uint64) reg.VecVirtual {
	g := GP64()
	MOVQ(U64(c), g)
	x := XMM()
	VMOVQ(g, x)
	y := YMM()
	VPBROADCASTQ(x, y)
	return y
}

func rotlAVX2(h reg.VecVirtual, r int, t reg.VecVirtual) {
	VPSRLQ(U8(64-r), h, t)
	VPSLLQ(U8(r), h, h)
	VPOR(t, h, h)
}

func xxhAVX2() {
	TEXT("xxh64Uint64sAVX2", NOSPLIT, "func(dst, ks []uint64)")
	Pragma("noescape")
	Doc("xxh64Uint64sAVX2 is xxh64Uint64sGeneric for len(ks) a multiple of 4.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("ks").Base(), GP64())
	n := Load(Param("ks").Len(), GP64())
	p1lo, p1sw := ymmConst(p1), ymmConst(bits.RotateLeft64(p1, 32))
	p2lo, p2sw := ymmConst(p2), ymmConst(bits.RotateLeft64(p2, 32))
	p3lo, p3sw := ymmConst(p3), ymmConst(bits.RotateLeft64(p3, 32))
	start, p4v := ymmConst(p5+8), ymmConst(p4)
	hash := func(v, t1, t2 reg.VecVirtual) {
		genutil.MulLanes(p2lo, p2sw, v, t1, t2) // lane * P2 (round with acc 0)
		rotlAVX2(v, 31, t1)
		genutil.MulLanes(p1lo, p1sw, v, t1, t2)
		VPXOR(start, v, v)
		rotlAVX2(v, 27, t1)
		genutil.MulLanes(p1lo, p1sw, v, t1, t2)
		VPADDQ(p4v, v, v)
		VPSRLQ(U8(33), v, t1)
		VPXOR(t1, v, v)
		genutil.MulLanes(p2lo, p2sw, v, t1, t2)
		VPSRLQ(U8(29), v, t1)
		VPXOR(t1, v, v)
		genutil.MulLanes(p3lo, p3sw, v, t1, t2)
		VPSRLQ(U8(32), v, t1)
		VPXOR(t1, v, v)
	}
	a, b, t := YMM(), YMM(), [4]reg.VecVirtual{YMM(), YMM(), YMM(), YMM()}
	hashLoop("xxh2", 4, dst, src, n, a, b, VMOVDQU, func(v reg.VecVirtual, i int) { hash(v, t[2*i], t[2*i+1]) })
}

// hashLoop emits the body of a batch XXH64 kernel over lanes keys per
// vector: two vectors a and b per pass while 2*lanes keys remain, then one
// (n is a multiple of lanes). hash(v, i) hashes v in place with the
// temporaries of slot i (0 for a, 1 for b); mov is the ISA's unaligned
// move.
func hashLoop(prefix string, lanes int, dst, src, n reg.Register, a, b reg.VecVirtual, mov func(mx, mxy Op), hash func(v reg.VecVirtual, i int)) {
	loop, tail, done := fmt.Sprintf("%s_loop%d", prefix, 2*lanes), fmt.Sprintf("%s_tail%d", prefix, lanes), prefix+"_done"
	width := 8 * lanes
	Label(loop)
	CMPQ(n, U8(2*lanes))
	JB(LabelRef(tail))
	mov(Mem{Base: src}, a)
	mov(Mem{Base: src, Disp: width}, b)
	hash(a, 0)
	hash(b, 1)
	mov(a, Mem{Base: dst})
	mov(b, Mem{Base: dst, Disp: width})
	ADDQ(U8(2*width), src)
	ADDQ(U8(2*width), dst)
	SUBQ(U8(2*lanes), n)
	JMP(LabelRef(loop))
	Label(tail)
	CMPQ(n, U8(lanes))
	JB(LabelRef(done))
	mov(Mem{Base: src}, a)
	hash(a, 0)
	mov(a, Mem{Base: dst})
	Label(done)
	VZEROUPPER()
	RET()
}

func zmmConst(c uint64) reg.VecVirtual {
	g := GP64()
	MOVQ(U64(c), g)
	z := ZMM()
	VPBROADCASTQ(g, z)
	return z
}

func xxhAVX512() {
	TEXT("xxh64Uint64sAVX512", NOSPLIT, "func(dst, ks []uint64)")
	Pragma("noescape")
	Doc("xxh64Uint64sAVX512 is xxh64Uint64sGeneric for len(ks) a multiple of 8.")
	dst := Load(Param("dst").Base(), GP64())
	src := Load(Param("ks").Base(), GP64())
	n := Load(Param("ks").Len(), GP64())
	c1, c2, c3, c4, start := zmmConst(p1), zmmConst(p2), zmmConst(p3), zmmConst(p4), zmmConst(p5+8)
	hash := func(v, t reg.VecVirtual) {
		VPMULLQ(c2, v, v)
		VPROLQ(U8(31), v, v)
		VPMULLQ(c1, v, v)
		VPXORQ(start, v, v)
		VPROLQ(U8(27), v, v)
		VPMULLQ(c1, v, v)
		VPADDQ(c4, v, v)
		VPSRLQ(U8(33), v, t)
		VPXORQ(t, v, v)
		VPMULLQ(c2, v, v)
		VPSRLQ(U8(29), v, t)
		VPXORQ(t, v, v)
		VPMULLQ(c3, v, v)
		VPSRLQ(U8(32), v, t)
		VPXORQ(t, v, v)
	}
	a, b, t := ZMM(), ZMM(), [2]reg.VecVirtual{ZMM(), ZMM()}
	hashLoop("xxh5", 8, dst, src, n, a, b, func(mx, mxy Op) { VMOVDQU64(mx, mxy) }, func(v reg.VecVirtual, i int) { hash(v, t[i]) })
}
