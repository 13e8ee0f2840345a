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

// paired times two filters' per-key calls in one process: each side in
// turn streams a whole pass over the n keys, chunk by chunk (perkey.Chunk
// keys per timed step), so a side runs with its own filter in the caches
// as a service's single filter would, and both sides see the same machine
// load over the run. It reports each side's ns/key and a/b.
func paired(b *testing.B, n int, a, c side) {
	sides := []side{a, c}
	var spent [2]time.Duration
	var keys [2]int
	cur, lo, sink := 0, 0, 0
	for b.Loop() {
		if lo >= n {
			lo = 0
			if s := sides[cur]; s.reset != nil {
				s.reset()
			}
			cur = 1 - cur
		}
		hi := min(lo+perkey.Chunk, n)
		t0 := time.Now()
		sink += sides[cur].run(lo, hi)
		spent[cur] += time.Since(t0)
		keys[cur] += hi - lo
		lo = hi
	}
	if keys[0] == 0 || keys[1] == 0 {
		b.Fatalf("benchtime too short for a pass of each side over %d keys", n)
	}
	na := float64(spent[0].Nanoseconds()) / float64(keys[0])
	nc := float64(spent[1].Nanoseconds()) / float64(keys[1])
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
// Each side needs whole passes, so give it time:
//
//	flock /tmp/fe-bench.lock go test -run '^$' -bench PerKeyVs -benchtime 4s -count 3 ./filters
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
