// Package genutil holds what every kernel generator shares: parameter
// addresses, unique labels and the library's own constants, so that no
// generator retypes them.
package genutil

import (
	"fmt"

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

// Labels makes labels unique within one generated file.
type Labels struct{ n int }

// Next returns a fresh label with the given prefix.
func (l *Labels) Next(prefix string) string {
	l.n++
	return fmt.Sprintf("%s_%d", prefix, l.n)
}
