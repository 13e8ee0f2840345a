package filters

import (
	"fmt"
	"testing"
	"time"

	"github.com/FastFilter/xorfilter"
	bloom "github.com/bits-and-blooms/bloom/v3"

	"github.com/filterengine/filterengine/blocked"
	"github.com/filterengine/filterengine/classic"
	"github.com/filterengine/filterengine/engine"
	"github.com/filterengine/filterengine/internal/perkey"
	"github.com/filterengine/filterengine/shifting"
)

// side is one filter's per-key operation over keys [lo, hi), returning
// its hits, and the untimed reset before every pass after the first (an
// Add starts over on an empty filter).
type side struct {
	name  string
	run   func(lo, hi int) int
	reset func()
}

// paired times two filters' per-key calls in one process, alternating
// chunks of perkey.Chunk keys (the order flips every step), so both see
// the same machine load; it reports each side's ns/key and a/b.
func paired(b *testing.B, n int, a, c side) {
	var ta, tc time.Duration
	keys, lo, sink := 0, 0, 0
	step := func(s side, lo, hi int) time.Duration {
		t0 := time.Now()
		sink += s.run(lo, hi)
		return time.Since(t0)
	}
	for i := 0; b.Loop(); i++ {
		if lo >= n {
			lo = 0
			for _, s := range []side{a, c} {
				if s.reset != nil {
					s.reset()
				}
			}
		}
		hi := min(lo+perkey.Chunk, n)
		if i%2 == 0 {
			ta += step(a, lo, hi)
			tc += step(c, lo, hi)
		} else {
			tc += step(c, lo, hi)
			ta += step(a, lo, hi)
		}
		keys += hi - lo
		lo = hi
	}
	na, nc := float64(ta.Nanoseconds())/float64(keys), float64(tc.Nanoseconds())/float64(keys)
	b.ReportMetric(na, a.name+"-ns/key")
	b.ReportMetric(nc, c.name+"-ns/key")
	b.ReportMetric(na/nc, "ratio")
	b.ReportMetric(0, "ns/op")
	if sink < 0 {
		b.Log(sink)
	}
}

// BenchmarkPerKeyVs measures the per-key targets, each pair of
// filters side by side in one process: n distinct 8-byte []byte keys
// (n = 1e6, 1e7), filters sized for n at p = 1%, hashing included, one
// call per key. ratio is the first filter's ns/key over the second's.
//
//	flock /tmp/fe-bench.lock go test -run '^$' -bench PerKeyVs -count 3 ./filters
func BenchmarkPerKeyVs(b *testing.B) {
	const p = 0.01
	for _, n := range perkey.Sizes {
		members, absent := perkey.New(0, n), perkey.Absent(n)
		bl, _ := blocked.New(uint64(n), p)
		cl, _ := classic.New(uint64(n), p)
		sh, _ := shifting.New(uint64(n), p)
		bv := bloom.NewWithEstimates(uint(n), p)
		hs := make([]uint64, n)
		for i := range n {
			key := members.At(i)
			bl.Add(key)
			cl.Add(key)
			sh.Add(key)
			bv.Add(key)
			hs[i] = engine.Hash(key)
		}
		fuse, err := xorfilter.PopulateBinaryFuse8(hs)
		if err != nil {
			b.Fatal(err)
		}
		blAdd, clAdd := must(blocked.New(uint64(n), p)), must(classic.New(uint64(n), p))

		test := func(name string, keys *perkey.Keys, f func([]byte) bool) side {
			return side{name: name, run: func(lo, hi int) int {
				h := 0
				for i := lo; i < hi; i++ {
					if f(keys.At(i)) {
						h++
					}
				}
				return h
			}}
		}
		// The closures above cost one indirect call per key on both sides
		// alike; the sides below call the methods directly.
		blockedTest := func(keys *perkey.Keys) side {
			return side{name: "blocked", run: func(lo, hi int) int {
				h := 0
				for i := lo; i < hi; i++ {
					if bl.Test(keys.At(i)) {
						h++
					}
				}
				return h
			}}
		}
		classicTest := func(keys *perkey.Keys) side {
			return side{name: "classic", run: func(lo, hi int) int {
				h := 0
				for i := lo; i < hi; i++ {
					if cl.Test(keys.At(i)) {
						h++
					}
				}
				return h
			}}
		}
		shiftingTest := side{name: "shifting", run: func(lo, hi int) int {
			h := 0
			for i := lo; i < hi; i++ {
				if sh.Test(members.At(i)) {
					h++
				}
			}
			return h
		}}
		fuseTest := side{name: "binaryfuse8", run: func(lo, hi int) int {
			h := 0
			for i := lo; i < hi; i++ {
				if fuse.Contains(engine.Hash(members.At(i))) {
					h++
				}
			}
			return h
		}}
		blockedAdd := side{name: "blocked", run: func(lo, hi int) int {
			for i := lo; i < hi; i++ {
				blAdd.Add(members.At(i))
			}
			return 0
		}, reset: blAdd.Reset}
		classicAdd := side{name: "classic", run: func(lo, hi int) int {
			for i := lo; i < hi; i++ {
				clAdd.Add(members.At(i))
			}
			return 0
		}, reset: func() { clAdd = must(classic.New(uint64(n), p)) }}
		for _, pair := range []struct {
			name string
			a, b side
		}{
			{"blocked-Test/binaryfuse8-Contains", blockedTest(members), fuseTest},
			{"blocked-Test/classic-Test", blockedTest(members), classicTest(members)},
			{"blocked-TestAbsent/classic-TestAbsent", blockedTest(absent), classicTest(absent)},
			{"blocked-Add/classic-Add", blockedAdd, classicAdd},
			{"classic-Test/bloomv3-Test", classicTest(members), test("bloomv3", members, bv.Test)},
			{"classic-TestAbsent/bloomv3-TestAbsent", classicTest(absent), test("bloomv3", absent, bv.Test)},
			{"shifting-Test/classic-Test", shiftingTest, classicTest(members)},
		} {
			b.Run(fmt.Sprintf("%s/%s", perkey.Name(n), pair.name), func(b *testing.B) {
				paired(b, n, pair.a, pair.b)
			})
		}
	}
}

func must[F any](f F, err error) F {
	if err != nil {
		panic(err)
	}
	return f
}
