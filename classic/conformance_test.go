package classic_test

import (
	"io"
	"testing"

	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/conformance"
)

var (
	_ conformance.Membership[*classic.Filter]    = (*classic.Filter)(nil)
	_ conformance.Concurrent                     = (*classic.Filter)(nil)
	_ conformance.Membership[*classic.Dynamic]   = (*classic.Dynamic)(nil)
	_ conformance.Membership[*classic.Retouched] = (*classic.Retouched)(nil)
)

func TestConformance(t *testing.T) {
	conformance.Run(t, conformance.Family[*classic.Filter]{
		Name:   "classic.Filter",
		New:    classic.New,
		NewMK:  classic.NewMK,
		Decode: classic.Decode,
		Read:   classic.Read,
	})
}

// dynamicRow is the keys per row of the Dynamic the suite builds: small,
// so that its n keys open several rows.
const dynamicRow = 500

func TestConformanceDynamic(t *testing.T) {
	conformance.Run(t, conformance.Family[*classic.Dynamic]{
		Name: "classic.Dynamic",
		New: func(n uint64, p float64, opts ...engine.Option) (*classic.Dynamic, error) {
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
