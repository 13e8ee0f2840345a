package blocked

import (
	"errors"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/batch"
	"github.com/filterengine/filterengine/internal/testkit/conformance"
)

// The family contract (engine's package doc), checked at compile time.
var (
	_ conformance.Membership[*Filter]   = (*Filter)(nil)
	_ conformance.Membership[*Narrow]   = (*Narrow)(nil)
	_ conformance.Membership[*Scalable] = (*Scalable)(nil)
	_ conformance.Membership[*Window]   = (*Window)(nil)
	_ conformance.Concurrent            = (*Filter)(nil)
	_ conformance.Concurrent            = (*Window)(nil)
)

// The families the suite runs: the Filter, Narrow at both block sizes,
// and the types built on blocked.
var (
	filterFamily   = conformance.Family[*Filter]{Name: "blocked.Filter", New: New, NewMK: NewMK, Decode: Decode, Read: Read}
	scalableFamily = conformance.Family[*Scalable]{Name: "blocked.Scalable", New: NewScalable, Decode: DecodeScalable, Read: ReadScalable}
	windowFamily   = conformance.Family[*Window]{
		Name: "blocked.Window",
		New: func(n uint64, p float64, opts ...engine.Option) (*Window, error) {
			return NewWindow(n, p, 4, opts...)
		},
		Decode: DecodeWindow,
		Read:   ReadWindow,
		// The suite adds its keys without rotating, so they share one
		// generation: ModelFPR assumes every generation full.
		ExpectedFPR: func(w *Window, n uint64) float64 { return FPR(w.M(), n, w.K()) },
	}
)

func narrowFamily(blockBits int) conformance.Family[*Narrow] {
	return conformance.Family[*Narrow]{
		Name: "blocked.Narrow",
		New: func(n uint64, p float64, opts ...engine.Option) (*Narrow, error) {
			return NewNarrow(n, p, blockBits, opts...)
		},
		NewMK: func(m uint64, k uint32, opts ...engine.Option) (*Narrow, error) {
			return NewNarrowMK(m, k, blockBits, opts...)
		},
		Decode: DecodeNarrow,
		Read:   ReadNarrow,
	}
}

func TestConformance(t *testing.T) {
	t.Run("Filter", func(t *testing.T) { conformance.Run(t, filterFamily) })
	t.Run("Narrow64", func(t *testing.T) { conformance.Run(t, narrowFamily(64)) })
	t.Run("Narrow128", func(t *testing.T) { conformance.Run(t, narrowFamily(128)) })
	t.Run("Scalable", func(t *testing.T) { conformance.Run(t, scalableFamily) })
	t.Run("Window", func(t *testing.T) { conformance.Run(t, windowFamily) })
}

// TestConformanceConcurrent is the suite's concurrency check alone, named
// so that make test's race run (-run Concurrent) covers it.
func TestConformanceConcurrent(t *testing.T) {
	conformance.RunConcurrent(t, filterFamily)
	conformance.RunConcurrent(t, windowFamily)
}

// recovered returns what f panicked with, or nil.
func recovered(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// A zero Filter, and one after Close, panic on a write with exactly
// batch.Zero's message, and encoding one is an error wrapping
// engine.ErrParam (the conformance suite's ZeroValue and Closed check the
// rest of their behaviour).
func TestFilterZeroValue(t *testing.T) {
	want := recovered(func() { batch.Zero("blocked.Filter", "blocked.New") })
	closed, _ := New(100, 0.01)
	closed.Close()
	for name, f := range map[string]*Filter{"zero": {}, "closed": closed} {
		if got := recovered(func() { f.Add([]byte("8 bytes.")) }); got != want {
			t.Errorf("%s Filter Add panicked with %v, want %v", name, got, want)
		}
		if _, err := f.MarshalBinary(); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s Filter MarshalBinary: %v", name, err)
		}
		if err := f.WriteFile(t.TempDir() + "/f"); !errors.Is(err, engine.ErrParam) {
			t.Errorf("%s Filter WriteFile: %v", name, err)
		}
	}
}
