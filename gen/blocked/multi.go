package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// multiKernel emits blockedTestMultiHashes<ISA>, the twin of
// asm.blockedTestMultiHashesGeneric: per key the mask is built once, then the
// key's line in every filter of the list is tested and the answers ORed. Every filter is a []uint64 of whole lines; the slice
// headers are read from the filters slice (24 bytes each), so the line
// count comes from each header's length.
func multiKernel(v isa) {
	name := fmt.Sprintf("blockedTestMultiHashes%s", v.name())
	TEXT(name, NOSPLIT, "func(filters [][]uint64, hs []uint64, out []bool, k uint32, npref int, dist int) int")
	Pragma("noescape")
	Doc(name + " is blockedTestMultiHashesGeneric; dist > 0 prefetches the lines, in the first npref filters, of the key dist places ahead.")
	fp := Load(Param("filters").Base(), GP64())
	fend := Load(Param("filters").Len(), GP64())
	IMUL3Q(U8(24), fend, fend)
	ADDQ(fp, fend)
	pfend := Load(Param("npref"), GP64())
	IMUL3Q(U8(24), pfend, pfend)
	ADDQ(fp, pfend)
	hp := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	outp := Load(Param("out").Base(), GP64())
	hits := GP64()
	XORQ(hits, hits)
	// The full rounds and the partial round's enabled words (splitK) live
	// in stack slots: registers are short.
	k := Load(Param("k"), GP64())
	rem2 := splitK(k)
	rounds, remSlot, distSlot := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	MOVQ(k, rounds)
	MOVQ(rem2, remSlot)
	dist := Load(Param("dist"), GP64())
	MOVQ(dist, distSlot)
	v.setup()

	Label(name + "_key")
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	CMPQ(distSlot, U8(0))
	JE(LabelRef(name + "_probe"))
	CMPQ(n, distSlot)
	JLE(LabelRef(name + "_probe"))
	ph, pe := GP64(), GP64()
	MOVQ(distSlot, ph)
	MOVQ(Mem{Base: hp, Index: ph, Scale: 8}, ph)
	MOVQ(fp, pe)
	Label(name + "_prefetch")
	CMPQ(pe, pfend)
	JAE(LabelRef(name + "_probe"))
	lineOf(ph, pe, func(line reg.Register) { PREFETCHT0(Mem{Base: line}) })
	ADDQ(U8(24), pe)
	JMP(LabelRef(name + "_prefetch"))

	Label(name + "_probe")
	h, g := GP64(), GP64()
	MOVQ(Mem{Base: hp}, h)
	MOVQ(h, g)
	IMULQ(mul, g)
	v.clear()
	maskRounds(v, h, g, rounds, remSlot)
	// Every filter is tested, without a branch on the answers: a branch
	// that waits for a line would stop the next keys' loads from issuing.
	e, acc := GP64(), GP64()
	MOVQ(fp, e)
	XORQ(acc, acc)
	Label(name + "_filter")
	CMPQ(e, fend)
	JAE(LabelRef(name + "_store"))
	lineOf(h, e, func(line reg.Register) { v.test(line) })
	hit := GP8()
	SETEQ(hit)
	ORB(hit, acc.As8())
	ADDQ(U8(24), e)
	JMP(LabelRef(name + "_filter"))
	Label(name + "_store")
	MOVB(acc.As8(), Mem{Base: outp})
	ADDQ(acc, hits)
	Label(name + "_next")
	INCQ(outp)
	ADDQ(U8(8), hp)
	DECQ(n)
	JMP(LabelRef(name + "_key"))

	Label(name + "_done")
	VZEROUPPER()
	Store(hits, ReturnIndex(0))
	RET()
}

// lineOf computes the address of the line of hash h in the filter whose
// slice header is at hdr (base, then length in words) and hands it to use.
func lineOf(h, hdr reg.Register, use func(line reg.Register)) {
	MOVQ(Mem{Base: hdr, Disp: 8}, reg.RDX)
	SHRQ(U8(3), reg.RDX)
	lo, line := GP64(), GP64()
	MULXQ(h, lo, line)
	SHLQ(U8(6), line)
	ADDQ(Mem{Base: hdr}, line)
	use(line)
}
