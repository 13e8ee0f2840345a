package classic

import (
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/modeltest"
)

// Every type's ModelFPR and the engine sizing New uses answer every input
// in bounded time, in [0, 1] and nondecreasing in n.
func TestModelRange(t *testing.T) {
	f, _ := NewMK(1, 1)
	g, _ := New(1000, 0.01)
	d, _ := NewDynamic(10, 0.01)
	r, _ := NewRetouched(1000, 0.01)
	rates := []modeltest.Rate{{Name: "NewMK(1, 1).ModelFPR", F: f.ModelFPR}, {Name: "Filter.ModelFPR", F: g.ModelFPR},
		{Name: "Dynamic.ModelFPR", F: d.ModelFPR}, {Name: "Retouched.ModelFPR", F: r.ModelFPR}}
	for _, m := range []uint64{0, 1, 64, math.MaxUint64} {
		for _, k := range []uint32{0, 1, 7, math.MaxUint32} {
			rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("engine.FPR(%d, n, %d)", m, k), F: func(n uint64) float64 { return engine.FPR(m, n, k) }})
		}
	}
	var calls []modeltest.Call
	for _, n := range []uint64{0, 1, 1000, math.MaxUint64} {
		for _, p := range []float64{math.SmallestNonzeroFloat64, 1e-20, 0.01, 1 - 1e-16} {
			calls = append(calls, modeltest.Call{Name: fmt.Sprintf("engine.OptimalBits(%d, %v)", n, p), F: func() error { _, err := engine.OptimalBits(n, p); return err }})
		}
	}
	modeltest.Run(t, rates, calls, func() error {
		_, err := New(1000, 0.01)
		return err
	})
}
