package classic_test

import (
	"io"
	"testing"

	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
)

var (
	_ conformance.Membership[*classic.Filter]    = (*classic.Filter)(nil)
	_ conformance.Concurrent                     = (*classic.Filter)(nil)
	_ conformance.Membership[*classic.Dynamic]   = (*classic.Dynamic)(nil)
	_ conformance.Membership[*classic.Retouched] = (*classic.Retouched)(nil)
)

var filterFamily = conformance.Family[*classic.Filter]{
	Name:   "classic.Filter",
	New:    classic.New,
	NewMK:  classic.NewMK,
	Decode: classic.Decode,
	Read:   classic.Read,
}

func TestConformance(t *testing.T) { conformance.Run(t, filterFamily) }

// TestConformanceConcurrent is the suite's concurrency check alone, named
// so that make test's race run (-run Concurrent) covers it. Dynamic and
// Retouched have no concurrent writers; their plain reads are covered by
// Run's Concurrent check.
func TestConformanceConcurrent(t *testing.T) { conformance.RunConcurrent(t, filterFamily) }

// dynamicRow is the keys per row of the Dynamic the suite builds: small
// enough that the suite's keys open several rows, large enough that each
// row's false-positive rate follows the model (rows of a few thousand
// bits run measurably above it).
const dynamicRow = 5000

func TestConformanceDynamic(t *testing.T) {
	conformance.Run(t, conformance.Family[*classic.Dynamic]{
		Name: "classic.Dynamic",
		New: func(n uint64, p float64, opts ...engine.Option) (*classic.Dynamic, error) {
			// n keys must be a size the rows could have had: the
			// suite's bad sizes are errors here as for a Filter.
			if _, err := engine.OptimalBits(n, p); err != nil {
				return nil, err
			}
			return classic.NewDynamic(min(n, dynamicRow), p, opts...)
		},
		NewMK: func(m uint64, k uint32, opts ...engine.Option) (*classic.Dynamic, error) {
			return classic.NewDynamicMK(dynamicRow, m, k, opts...)
		},
		Decode: classic.DecodeDynamic,
		Read: func(r io.Reader, opts ...engine.Option) (*classic.Dynamic, error) {
			return classic.ReadDynamic(r, opts...)
		},
	})
}

func TestConformanceRetouched(t *testing.T) {
	conformance.Run(t, conformance.Family[*classic.Retouched]{
		Name:   "classic.Retouched",
		New:    classic.NewRetouched,
		NewMK:  classic.NewRetouchedMK,
		Decode: classic.DecodeRetouched,
		Read: func(r io.Reader, opts ...engine.Option) (*classic.Retouched, error) {
			return classic.ReadRetouched(r, opts...)
		},
	})
}
