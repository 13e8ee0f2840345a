// Package genutil holds what every kernel generator shares: parameter
// addresses, unique labels and the library's own constants, so that no
// generator retypes them.
package genutil

import (
	"fmt"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/reg"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// ParamAddr is the memory operand of the named argument of the function
// being built, for arguments avo's Load cannot take (a slice's base
// pointer used as an address, a field read twice).
func ParamAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// BaseAddr is the memory operand of the base pointer of the named slice
// argument, for an instruction that adds it from the argument frame.
func BaseAddr(name string) Mem {
	b, err := Param(name).Base().Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// LenAddr is the memory operand of the length of the named slice
// argument, for an instruction that compares it in place.
func LenAddr(name string) Mem {
	b, err := Param(name).Len().Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// Labels makes labels unique within one generated file.
type Labels struct{ n int }

// Next returns a fresh label with the given prefix.
func (l *Labels) Next(prefix string) string {
	l.n++
	return fmt.Sprintf("%s_%d", prefix, l.n)
}

// TailJump emits JMP sym(SB), a jump into another function (a kernel's
// Generic twin, with the same arguments and frame) that leaves the
// function: avo's JMP takes only labels of its own, so the instruction is
// built as a terminal one, without a successor in the function.
func TailJump(sym string) {
	Instruction(&ir.Instruction{
		Opcode:     "JMP",
		Operands:   []Op{Mem{Symbol: Symbol{Name: sym}, Base: reg.StaticBase}},
		IsTerminal: true,
	})
}

// Field is the memory operand off bytes from the pointer in p: a field of
// a struct the generator measures with unsafe.Offsetof.
func Field(p reg.Register, off uintptr) Mem { return Mem{Base: p, Disp: int(off)} }

// SingleKey opens a single-key kernel (asm's doc): TEXT name with
// signature sig, whose first argument is p, the noescape pragma and doc,
// and a jump to the label name+"_generic" below the avx2 level, where
// the kernel is to end with TailJump to its Generic twin. It returns p,
// loaded, and that label.
func SingleKey(name, sig, doc string) (p reg.GPVirtual, generic string) {
	return SingleKeyFrom(cpulevel.AVX2, name, sig, doc)
}

// SingleKeyFrom is SingleKey for a kernel whose body needs level least:
// below it the kernel jumps to name+"_generic".
func SingleKeyFrom(least cpulevel.Level, name, sig, doc string) (p reg.GPVirtual, generic string) {
	p, _, generic = singleKey(least, name, sig, doc)
	return p, generic
}

// SingleKeyLevel is SingleKey for a kernel that branches on the level
// again: it also returns the level, read into a register, which a
// compare and a branch take as one fused instruction where a compare
// of the variable in memory with a constant is two.
func SingleKeyLevel(name, sig, doc string) (p, level reg.GPVirtual, generic string) {
	return singleKey(cpulevel.AVX2, name, sig, doc)
}

func singleKey(least cpulevel.Level, name, sig, doc string) (p, level reg.GPVirtual, generic string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc)
	generic = name + "_generic"
	level = GP32()
	MOVBLZX(Mem{Symbol: Symbol{Name: "·level"}, Base: reg.StaticBase}, level)
	CMPL(level, U8(uint8(least)))
	JB(LabelRef(generic))
	return Load(Param("p"), GP64()).(reg.GPVirtual), level, generic
}

// Key8 loads the argument key into a new register: a uint64 as it is
// (form "Uint64"), a []byte (form "Key") as its 8 little-endian bytes,
// jumping to generic when it has another length.
func Key8(form, generic string) reg.GPVirtual {
	h := GP64()
	if form == "Key" {
		CMPQ(LenAddr("key"), U8(8))
		JNE(LabelRef(generic))
		kp := Load(Param("key").Base(), GP64())
		MOVQ(Mem{Base: kp}, h)
	} else {
		Load(Param("key"), h)
	}
	return h
}

// Line returns a new register holding the address of the 64-byte line of
// hash h (a register) in a filter of lines lines from words: the high
// word of h*lines (MULX, through RDX), times 64, plus words. lines and
// words are operands (a probe's fields).
func Line(h reg.Register, lines, words Op) reg.GPVirtual {
	lo, line := GP64(), GP64()
	MOVQ(lines, reg.RDX) // MULX multiplies by RDX
	MULXQ(h, lo, line)
	SHLQ(U8(6), line)
	ADDQ(words, line)
	return line
}

// LineRDX is Line for a hash already in RDX (xxh3.ScalarTo), which MULX
// multiplies by lines read from memory: one instruction fewer. RDX keeps
// the hash.
func LineRDX(lines Mem, words Op) reg.GPVirtual {
	lo, line := GP64(), GP64()
	MULXQ(lines, lo, line)
	SHLQ(U8(6), line)
	ADDQ(words, line)
	return line
}

// ReturnZF stores the zero flag as the function's bool result (index 0):
// true when the last flag-setting test found nothing.
func ReturnZF() {
	b := GP8()
	SETEQ(b)
	Store(b, ReturnIndex(0))
}

// PrefetchFar emits the prefetch of a line a kernel probes many tens of
// keys later (the grouped kernels', asm.BlockedGroupAhead groups of
// eight), into L1 (PREFETCHT0) or into L2 only (PREFETCHT1). Which
// serves better depends on the core, so the kernels carry a loop for
// each and asm picks one at run time (cpulevel.PrefetchFarL1): where a
// prefetch into L1 holds one of L1's few miss buffers until its line
// arrives, that many prefetches in flight wait on each other once the
// filter is out of cache, and into L2 they do not (the probe's load
// finds its line one level out, latency the out-of-order core hides);
// where L2-only prefetches are dropped or L1 has the buffers to spare,
// the line already in L1 wins. Kernels that prefetch a few keys ahead
// keep PREFETCHT0.
func PrefetchFar(m Mem, intoL1 bool) {
	if intoL1 {
		PREFETCHT0(m)
	} else {
		PREFETCHT1(m)
	}
}
