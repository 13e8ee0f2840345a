package main

import (
	"unsafe"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/hash/xxh3"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// keyKernels emits the single-key tests asm.countingTest{Key,Uint64,Hash},
// twins of the Generic functions of the same names: an asm.CountingProbe
// and one key (or its hash) in, the answer out. Each hashes the key
// (xxh3.Scalar), finds its line (the high word of h*Lines) and its round
// g = h*BlockedMul, and tests the round's probes of 4-bit counters in the
// 8 qword lanes of a ZMM: lane j holds t_j = g << 7j (VPSLLVQ by a
// constant table), its counter's word t_j >> 61 picks the line's word
// (VPERMQ from memory: the one load of the line), the word shifts right
// by (t_j >> 55) & 60 and the lanes of the key's probes (the first K)
// test their low nibble for zero (VPTESTNMQ under a mask). K = 9 takes a
// second pass for t_8 = g << 56 in every lane.
//
// counting.Filter's Test, TestUint64, TestString and TestHash inline to
// one call of them. They jump to their Generic twin below the avx512
// level, and for a key of another length than 8 or a filter that is not
// one round of 4-bit counters (Round4 == 0: 8-bit counters, K > 9, the
// zero filter). There is no avx2 body: a scalar BMI2 one (RORX/SHRX from
// memory a probe) was no faster than the Go twin at avx2.
func keyKernels() {
	shifts := GLOBL("countingKeyShifts", RODATA|NOPTR)
	for j := range 8 {
		DATA(8*j, U64(uint64(7*j)))
	}
	low := GLOBL("countingKeyLow", RODATA|NOPTR) // a nibble, and its offset mask
	DATA(0, U64(0xf))
	DATA(8, U64(60))
	for _, form := range []string{"Key", "Uint64", "Hash"} {
		keyKernel(form, shifts, low)
	}
	updateKernels(shifts)
}

// probe gives the offsets of asm.CountingProbe's fields.
var probe asm.CountingProbe

func keyKernel(form string, shifts, low Mem) {
	name := "countingTest" + form
	sig := map[string]string{
		"Key":    "func(p *uint64, key []byte) bool",
		"Uint64": "func(p *uint64, key uint64) bool",
		"Hash":   "func(p *uint64, h uint64) bool",
	}[form]
	r := openKey(name, form, sig, name+" is "+name+"Generic, dispatching itself: the twin for a key or filter it does not take (see keyKernels in gen/counting), one AVX-512 body otherwise.", shifts)
	zero := zeroLanes(r.t, r.line, r.lanes, low)

	CMPL(r.n, U8(8))
	JBE(LabelRef(name + "_done"))
	VPSLLQ(U8(56), r.vg, r.t)
	KORB(zeroLanes(r.t, r.line, r.lanes, low), zero, zero)

	Label(name + "_done")
	KORTESTB(zero, zero)
	genutil.ReturnZF()
	VZEROUPPER()
	RET()

	Label(r.generic)
	genutil.TailJump("·" + name + "Generic")
}

// keyRound is what every single-key kernel of a counting filter computes
// before its own work: the probe's Round4 n (nonzero: the kernel takes
// the filter), the key's line, the lanes of its probes among the first 8
// (the low min(n, 8) bits), the round g = h*BlockedMul broadcast in vg
// and t_j = g << 7j in lane j of t. generic is the label of the tail
// jump to the kernel's Go twin.
type keyRound struct {
	generic string
	n, line reg.GPVirtual
	lanes   reg.Register
	vg, t   reg.VecVirtual
}

// openKey opens the single-key kernel name of the given form (Key,
// Uint64 or Hash) and signature and computes its keyRound: below the
// avx512 level, on a probe without Round4, or for a key of another
// length than 8 it jumps to the generic label.
func openKey(name, form, sig, doc string, shifts Mem) (r keyRound) {
	var p reg.GPVirtual
	p, r.generic = genutil.SingleKeyFrom(cpulevel.AVX512, name, sig, doc)
	r.n = GP32()
	MOVL(genutil.Field(p, unsafe.Offsetof(probe.Round4)), r.n)
	TESTL(r.n, r.n)
	JZ(LabelRef(r.generic))
	var h reg.GPVirtual
	if form == "Hash" {
		h = GP64()
		Load(Param("h"), h)
	} else {
		h = genutil.Key8(form, r.generic)
		xxh3.Scalar(h, genutil.Field(p, unsafe.Offsetof(probe.Key)))
	}

	// line = &Words[hi(h*Lines)*8], g = h*BlockedMul.
	r.line = genutil.Line(h, genutil.Field(p, unsafe.Offsetof(probe.Lines)), genutil.Field(p, unsafe.Offsetof(probe.Words)))
	g := GP64()
	MOVQ(U64(asm.BlockedMul), g)
	IMULQ(h, g)

	// The key's lanes: the low min(n, 8) bits.
	lanes, m := K(), GP32()
	MOVL(U32(0xff), m)
	BZHIL(r.n, m, m)
	KMOVB(m, lanes)
	r.lanes = lanes
	r.vg, r.t = ZMM(), ZMM()
	VPBROADCASTQ(g, r.vg)
	VPSLLVQ(shifts, r.vg, r.t)
	return r
}

// zeroLanes returns the mask of the lanes of lanes whose probe t (a
// 4-bit counter at the top 7 bits of each lane of t) is zero in the line
// at line.
func zeroLanes(t reg.VecVirtual, line reg.GPVirtual, lanes reg.Register, low Mem) reg.Register {
	w, s := ZMM(), ZMM()
	VPSRLQ(U8(61), t, w)
	VPERMQ(Mem{Base: line}, w, w) // lane j: the word of its counter
	VPSRLQ(U8(55), t, s)
	VPANDQ_BCST(low.Offset(8), s, s) // 4*(q&15), the counter's offset
	VPSRLVQ(s, w, w)
	zero := K()
	VPTESTNMQ_BCST(low, w, lanes, zero)
	return zero
}
