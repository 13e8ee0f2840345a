package hadoop

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// benchKeys returns n distinct 16-byte keys.
func benchKeys(n int) [][]byte {
	keys := make([][]byte, n)
	buf := make([]byte, 16*n)
	for i := range keys {
		k := buf[16*i : 16*i+16 : 16*i+16]
		binary.LittleEndian.PutUint64(k, uint64(i)*0x9e3779b97f4a7c15)
		binary.LittleEndian.PutUint64(k[8:], uint64(i))
		keys[i] = k
	}
	return keys
}

// mixedProbe returns 4096 keys, alternately added (from keys[:n]) and
// absent (from keys[n:]).
func mixedProbe(keys [][]byte, n int) [][]byte {
	probe := make([][]byte, 4096)
	for i := range probe {
		probe[i] = keys[i/2*97%n+n*(i%2)]
	}
	return probe
}

// BenchmarkTestKeys compares a loop of Test with one TestKeys call over a
// BloomFilter of 10 bits per key (k = 7) holding half the probed keys.
func BenchmarkTestKeys(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		for _, h := range []HashType{Jenkins, Murmur} {
			f, err := NewBloomFilter(10*n, 7, h)
			if err != nil {
				b.Fatal(err)
			}
			keys := benchKeys(2 * n)
			for _, k := range keys[:n] {
				_ = f.Add(k)
			}
			probe := mixedProbe(keys, n)
			out := make([]bool, len(probe))
			name := fmt.Sprintf("n=%d/%v", n, h)
			b.Run(name+"/Test", func(b *testing.B) {
				for b.Loop() {
					for i, k := range probe {
						out[i] = f.Test(k)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/key")
			})
			b.Run(name+"/TestKeys", func(b *testing.B) {
				for b.Loop() {
					f.TestKeys(probe, out)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probe)), "ns/key")
			})
		}
	}
}
