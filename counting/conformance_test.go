package counting

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/conformance"
)

var (
	_ conformance.Membership[*Filter] = (*Filter)(nil)
	_ conformance.Concurrent          = (*Filter)(nil)
	_ conformance.Remover             = (*Filter)(nil)
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Family[*Filter]{Name: "counting", New: New, NewMK: NewMK, Decode: Decode, Read: Read})
}

func TestConformance8Bit(t *testing.T) {
	conformance.Run(t, conformance.Family[*Filter]{
		Name: "counting/8-bit",
		New: func(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
			return New(n, p, append(opts, WithCounterBits(8))...)
		},
		NewMK: func(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
			return NewMK(m, k, append(opts, WithCounterBits(8))...)
		},
		Decode: Decode, Read: Read,
	})
}
