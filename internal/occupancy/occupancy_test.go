package occupancy

import (
	"math/rand/v2"
	"testing"

	"github.com/filterengine/filterengine/internal/testkit/fprstat"
)

// The exact occupancy model against a direct
// simulation of one block: a foreign key's chance that all k probes land
// on bits set by i keys' i*k probes.
func TestTableAgainstSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ b, k, i int }{{128, 6, 12}, {64, 5, 5}, {128, 8, 7}} {
		o := Of(c.b, c.k)
		const trials = 400000
		hits := 0
		for range trials {
			var set [2]uint64
			for range c.i * c.k {
				q := r.IntN(c.b)
				set[q>>6] |= 1 << (q & 63)
			}
			all := true
			for range c.k {
				q := r.IntN(c.b)
				all = all && set[q>>6]>>(q&63)&1 == 1
			}
			if all {
				hits++
			}
		}
		model := o.At(float64(c.i))
		lo, hi := fprstat.BinomialBounds(trials, model, fprstat.Z999)
		if float64(hits) < lo || float64(hits) > hi {
			t.Errorf("%+v: %d hits in %d, model %.5f allows [%.0f, %.0f]", c, hits, trials, model, lo, hi)
		}
	}
}

// At answers every load, 0 to the largest float, in bounded time, in
// [0, 1] and nondecreasing, 1 from saturation on.
func TestAtRange(t *testing.T) {
	for _, b := range []int{32, 64, 128} {
		for _, k := range []int{1, 6, 64} {
			tab := Of(b, k)
			prev := 0.0
			for _, keys := range []float64{0, 1, 2, 10, 100, 1000, 5120, 1 << 20, 1 << 62, 1 << 63, 1e300} {
				r := tab.At(keys)
				if !(r >= prev && r <= 1) {
					t.Fatalf("b = %d, k = %d: At(%g) = %v after %v", b, k, keys, r, prev)
				}
				if Saturated(keys, b, k) && r != 1 {
					t.Fatalf("b = %d, k = %d: saturated At(%g) = %v", b, k, keys, r)
				}
				prev = r
			}
			if n := len(*tab.rate.Load()); n > SaturatedProbes*b/k+1 {
				t.Errorf("b = %d, k = %d: table of %d entries", b, k, n)
			}
		}
	}
}
