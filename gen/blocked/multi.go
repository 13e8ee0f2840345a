package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The multi-filter kernels test a key against a set of blocked filters
// with one k (asm.BlockedSet): the key's mask is built once, then its line
// in every filter is tested without a branch on the answers, so the loads
// of all its lines are in flight together. The set is a table of two
// words per filter, its line count and the address of its first line, so
// a filter costs a multiply-high by the count in the table, a shift, an
// add of the address, the vector test of the line (v.holds, which leaves
// CF set when the line holds the mask) and an add-with-carry into the
// key's count of filters that hold it. The strided layout's single-key
// kernel (strideKeyKernel) walks a key's adjacent lines the same way.

// setKernel emits blockedTestSetHashes<ISA>, the twin of
// asm.blockedTestSetHashesGeneric; dist > 0 prefetches the lines, in the
// first npref filters of the table, of the key dist places ahead.
func setKernel(v isa) {
	name := fmt.Sprintf("blockedTestSetHashes%s", v.name())
	tbl, tend := setText(name, "hs []uint64, out []bool, k uint32, npref int, dist int) int",
		"is blockedTestSetHashesGeneric; dist > 0 prefetches the lines, in the first npref filters of the table, of the key dist places ahead.")
	pfend := Load(Param("npref"), GP64())
	SHLQ(U8(4), pfend)
	ADDQ(tbl, pfend)
	hp := Load(Param("hs").Base(), GP64())
	n := Load(Param("hs").Len(), GP64())
	outp := Load(Param("out").Base(), GP64())
	hits := GP64()
	XORQ(hits, hits)
	// The full rounds, the partial round's enabled words (splitK) and the
	// prefetch distance live in stack slots: registers are short.
	k := Load(Param("k"), GP64())
	rem2 := splitK(k)
	rounds, remSlot, distSlot := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	MOVQ(k, rounds)
	MOVQ(rem2, remSlot)
	dist := Load(Param("dist"), GP64())
	MOVQ(dist, distSlot)
	v.setup()

	// k = 8 (one full round, no partial one) is decided once per batch:
	// each kind of k has its own key loop.
	CMPQ(rounds, U8(1))
	JNE(LabelRef(name + "_any_key"))
	CMPQ(remSlot, U8(0))
	JNE(LabelRef(name + "_any_key"))
	for _, anyK := range []bool{false, true} {
		loop := name + "_k8"
		var r, rem Op // nil: k = 8
		if anyK {
			loop, r, rem = name+"_any", rounds, remSlot
		}
		Label(loop + "_key")
		TESTQ(n, n)
		JZ(LabelRef(name + "_done"))
		CMPQ(distSlot, U8(0))
		JE(LabelRef(loop + "_probe"))
		CMPQ(n, distSlot)
		JLE(LabelRef(loop + "_probe"))
		ph, pe := GP64(), GP64()
		MOVQ(distSlot, ph)
		MOVQ(Mem{Base: hp, Index: ph, Scale: 8}, reg.RDX)
		MOVQ(tbl, pe)
		Label(loop + "_prefetch")
		CMPQ(pe, pfend)
		JAE(LabelRef(loop + "_probe"))
		PREFETCHT0(Mem{Base: stageLine(pe, 0)})
		ADDQ(U8(16), pe)
		JMP(LabelRef(loop + "_prefetch"))

		Label(loop + "_probe")
		MOVQ(Mem{Base: hp}, reg.RDX)
		lineProbe(v, loop, setWalk(tbl, tend), r, rem)
		b := GP8()
		SETNE(b)
		MOVB(b, Mem{Base: outp})
		t := GP64()
		MOVBQZX(b, t)
		ADDQ(t, hits)
		INCQ(outp)
		ADDQ(U8(8), hp)
		DECQ(n)
		JMP(LabelRef(loop + "_key"))
	}

	Label(name + "_done")
	VZEROUPPER()
	Store(hits, ReturnIndex(0))
	RET()
}

// setKeyKernel emits blockedTestSetHash<ISA>, the single-key form of
// setKernel: the twin of asm.blockedTestSetHashGeneric.
func setKeyKernel(v isa) {
	name := fmt.Sprintf("blockedTestSetHash%s", v.name())
	tbl, tend := setText(name, "h uint64, k uint32) bool", "is blockedTestSetHashGeneric.")
	k := Load(Param("k"), GP64())
	rem2 := splitK(k)
	v.setup()
	Load(Param("h"), reg.RDX)
	lineProbes(v, name, setWalk(tbl, tend), k, rem2)
	b := GP8()
	SETNE(b)
	VZEROUPPER()
	Store(b, ReturnIndex(0))
	RET()
}

