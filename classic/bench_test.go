package classic

import (
	"fmt"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// batchSize is the keys per batch call in the benchmarks: large enough
// that per-call overhead vanishes, small enough to stay in L1/L2 itself.
const batchSize = 1024

func reportNsPerKey(b *testing.B, keys int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
}

// BenchmarkClassic measures the batch AddUint64s and TestUint64s (hashing
// included; members and non-members) in ns/key at p = 1%, at each kernel
// level the CPU has. BenchmarkPerKey times the single-key calls and
// TestHashes.
//
//	go test -run '^$' -bench Classic -count 6 ./classic
func BenchmarkClassic(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		f, err := New(uint64(n), 0.01)
		if err != nil {
			b.Fatal(err)
		}
		ks, absent := members(n), nonMembers(n)
		f.AddUint64s(ks)
		hs := make([]uint64, n)
		asm.HashUint64s(hs, ks, 0)
		out := make([]bool, batchSize)
		for _, l := range cpulevel.Available() {
			restore, _ := cpulevel.Use(l)
			b.Run(fmt.Sprintf("n=%d/kernel=%v/AddUint64s", n, l), func(b *testing.B) {
				g, _ := New(uint64(n), 0.01)
				keys := 0
				for i := 0; b.Loop(); i++ {
					off := (i * batchSize) % (n - batchSize)
					g.AddUint64s(ks[off : off+batchSize])
					keys += batchSize
				}
				reportNsPerKey(b, keys)
			})
			for _, set := range []struct {
				name string
				keys []uint64
			}{{"member", ks}, {"nonmember", absent}} {
				b.Run(fmt.Sprintf("n=%d/kernel=%v/TestUint64s/%s", n, l, set.name), func(b *testing.B) {
					keys := 0
					for i := 0; b.Loop(); i++ {
						off := (i * batchSize) % (n - batchSize)
						f.TestUint64s(set.keys[off:off+batchSize], out)
						keys += batchSize
					}
					reportNsPerKey(b, keys)
				})
			}
			restore()
		}
		f.Close()
	}
}

// BenchmarkHashUint64 is the scalar XXH3 of one 8-byte key, the floor under
// every single-key method.
func BenchmarkHashUint64(b *testing.B) {
	var s uint64
	for i := 0; b.Loop(); i++ {
		s += engine.HashUint64(uint64(i))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/key")
	_ = s
}
