package perkey

import (
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/asm"
)

// Filter is what Table calls of a family's filter.
type Filter interface {
	Add(key []byte)
	Test(key []byte) bool
	TestAndAdd(key []byte) bool
	TestUint64(k uint64) bool
	TestHash(h uint64) bool
	AddUint64s(ks []uint64)
	AddKeys(keys [][]byte)
	TestHashes(hs []uint64, out []bool) int
}

// Table is a family's BenchmarkPerKey: for n in Sizes it streams n
// distinct 8-byte keys (hashing included) one call per key into and
// against the filters mk builds for n keys (seed 0), as a service calls
// a filter, and, labelled batch, the same keys through the batch calls in
// chunks of Chunk. The sub-benchmarks are n=<n>/op=<method>: Add,
// Test (members), TestAbsent, TestAndAdd, TestUint64, TestHash,
// batch/AddKeys and batch/TestHashes. An add starts over on a new filter
// before every pass after the first.
func Table[F Filter](b *testing.B, mk func(n uint64) (F, error)) {
	for _, n := range Sizes {
		members, absent := New(0, n), Absent(n)
		f, err := mk(uint64(n))
		if err != nil {
			b.Fatal(err)
		}
		f.AddUint64s(members.Ints)
		hs := make([]uint64, n)
		asm.HashUint64s(hs, members.Ints, 0)
		out := make([]bool, Chunk)
		keys := make([][]byte, Chunk)
		g := f
		reset := func() {
			if g, err = mk(uint64(n)); err != nil {
				b.Fatal(err)
			}
		}
		hits := 0
		count := func(lo, hi int, test func(i int) bool) {
			h := 0
			for i := lo; i < hi; i++ {
				if test(i) {
					h++
				}
			}
			hits += h
		}
		for _, op := range []struct {
			name  string
			run   func(lo, hi int)
			reset func()
		}{
			{"Add", func(lo, hi int) {
				for i := lo; i < hi; i++ {
					g.Add(members.At(i))
				}
			}, reset},
			{"Test", func(lo, hi int) { count(lo, hi, func(i int) bool { return f.Test(members.At(i)) }) }, nil},
			{"TestAbsent", func(lo, hi int) { count(lo, hi, func(i int) bool { return f.Test(absent.At(i)) }) }, nil},
			{"TestAndAdd", func(lo, hi int) { count(lo, hi, func(i int) bool { return g.TestAndAdd(members.At(i)) }) }, reset},
			{"TestUint64", func(lo, hi int) { count(lo, hi, func(i int) bool { return f.TestUint64(members.Ints[i]) }) }, nil},
			{"TestHash", func(lo, hi int) { count(lo, hi, func(i int) bool { return f.TestHash(hs[i]) }) }, nil},
			{"batch/AddKeys", func(lo, hi int) {
				for i := lo; i < hi; i++ {
					keys[i-lo] = members.At(i)
				}
				g.AddKeys(keys[:hi-lo])
			}, reset},
			{"batch/TestHashes", func(lo, hi int) { hits += f.TestHashes(hs[lo:hi], out) }, nil},
		} {
			b.Run(Name(n)+"/op="+op.name, func(b *testing.B) {
				if op.reset != nil {
					op.reset()
				}
				Run(b, n, op.run, op.reset)
			})
		}
		runtime.KeepAlive(hits)
	}
}
