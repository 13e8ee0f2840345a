// Package genutil holds what every kernel generator shares: parameter
// addresses, unique labels and the library's own constants, so that no
// generator retypes them.
package genutil

import (
	"fmt"

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
