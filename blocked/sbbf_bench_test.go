package blocked

import (
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
)

// sbbfBench builds an SBBF sized by SBBFNumBytes(n, 0.01) holding the
// INT64 values 0..n-1 and returns it with a probe stream of 2n distinct
// hashes, half members.
func sbbfBench(n int) (*SBBF, []uint64) {
	f, _ := NewSBBF(SBBFNumBytes(uint64(n), 0.01))
	probes := make([]uint64, 2*n)
	for i := range n {
		probes[2*i] = hashing.XXH64Uint64(uint64(i))
		probes[2*i+1] = hashing.XXH64Uint64(uint64(n + i))
		f.AddHash(probes[2*i])
	}
	return f, probes
}

func sbbfPerKey(b *testing.B, keys int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/key")
}

// BenchmarkSBBFTest streams 2n distinct hashes through the single-key
// TestHash and, per kernel level, the batch TestHashes.
func BenchmarkSBBFTest(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000, 10_000_000} {
		f, probes := sbbfBench(n)
		out := make([]bool, 4096)
		name := fmt.Sprintf("n=%d/bytes=%d", n, f.NumBytes())
		b.Run(name+"/TestHash", func(b *testing.B) {
			for b.Loop() {
				for i, h := range probes {
					out[i&4095] = f.TestHash(h)
				}
			}
			sbbfPerKey(b, len(probes))
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
				sbbfPerKey(b, len(probes))
			})
		}
	}
}

// BenchmarkSBBFAdd inserts 2n distinct hashes with AddHash and, per
// kernel level, AddHashes; and n INT64 values with AddUint64s (batch
// XXH64 included).
func BenchmarkSBBFAdd(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		f, probes := sbbfBench(n)
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
			sbbfPerKey(b, len(probes))
		})
		for _, l := range cpulevel.Available() {
			b.Run(name+"/AddHashes/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					f.AddHashes(probes)
				}
				sbbfPerKey(b, len(probes))
			})
			b.Run(name+"/AddUint64s/kernel="+l.String(), func(b *testing.B) {
				restore, _ := cpulevel.Use(l)
				defer restore()
				for b.Loop() {
					f.AddUint64s(ks)
				}
				sbbfPerKey(b, len(ks))
			})
		}
	}
}
