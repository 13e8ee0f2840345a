package genutil

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// BaseAddr is the memory operand of the base pointer of the named slice
// argument, for an instruction that adds it from the argument frame.
func BaseAddr(name string) Mem {
	b, err := Param(name).Base().Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
