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
	"github.com/filterengine/filterengine/internal/testkit/perkey"
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
		for _, pair := range []struct {
			name string
			a, b side
		}{
			{"blocked-Test/binaryfuse8-Contains", blockedTest(bl, members), fuseTest(fuse, members)},
			{"blocked-Test/classic-Test", blockedTest(bl, members), classicTest(cl, members)},
			{"blocked-TestAbsent/classic-TestAbsent", blockedTest(bl, absent), classicTest(cl, absent)},
			{"blocked-Add/classic-Add", blockedAdd(blAdd, members), classicAdd(clAdd, members)},
			{"classic-Test/bloomv3-Test", classicTest(cl, members), bloomTest(bv, members)},
			{"classic-TestAbsent/bloomv3-TestAbsent", classicTest(cl, absent), bloomTest(bv, absent)},
			{"shifting-Test/classic-Test", shiftingTest(sh, members), classicTest(cl, members)},
		} {
			b.Run(fmt.Sprintf("%s/%s", perkey.Name(n), pair.name), func(b *testing.B) {
				paired(b, n, pair.a, pair.b)
			})
		}
	}
}

// The sides are built by functions of their own, kept out of line: the
// compiler inlines less into the closures of a function as large as
// BenchmarkPerKeyVs (it did not inline blocked.Filter.Test there), and a
// service's loop around a filter call is a small function. There is one
// per concrete type: through a method value or a type parameter (one
// shape for every pointer) the call would be indirect again.

//go:noinline
func blockedTest(f *blocked.Filter, keys *perkey.Keys) side {
	return side{name: "blocked", run: func(lo, hi int) int {
		h := 0
		for i := lo; i < hi; i++ {
			if f.Test(keys.At(i)) {
				h++
			}
		}
		return h
	}}
}

//go:noinline
func classicTest(f *classic.Filter, keys *perkey.Keys) side {
	return side{name: "classic", run: func(lo, hi int) int {
		h := 0
		for i := lo; i < hi; i++ {
			if f.Test(keys.At(i)) {
				h++
			}
		}
		return h
	}}
}

//go:noinline
func shiftingTest(f *shifting.Filter, keys *perkey.Keys) side {
	return side{name: "shifting", run: func(lo, hi int) int {
		h := 0
		for i := lo; i < hi; i++ {
			if f.Test(keys.At(i)) {
				h++
			}
		}
		return h
	}}
}

//go:noinline
func bloomTest(f *bloom.BloomFilter, keys *perkey.Keys) side {
	return side{name: "bloomv3", run: func(lo, hi int) int {
		h := 0
		for i := lo; i < hi; i++ {
			if f.Test(keys.At(i)) {
				h++
			}
		}
		return h
	}}
}

// fuseTest hashes each key with XXH3 (engine.Hash) before Contains.
//
//go:noinline
func fuseTest(f *xorfilter.BinaryFuse8, keys *perkey.Keys) side {
	return side{name: "binaryfuse8", run: func(lo, hi int) int {
		h := 0
		for i := lo; i < hi; i++ {
			if f.Contains(engine.Hash(keys.At(i))) {
				h++
			}
		}
		return h
	}}
}

//go:noinline
func blockedAdd(f *blocked.Filter, keys *perkey.Keys) side {
	return side{name: "blocked", run: func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			f.Add(keys.At(i))
		}
		return 0
	}, reset: f.Reset}
}

// classicAdd clears its filter after each pass, as blockedAdd does: a new
// filter per pass would time its page faults on one side only.
//
//go:noinline
func classicAdd(f *classic.Filter, keys *perkey.Keys) side {
	return side{name: "classic", run: func(lo, hi int) int {
		for i := lo; i < hi; i++ {
			f.Add(keys.At(i))
		}
		return 0
	}, reset: f.Reset}
}

func must[F any](f F, err error) F {
	if err != nil {
		panic(err)
	}
	return f
}