// setText opens a set kernel whose first argument is the table, with the
// rest of its signature and its doc after its name, and returns the
// table's first and past-the-end addresses, loaded.
func setText(name, rest, doc string) (tbl, tend reg.GPVirtual) {
	TEXT(name, NOSPLIT, "func(table []uint64, "+rest)
	Pragma("noescape")
	Doc(name + " " + doc)
	tbl = Load(Param("table").Base(), GP64()).(reg.GPVirtual)
	tend = Load(Param("table").Len(), GP64()).(reg.GPVirtual)
	LEAQ(Mem{Base: tbl, Index: tend, Scale: 8}, tend)
	return tbl, tend
}

// lineWalk says where a key's lines are: from the register first, unroll
// lines per step of step bytes, the i-th of a step at addr(e, i), until e
// reaches end.
type lineWalk struct {
	first, end   reg.Register
	unroll, step int
	addr         func(e reg.Register, i int) Mem
}

// setWalk walks a set's table from tbl to tend, two filters a step.
func setWalk(tbl, tend reg.Register) lineWalk {
	return lineWalk{first: tbl, end: tend, unroll: 2, step: 32,
		addr: func(e reg.Register, i int) Mem { return Mem{Base: stageLine(e, 16*i)} }}
}

// lineProbes emits lineProbe for k = 8 (one full round, no partial one) and for
// any k, and the branch between them on rounds and rem2 (splitK's).
func lineProbes(v isa, name string, walk lineWalk, rounds, rem2 Op) {
	CMPQ(rounds, U8(1))
	JNE(LabelRef(name + "_any"))
	CMPQ(rem2, U8(0))
	JNE(LabelRef(name + "_any"))
	lineProbe(v, name, walk, nil, nil)
	JMP(LabelRef(name + "_answer"))
	Label(name + "_any")
	lineProbe(v, name, walk, rounds, rem2)
	Label(name + "_answer")
}

// lineProbe tests the key whose hash is in RDX against every line of the walk
// (at least one step) and leaves ZF clear when one of them holds it. With
// rounds nil the key has k = 8: one full round and the test of v.holds8.
func lineProbe(v isa, name string, walk lineWalk, rounds, rem2 Op) {
	g := GP64()
	MOVQ(reg.RDX, g)
	IMULQ(mul, g)
	v.clear()
	holds := v.holds8
	if rounds == nil {
		v.round(g, nil)
	} else {
		maskRounds(v, reg.RDX, g, rounds, rem2)
		holds = v.holds
	}
	v.prepare()
	e, acc := GP64(), GP64()
	MOVQ(walk.first, e)
	XORQ(acc, acc)
	loop := labels.Next(name + "_filter")
	Label(loop)
	for i := range walk.unroll {
		holds(walk.addr(e, i))
		ADCQ(U8(0), acc)
	}
	ADDQ(U32(walk.step), e)
	CMPQ(e, walk.end)
	JB(LabelRef(loop))
	TESTQ(acc, acc)
}

// stageLine returns a new register holding the address of the line of the
// hash in RDX in the filter whose table entry is off bytes from e: the
// high word of h*lines, times 64, plus the filter's address.
func stageLine(e reg.Register, off int) reg.GPVirtual {
	lo, line := GP64(), GP64()
	MULXQ(Mem{Base: e, Disp: off}, lo, line)
	SHLQ(U8(6), line)
	ADDQ(Mem{Base: e, Disp: off + 8}, line)
	return line
}

// strideKeyKernel emits blockedTestStrideHash<ISA>, the twin of
// asm.blockedTestStrideHashGeneric: the key's line index, times the gens
// lines of a row, gives its first line, and the probe walks the gens
// adjacent lines one at a time (gens may be odd: no padding to step over).
func strideKeyKernel(v isa) {
	name := fmt.Sprintf("blockedTestStrideHash%s", v.name())
	TEXT(name, NOSPLIT, "func(words []uint64, lines int, gens int, h uint64, k uint32) bool")
	Pragma("noescape")
	Doc(name + " is blockedTestStrideHashGeneric, given the lines of one filter.")
	words := Load(Param("words").Base(), GP64())
	row := Load(Param("gens"), GP64())
	SHLQ(U8(6), row) // bytes of a row: the key's gens lines
	k := Load(Param("k"), GP64())
	rem2 := splitK(k)
	v.setup()
	h := Load(Param("h"), GP64())
	Load(Param("lines"), reg.RDX)
	lo, first := GP64(), GP64()
	MULXQ(h, lo, first)
	IMULQ(row, first)
	ADDQ(words, first)
	ADDQ(first, row) // past the row
	MOVQ(h, reg.RDX)
	lineProbes(v, name, lineWalk{first: first, end: row, unroll: 1, step: 64,
		addr: func(e reg.Register, _ int) Mem { return Mem{Base: e} }}, k, rem2)
	b := GP8()
	SETNE(b)
	VZEROUPPER()
	Store(b, ReturnIndex(0))
	RET()
}
