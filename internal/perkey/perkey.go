// Package perkey holds what the families' per-key benchmarks share: n
// distinct 8-byte keys streamed one call at a time, as a service would
// call a filter, with ns/key reported. Only _test files import it.
package perkey

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"testing"

	"github.com/filterengine/filterengine/asm"
)

// Sizes are the key counts the per-key benchmarks stream over: 1e6 keys
// at p = 1% fill about 1.2 MiB (beyond L2), 1e7 about 12 MiB.
var Sizes = []int{1_000_000, 10_000_000}

// Name is the sub-benchmark name of n, "n=1e6" or "n=1e7".
func Name(n int) string {
	switch n {
	case 1_000_000:
		return "n=1e6"
	case 10_000_000:
		return "n=1e7"
	}
	return fmt.Sprintf("n=%d", n)
}

// Keys are n distinct 8-byte keys in one array: key i is the
// little-endian bytes of Ints[i] = first + i.
type Keys struct {
	Data []byte
	Ints []uint64
}

// New returns the keys first, first+1, ..., first+n-1.
func New(first uint64, n int) *Keys {
	k := &Keys{Data: make([]byte, 8*n), Ints: make([]uint64, n)}
	for i := range n {
		k.Ints[i] = first + uint64(i)
		binary.LittleEndian.PutUint64(k.Data[8*i:], k.Ints[i])
	}
	return k
}

// Absent returns n keys disjoint from New(0, m) for any m < 2^62.
func Absent(n int) *Keys { return New(1<<62, n) }

// At returns key i, a view into Data.
func (k *Keys) At(i int) []byte { return k.Data[8*i : 8*i+8 : 8*i+8] }

// Len is the number of keys.
func (k *Keys) Len() int { return len(k.Ints) }

// Chunk is how many keys one timed step covers; the step's body is the
// caller's loop of single-key calls.
const Chunk = 4096

// Run times op over [0, n) in steps of Chunk keys, cycling, and reports
// ns/key. Before every pass after the first it calls reset, if not nil,
// with the timer stopped (an Add benchmark starts over on an empty
// filter, so no filter grows past n keys).
func Run(b *testing.B, n int, op func(lo, hi int), reset func()) {
	b.Helper()
	keys, lo := 0, 0
	for b.Loop() {
		if lo >= n {
			lo = 0
			if reset != nil {
				b.StopTimer()
				reset()
				b.StartTimer()
			}
		}
		hi := min(lo+Chunk, n)
		op(lo, hi)
		keys += hi - lo
		lo = hi
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
}

// Filter is the surface Bench times: a membership family's *Filter.
type Filter interface {
	Add(key []byte)
	Test(key []byte) bool
	TestAndAdd(key []byte) bool
	TestUint64(k uint64) bool
	TestHash(h uint64) bool
	TestHashes(hs []uint64, out []bool) int
	AddUint64s(ks []uint64)
}

// Op is one sub-benchmark: run covers keys [lo, hi); reset, if not nil,
// empties the filter run writes to (see Run).
type Op struct {
	Name  string
	Run   func(lo, hi int)
	Reset func()
}

// Bench is a family's BenchmarkPerKey: for each of Sizes it fills a
// filter from newFilter(n, 0.01) with the n keys New(0, n) and streams
// them one call per key (Add, Test, TestAbsent on Absent(n), TestAndAdd,
// TestUint64, TestHash; hashing included except in TestHash), then,
// labelled batch, TestHashes in chunks of Chunk (hashes from
// asm.HashUint64s at seed 0, the families' default). more, if not nil,
// adds the family's own ops: *g is the filter the write ops use, replaced by an empty one
// by reset. The calls go through F's generic dictionary, one indirect
// call per key, as the sides of bench/filters' PerKeyVs go through func
// values.
func Bench[F Filter](b *testing.B, newFilter func(n uint64, p float64) (F, error),
	more func(members *Keys, g *F, reset func()) []Op) {
	b.Helper()
	for _, n := range Sizes {
		members, absent := New(0, n), Absent(n)
		f, err := newFilter(uint64(n), 0.01)
		if err != nil {
			b.Fatal(err)
		}
		f.AddUint64s(members.Ints)
		hs := make([]uint64, n)
		asm.HashUint64s(hs, members.Ints, 0)
		out := make([]bool, Chunk)
		g, _ := newFilter(uint64(n), 0.01)
		reset := func() { g, _ = newFilter(uint64(n), 0.01) }
		hits := 0
		test := func(keys *Keys) func(lo, hi int) {
			return func(lo, hi int) {
				h := 0
				for i := lo; i < hi; i++ {
					if f.Test(keys.At(i)) {
						h++
					}
				}
				hits += h
			}
		}
		ops := []Op{
			{"Add", func(lo, hi int) {
				for i := lo; i < hi; i++ {
					g.Add(members.At(i))
				}
			}, reset},
			{"Test", test(members), nil},
			{"TestAbsent", test(absent), nil},
			{"TestAndAdd", func(lo, hi int) {
				h := 0
				for i := lo; i < hi; i++ {
					if g.TestAndAdd(members.At(i)) {
						h++
					}
				}
				hits += h
			}, reset},
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
		}
		if more != nil {
			ops = append(ops, more(members, &g, reset)...)
		}
		ops = append(ops, Op{"batch/TestHashes", func(lo, hi int) { hits += f.TestHashes(hs[lo:hi], out) }, nil})
		for _, op := range ops {
			b.Run(Name(n)+"/op="+op.Name, func(b *testing.B) {
				if op.Reset != nil {
					op.Reset()
				}
				Run(b, n, op.Run, op.Reset)
			})
		}
		runtime.KeepAlive(hits)
	}
}
