package leveldb

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMayMatch probes each format's filter of n random 16-byte keys
// at 10 bits per key with the members and as many non-members,
// alternating.
func BenchmarkMayMatch(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		rng := rand.New(rand.NewPCG(14, 20))
		keys, absent := randomKeys(rng, n), randomKeys(rng, n)
		probes := make([][]byte, 0, 2*n)
		for i := range keys {
			probes = append(probes, keys[i], absent[i])
		}
		for _, f := range formats {
			filter := f.mustAppend(b, nil, keys, 10)
			b.Run(fmt.Sprintf("%s/n=%d", f.name, n), func(b *testing.B) {
				hits := 0
				for b.Loop() {
					for _, key := range probes {
						if f.mayMatch(filter, key) {
							hits++
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probes)), "ns/key")
			})
		}
	}
}

// BenchmarkAppend builds each format's filter of n random 16-byte keys
// at 10 bits per key.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		keys := randomKeys(rand.New(rand.NewPCG(14, 21)), n)
		for _, f := range formats {
			var dst []byte
			b.Run(fmt.Sprintf("%s/n=%d", f.name, n), func(b *testing.B) {
				for b.Loop() {
					dst = f.mustAppend(b, dst[:0], keys, 10)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
			})
		}
	}
}
