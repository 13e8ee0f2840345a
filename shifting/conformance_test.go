package shifting_test

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/conformance"
	"github.com/filterengine/filterengine/shifting"
)

var (
	_ conformance.Membership[*shifting.Filter] = (*shifting.Filter)(nil)
	_ conformance.Concurrent                   = (*shifting.Filter)(nil)
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Family[*shifting.Filter]{
		Name:   "shifting.Filter",
		New:    shifting.New,
		NewMK:  shifting.NewMK,
		Decode: shifting.Decode,
		Read:   shifting.Read,
	})
}

// The improved variant (a second array) is a membership filter of the
// same type and holds the same contract.
func TestConformanceSecondArray(t *testing.T) {
	with := func(opts []engine.Option) []engine.Option { return append(opts, shifting.WithSecondArray()) }
	conformance.Run(t, conformance.Family[*shifting.Filter]{
		Name: "shifting.Filter+WithSecondArray",
		New: func(n uint64, p float64, opts ...engine.Option) (*shifting.Filter, error) {
			return shifting.New(n, p, with(opts)...)
		},
		NewMK: func(m uint64, k uint32, opts ...engine.Option) (*shifting.Filter, error) {
			return shifting.NewMK(m, k, with(opts)...)
		},
		Decode: shifting.Decode,
		Read:   shifting.Read,
	})
}
