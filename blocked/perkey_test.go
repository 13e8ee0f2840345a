package blocked

import (
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/asm"
	"github.com/filterengine/filterengine/internal/testkit/perkey"
)

// BenchmarkPerKey streams n distinct 8-byte keys (n = 1e6, 1e7; p = 1%;
// hashing included) one call per key, as a service calls a filter, and,
// labelled batch, the same keys through the batch calls in chunks of
// perkey.Chunk:
//
//	go test -run '^$' -bench PerKey ./blocked
//	go test -tags purego -run '^$' -bench 'PerKey/.*/op=TestHash' ./blocked
func BenchmarkPerKey(b *testing.B) {
	for _, n := range perkey.Sizes {
		members, absent := perkey.New(0, n), perkey.Absent(n)
		f, err := New(uint64(n), 0.01)
		if err != nil {
			b.Fatal(err)
		}
		f.AddUint64s(members.Ints)
		hs := make([]uint64, n)
		asm.HashUint64s(hs, members.Ints, 0)
		out := make([]bool, perkey.Chunk)
		g, _ := New(uint64(n), 0.01)
		hits := 0
		keys := make([][]byte, perkey.Chunk)
		for _, op := range []struct {
			name  string
			run   func(lo, hi int)
			reset func()
		}{
			{"Add", func(lo, hi int) {
				for i := lo; i < hi; i++ {
					g.Add(members.At(i))
				}
			}, g.Reset},
			{"Test", func(lo, hi int) {
				h := 0
				for i := lo; i < hi; i++ {
					if f.Test(members.At(i)) {
						h++
					}
				}
				hits += h
			}, nil},
			{"TestAbsent", func(lo, hi int) {
				h := 0
				for i := lo; i < hi; i++ {
					if f.Test(absent.At(i)) {
						h++
					}
				}
				hits += h
			}, nil},
			{"TestAndAdd", func(lo, hi int) {
				h := 0
				for i := lo; i < hi; i++ {
					if g.TestAndAdd(members.At(i)) {
						h++
					}
				}
				hits += h
			}, g.Reset},
			{"TestUint64", func(lo, hi int) {
				h := 0
				for _, k := range members.Ints[lo:hi] {
					if f.TestUint64(k) {
						h++
					}
				}
				hits += h
			}, nil},
			{"TestHash", func(lo, hi int) {
				h := 0
				for _, x := range hs[lo:hi] {
					if f.TestHash(x) {
						h++
					}
				}
				hits += h
			}, nil},
			{"batch/AddKeys", func(lo, hi int) {
				for i := lo; i < hi; i++ {
					keys[i-lo] = members.At(i)
				}
				g.AddKeys(keys[:hi-lo])
			}, g.Reset},
			{"batch/TestHashes", func(lo, hi int) { hits += f.TestHashes(hs[lo:hi], out) }, nil},
		} {
			b.Run(perkey.Name(n)+"/op="+op.name, func(b *testing.B) {
				if op.reset != nil {
					op.reset()
				}
				perkey.Run(b, n, op.run, op.reset)
			})
		}
		runtime.KeepAlive(hits)
	}
}
