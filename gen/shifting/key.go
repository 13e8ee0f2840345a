package main

import (
	"unsafe"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/hash/xxh3"
	"github.com/filterengine/filterengine/gen/internal/genutil"
)

// keyKernels emits the ShBF_M single-key tests asm.shiftingTest{Key,Uint64},
// twins of the Generic functions of the same names: an asm.ShiftingProbe
// and one key in, the answer out. Each hashes the key (xxh3.Scalar), then
// ANDs the unaligned window of every pair (the high word of a*M, a byte
// load and a shift by the position mod 8), steps a and b as
// asm.ShiftingTestHash does, and tests bits 0 and o+1 of the AND, all in
// scalar registers with BMI2 (MULX, SHRX, SHLX).
//
// shifting.Filter's Test and TestUint64 inline to one call of them. Like
// every single-key kernel (genutil.SingleKey) they jump to their Generic
// twin below the avx2 level (which includes BMI2), and for a key of
// another length than 8 or a filter with a second array or no storage.
func keyKernels() {
	for _, form := range []string{"Key", "Uint64"} {
		keyKernel(form)
	}
}

// probe gives the offsets of asm.ShiftingProbe's fields.
var probe asm.ShiftingProbe

func keyKernel(form string) {
	name := "shiftingTest" + form
	sig := "func(p *uint64, key []byte) bool"
	if form == "Uint64" {
		sig = "func(p *uint64, key uint64) bool"
	}
	p, generic := genutil.SingleKey(name, sig, name+" is "+name+"Generic, dispatching itself: the twin for a key or filter it does not take (see keyKernels in gen/shifting), the scalar BMI2 body otherwise.")
	CMPQ(genutil.Field(p, unsafe.Offsetof(probe.M2)), U8(0))
	JNE(LabelRef(generic))
	words := GP64()
	MOVQ(genutil.Field(p, unsafe.Offsetof(probe.Words)), words)
	TESTQ(words, words)
	JZ(LabelRef(generic))
	h := genutil.Key8(form, generic)
	xxh3.Scalar(h, genutil.Field(p, unsafe.Offsetof(probe.Key)))

	n := GP32()
	MOVL(genutil.Field(p, unsafe.Offsetof(probe.K)), n)
	SHRL(U8(1), n)
	JZ(LabelRef(generic))                                     // no pairs: not a filter New makes
	MOVQ(genutil.Field(p, unsafe.Offsetof(probe.M)), reg.RDX) // MULX multiplies by RDX
	b := GP64()
	MOVQ(h, b)
	ROLQ(U8(32), b)
	acc, phi := GP64(), GP64()
	MOVQ(U64(^uint64(0)), acc)
	MOVQ(U64(asm.ShiftingPhi), phi)
	Label(name + "_pair")
	lo, i, s, w := GP64(), GP64(), GP64(), GP64()
	MULXQ(h, lo, i)
	MOVQ(i, s)
	ANDQ(U8(7), s)
	SHRQ(U8(3), i)
	MOVQ(Mem{Base: words, Index: i, Scale: 1}, w)
	SHRXQ(s, w, w)
	ANDQ(w, acc)
	ADDQ(b, h)
	ADDQ(phi, b)
	DECL(n)
	JNZ(LabelRef(name + "_pair"))

	// o = hi(a*(w̄-1)); the pair's bits are 0 and o+1.
	MOVQ(U64(asm.ShiftingWBar-1), reg.RDX)
	o, mask := GP64(), GP64()
	MULXQ(h, lo, o)
	MOVQ(U64(2), mask)
	SHLXQ(o, mask, mask)
	ORQ(U8(1), mask)
	NOTQ(acc)
	TESTQ(acc, mask)
	r := GP8()
	SETEQ(r)
	Store(r, ReturnIndex(0))
	RET()

	Label(generic)
	genutil.TailJump("·" + name + "Generic")
}
