// Command spatial generates the spatial Bloom filter's batch Check kernels
// (asm/spatial_amd64.s), twins of asm.spatialCheckHashesGeneric: per key,
// k probes by double hashing, each reduced to a cell with an exact 64-bit
// multiply-high built from two VPMULUDQ (valid for m < 2^32). The cell's
// bit offset b = p << cellLog gives a 4-byte gather at byte b>>3; the
// gathered dwords are shifted right per lane by b&7 (VPSRLVD; 4 for the
// odd cells of a 4-bit array, else 0), masked to the cell width and folded
// into a running unsigned minimum. A block stops probing once every key's
// minimum is 0.
package main

import (
	"github.com/filterengine/filterengine/gen/internal/genutil"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run -tags purego . -out ../../asm/spatial_amd64.s -stubs ../../asm/spatial_stub_amd64.go -pkg asm

const signature = "func(cells []byte, hs []uint64, out []uint16, m, k, cellLog, mask uint64) (hits uint64)"

var paramAddr = genutil.ParamAddr

func main() {
	ConstraintExpr("amd64,gc,!purego")
	checkAVX2()
	checkAVX512()
	keyKernels()
	Generate()
}

func checkAVX2() {
	TEXT("spatialCheckHashesAVX2", NOSPLIT, signature)
	Pragma("noescape")
	Doc("spatialCheckHashesAVX2 is spatialCheckHashesGeneric for len(hs) a multiple of 8 and m < 2^32.")

	base := Load(Param("cells").Base(), GP64())
	hp := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	op := Load(Param("out").Base(), GP64())
	k := Load(Param("k"), GP64())
	hits := GP64()
	XORQ(hits, hits)

	mv := YMM()
	VPBROADCASTQ(paramAddr("m"), mv)
	logx := XMM()
	VMOVQ(paramAddr("cellLog"), logx)
	cellMask := YMM()
	VPBROADCASTD(paramAddr("mask"), cellMask)
	seven := YMM()
	VPCMPEQD(seven, seven, seven)
	VPSRLD(Imm(29), seven, seven)

	ha, hb, da, db, acc := YMM(), YMM(), YMM(), YMM(), YMM()
	j := GP64()

	Label("block")
	CMPQ(n, Imm(0))
	JE(LabelRef("done"))
	VMOVDQU(Mem{Base: hp}, ha)
	VMOVDQU(Mem{Base: hp, Disp: 32}, hb)
	VPSHUFD(Imm(0xb1), ha, da)
	VPSHUFD(Imm(0xb1), hb, db)
	VPCMPEQD(acc, acc, acc)
	MOVQ(k, j)

	Label("probe")
	pa, pb := YMM(), YMM()
	bitOffsets(ha, mv, logx, pa)
	bitOffsets(hb, mv, logx, pb)
	// Per-lane shifts b&7 in the order the gathers fill g: the low dwords
	// of pa's four lanes, then pb's.
	sh := YMM()
	VSHUFPS(Imm(0x88), pb, pa, sh)
	VPERMQ(Imm(0xd8), sh, sh)
	VPAND(seven, sh, sh)
	VPSRLQ(Imm(3), pa, pa)
	VPSRLQ(Imm(3), pb, pb)
	ga, gb, gm := XMM(), XMM(), XMM()
	VPCMPEQD(gm, gm, gm)
	VPGATHERQD(gm, Mem{Base: base, Index: pa, Scale: 1}, ga)
	VPCMPEQD(gm, gm, gm)
	VPGATHERQD(gm, Mem{Base: base, Index: pb, Scale: 1}, gb)
	g := YMM()
	VINSERTI128(Imm(1), gb, ga.AsY(), g)
	VPSRLVD(sh, g, g)
	VPAND(cellMask, g, g)
	VPMINUD(g, acc, acc)
	VPADDQ(da, ha, ha)
	VPADDQ(db, hb, hb)
	DECQ(j)
	JZ(LabelRef("store"))
	VPTEST(acc, acc)
	JNZ(LabelRef("probe"))

	Label("store")
	hi := XMM()
	VEXTRACTI128(Imm(1), acc, hi)
	packed := XMM()
	VPACKUSDW(hi, acc.AsX(), packed)
	VMOVDQU(packed, Mem{Base: op})
	zero, eq := YMM(), YMM()
	VPXOR(zero, zero, zero)
	VPCMPEQD(zero, acc, eq)
	empty := GP64()
	VMOVMSKPS(eq, empty.As32())
	POPCNTQ(empty, empty)
	ADDQ(Imm(8), hits)
	SUBQ(empty, hits)

	ADDQ(Imm(64), hp)
	ADDQ(Imm(16), op)
	SUBQ(Imm(8), n)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	Store(hits, ReturnIndex(0))
	RET()
}

// bitOffsets sets pos to the bit offsets (cell << cellLog) of the cells
// probed by the four 64-bit lanes of g.
func bitOffsets(g, mv VecVirtual, logx VecVirtual, pos VecVirtual) {
	genutil.ReduceLanes(mv, g, pos, YMM())
	VPSLLQ(logx, pos, pos)
}

func checkAVX512() {
	TEXT("spatialCheckHashesAVX512", NOSPLIT, signature)
	Pragma("noescape")
	Doc("spatialCheckHashesAVX512 is spatialCheckHashesGeneric for len(hs) a multiple of 16 and m < 2^32.")

	base := Load(Param("cells").Base(), GP64())
	hp := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	op := Load(Param("out").Base(), GP64())
	k := Load(Param("k"), GP64())
	hits := GP64()
	XORQ(hits, hits)

	mv := ZMM()
	VPBROADCASTQ(paramAddr("m"), mv)
	logx := XMM()
	VMOVQ(paramAddr("cellLog"), logx)
	cellMask := ZMM()
	VPBROADCASTD(paramAddr("mask"), cellMask)
	ones := ZMM()
	VPTERNLOGD(Imm(0xff), ones, ones, ones)
	seven := ZMM()
	VPSRLD(Imm(29), ones, seven)

	ha, hb, da, db, acc := ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
	j := GP64()

	Label("block512")
	CMPQ(n, Imm(0))
	JE(LabelRef("done512"))
	VMOVDQU64(Mem{Base: hp}, ha)
	VMOVDQU64(Mem{Base: hp, Disp: 64}, hb)
	VPSHUFD(Imm(0xb1), ha, da)
	VPSHUFD(Imm(0xb1), hb, db)
	VMOVDQA64(ones, acc)
	MOVQ(k, j)

	Label("probe512")
	pa, pb := ZMM(), ZMM()
	bitOffsets512(ha, mv, logx, pa)
	bitOffsets512(hb, mv, logx, pb)
	// Per-lane shifts b&7 in the order the gathers fill g: pa's eight
	// lanes narrowed to dwords, then pb's.
	sa, sb, sh := YMM(), YMM(), ZMM()
	VPMOVQD(pa, sa)
	VPMOVQD(pb, sb)
	VINSERTI64X4(Imm(1), sb, sa.AsZ(), sh)
	VPANDD(seven, sh, sh)
	VPSRLQ(Imm(3), pa, pa)
	VPSRLQ(Imm(3), pb, pb)
	ga, gb := YMM(), YMM()
	ka, kb := K(), K()
	KXNORW(ka, ka, ka)
	VPGATHERQD(Mem{Base: base, Index: pa, Scale: 1}, ka, ga)
	KXNORW(kb, kb, kb)
	VPGATHERQD(Mem{Base: base, Index: pb, Scale: 1}, kb, gb)
	g := ZMM()
	VINSERTI64X4(Imm(1), gb, ga.AsZ(), g)
	VPSRLVD(sh, g, g)
	VPANDD(cellMask, g, g)
	VPMINUD(g, acc, acc)
	VPADDQ(da, ha, ha)
	VPADDQ(db, hb, hb)
	DECQ(j)
	JZ(LabelRef("store512"))
	live := K()
	VPTESTMD(acc, acc, live)
	KORTESTW(live, live)
	JNZ(LabelRef("probe512"))

	Label("store512")
	VPMOVDW(acc, Mem{Base: op})
	nonzero := K()
	VPTESTMD(acc, acc, nonzero)
	found := GP64()
	KMOVW(nonzero, found.As32())
	POPCNTQ(found, found)
	ADDQ(found, hits)

	ADDQ(Imm(128), hp)
	ADDQ(Imm(32), op)
	SUBQ(Imm(16), n)
	JMP(LabelRef("block512"))

	Label("done512")
	VZEROUPPER()
	Store(hits, ReturnIndex(0))
	RET()
}

// bitOffsets512 is bitOffsets for the eight 64-bit lanes of a ZMM register.
func bitOffsets512(g, mv VecVirtual, logx VecVirtual, pos VecVirtual) {
	genutil.ReduceLanes(mv, g, pos, ZMM())
	VPSLLQ(logx, pos, pos)
}
