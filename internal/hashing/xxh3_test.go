package hashing

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestReduce(t *testing.T) {
	cases := []struct{ h, n, want uint64 }{
		{0, 10, 0},
		{math.MaxUint64, 10, 9},
		{1 << 63, 10, 5},
		{math.MaxUint64, 1<<33 + 1, 1 << 33},
		{1 << 63, math.MaxUint64, 1<<63 - 1},
	}
	for _, c := range cases {
		if got := Reduce(c.h, c.n); got != c.want {
			t.Errorf("Reduce(%#x, %d) = %d, want %d", c.h, c.n, got, c.want)
		}
	}
	// Uniform hashes fill the buckets evenly: a chi-square-free check that
	// no bucket of 16 is off by more than 5 sigma over 160000 draws.
	rng := rand.New(rand.NewPCG(5, 6))
	var count [16]int
	for range 160000 {
		count[Reduce(rng.Uint64(), 16)]++
	}
	for b, c := range count {
		if math.Abs(float64(c)-10000) > 5*math.Sqrt(10000) {
			t.Errorf("bucket %d got %d of an expected 10000", b, c)
		}
	}
}
