package blocked

import (
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/modeltest"
)

// extremeMs and extremeKs are the sizes and probe counts the model range
// tests take: none, one, the smallest valid, ordinary ones and the
// largest of their types.
var (
	extremeMs = []uint64{0, 1, 64, 128, 512, 1 << 20, 1 << 48, math.MaxUint64}
	extremeKs = []uint32{0, 1, 6, 16, 64, math.MaxUint32}
	extremePs = []float64{math.SmallestNonzeroFloat64, 1e-300, 1e-20, 1e-9, 0.01, 0.5, 0.9999999, 1 - 1e-16}
)

// FPR, NarrowFPR, every type's ModelFPR and the sizings answer every
// input in bounded time, in [0, 1], nondecreasing in n; none holds a
// lock that keeps a constructor waiting. FPR(512, n, 16) fell from 1 at
// n = 1e5 to 0.99999999932 at 1e6, NarrowFPR(512, 1000, 64, 64) was
// above 1, NarrowFPR(128, 1<<63, 1, 128) panicked with a negative index,
// and NarrowFPR at n = 2^62 grew its table one entry at a time, for
// ever, under the table's lock, so NewNarrow never returned after it.
func TestModelRange(t *testing.T) {
	var rates []modeltest.Rate
	var calls []modeltest.Call
	for _, m := range extremeMs {
		for _, k := range extremeKs {
			rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("FPR(%d, n, %d)", m, k), F: func(n uint64) float64 { return FPR(m, n, k) }})
			for _, bb := range []int{64, 128, 100} {
				rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("NarrowFPR(%d, n, %d, %d)", m, k, bb), F: func(n uint64) float64 { return NarrowFPR(m, n, k, bb) }})
			}
		}
	}
	for _, p := range extremePs {
		calls = append(calls, modeltest.Call{Name: fmt.Sprintf("BitsPerKeyAndK(%v)", p), F: func() error { _, _, err := BitsPerKeyAndK(p); return err }})
		for _, bb := range []int{64, 128} {
			calls = append(calls, modeltest.Call{Name: fmt.Sprintf("NarrowBitsPerKeyAndK(%v, %d)", p, bb), F: func() error { _, _, err := NarrowBitsPerKeyAndK(p, bb); return err }})
		}
		for _, n := range []uint64{1, 1000} { // larger n would allocate
			calls = append(calls, modeltest.Call{Name: fmt.Sprintf("NewNarrow(%d, %v, 128)", n, p), F: func() error { _, err := NewNarrow(n, p, 128); return err }})
		}
	}
	for _, n := range []uint64{1 << 62, 1 << 63} {
		calls = append(calls, modeltest.Call{Name: fmt.Sprintf("NarrowFPR(128, %d, 6, 128)", n), F: func() error { NarrowFPR(128, n, 6, 128); return nil }})
	}
	f, _ := NewMK(512, 16)
	nf, _ := NewNarrowMK(128, 1, 128)
	w, _ := NewWindow(10, 0.5, 64)
	s, _ := NewScalable(1, 0.5)
	rates = append(rates,
		modeltest.Rate{Name: "Filter.ModelFPR", F: f.ModelFPR}, modeltest.Rate{Name: "Narrow.ModelFPR", F: nf.ModelFPR},
		modeltest.Rate{Name: "Window.ModelFPR", F: w.ModelFPR}, modeltest.Rate{Name: "Scalable.ModelFPR", F: s.ModelFPR})
	modeltest.Run(t, rates, calls, func() error {
		_, err := NewNarrow(1000, 0.0321, 128)
		return err
	})
}
