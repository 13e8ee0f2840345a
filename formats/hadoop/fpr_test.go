package hadoop

import (
	"math"
	"testing"
)

// The measured false-positive rate on 1e6 absent keys stays within five
// standard deviations (plus 2% of the model for its approximation) of
// (1 - e^(-kn/m))^k. The keys are fixed, so the outcome is too.
func TestFalsePositiveRate(t *testing.T) {
	if testing.Short() {
		t.Skip("1e6 probes")
	}
	const n, absent = 100_000, 1_000_000
	keys := benchKeys(n + absent)
	for _, c := range []struct {
		bitsPerKey, k int
		h             HashType
	}{{10, 7, Murmur}, {10, 7, Jenkins}, {8, 5, Murmur}, {8, 5, Jenkins}} {
		m := c.bitsPerKey * n
		f, err := NewBloomFilter(m, c.k, c.h)
		if err != nil {
			t.Fatal(err)
		}
		addAll(t, f.Add, keys[:n])
		out := make([]bool, absent)
		fp := f.TestKeys(keys[n:], out)
		rate := float64(fp) / absent
		model := math.Pow(1-math.Exp(-float64(c.k*n)/float64(m)), float64(c.k))
		bound := 5*math.Sqrt(model*(1-model)/absent) + 0.02*model
		t.Logf("%v, %d bits/key, k=%d: FPR %.4f%%, model %.4f%%", c.h, c.bitsPerKey, c.k, 100*rate, 100*model)
		if math.Abs(rate-model) > bound {
			t.Errorf("%v, %d bits/key, k=%d: FPR %.4f%%, model %.4f%% +- %.4f%%", c.h, c.bitsPerKey, c.k,
				100*rate, 100*model, 100*bound)
		}
	}
}
