package blocked

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/cpulevel"
	"github.com/filterengine/filterengine/internal/hashing"
	"github.com/filterengine/filterengine/internal/store"
)

const benchBatch = 4096

// eachLevel runs f as a sub-benchmark per kernel level.
func eachLevel(b *testing.B, f func(b *testing.B)) {
	for _, l := range cpulevel.Available() {
		b.Run("kernel="+l.String(), func(b *testing.B) {
			restore, err := cpulevel.Use(l)
			if err != nil {
				b.Fatal(err)
			}
			defer restore()
			f(b)
		})
	}
}

func reportPerKey(b *testing.B, keysPerOp int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keysPerOp), "ns/key")
}

// benchFilter returns a filter for n keys at p holding n random keys, and
// a batch of keys half of which were added.
func benchFilter(b *testing.B, n uint64, p float64) (*Filter, []uint64) {
	f, err := New(n, p)
	if err != nil {
		b.Fatal(err)
	}
	added := randomKeys(1, int(n))
	f.AddUint64s(added)
	batch := randomKeys(2, benchBatch)
	copy(batch[:benchBatch/2], added)
	return f, batch
}

// TestUint64s at n = 1e6, p = 1%: hashing included.
func BenchmarkTestUint64s(b *testing.B) {
	f, ks := benchFilter(b, 1e6, 0.01)
	out := make([]bool, len(ks))
	eachLevel(b, func(b *testing.B) {
		for b.Loop() {
			f.TestUint64s(ks, out)
		}
		reportPerKey(b, len(ks))
	})
}

// TestHashes at n = 1e6, p = 1%: pre-hashed keys.
func BenchmarkTestHashes(b *testing.B) {
	f, ks := benchFilter(b, 1e6, 0.01)
	hs := make([]uint64, len(ks))
	asm.HashUint64s(hs, ks, 0)
	out := make([]bool, len(ks))
	eachLevel(b, func(b *testing.B) {
		for b.Loop() {
			f.TestHashes(hs, out)
		}
		reportPerKey(b, len(hs))
	})
}

// AddUint64s into a filter for 1e6 keys at p = 1% (1.2 MiB, in cache).
func BenchmarkAddUint64s(b *testing.B) {
	f, err := New(1e6, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	ks := randomKeys(3, benchBatch)
	eachLevel(b, func(b *testing.B) {
		for b.Loop() {
			f.AddUint64s(ks)
		}
		reportPerKey(b, len(ks))
	})
}

func BenchmarkAddHashConcurrent(b *testing.B) {
	f, _ := New(1e6, 0.01)
	hs := randomKeys(4, benchBatch)
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			f.AddHashConcurrent(hs[i%len(hs)])
			i++
		}
	})
	reportPerKey(b, 1)
}

// large reports whether the -test.bench pattern names the Large
// benchmarks: building a 1e8-key filter takes seconds and 120 MiB, so a
// plain -bench . skips them.
func large(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || !strings.Contains(f.Value.String(), "Large") {
		b.Skip("select with -bench Large")
	}
}

// BenchmarkLarge compares, in one run, the batch test of a filter of 1e8
// keys at p = 1% (120 MiB, huge pages) with the yardstick: random
// independent 8-byte loads over an array of the same size in the same
// kind of memory.
func BenchmarkLarge(b *testing.B) {
	large(b)
	const n = 1e8
	f, err := New(n, 0.01)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	const chunk = 1 << 20
	for i := uint64(0); i < n; i += chunk {
		ks := make([]uint64, chunk)
		for j := range ks {
			ks[j] = i + uint64(j)
		}
		f.AddUint64s(ks)
	}
	// Probe keys rotate through 4M keys (covering every line of the filter
	// several times over) in windows of 64K per operation, so neither the
	// filter nor the yardstick gets a cache-sized working set.
	const probes, window = 1 << 22, 1 << 16
	ks := randomKeys(9, probes)
	hs := make([]uint64, len(ks))
	asm.HashUint64s(hs, ks, 0)
	out := make([]bool, window)
	next := 0
	win := func() (lo, hi int) {
		lo = next
		next = (next + window) % probes
		return lo, lo + window
	}
	yard, err := store.NewStorage(f.SizeBytes()/8, engine.HugePagesAuto)
	if err != nil {
		b.Fatal(err)
	}
	defer yard.Close()
	words := yard.Words()
	for i := range words {
		words[i] = uint64(i)
	}
	b.Logf("filter %d MiB (huge pages %v), yardstick array huge pages %v", f.SizeBytes()>>20, f.HugePages(), yard.HugePages())

	b.Run("yardstick=randomload", func(b *testing.B) {
		var sum uint64
		nw := uint64(len(words))
		for b.Loop() {
			lo, hi := win()
			for _, h := range hs[lo:hi] {
				sum += words[hashing.Reduce(h, nw)]
			}
		}
		reportPerKey(b, window)
		runtime.KeepAlive(sum)
	})
	for _, op := range []struct {
		name string
		run  func()
	}{
		{"TestHashes", func() { lo, hi := win(); f.TestHashes(hs[lo:hi], out) }},
		{"TestUint64s", func() { lo, hi := win(); f.TestUint64s(ks[lo:hi], out) }},
	} {
		b.Run(op.name, func(b *testing.B) {
			eachLevel(b, func(b *testing.B) {
				for b.Loop() {
					op.run()
				}
				reportPerKey(b, window)
			})
		})
	}
	b.Run("TestHash/scalar", func(b *testing.B) {
		hits := 0
		for b.Loop() {
			lo, hi := win()
			for _, h := range hs[lo:hi] {
				if f.TestHash(h) {
					hits++
				}
			}
		}
		reportPerKey(b, window)
		runtime.KeepAlive(hits)
	})
}

// Narrow at n = 1e6, p = 1%, streaming over 1e6 distinct keys (half of
// them added) in batches of benchBatch: the batch forms and, labelled
// perkey, the single-key call over the same keys.
func BenchmarkNarrow(b *testing.B) {
	for _, bb := range []int{64, 128} {
		f, err := NewNarrow(1e6, 0.01, bb)
		if err != nil {
			b.Fatal(err)
		}
		ks := randomKeys(2, 1e6)
		f.AddUint64s(ks[:len(ks)/2])
		out := make([]bool, benchBatch)
		next := func(i *int) []uint64 {
			if *i+benchBatch > len(ks) {
				*i = 0
			}
			*i += benchBatch
			return ks[*i-benchBatch : *i]
		}
		b.Run(fmt.Sprintf("block=%d", bb), func(b *testing.B) {
			eachLevel(b, func(b *testing.B) {
				b.Run("TestUint64s", func(b *testing.B) {
					i := 0
					for b.Loop() {
						f.TestUint64s(next(&i), out)
					}
					reportPerKey(b, benchBatch)
				})
				b.Run("perkey=TestUint64", func(b *testing.B) {
					i, hits := 0, 0
					for b.Loop() {
						for _, k := range next(&i) {
							hits += int(b2u(f.TestUint64(k)))
						}
					}
					reportPerKey(b, benchBatch)
					runtime.KeepAlive(hits)
				})
				b.Run("AddUint64s", func(b *testing.B) {
					i := 0
					for b.Loop() {
						f.AddUint64s(next(&i)[:benchBatch/2])
					}
					reportPerKey(b, benchBatch/2)
				})
			})
		})
	}
}
