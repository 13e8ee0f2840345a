package main

import (
	"fmt"
	"unsafe"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/gen/hash/xxh3"
	"github.com/filterengine/filterengine/gen/internal/genutil"
	"github.com/filterengine/filterengine/internal/cpulevel"
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// keyKernels emits the single-key kernels of a blocked filter,
// asm.blocked{Test,Add,TestAndAdd}{Key,Uint64}, twins of the Generic
// functions of the same names: an asm.BlockedProbe and one key in, the
// answer out. Each hashes the key (xxh3.Scalar), finds its line (the high
// word of h*Lines), its round value v = h*BlockedMul and its window row,
// and runs the last (for k <= 8 the only) round with two YMM registers,
// after the (k-1)/8 full rounds of a larger k; at avx512 the one round of
// k <= 8 is one ZMM register (finish512).
//
// They are called once per key from the family's single-key methods,
// which inline to that one call, so they dispatch themselves instead of
// going through a Go switch: for a key of another length than 8, a probe
// without Rows (no lines), or below the avx2 level they jump to their
// Generic twin; otherwise they run the AVX2 body, or at avx512 and
// k <= 8 (the probe's Take set) the ZMM body, whose round, test and
// return are one register wide where the AVX2 body works in two halves,
// for a compare and a branch on the level in front of both.
//
// The round's bit for word w, (v >> (58-6w)) & 63, is computed as
// (v << 6w) >> 58: a variable shift by a constant table and one immediate
// shift, no mask constant to load.
func keyKernels() {
	for _, form := range []string{"Key", "Uint64"} {
		for _, op := range []string{"Test", "Add", "TestAndAdd"} {
			keyKernel(op, form, lshifts)
		}
	}
}

// probe is the offset of a field of asm.BlockedProbe.
var probe asm.BlockedProbe

func keyKernel(op, form string, lshifts Mem) {
	name := "blocked" + op + form
	arg := "key []byte"
	if form == "Uint64" {
		arg = "key uint64"
	}
	sig := fmt.Sprintf("func(p *uint64, %s) bool", arg)
	if op == "Add" {
		sig = fmt.Sprintf("func(p *uint64, %s)", arg)
	}
	p, lv, generic := genutil.SingleKeyLevel(name, sig, fmt.Sprintf("%s is %sGeneric, dispatching itself: the twin for a key it does not take (see keyKernels in gen/blocked), the AVX2 or AVX-512 body otherwise.", name, name))
	k := genutil.Key8(form, generic)
	h := reg.RDX // where MULX takes its factor
	xxh3.ScalarTo(k, genutil.Field(p, unsafe.Offsetof(probe.Key)), h)

	// line = &Words[(hi(h*Lines))*8], v = h*BlockedMul (in h's register,
	// which the line no longer needs), row = Take + (v>>13&7)*64, which
	// the rotate finds with no copy of v and the loads address as a base
	// and an index: the fewer instructions a call takes, the more keys'
	// calls the core holds in flight while their lines load. Nothing is
	// loaded through line or row before the check below, so a probe
	// without lines (Lines 0, Words nil) is safe to get this far.
	line := genutil.LineRDX(genutil.Field(p, unsafe.Offsetof(probe.Lines)), genutil.Field(p, unsafe.Offsetof(probe.Words)))
	v := h
	IMULQ(mul, v)
	row := GP64()
	RORXQ(U8(13-6), v, row)
	ANDQ(U32(7<<6), row)
	take := GP64()
	rowMem := Mem{Base: take, Index: row, Scale: 1}

	// One check takes the common case: Take is set only for a filter with
	// lines and k <= 8, one round. Otherwise Rows, set at every k for a
	// filter with lines, takes the path with full rounds before the last;
	// without it the twin answers.
	MOVQ(genutil.Field(p, unsafe.Offsetof(probe.Take)), take)
	TESTQ(take, take)
	JZ(LabelRef(name + "_rows"))
	CMPL(lv, U8(uint8(cpulevel.AVX512)))
	JAE(LabelRef(name + "_one512"))
	m0, m1 := roundMask(v, rowMem, lshifts)
	finish(op, name+"_one", line, m0, m1)

	Label(name + "_one512")
	finish512(op, name+"_one512", v, rowMem, line, lshifts)

	Label(name + "_rows")
	MOVQ(genutil.Field(p, unsafe.Offsetof(probe.Rows)), take)
	TESTQ(take, take)
	JZ(LabelRef(generic))
	n := GP32()
	MOVL(genutil.Field(p, unsafe.Offsetof(probe.K)), n)
	DECL(n)
	SHRL(U8(3), n)
	acc0, acc1 := YMM(), YMM()
	VPXOR(acc0, acc0, acc0)
	VPXOR(acc1, acc1, acc1)
	mul := GP64()
	MOVQ(U64(asm.BlockedMul), mul)
	Label(name + "_full")
	// A full round probes all eight words: blockedTake[0][0] is all ones.
	f0, f1 := roundMask(v, Mem{Symbol: Symbol{Name: "·blockedTake"}, Base: reg.StaticBase}, lshifts)
	VPOR(f0, acc0, acc0)
	VPOR(f1, acc1, acc1)
	IMULQ(mul, v)
	DECL(n)
	JNZ(LabelRef(name + "_full"))
	l0, l1 := roundMask(v, rowMem, lshifts)
	VPOR(acc0, l0, l0)
	VPOR(acc1, l1, l1)
	finish(op, name+"_many", line, l0, l1)

	// Same arguments, same frame: a tail jump hands them to the twin.
	Label(generic)
	genutil.TailJump("·" + name + "Generic")
}

// roundMask returns the bits a round with value v (a GP register) sets in
// the words the row at take marks 1, words 0-3 and 4-7.
func roundMask(v reg.Register, take, lshifts Mem) (m0, m1 reg.VecVirtual) {
	x, vy := XMM(), YMM()
	VMOVQ(v, x)
	VPBROADCASTQ(x, vy)
	m0, m1 = YMM(), YMM()
	for i, m := range []reg.VecVirtual{m0, m1} {
		VPSLLVQ(lshifts.Offset(32*i), vy, m)
		VPSRLQ(U8(58), m, m)
		t := YMM()
		VMOVDQU(take.Offset(32*i), t)
		VPSLLVQ(m, t, m)
	}
	return m0, m1
}

// finish512 is roundMask and finish in one ZMM register: the round's
// eight words at once, and the test of the line by one VPTESTMQ.
func finish512(op, prefix string, v reg.Register, take Mem, line reg.Register, lshifts Mem) {
	m, t := ZMM(), ZMM()
	VPBROADCASTQ(v, m)
	VPSLLVQ(lshifts, m, m)
	VPSRLQ(U8(58), m, m)
	VMOVDQU64(take, t)
	VPSLLVQ(m, t, m)
	if op == "Add" {
		VPORQ(Mem{Base: line}, m, m)
		VMOVDQU64(m, Mem{Base: line})
	} else if op == "Test" {
		// Every word holds its mask: CF from KORTESTB of the eight
		// equal lanes.
		t, k := ZMM(), K()
		VPANDQ(Mem{Base: line}, m, t)
		VPCMPEQQ(m, t, k)
		KORTESTB(k, k)
		c := GP8()
		SETCS(c)
		Store(c, ReturnIndex(0))
	} else {
		l, d, k := ZMM(), ZMM(), K()
		VMOVDQU64(Mem{Base: line}, l)
		VPANDNQ(m, l, d)
		VPTESTMQ(d, d, k)
		KORTESTW(k, k)
		genutil.ReturnZF()
		if op == "TestAndAdd" {
			JEQ(LabelRef(prefix + "_done"))
			VPORQ(l, m, m)
			VMOVDQU64(m, Mem{Base: line})
			Label(prefix + "_done")
		}
	}
	VZEROUPPER()
	RET()
}

// finish tests the mask m0, m1 against the line, sets it, or both, as
// op says, and returns.
func finish(op, prefix string, line reg.Register, m0, m1 reg.VecVirtual) {
	if op == "Add" {
		orYMM(Mem{Base: line}, m0, m1)
	} else {
		l0, l1 := holdsYMM(Mem{Base: line}, m0, m1)
		genutil.ReturnZF()
		if op == "TestAndAdd" {
			// A key that tests present leaves its line unwritten.
			JEQ(LabelRef(prefix + "_done"))
			VPOR(l0, m0, m0)
			VPOR(l1, m1, m1)
			VMOVDQU(m0, Mem{Base: line})
			VMOVDQU(m1, Mem{Base: line, Disp: 32})
			Label(prefix + "_done")
		}
	}
	VZEROUPPER()
	RET()
}
