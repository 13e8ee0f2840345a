package parquet

import (
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// benchFilter builds a Filter sized by OptimalNumBytes(n, 0.01) holding the
// INT64 values 0..n-1 and returns it with a probe stream of 2n distinct
// hashes, half members.
func benchFilter(n int) (*Filter, []uint64) {
	f, _ := New(OptimalNumBytes(uint64(n), 0.01))
	probes := make([]uint64, 2*n)
	for i := range n {
		probes[2*i] = hashing.XXH64Uint64(uint64(i))
		probes[2*i+1] = hashing.XXH64Uint64(uint64(n + i))
		f.AddHash(probes[2*i])
	}
	return f, probes
}

func perKey(b *testing.B, keys int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/key")
}

// BenchmarkTest streams 2n distinct hashes through the single-key
// TestHash and, per kernel level, the batch TestHashes.
func BenchmarkTest(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 10_000_000} {
		f, probes := benchFilter(n)
		out := make([]bool, 4096)
		name := fmt.Sprintf("n=%d/bytes=%d", n, f.NumBytes())
		b.Run(name+"/TestHash", func(b *testing.B) {
			for b.Loop() {
				for i, h := range probes {
					out[i&4095] = f.TestHash(h)
				}
			}
			perKey(b, len(probes))
		})
		for _, l := range cpulevel.Available() {
			b.Run(name+"/TestHashes/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					for i := 0; i < len(probes); i += len(out) {
						f.TestHashes(probes[i:min(i+len(out), len(probes))], out)
					}
				}
				perKey(b, len(probes))
			})
		}
	}
}

// BenchmarkAdd inserts 2n distinct hashes with AddHash and, per
// kernel level, AddHashes; and n INT64 values with AddUint64s (batch
// XXH64 included).
func BenchmarkAdd(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		f, probes := benchFilter(n)
		ks := make([]uint64, n)
		for i := range ks {
			ks[i] = uint64(i)
		}
		name := fmt.Sprintf("n=%d/bytes=%d", n, f.NumBytes())
		b.Run(name+"/AddHash", func(b *testing.B) {
			for b.Loop() {
				for _, h := range probes {
					f.AddHash(h)
				}
			}
			perKey(b, len(probes))
		})
		for _, l := range cpulevel.Available() {
			b.Run(name+"/AddHashes/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					f.AddHashes(probes)
				}
				perKey(b, len(probes))
			})
			b.Run(name+"/AddUint64s/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					f.AddUint64s(ks)
				}
				perKey(b, len(ks))
			})
		}
	}
}
