package shifting

import (
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/modeltest"
)

// fpr, fprSecondArray, the types' rates and sizeFor answer every input in
// bounded time, in [0, 1] and nondecreasing in n: fpr(1, 0, 6) and
// fprSecondArray(m, 1, 0, k) were NaN (0 keys times log(0)).
func TestModelRange(t *testing.T) {
	var rates []modeltest.Rate
	for _, m := range []uint64{0, 1, 2, 64, 1 << 20, math.MaxUint64} {
		for _, k := range []uint32{0, 1, 2, 6, 64, math.MaxUint32} {
			rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("FPR(%d, n, %d)", m, k), F: func(n uint64) float64 { return fpr(m, n, k) }})
			for _, m2 := range []uint64{0, 1, 1 << 20} {
				rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("fprSecondArray(%d, %d, n, %d)", m, m2, k),
					F: func(n uint64) float64 { return fprSecondArray(m, m2, n, k) }})
			}
		}
	}
	f, _ := New(1000, 0.01)
	a, _ := NewAssociation(1000, 0.01)
	x, _ := NewMultiplicity(1000, 0.01, 7)
	rates = append(rates, modeltest.Rate{Name: "Filter.ModelFPR", F: f.ModelFPR},
		modeltest.Rate{Name: "Association.CandidateFPR", F: a.CandidateFPR},
		modeltest.Rate{Name: "Multiplicity.OverReportRate", F: func(n uint64) float64 { return x.OverReportRate(n, 3) }})
	var calls []modeltest.Call
	for _, n := range []uint64{0, 1, 1000, math.MaxUint64} {
		for _, p := range []float64{math.SmallestNonzeroFloat64, 1e-20, 0.01, 1 - 1e-16} {
			for _, second := range []bool{false, true} {
				calls = append(calls, modeltest.Call{Name: fmt.Sprintf("Size(%d, %v, %v)", n, p, second), F: func() error { _, _, err := sizeFor(n, p, second); return err }})
			}
		}
		calls = append(calls, modeltest.Call{Name: fmt.Sprintf("Association.ClearRate(%d)", n), F: func() error { a.ClearRate(n); return nil }})
	}
	modeltest.Run(t, rates, calls, func() error {
		_, err := New(1000, 0.01)
		return err
	})
	for _, n := range modeltest.Ns {
		if r := a.ClearRate(n); !(r >= 0 && r <= 1) {
			t.Errorf("Association.ClearRate(%d) = %v", n, r)
		}
	}
}
