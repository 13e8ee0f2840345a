package spatial

import (
	"fmt"
	"math"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/testkit/modeltest"
)

// ModelFPR of both layouts and every sizing answer every input in
// bounded time, ModelFPR in [0, 1] and nondecreasing in n: the
// line-local ModelFPR of NewMK(1, 64, 3) at n = 1e4 grew its occupancy
// table to 2n entries just below full (seconds; a large n never
// returned), and that of NewMK(1000, 64, 3) at 1e4 was above 1.
func TestModelRange(t *testing.T) {
	var rates []modeltest.Rate
	for _, k := range []uint32{1, 3, 64} {
		for _, areas := range []int{1, 3, 300} {
			for _, line := range []bool{false, true} {
				for _, m := range []uint64{1, 1000} {
					f, err := NewMK(m, k, areas, lineOption(line)...)
					if err != nil {
						t.Fatal(err)
					}
					rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("NewMK(%d, %d, %d, line-local %v).ModelFPR", m, k, areas, line), F: f.ModelFPR})
				}
			}
		}
		// Filters too large to allocate here, by their model.
		for _, c := range []uint64{32, 64, 128} {
			for _, lines := range []uint64{0, 1, 2, 1 << 20, MaxCells / c} {
				l := newLayout(max(lines, 1)*c, k, lines)
				rates = append(rates, modeltest.Rate{Name: fmt.Sprintf("full of %d lines of %d cells, k = %d", lines, c, k), F: l.full})
			}
		}
	}
	var calls []modeltest.Call
	for _, p := range []float64{math.SmallestNonzeroFloat64, 1e-20, 1e-9, 0.01, 0.5, 1 - 1e-16} {
		for _, n := range []uint64{0, 1, 1000, 1 << 40, math.MaxUint64} {
			calls = append(calls, modeltest.Call{Name: fmt.Sprintf("Size(%d, %v)", n, p), F: func() error { _, _, err := sizeFor(n, p); return err }})
			for _, areas := range []int{1, 3, MaxAreas} {
				calls = append(calls, modeltest.Call{Name: fmt.Sprintf("sizeForLineLocal(%d, %d, %v)", n, areas, p), F: func() error { _, _, err := sizeForLineLocal(n, areas, p); return err }})
			}
		}
		for _, counts := range [][]uint64{{0}, {1}, {1, 2, 3}, {math.MaxUint64}, {1 << 62, 1 << 62}, make([]uint64, MaxAreas)} {
			calls = append(calls,
				modeltest.Call{Name: fmt.Sprintf("sizeForAreas(%d areas, %v)", len(counts), p), F: func() error { _, _, err := sizeForAreas(counts, p); return err }},
				modeltest.Call{Name: fmt.Sprintf("sizeForAreasLineLocal(%d areas, %v)", len(counts), p), F: func() error { _, _, err := sizeForAreasLineLocal(counts, p); return err }})
		}
	}
	modeltest.Run(t, rates, calls, func() error {
		_, err := New(1000, 3, 0.01, WithLineLocal())
		return err
	})
}

func lineOption(line bool) []engine.Option {
	if line {
		return []engine.Option{WithLineLocal()}
	}
	return nil
}
