package counting

import (
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/modeltest"
)

// ModelFPR, the package's and a filter's, and the sizing answer every
// input in bounded time, in [0, 1], nondecreasing in n, and leave no lock
// held: NewMK(128, 6).ModelFPR(1<<62) never returned (i*k overflowed in
// the occupancy table, which then grew one entry at a time under its
// lock), and New(1000, 0.0123) never returned after it.
func TestModelRange(t *testing.T) {
	var rates []modeltest.Rate
	for _, lines := range []uint64{0, 1, 2, 1 << 20, 1 << 44, math.MaxUint64} {
		for _, k := range []uint32{0, 1, 6, 16, 64, math.MaxUint32} {
			for _, bits := range []int{4, 8, 5} {
				rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("ModelFPR(n, %d, %d, %d)", lines, k, bits),
					F: func(n uint64) float64 { return modelFPR(n, lines, k, bits) }})
			}
		}
	}
	small, _ := NewMK(128, 6)
	big, _ := New(1e6, 0.01)
	rates = append(rates, modeltest.Rate{Name: "NewMK(128, 6).ModelFPR", F: small.ModelFPR},
		modeltest.Rate{Name: "New(1e6, 0.01).ModelFPR", F: big.ModelFPR})
	var calls []modeltest.Call
	for _, p := range []float64{math.SmallestNonzeroFloat64, 1e-20, 0.0123, 0.5, 1 - 1e-16} {
		for _, bits := range []int{4, 8} {
			calls = append(calls, modeltest.Call{Name: fmt.Sprintf("size(%v, %d-bit)", p, bits), F: func() error {
				_, _, err := size(math.MaxUint64, p, bits == 8)
				return err
			}})
		}
	}
	calls = append(calls, modeltest.Call{Name: "NewMK(128, 6).ModelFPR(1<<62)", F: func() error { small.ModelFPR(1 << 62); return nil }})
	modeltest.Run(t, rates, calls, func() error {
		_, err := New(1000, 0.0123)
		return err
	})
}
