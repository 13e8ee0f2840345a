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

// keyKernels emits the line-local single-key Check,
// asm.spatialCheck{Key,Uint64}, twins of the Generic functions of the
// same names: an asm.SpatialProbe and one key in, the key's area out. Each
// hashes the key (xxh3.Scalar), finds its line (the high word of
// h*Lines) and x = h*mix, then takes the k <= 8 probes as lanes of two
// YMM registers: lane j's value x << Shifts[j] gives its 32-bit word of
// the line (>> 60, one VPGATHERQD per four lanes) and its bit offset
// (>> 55, masked), and the cells, masked and with the lanes past k set to
// all ones, are reduced to their minimum (VPMINUD), the area.
//
// spatial.Filter's Check and CheckUint64 inline to one call of them.
// Like every single-key kernel (genutil.SingleKey) they jump to their
// Generic twin below the avx2 level, and for a key of another length
// than 8 or a filter without a Row (libSBF's layout, k > 8, no cells).
func keyKernels() {
	for _, form := range []string{"Key", "Uint64"} {
		keyKernel(form)
	}
}

var (
	probe asm.SpatialProbe
	row   asm.SpatialRow
)

func keyKernel(form string) {
	name := "spatialCheck" + form
	sig := "func(p *uint64, key []byte) uint32"
	if form == "Uint64" {
		sig = "func(p *uint64, key uint64) uint32"
	}
	p, generic := genutil.SingleKey(name, sig, name+" is "+name+"Generic, dispatching itself: the twin for a key or filter it does not take (see keyKernels in gen/spatial), one AVX2 body otherwise.")
	r := GP64()
	MOVQ(genutil.Field(p, unsafe.Offsetof(probe.Row)), r)
	TESTQ(r, r)
	JZ(LabelRef(generic))
	h := genutil.Key8(form, generic)
	xxh3.Scalar(h, genutil.Field(p, unsafe.Offsetof(probe.Key)))

	line := genutil.Line(h, genutil.Field(p, unsafe.Offsetof(probe.Lines)), genutil.Field(p, unsafe.Offsetof(probe.Words)))
	x := GP64()
	MOVQ(U64(asm.SpatialLineMix), x)
	IMULQ(h, x)
	xv, xb := XMM(), YMM()
	VMOVQ(x, xv)
	VPBROADCASTQ(xv, xb)

	var least [2]reg.VecVirtual
	for i := range 2 {
		xj, word, off := YMM(), YMM(), YMM()
		VPSLLVQ(genutil.Field(r, unsafe.Offsetof(row.Shifts)+uintptr(32*i)), xb, xj)
		VPSRLQ(U8(60), xj, word)
		VPSRLQ(U8(55), xj, off)
		mask, cells := XMM(), XMM()
		VPCMPEQD(mask, mask, mask)
		VPXOR(cells, cells, cells)
		VPGATHERQD(mask, Mem{Base: line, Index: word, Scale: 4}, cells)
		// The offsets to four dwords: dwords 0 and 2 of each 128-bit
		// half, then the low qword of each half.
		VPSHUFD(U8(0x88), off, off)
		VPERMQ(U8(0x08), off, off)
		o := off.AsX()
		VPAND(genutil.Field(r, unsafe.Offsetof(row.OffMask)), o, o)
		VPSRLVD(o, cells, cells)
		VPAND(genutil.Field(r, unsafe.Offsetof(row.CellMask)), cells, cells)
		VPOR(genutil.Field(r, unsafe.Offsetof(row.Off)+uintptr(16*i)), cells, cells)
		least[i] = cells
	}
	m, t := least[0], XMM()
	VPMINUD(least[1], m, m)
	VPSHUFD(U8(0x4e), m, t)
	VPMINUD(t, m, m)
	VPSHUFD(U8(0xb1), m, t)
	VPMINUD(t, m, m)
	out := GP32()
	VMOVD(m, out)
	Store(out, ReturnIndex(0))
	VZEROUPPER()
	RET()

	Label(generic)
	genutil.TailJump("·" + name + "Generic")
}
