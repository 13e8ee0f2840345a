package counting

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
)

// benchSizes are the filter sizes of the speed targets, at p = 1%.
var benchSizes = []uint64{1e6, 1e7}

// benchRing is how many distinct hashes a benchmark cycles through; half
// were added (even indices), half were not.
const benchRing = 1 << 20

var benchFilters sync.Map // n -> *benchFixture

type benchFixture struct {
	f  *Filter
	hs []uint64 // hs[i] added iff i is even
}

// fixture returns a filter of n keys at p = 1% (all even ring hashes and
// n - benchRing/2 others) and the ring of hashes,
// built once per size and shared by the benchmarks (which leave it as
// they found it).
func fixture(b *testing.B, n uint64) *benchFixture {
	if v, ok := benchFilters.Load(n); ok {
		return v.(*benchFixture)
	}
	f, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	fx := &benchFixture{f: f, hs: make([]uint64, benchRing)}
	for i := range fx.hs {
		fx.hs[i] = engine.HashUint64(uint64(i))
	}
	for i := 0; i < benchRing; i += 2 {
		f.AddHash(fx.hs[i])
	}
	for i := uint64(benchRing / 2); i < n; i++ {
		f.AddHash(engine.HashUint64(benchRing + i))
	}
	benchFilters.Store(n, fx)
	return fx
}

func perKey(b *testing.B, keys int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
}

func sizeName(n uint64) string { return fmt.Sprintf("n=%.0e", float64(n)) }

// BenchmarkTestHashes: the batch kernel on 1024 hashes per call, per
// kernel level.
func BenchmarkTestHashes(b *testing.B) {
	const batch = 1024
	for _, n := range benchSizes {
		for _, l := range cpulevel.Available() {
			b.Run(sizeName(n)+"/kernel="+l.String(), func(b *testing.B) {
				fx := fixture(b, n)
				restore, err := cpulevel.Use(l)
				if err != nil {
					b.Fatal(err)
				}
				defer restore()
				out := make([]bool, batch)
				b.ResetTimer()
				for i := range b.N {
					off := (i * batch) % benchRing
					fx.f.TestHashes(fx.hs[off:off+batch], out)
				}
				perKey(b, b.N*batch)
			})
		}
	}
}

// BenchmarkAddParallel: BenchmarkAddHash from GOMAXPROCS goroutines,
// through AddHashConcurrent; throughput on 2 cores over one is
// BenchmarkAddHash's ns/key over this.
func BenchmarkAddParallel(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) { addFresh(b, n, true, 1) })
	}
}

// BenchmarkAddUint64sParallel: BenchmarkAddUint64s from GOMAXPROCS
// goroutines, through AddUint64sConcurrent.
func BenchmarkAddUint64sParallel(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) { addFresh(b, n, true, 1024) })
	}
}

// BenchmarkAddUint64s: the batch Add of 1024 fresh 8-byte keys per call
// (hashing included) on one goroutine.
func BenchmarkAddUint64s(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) { addFresh(b, n, false, 1024) })
	}
}

// freshKeys hands every goroutine of a benchmark its own range of keys
// never added to any fixture.
var freshKeys atomic.Uint64

// addFresh adds keys never seen before, batch at a time (batch 1:
// AddHash of engine.HashUint64, else AddUint64s; their *Concurrent forms
// when parallel), to a private copy of the n-key fixture, on one
// goroutine or GOMAXPROCS. Fresh keys keep
// counters from saturating as a run repeats keys (a saturated counter
// skips its CAS, which would make the parallel form look faster than it
// is); the filter grows by b.N keys, as it would in use.
func addFresh(b *testing.B, n uint64, parallel bool, batch int) {
	fx := fixture(b, n)
	f, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	copy(f.words, fx.f.words)
	work := func(next func() bool) {
		k := freshKeys.Add(1<<40) + 1<<50
		ks := make([]uint64, batch)
		for next() {
			switch {
			case batch == 1 && parallel:
				f.AddHashConcurrent(engine.HashUint64(k))
			case batch == 1:
				f.AddHash(engine.HashUint64(k))
			default:
				for i := range ks {
					ks[i] = k + uint64(i)
				}
				if parallel {
					f.AddUint64sConcurrent(ks)
				} else {
					f.AddUint64s(ks)
				}
			}
			k += uint64(batch)
		}
	}
	b.ResetTimer()
	if parallel {
		b.RunParallel(func(pb *testing.PB) { work(pb.Next) })
	} else {
		i := 0
		work(func() bool { i++; return i <= b.N })
	}
	perKey(b, b.N*batch)
}

// BenchmarkTestParallel: TestHash from GOMAXPROCS goroutines.
func BenchmarkTestParallel(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			fx := fixture(b, n)
			var next atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := int(next.Add(1)) * 104729
				for pb.Next() {
					fx.f.TestHash(fx.hs[i%benchRing])
					i++
				}
			})
			perKey(b, b.N)
		})
	}
}

// BenchmarkRemoveAddParallel: pairs of RemoveHashConcurrent and
// AddHashConcurrent of present ring keys from GOMAXPROCS goroutines (re-adding keeps every key
// present however long the run); ns/pair, compare BenchmarkRemoveAdd.
func BenchmarkRemoveAddParallel(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			fx := fixture(b, n)
			var next atomic.Uint64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				i := int(next.Add(1)) * 104729
				for pb.Next() {
					h := fx.hs[(2*i)%benchRing]
					fx.f.RemoveHashConcurrent(h)
					fx.f.AddHashConcurrent(h)
					i++
				}
			})
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/pair")
		})
	}
}

// BenchmarkRemoveAdd: BenchmarkRemoveAddParallel on one goroutine.
func BenchmarkRemoveAdd(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			fx := fixture(b, n)
			b.ResetTimer()
			for i := range b.N {
				h := fx.hs[(2*i)%benchRing]
				fx.f.RemoveHash(h)
				fx.f.AddHash(h)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/pair")
		})
	}
}

// BenchmarkAddHashes: the batch Add on 1024 absent hashes per call (undone
// outside the timer in passes).
func BenchmarkAddHashes(b *testing.B) {
	const batch = 1024
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			fx := fixture(b, n)
			odd := make([]uint64, 0, benchRing/2)
			for j := 1; j < benchRing; j += 2 {
				odd = append(odd, fx.hs[j])
			}
			out := make([]bool, batch)
			b.ResetTimer()
			for i := range b.N {
				off := (i * batch) % len(odd)
				fx.f.AddHashes(odd[off : off+batch])
				if off+2*batch > len(odd) || i == b.N-1 {
					b.StopTimer()
					for r := 0; r <= off; r += batch {
						fx.f.RemoveHashes(odd[r:r+batch], out)
					}
					b.StartTimer()
				}
			}
			perKey(b, b.N*batch)
		})
	}
}

// BenchmarkAddHash: single-key AddHash of fresh keys (engine.HashUint64
// included) on one goroutine, the baseline of BenchmarkAddParallel.
func BenchmarkAddHash(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) { addFresh(b, n, false, 1) })
	}
}

// BenchmarkTestHash: single-key TestHash of ring hashes (half present) on
// one goroutine, the baseline of BenchmarkTestParallel.
func BenchmarkTestHash(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(sizeName(n), func(b *testing.B) {
			fx := fixture(b, n)
			b.ResetTimer()
			for i := range b.N {
				fx.f.TestHash(fx.hs[i%benchRing])
			}
			perKey(b, b.N)
		})
	}
}
