package shifting_test

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
	"github.com/filterengine/filterengine/shifting"
)

var (
	_ conformance.Membership[*shifting.Filter] = (*shifting.Filter)(nil)
	_ conformance.Concurrent                   = (*shifting.Filter)(nil)
)

var filterFamily = conformance.Family[*shifting.Filter]{
	Name:   "shifting.Filter",
	New:    shifting.New,
	NewMK:  shifting.NewMK,
	Decode: shifting.Decode,
	Read:   shifting.Read,
}

// The improved variant (a second array) is a membership filter of the
// same type and holds the same contract.
var secondArrayFamily = conformance.Family[*shifting.Filter]{
	Name: "shifting.Filter+WithSecondArray",
	New: func(n uint64, p float64, opts ...engine.Option) (*shifting.Filter, error) {
		return shifting.New(n, p, append(opts, shifting.WithSecondArray())...)
	},
	NewMK: func(m uint64, k uint32, opts ...engine.Option) (*shifting.Filter, error) {
		return shifting.NewMK(m, k, append(opts, shifting.WithSecondArray())...)
	},
	Decode: shifting.Decode,
	Read:   shifting.Read,
}

func TestConformance(t *testing.T)            { conformance.Run(t, filterFamily) }
func TestConformanceSecondArray(t *testing.T) { conformance.Run(t, secondArrayFamily) }

// TestConformanceConcurrent is the suite's concurrency check alone, named
// so that make test's race run (-run Concurrent) covers it.
func TestConformanceConcurrent(t *testing.T) {
	conformance.RunConcurrent(t, filterFamily)
	conformance.RunConcurrent(t, secondArrayFamily)
}
