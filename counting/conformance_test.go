package counting

import (
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
)

var (
	_ conformance.Membership[*Filter] = (*Filter)(nil)
	_ conformance.Concurrent          = (*Filter)(nil)
	_ conformance.Remover             = (*Filter)(nil)
)

var family4 = conformance.Family[*Filter]{Name: "counting", New: New, NewMK: NewMK, Decode: Decode, Read: Read}

var family8 = conformance.Family[*Filter]{
	Name: "counting/8-bit",
	New: func(n uint64, p float64, opts ...engine.Option) (*Filter, error) {
		return New(n, p, append(opts, WithCounterBits(8))...)
	},
	NewMK: func(m uint64, k uint32, opts ...engine.Option) (*Filter, error) {
		return NewMK(m, k, append(opts, WithCounterBits(8))...)
	},
	Decode: Decode, Read: Read,
}

func TestConformance(t *testing.T)     { conformance.Run(t, family4) }
func TestConformance8Bit(t *testing.T) { conformance.Run(t, family8) }

// TestConformanceConcurrent is the suite's concurrency check alone, named
// so that make test's race run (-run Concurrent) covers it.
func TestConformanceConcurrent(t *testing.T) {
	conformance.RunConcurrent(t, family4)
	conformance.RunConcurrent(t, family8)
}
