// Package perkey holds what the families' per-key benchmarks share: n
// distinct 8-byte keys streamed one call at a time, as a service would
// call a filter, with ns/key reported. Only _test files import it.
package perkey

import (
	"encoding/binary"
	"fmt"
	"testing"
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
